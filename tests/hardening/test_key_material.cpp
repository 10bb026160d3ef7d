// Key material must not outlive its context: with libcrypto's allocator hooked before
// anything else runs, every block freed through OPENSSL_free/OPENSSL_clear_free (the module's
// contexts included) is scanned for any 8-byte window of the key and of the keyed chaining
// value, across free after final, free mid-stream, re-key then free, dup then free both; for
// BLAKE2BMAC, BLAKE2BPMAC, BLAKE2SMAC and BLAKE2SPMAC. ARGON2ID likewise for its copies of pass
// and secret (freed with the context, on re-set, reset, dup, a refused derive, and inside derive
// with early_clean), and every mapping of block memory must be all zero when it is unmapped.
// SPDX-License-Identifier: Apache-2.0
#include <dlfcn.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/params.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "b2test.hpp"
#include "rfc7693.hpp"

namespace {

// --- Allocation tracking (fixed tables: the hooks must not allocate through OpenSSL).

struct Block {
    void* pointer;
    size_t size;
};
constexpr size_t kSlots = size_t{1} << 16;
Block g_live[kSlots];

constexpr size_t kMaxNeedles = 24;
constexpr size_t kNeedleBytes = 64;  // the longest: BLAKE2b's key and chaining value
constexpr size_t kWindow = 8;
uint8_t g_needles[kMaxNeedles][kNeedleBytes];
size_t g_needle_lengths[kMaxNeedles];
size_t g_needle_count = 0;

struct AllocationScan {
    long frees_scanned = 0;
    long leaks = 0;
    long context_sized_frees = 0;
    size_t context_size = 0;     // the module's MAC context size, once known
    bool recording_new = false;  // inside EVP_MAC_CTX_new: remember the largest block
    size_t largest_new = 0;
};
AllocationScan g_scan;

size_t slot_of(const void* pointer) {
    return (reinterpret_cast<uintptr_t>(pointer) >> 4) * 0x9E3779B97F4A7C15ULL >> 48;
}

void remember(void* pointer, size_t size) {
    if (pointer == nullptr) {
        return;
    }
    for (size_t i = slot_of(pointer), n = 0; n < kSlots; i = (i + 1) % kSlots, ++n) {
        if (g_live[i].pointer == nullptr) {
            g_live[i] = {pointer, size};
            return;
        }
    }
    std::fprintf(stderr, "FATAL: allocation table full\n");
    std::abort();
}

size_t forget(void* pointer) {
    for (size_t i = slot_of(pointer), n = 0; n < kSlots; i = (i + 1) % kSlots, ++n) {
        if (g_live[i].pointer == pointer) {
            const size_t size = g_live[i].size;
            // Backward-shift deletion keeps the probe chains intact.
            size_t hole = i;
            for (size_t j = (i + 1) % kSlots; g_live[j].pointer != nullptr; j = (j + 1) % kSlots) {
                const size_t home = slot_of(g_live[j].pointer);
                const bool movable =
                    (j > hole) ? (home <= hole || home > j) : (home <= hole && home > j);
                if (movable) {
                    g_live[hole] = g_live[j];
                    hole = j;
                }
            }
            g_live[hole] = {nullptr, 0};
            return size;
        }
    }
    return 0;
}

bool holds_secret(const uint8_t* bytes, size_t size) {
    for (size_t n = 0; n < g_needle_count; ++n) {
        for (size_t w = 0; w + kWindow <= g_needle_lengths[n]; ++w) {
            const uint8_t* window = g_needles[n] + w;
            for (size_t at = 0; at + kWindow <= size; ++at) {
                if (bytes[at] == window[0] && std::memcmp(bytes + at, window, kWindow) == 0) {
                    return true;
                }
            }
        }
    }
    return false;
}

void* hooked_malloc(size_t size, const char*, int) {
    void* pointer = std::malloc(size);
    remember(pointer, size);
    if (g_scan.recording_new && size > g_scan.largest_new) {
        g_scan.largest_new = size;
    }
    return pointer;
}

void scan_before_release(void* pointer) {
    const size_t size = forget(pointer);
    ++g_scan.frees_scanned;
    if (g_scan.context_size != 0 && size == g_scan.context_size) {
        ++g_scan.context_sized_frees;
    }
    if (holds_secret(static_cast<const uint8_t*>(pointer), size)) {
        ++g_scan.leaks;
        std::fprintf(stderr, "LEAK: a freed block of %zu bytes holds key material\n", size);
    }
}

void* hooked_realloc(void* pointer, size_t size, const char*, int) {
    if (pointer != nullptr) {
        scan_before_release(pointer);
    }
    void* moved = std::realloc(pointer, size);
    remember(moved, size);
    return moved;
}

void hooked_free(void* pointer, const char*, int) {
    if (pointer != nullptr) {
        scan_before_release(pointer);
    }
    std::free(pointer);
}

// True if some live block of the context size holds `needle` (the positive control: the
// scan would see the secret if the module left it behind).
bool live_context_holds(const std::vector<uint8_t>& needle) {
    for (const Block& block : g_live) {
        if (block.pointer != nullptr && block.size == g_scan.context_size) {
            const auto* bytes = static_cast<const uint8_t*>(block.pointer);
            for (size_t at = 0; at + needle.size() <= block.size; ++at) {
                if (std::memcmp(bytes + at, needle.data(), needle.size()) == 0) {
                    return true;
                }
            }
        }
    }
    return false;
}

// --- The secrets.

using Bytes = std::vector<uint8_t>;

Bytes distinctive_key(uint8_t seed, size_t length) {
    Bytes key(length);
    uint32_t x = 0x9E3779B9u * (seed + 1u);
    for (uint8_t& byte : key) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        byte = static_cast<uint8_t>(x >> 24);
    }
    return key;
}

// One MAC under test: its name, its key length, and whether it is BLAKE2s-based or a tree.
struct Variant {
    const char* name;
    size_t key_bytes;  // the longest key, which is also the chaining value's size
    bool blake2s;
    bool tree;
};
constexpr Variant kVariants[] = {
    {"BLAKE2BMAC", 64, false, false},
    {"BLAKE2BPMAC", 64, false, true},
    {"BLAKE2SMAC", 32, true, false},
    {"BLAKE2SPMAC", 32, true, true},
};

// As the module holds it: eight words in this CPU's byte order (big-endian on s390x).
template <class State>
Bytes words_of(const State& state) {
    Bytes h(sizeof state.h);
    std::memcpy(h.data(), state.h, sizeof state.h);
    return h;
}

// The MAC's parameters, or (tree) those of the tree's first leaf: `fanout` leaves, depth 2,
// node 0, inner length the chaining value's size.
template <class Options>
Options keyed_options(const Variant& variant, const Bytes& key, uint8_t fanout) {
    Options o;
    o.key = key.data();
    o.key_len = key.size();
    if (variant.tree) {
        o.fanout = fanout;
        o.depth = 2;
        o.inner_length = static_cast<uint8_t>(variant.key_bytes);
    }
    return o;
}

// The MAC's keyed state, or that of the tree's first leaf (BLAKE2bp: 4 leaves, BLAKE2sp: 8).
Bytes keyed_chaining_value(const Variant& variant, const Bytes& key) {
    if (variant.blake2s) {
        return words_of(rfc7693::blake2s::keyed_state(
            keyed_options<rfc7693::blake2s::Options>(variant, key, 8)));
    }
    return words_of(rfc7693::keyed_state(keyed_options<rfc7693::Options>(variant, key, 4)));
}

void add_needle(const Bytes& bytes) {
    B2_REQUIRE(
        g_needle_count < kMaxNeedles && bytes.size() <= kNeedleBytes && bytes.size() >= kWindow,
        "needle table");
    std::memcpy(g_needles[g_needle_count], bytes.data(), bytes.size());
    g_needle_lengths[g_needle_count++] = bytes.size();
}

// --- Scenarios.

EVP_MAC_CTX* new_ctx(EVP_MAC* mac) {
    g_scan.recording_new = true;
    g_scan.largest_new = 0;
    EVP_MAC_CTX* ctx = EVP_MAC_CTX_new(mac);
    g_scan.recording_new = false;
    return ctx;
}

// Two keys and the keyed states they give: what no freed block may hold.
struct Secrets {
    Bytes key_a;
    Bytes key_b;
    Bytes state_a;
    Bytes state_b;
};

Secrets make_secrets(const Variant& variant, uint8_t seed) {
    Secrets s{distinctive_key(seed + 1, variant.key_bytes),
              distinctive_key(seed + 2, variant.key_bytes),
              {},
              {}};
    s.state_a = keyed_chaining_value(variant, s.key_a);
    s.state_b = keyed_chaining_value(variant, s.key_b);
    return s;
}

// Learns the module's context size from a context that never sees a secret.
void learn_context_size(b2test::Report& report, EVP_MAC* mac, const Variant& variant) {
    EVP_MAC_CTX* probe = new_ctx(mac);
    g_scan.context_size = g_scan.largest_new;
    EVP_MAC_CTX_free(probe);
    B2_CHECK(report, g_scan.context_size >= 3 * variant.key_bytes,
             "the module's MAC context (" + std::to_string(g_scan.context_size) +
                 " bytes) is allocated through OpenSSL and big enough for key and state");
}

// The ways a keyed context ends: freed after final, mid-stream, after a re-key, as a dup (and
// its original), holding a key set as a parameter and never used.
void free_after_final(b2test::Report& report, EVP_MAC* mac, const Variant& variant,
                      const Secrets& s, const Bytes& message) {
    unsigned char out[64];
    size_t length = 0;
    EVP_MAC_CTX* ctx = new_ctx(mac);
    EVP_MAC_init(ctx, s.key_a.data(), s.key_a.size(), nullptr);
    // Right after init: a tree's leaves move on with the message (BLAKE2b caches its state).
    B2_CHECK(
        report, live_context_holds(s.state_a),
        std::string(variant.name) + ": positive control: keyed chaining value in the live context");
    EVP_MAC_update(ctx, message.data(), message.size());
    B2_CHECK(report, live_context_holds(s.key_a),
             std::string(variant.name) + ": positive control: key in the live context");
    B2_CHECK(report, EVP_MAC_final(ctx, out, &length, sizeof out) == 1, "final");
    EVP_MAC_CTX_free(ctx);
}

void free_mid_stream(EVP_MAC* mac, const Secrets& s, const Bytes& message) {
    EVP_MAC_CTX* ctx = new_ctx(mac);
    EVP_MAC_init(ctx, s.key_a.data(), s.key_a.size(), nullptr);
    EVP_MAC_update(ctx, message.data(), 300);
    EVP_MAC_CTX_free(ctx);
}

void free_after_rekey(b2test::Report& report, EVP_MAC* mac, const Variant& variant,
                      const Secrets& s, const Bytes& message) {
    EVP_MAC_CTX* ctx = new_ctx(mac);
    EVP_MAC_init(ctx, s.key_a.data(), s.key_a.size(), nullptr);
    EVP_MAC_update(ctx, message.data(), 10);
    EVP_MAC_init(ctx, s.key_b.data(), s.key_b.size(), nullptr);
    B2_CHECK(report, live_context_holds(s.state_b),
             std::string(variant.name) + ": re-keyed context holds the new state");
    EVP_MAC_update(ctx, message.data(), 500);
    B2_CHECK(report, !live_context_holds(s.state_a),
             std::string(variant.name) + ": re-keying wiped the old state");
    EVP_MAC_CTX_free(ctx);
}

// Mid-stream and right after init.
void free_dups(b2test::Report& report, EVP_MAC* mac, const Secrets& s, const Bytes& message) {
    unsigned char out[64];
    size_t length = 0;
    for (const size_t prefix : {size_t{0}, size_t{700}}) {
        EVP_MAC_CTX* ctx = new_ctx(mac);
        EVP_MAC_init(ctx, s.key_b.data(), s.key_b.size(), nullptr);
        EVP_MAC_update(ctx, message.data(), prefix);
        EVP_MAC_CTX* copy = EVP_MAC_CTX_dup(ctx);
        B2_CHECK(report, copy != nullptr, "dup");
        EVP_MAC_CTX_free(ctx);
        EVP_MAC_final(copy, out, &length, sizeof out);
        EVP_MAC_CTX_free(copy);
    }
}

void free_unused_key_param(EVP_MAC* mac, const Secrets& s) {
    EVP_MAC_CTX* ctx = new_ctx(mac);
    OSSL_PARAM params[] = {OSSL_PARAM_construct_octet_string(
                               "key", const_cast<uint8_t*>(s.key_a.data()), s.key_a.size()),
                           OSSL_PARAM_construct_end()};
    EVP_MAC_CTX_set_params(ctx, params);
    EVP_MAC_CTX_free(ctx);
}

void run(b2test::Report& report, EVP_MAC* mac, const Variant& variant, uint8_t seed) {
    Secrets s = make_secrets(variant, seed);
    const Bytes message(1000, 0x42);
    learn_context_size(report, mac, variant);
    for (const Bytes* secret : {&s.key_a, &s.key_b, &s.state_a, &s.state_b}) {
        add_needle(*secret);
    }
    const long frees_before = g_scan.context_sized_frees;
    free_after_final(report, mac, variant, s, message);
    free_mid_stream(mac, s, message);
    free_after_rekey(report, mac, variant, s, message);
    free_dups(report, mac, s, message);
    free_unused_key_param(mac, s);

    const long module_frees = g_scan.context_sized_frees - frees_before;
    B2_CHECK(report, module_frees >= 7,
             "the module's context blocks were seen freed: " + std::to_string(module_frees));
    B2_CHECK(report, g_scan.leaks == 0,
             std::to_string(g_scan.leaks) + " freed blocks held key material");
    std::printf(
        "key material, %s: %ld frees scanned, %ld module MAC contexts (%zu bytes) freed, "
        "%ld leaks\n",
        variant.name, g_scan.frees_scanned, module_frees, g_scan.context_size, g_scan.leaks);
    // The test's own copies go back to the C library unhooked, and libcrypto may get the same
    // chunks next and free them with stale bytes in their unused part (seen: a 32-byte stack
    // array in a later EVP_MAC_fetch): wiped, they cannot be taken for the module's leak.
    for (Bytes* secret : {&s.key_a, &s.key_b, &s.state_a, &s.state_b}) {
        OPENSSL_cleanse(secret->data(), secret->size());
    }
}

// --- Argon2: the copies of pass and secret (core memory, scanned at free as above) and the
// block memory, which the module maps with mmap: this munmap, which the module's calls reach
// before libc's (the executable exports it: tests/hardening.cmake), checks while armed that
// every mapping released is all zero.

struct UnmapScan {
    bool armed = false;
    bool quiet = false;  // the positive control's mapping
    long unmapped = 0;
    long dirty = 0;              // mappings released holding a non-zero byte
    size_t smallest = SIZE_MAX;  // the smallest mapping released while armed
};
UnmapScan g_unmaps;
using MunmapFn = int (*)(void*, size_t);
MunmapFn g_next_munmap = nullptr;  // libc's (or a sanitizer's), found first thing in main

bool all_zero(const uint8_t* bytes, size_t size) {
    for (size_t i = 0; i < size; ++i) {
        if (bytes[i] != 0) {
            return false;
        }
    }
    return true;
}

// True if some live block of any size holds an 8-byte window of `needle`.
bool live_block_holds(const Bytes& needle) {
    for (const Block& block : g_live) {
        const auto* bytes = static_cast<const uint8_t*>(block.pointer);
        for (size_t w = 0; bytes != nullptr && w + kWindow <= needle.size(); ++w) {
            for (size_t at = 0; at + kWindow <= block.size; ++at) {
                if (bytes[at] == needle[w] &&
                    std::memcmp(bytes + at, needle.data() + w, kWindow) == 0) {
                    return true;
                }
            }
        }
    }
    return false;
}

}  // namespace

extern "C" int munmap(void* address, size_t length) noexcept {
    if (g_unmaps.armed) {
        ++g_unmaps.unmapped;
        g_unmaps.smallest = std::min(g_unmaps.smallest, length);
        if (!all_zero(static_cast<const uint8_t*>(address), length)) {
            ++g_unmaps.dirty;
            if (!g_unmaps.quiet) {
                std::fprintf(stderr, "LEAK: a mapping of %zu bytes released unwiped\n", length);
            }
        }
    }
    return g_next_munmap != nullptr ? g_next_munmap(address, length)
                                    : static_cast<int>(syscall(SYS_munmap, address, length));
}

namespace {

// Two passwords and secrets of lengths nothing else here has.
struct Argon2Secrets {
    Bytes pass_a = distinctive_key(101, 47);
    Bytes pass_b = distinctive_key(102, 47);
    Bytes secret_a = distinctive_key(103, 41);
    Bytes secret_b = distinctive_key(104, 41);
};

class Argon2Run {
  public:
    Argon2Run(b2test::Report& report, EVP_KDF* kdf) : m_report(report), m_kdf(kdf) {}

    EVP_KDF_CTX* with_inputs(const Bytes& pass, const Bytes& secret, uint32_t early_clean = 0) {
        EVP_KDF_CTX* ctx = EVP_KDF_CTX_new(m_kdf);
        set_inputs(ctx, pass, secret, early_clean);
        return ctx;
    }
    void set_inputs(EVP_KDF_CTX* ctx, const Bytes& pass, const Bytes& secret,
                    uint32_t early_clean = 0) {
        Bytes salt(16, 0x5a);
        uint32_t memcost = 64;
        uint32_t lanes = 2;
        OSSL_PARAM params[] = {OSSL_PARAM_construct_octet_string(
                                   "pass", const_cast<uint8_t*>(pass.data()), pass.size()),
                               OSSL_PARAM_construct_octet_string(
                                   "secret", const_cast<uint8_t*>(secret.data()), secret.size()),
                               OSSL_PARAM_construct_octet_string("salt", salt.data(), salt.size()),
                               OSSL_PARAM_construct_uint32("memcost", &memcost),
                               OSSL_PARAM_construct_uint32("lanes", &lanes),
                               OSSL_PARAM_construct_uint32("early_clean", &early_clean),
                               OSSL_PARAM_construct_end()};
        B2_CHECK(m_report, EVP_KDF_CTX_set_params(ctx, params) == 1, "Argon2 set_params");
    }
    // Under the munmap check.
    void derive(EVP_KDF_CTX* ctx) {
        unsigned char out[32];
        g_unmaps.armed = true;
        B2_CHECK(m_report, EVP_KDF_derive(ctx, out, sizeof out, nullptr) == 1, "Argon2 derive");
        g_unmaps.armed = false;
        ++m_derives;
    }
    long derives() const { return m_derives; }

  private:
    b2test::Report& m_report;
    EVP_KDF* m_kdf;
    long m_derives = 0;
};

// Positive controls: the copies are found in live blocks while the context holds them.
void argon2_free_after_derive(b2test::Report& report, Argon2Run& run, const Argon2Secrets& s) {
    EVP_KDF_CTX* ctx = run.with_inputs(s.pass_a, s.secret_a);
    B2_CHECK(report, live_block_holds(s.pass_a) && live_block_holds(s.secret_a),
             "Argon2: positive control: pass and secret in live blocks after set_params");
    run.derive(ctx);
    B2_CHECK(report, live_block_holds(s.pass_a) && live_block_holds(s.secret_a),
             "Argon2: without early_clean the context keeps pass and secret");
    EVP_KDF_CTX_free(ctx);
    B2_CHECK(report, !live_block_holds(s.pass_a), "Argon2: freed with its context");
}

// Re-set (the old copies freed), reset, never derived, a dup, a derive refused after it copied.
void argon2_other_ends(b2test::Report& report, Argon2Run& run, const Argon2Secrets& s) {
    EVP_KDF_CTX* ctx = run.with_inputs(s.pass_a, s.secret_a);
    run.set_inputs(ctx, s.pass_b, s.secret_b);
    B2_CHECK(report, !live_block_holds(s.pass_a) && !live_block_holds(s.secret_a),
             "Argon2: a new pass and secret free the old copies");
    run.derive(ctx);
    EVP_KDF_CTX_reset(ctx);
    B2_CHECK(report, !live_block_holds(s.pass_b), "Argon2: reset frees the inputs");
    EVP_KDF_CTX_free(ctx);

    EVP_KDF_CTX_free(run.with_inputs(s.pass_a, s.secret_a));

    EVP_KDF_CTX* original = run.with_inputs(s.pass_b, s.secret_b);
    EVP_KDF_CTX* copy = EVP_KDF_CTX_dup(original);
    B2_CHECK(report, copy != nullptr, "Argon2 dup");
    EVP_KDF_CTX_free(original);
    run.derive(copy);
    EVP_KDF_CTX_free(copy);

    EVP_KDF_CTX* refused = run.with_inputs(s.pass_a, s.secret_a);
    unsigned char out[3];
    B2_CHECK(report, EVP_KDF_derive(refused, out, sizeof out, nullptr) == 0,
             "Argon2: a 3-byte derive is refused");
    EVP_KDF_CTX_free(refused);
}

// early_clean: the copies are freed (and so scanned) inside derive, as soon as H0 holds them.
void argon2_early_clean(b2test::Report& report, Argon2Run& run, const Argon2Secrets& s) {
    EVP_KDF_CTX* ctx = run.with_inputs(s.pass_b, s.secret_b, 1);
    const long frees_before = g_scan.frees_scanned;
    run.derive(ctx);
    B2_CHECK(report, g_scan.frees_scanned >= frees_before + 2,
             "Argon2 early_clean: the copies were freed during derive");
    B2_CHECK(report, !live_block_holds(s.pass_b) && !live_block_holds(s.secret_b),
             "Argon2 early_clean: no live block holds pass or secret after derive");
    EVP_KDF_CTX_free(ctx);
}

// The munmap check itself: a mapping released with a byte set is seen.
void check_unmap_control(b2test::Report& report) {
    const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    void* mapping = mmap(nullptr, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    B2_REQUIRE(mapping != MAP_FAILED, "mmap");
    static_cast<uint8_t*>(mapping)[page - 1] = 1;
    g_unmaps.armed = g_unmaps.quiet = true;
    munmap(mapping, page);
    g_unmaps.armed = g_unmaps.quiet = false;
    B2_CHECK(report, g_unmaps.dirty == 1, "positive control: an unwiped mapping is seen");
    g_unmaps = UnmapScan{};
}

void run_argon2(b2test::Report& report, b2test::ProviderSession& session) {
    check_unmap_control(report);
    b2test::KdfPtr kdf(EVP_KDF_fetch(session.libctx(), "ARGON2ID", b2test::kOurPropq));
    B2_REQUIRE(kdf != nullptr, "fetch ARGON2ID from blake2simd");
    Argon2Secrets s;
    for (const Bytes* secret : {&s.pass_a, &s.pass_b, &s.secret_a, &s.secret_b}) {
        add_needle(*secret);
    }
    const long leaks_before = g_scan.leaks;
    Argon2Run run(report, kdf.get());
    argon2_free_after_derive(report, run, s);
    argon2_other_ends(report, run, s);
    argon2_early_clean(report, run, s);
    B2_CHECK(report, g_scan.leaks == leaks_before,
             std::to_string(g_scan.leaks - leaks_before) + " freed blocks held pass or secret");
    B2_CHECK(report, g_unmaps.unmapped == run.derives() && g_unmaps.smallest >= 64 * 1024,
             "the block memory of each derive was seen released: " +
                 std::to_string(g_unmaps.unmapped) + " of " + std::to_string(run.derives()));
    B2_CHECK(report, g_unmaps.dirty == 0,
             std::to_string(g_unmaps.dirty) + " block mappings released unwiped");
    std::printf(
        "key material, ARGON2ID: %ld derives, %ld block mappings released (unwiped: %ld), "
        "%ld leaks\n",
        run.derives(), g_unmaps.unmapped, g_unmaps.dirty, g_scan.leaks - leaks_before);
    for (Bytes* secret : {&s.pass_a, &s.pass_b, &s.secret_a, &s.secret_b}) {
        OPENSSL_cleanse(secret->data(), secret->size());
    }
}

}  // namespace

int main() {
    if (CRYPTO_set_mem_functions(hooked_malloc, hooked_realloc, hooked_free) != 1) {
        std::fprintf(stderr, "FATAL: CRYPTO_set_mem_functions refused (allocations happened)\n");
        return 1;
    }
    g_next_munmap = reinterpret_cast<MunmapFn>(dlsym(RTLD_NEXT, "munmap"));
    b2test::Report report("test_key_material");
    {
        b2test::ProviderSession session(b2test::ProviderSession::Default::exclude);
        // The tree modes keep the key itself (TreeEngine's copy, for leaves that get no
        // message byte) besides their keyed leaf states.
        uint8_t seed = 0;
        for (const Variant& variant : kVariants) {
            b2test::MacPtr mac = session.fetch_mac(variant.name, b2test::kOurPropq);
            B2_REQUIRE(mac != nullptr, std::string("fetch ") + variant.name + " from blake2simd");
            run(report, mac.get(), variant, seed);
            seed = static_cast<uint8_t>(seed + 10);
        }
        run_argon2(report, session);
    }
    B2_CHECK(report, g_scan.leaks == 0, "no key material in blocks freed at teardown");
    return report.finish();
}
