// After a keyed init, no word of the key may be left on the dead stack below the caller or in
// the vector registers: for BLAKE2BMAC, BLAKE2BPMAC, BLAKE2SMAC and BLAKE2SPMAC, with every
// kernel this CPU runs requested in turn (for BLAKE2s and BLAKE2sp, each kernel that has their
// form: buildinfo names the kernel serving them). The module is driven through a minimal core
// (direct_module.hpp), so every frame below the probe is the module's. Before each init the region
// is filled with a pattern; right after it the probe copies the region and the registers without
// calling anything, then searches them for each 8-byte word of the key at every byte offset. A
// positive control leaves the key on the stack on purpose and must be found. Then each MAC is
// re-keyed by set_ctx_params in every state a context can be in (finished after an empty or a
// short message, right after init, after a short and a long piece of message): no word of the
// old key may stay in the live context, the message in progress still ends under its own key
// (against rfc7693.hpp), and the next init takes the new one.
//
// Under ASan with detect_stack_use_after_return, instrumented frames with arrays live on
// ASan's fake stack, not below the caller; then this test sees only what stays on the real
// stack (spills, the assembly kernel) and proves less.
// SPDX-License-Identifier: Apache-2.0
#include <cpuid.h>
#include <malloc.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "b2test/check.hpp"
#include "direct_module.hpp"
#include "registry.hpp"
#include "rfc7693.hpp"

namespace {

// Deeper than the module's wipe (kernels/scrub.cpp), which is larger in unoptimised builds.
#if defined(__OPTIMIZE__)
constexpr size_t kScanBytes = 32 * 1024;
#else
constexpr size_t kScanBytes = 256 * 1024;
#endif
constexpr size_t kKeyBytes = 64;  // the longest key (BLAKE2b's); BLAKE2s's is 32
constexpr size_t kWord = 8;
size_t g_key_bytes = kKeyBytes;  // of the MAC under test

// xmm/ymm 0-15 (32 bytes each), ymm16-31 where AVX-512VL exists.
constexpr size_t kRegisterBytes = 32 * 32;

uint8_t g_stack_copy[kScanBytes];
uint8_t g_registers[kRegisterBytes];

struct Cpu {
    bool avx = false;
    bool avx512vl = false;
};

Cpu detect() {
    Cpu cpu;
    unsigned a = 0, b = 0, c = 0, d = 0;
    __cpuid(1, a, b, c, d);
    const bool osxsave = (c & (1u << 27)) != 0;
    unsigned xcr0 = 0;
    if (osxsave) {
        unsigned high = 0;
        __asm__ volatile("xgetbv" : "=a"(xcr0), "=d"(high) : "c"(0));
    }
    cpu.avx = osxsave && (c & (1u << 28)) != 0 && (xcr0 & 6) == 6;
    if (__get_cpuid_max(0, nullptr) >= 7) {
        __cpuid_count(7, 0, a, b, c, d);
        cpu.avx512vl =
            cpu.avx && (xcr0 & 0xE0) == 0xE0 && (b & (1u << 16)) != 0 && (b & (1u << 31)) != 0;
    }
    return cpu;
}

const Cpu g_cpu = detect();

// Copies the vector registers first thing; always inlined into the probe, so nothing runs
// between the module's return and this.
__attribute__((always_inline)) inline void dump_registers() {
    uint8_t* r = g_registers;
    if (g_cpu.avx) {
        __asm__ volatile(
            "vmovdqu %%ymm0, 0(%0)\n\tvmovdqu %%ymm1, 32(%0)\n\tvmovdqu %%ymm2, 64(%0)\n\t"
            "vmovdqu %%ymm3, 96(%0)\n\tvmovdqu %%ymm4, 128(%0)\n\tvmovdqu %%ymm5, 160(%0)\n\t"
            "vmovdqu %%ymm6, 192(%0)\n\tvmovdqu %%ymm7, 224(%0)\n\tvmovdqu %%ymm8, 256(%0)\n\t"
            "vmovdqu %%ymm9, 288(%0)\n\tvmovdqu %%ymm10, 320(%0)\n\tvmovdqu %%ymm11, 352(%0)\n\t"
            "vmovdqu %%ymm12, 384(%0)\n\tvmovdqu %%ymm13, 416(%0)\n\tvmovdqu %%ymm14, 448(%0)\n\t"
            "vmovdqu %%ymm15, 480(%0)\n\t"
            :
            : "r"(r)
            : "memory");
    } else {
        __asm__ volatile(
            "movdqu %%xmm0, 0(%0)\n\tmovdqu %%xmm1, 32(%0)\n\tmovdqu %%xmm2, 64(%0)\n\t"
            "movdqu %%xmm3, 96(%0)\n\tmovdqu %%xmm4, 128(%0)\n\tmovdqu %%xmm5, 160(%0)\n\t"
            "movdqu %%xmm6, 192(%0)\n\tmovdqu %%xmm7, 224(%0)\n\tmovdqu %%xmm8, 256(%0)\n\t"
            "movdqu %%xmm9, 288(%0)\n\tmovdqu %%xmm10, 320(%0)\n\tmovdqu %%xmm11, 352(%0)\n\t"
            "movdqu %%xmm12, 384(%0)\n\tmovdqu %%xmm13, 416(%0)\n\tmovdqu %%xmm14, 448(%0)\n\t"
            "movdqu %%xmm15, 480(%0)\n\t"
            :
            : "r"(r)
            : "memory");
    }
    if (g_cpu.avx512vl) {
        __asm__ volatile(
            "vmovdqu64 %%ymm16, 512(%0)\n\tvmovdqu64 %%ymm17, 544(%0)\n\t"
            "vmovdqu64 %%ymm18, 576(%0)\n\tvmovdqu64 %%ymm19, 608(%0)\n\t"
            "vmovdqu64 %%ymm20, 640(%0)\n\tvmovdqu64 %%ymm21, 672(%0)\n\t"
            "vmovdqu64 %%ymm22, 704(%0)\n\tvmovdqu64 %%ymm23, 736(%0)\n\t"
            "vmovdqu64 %%ymm24, 768(%0)\n\tvmovdqu64 %%ymm25, 800(%0)\n\t"
            "vmovdqu64 %%ymm26, 832(%0)\n\tvmovdqu64 %%ymm27, 864(%0)\n\t"
            "vmovdqu64 %%ymm28, 896(%0)\n\tvmovdqu64 %%ymm29, 928(%0)\n\t"
            "vmovdqu64 %%ymm30, 960(%0)\n\tvmovdqu64 %%ymm31, 992(%0)\n\t"
            :
            : "r"(r)
            : "memory");
    }
}

// The dead stack below the current frame, byte by byte through a volatile pointer (no call,
// so no frame of ours lands in the region first).
__attribute__((always_inline, no_sanitize("address"))) inline void copy_dead_stack() {
    uintptr_t sp = 0;
    __asm__ volatile("mov %%rsp, %0" : "=r"(sp));
    const volatile uint8_t* below = reinterpret_cast<const volatile uint8_t*>(sp - kScanBytes);
    for (size_t i = 0; i < kScanBytes; ++i) {
        g_stack_copy[i] = below[i];
    }
}

// Fills the region the module's frames will occupy with a pattern that is no key word.
__attribute__((noinline, no_sanitize("address"))) void fill_dead_stack() {
    volatile uint8_t area[kScanBytes + 1024];
    for (size_t i = 0; i < sizeof area; ++i) {
        area[i] = 0x5A;
    }
}

using Init = int (*)(void* ctx, const uint8_t* key, size_t length);

__attribute__((noinline)) int probe(Init init, void* ctx, const uint8_t* key) {
    const int rc = init(ctx, key, g_key_bytes);
    dump_registers();
    copy_dead_stack();
    return rc;
}

// The positive control: leaves the key in its frame, then returns. Not instrumented, so under
// ASan too the array is on the real stack.
__attribute__((noinline, no_sanitize("address"))) int leave_key_on_stack(void*, const uint8_t* key,
                                                                         size_t length) {
    volatile uint8_t copy[kKeyBytes];
    for (size_t i = 0; i < length && i < kKeyBytes; ++i) {
        copy[i] = key[i];
    }
    return copy[0] == key[0] ? 1 : 0;
}

struct Findings {
    size_t stack_words = 0;
    size_t deepest = 0;  // bytes below the probe's stack pointer
    size_t register_words = 0;
};

Findings search(const uint8_t* key) {
    Findings found;
    for (size_t w = 0; w + kWord <= g_key_bytes; w += kWord) {
        for (size_t at = 0; at + kWord <= kScanBytes; ++at) {
            if (std::memcmp(g_stack_copy + at, key + w, kWord) == 0) {
                ++found.stack_words;
                const size_t depth = kScanBytes - at;
                found.deepest = depth > found.deepest ? depth : found.deepest;
            }
        }
        for (size_t at = 0; at + kWord <= kRegisterBytes; ++at) {
            if (std::memcmp(g_registers + at, key + w, kWord) == 0) {
                ++found.register_words;
            }
        }
    }
    return found;
}

// One probe with the stack `shift` bytes lower than the caller's (a multiple of 16).
__attribute__((noinline)) Findings probe_shifted(size_t shift, Init init, void* ctx,
                                                 const uint8_t* key) {
    if (shift > 0) {
        volatile uint8_t* gap = static_cast<uint8_t*>(__builtin_alloca(shift));
        gap[0] = 0;
    }
    std::memset(g_registers, 0, sizeof g_registers);
    fill_dead_stack();
    probe(init, ctx, key);
    return search(key);
}

// The SIMD kernels align their frames to 32 or 64 bytes, so which of their slots meet a slot
// the scrub leaves unwritten depends on the stack pointer modulo 64 (that is, on the size of
// the environment): one probe at each 16-byte step of it, the findings added up.
Findings run_probe(Init init, void* ctx, const uint8_t* key) {
    Findings total;
    for (size_t shift = 0; shift < 64; shift += 16) {
        const Findings found = probe_shifted(shift, init, ctx, key);
        total.stack_words += found.stack_words;
        total.deepest = found.deepest > total.deepest ? found.deepest : total.deepest;
        total.register_words += found.register_words;
    }
    return total;
}

// The MAC's init through its dispatch entry, adapted to the probe's signature.
direct_module::MacFns g_mac;
int mac_init(void* ctx, const uint8_t* key, size_t length) {
    return g_mac.init(ctx, key, length, nullptr);
}

std::vector<uint8_t> distinctive_key() {
    std::vector<uint8_t> key(kKeyBytes);
    uint64_t x = 0x9E3779B97F4A7C15ULL;
    for (uint8_t& byte : key) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        byte = static_cast<uint8_t>(x >> 56);
    }
    return key;
}

// One MAC under test: its key length and the buildinfo label of the kernel serving it.
struct Mac {
    const char* name;
    size_t key_bytes;
    const char* label;
};
constexpr Mac kMacs[] = {
    {"BLAKE2BMAC", 64, "kernel"},
    {"BLAKE2BPMAC", 64, "blake2bp"},
    {"BLAKE2SMAC", 32, "blake2s"},
    {"BLAKE2SPMAC", 32, "blake2sp"},
};

// The kernel buildinfo names after "; <label> " (or at its "kernel " for BLAKE2b).
std::string served_by(const std::string& buildinfo, const char* label) {
    const std::string tag = std::string(label) + " ";
    const size_t at = buildinfo.find(tag);
    if (at == std::string::npos) {
        return "";
    }
    const size_t start = at + tag.size();
    return buildinfo.substr(start, buildinfo.find(' ', start) - start);
}

// --- Re-keying by set_ctx_params (issue 23.7): the message in progress keeps the key it began
// with, but once the key is replaced no word of the old one may stay in the live context.

using Bytes = std::vector<uint8_t>;

// Key words of `key` (length g_key_bytes) anywhere in the live context block.
size_t key_words_in(const void* ctx, const uint8_t* key) {
    const auto* bytes = static_cast<const uint8_t*>(ctx);
    const size_t size = malloc_usable_size(const_cast<void*>(ctx));
    size_t found = 0;
    for (size_t w = 0; w + kWord <= g_key_bytes; w += kWord) {
        for (size_t at = 0; at + kWord <= size; ++at) {
            found += std::memcmp(bytes + at, key + w, kWord) == 0 ? 1 : 0;
        }
    }
    return found;
}

// The MAC of `message` under `key` from rfc7693.hpp, for the MAC named.
Bytes expected_mac(const char* mac, const Bytes& key, const Bytes& message) {
    const std::string name = mac;
    if (name == "BLAKE2BMAC") {
        rfc7693::Options options;
        options.key = key.data();
        options.key_len = key.size();
        return rfc7693::hash(options, message.data(), message.size());
    }
    if (name == "BLAKE2SMAC") {
        rfc7693::blake2s::Options options;
        options.key = key.data();
        options.key_len = key.size();
        return rfc7693::blake2s::hash(options, message.data(), message.size());
    }
    return name == "BLAKE2BPMAC"
               ? rfc7693::blake2bp(key.data(), key.size(), message.data(), message.size())
               : rfc7693::blake2sp(key.data(), key.size(), message.data(), message.size());
}

Bytes mac_final(void* ctx) {
    Bytes out(64);
    size_t length = 0;
    const bool ok = g_mac.final(ctx, out.data(), &length, out.size()) == 1;
    out.resize(ok ? length : 0);
    return out;
}

bool set_key(void* ctx, const Bytes& key) {
    OSSL_PARAM params[] = {
        OSSL_PARAM_construct_octet_string("key", const_cast<uint8_t*>(key.data()), key.size()),
        OSSL_PARAM_construct_end()};
    return g_mac.set_ctx_params(ctx, params) == 1;
}

// The states a re-key may meet the context in: the message so far, and whether it was finished.
struct RekeyState {
    const char* what;
    size_t message_bytes;
    bool finished;
};
constexpr RekeyState kRekeyStates[] = {
    {"after an empty-message final", 0, true},
    {"right after init", 0, false},
    {"after 10 bytes", 10, false},
    {"after 1000 bytes", 1000, false},
    {"after a 10-byte final", 10, true},
};

// Re-keys in `state`: no word of the old key is left in the context (the new one is there,
// the control); an unfinished message still ends under the old key; the next init takes the
// new one.
void check_rekey(b2test::Report& report, void* provctx, const char* kernel, const char* mac,
                 const RekeyState& state) {
    Bytes old_key = distinctive_key();
    old_key.resize(g_key_bytes);
    Bytes new_key = old_key;
    for (uint8_t& byte : new_key) {
        byte ^= 0x3C;
    }
    Bytes message(state.message_bytes);
    for (size_t i = 0; i < message.size(); ++i) {
        message[i] = static_cast<uint8_t>(i * 13 + 1);
    }
    const std::string where = std::string(kernel) + " " + mac + " re-keyed " + state.what;
    void* ctx = g_mac.newctx(provctx);
    B2_REQUIRE(ctx != nullptr && g_mac.init(ctx, old_key.data(), old_key.size(), nullptr) == 1 &&
                   g_mac.update(ctx, message.data(), message.size()) == 1,
               where + ": init and update");
    report.check(key_words_in(ctx, old_key.data()) > 0, where + ": control: key before re-key");
    const Bytes finished = state.finished ? mac_final(ctx) : Bytes{};
    B2_REQUIRE(set_key(ctx, new_key), where + ": set_ctx_params key");
    const size_t left = key_words_in(ctx, old_key.data());
    std::printf("%s %s: %zu words of the old key in the live context\n",
                left == 0 ? "ok  " : "FAIL", where.c_str(), left);
    report.check(left == 0, where + ": old key words left in the live context");
    report.check(key_words_in(ctx, new_key.data()) > 0, where + ": control: new key stored");
    const Bytes old_tag = state.finished ? finished : mac_final(ctx);
    report.check(old_tag == expected_mac(mac, old_key, message),
                 where + ": the message in progress ends under its own key");
    report.check(g_mac.init(ctx, nullptr, 0, nullptr) == 1 &&
                     g_mac.update(ctx, message.data(), message.size()) == 1 &&
                     mac_final(ctx) == expected_mac(mac, new_key, message),
                 where + ": the next init takes the new key");
    g_mac.freectx(ctx);
}

}  // namespace

int main() {
    const std::vector<uint8_t> key = distinctive_key();
    b2test::Report report("test_key_scrub", std::numeric_limits<int>::max());

    const Findings control = run_probe(&leave_key_on_stack, nullptr, key.data());
    report.check(control.stack_words >= kKeyBytes / kWord,
                 "positive control: only " + std::to_string(control.stack_words) +
                     " key words found where the whole key was left on the stack");

    int served = 0;
    for (const blake2simd::registry::KernelRow& row : blake2simd::registry::kKernelRows) {
        const char* kernel = row.name;
        direct_module::Instance instance;
        if (!instance.open(kernel)) {
            std::printf("FAIL: provider instance for %s\n", kernel);
            return 1;
        }
        if (instance.param("kernel") != kernel) {
            std::printf("skip %-6s: not served on this CPU/build\n", kernel);
            instance.close();
            continue;
        }
        ++served;
        const std::string buildinfo = instance.param("buildinfo");
        for (const Mac& entry : kMacs) {
            const char* mac = entry.name;
            if (served_by(buildinfo, entry.label) != kernel) {
                std::printf("skip %-6s %-11s: served by '%s' (no form of its own)\n", kernel, mac,
                            served_by(buildinfo, entry.label).c_str());
                continue;
            }
            g_key_bytes = entry.key_bytes;
            g_mac = instance.mac(mac);
            void* ctx = g_mac.newctx != nullptr ? g_mac.newctx(instance.provctx()) : nullptr;
            if (ctx == nullptr) {
                std::printf("FAIL: %s newctx\n", mac);
                return 1;
            }
            // Twice: the first init may also run first-use work deeper in the stack.
            run_probe(&mac_init, ctx, key.data());
            const Findings found = run_probe(&mac_init, ctx, key.data());
            const bool clean = found.stack_words == 0 && found.register_words == 0;
            std::printf(
                "%s %-6s %-11s: %zu key words on the dead stack (deepest %zu bytes "
                "below the caller), %zu in vector registers\n",
                clean ? "ok  " : "FAIL", kernel, mac, found.stack_words, found.deepest,
                found.register_words);
            report.check(clean, std::string(kernel) + " " + mac + ": key words left behind");
            g_mac.freectx(ctx);
            for (const RekeyState& state : kRekeyStates) {
                check_rekey(report, instance.provctx(), kernel, mac, state);
            }
        }
        instance.close();
    }
    std::printf("test_key_scrub: %d kernels served (control found %zu)\n", served,
                control.stack_words);
    report.check(served > 0, "no kernel served");
    return report.finish();
}
