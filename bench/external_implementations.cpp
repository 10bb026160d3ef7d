// Benchmark rows for other BLAKE2 libraries: libsodium (BLAKE2b only) and libb2, when CMake found
// them.
// SPDX-License-Identifier: Apache-2.0
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "implementations.hpp"

#if B2_BENCH_HAVE_SODIUM
#include <sodium.h>
#endif

#if B2_BENCH_HAVE_LIBB2
#include <blake2.h>
#include <dlfcn.h>
#include <link.h>
#endif

namespace blake2simd::bench {
namespace {

#if B2_BENCH_HAVE_SODIUM

// libsodium keeps its compression-function choice private; this mirrors the order in which
// libsodium 1.0.18 (crypto_generichash/blake2b/ref/blake2b-ref.c) tries its kernels.
std::string sodium_kernel_by_its_rule() {
    if (sodium_runtime_has_avx2() != 0) {
        return "avx2 (inferred)";
    }
    if (sodium_runtime_has_sse41() != 0) {
        return "sse41 (inferred)";
    }
    if (sodium_runtime_has_ssse3() != 0) {
        return "ssse3 (inferred)";
    }
    return "ref (inferred)";
}

class SodiumGenericHash final : public Implementation {
  public:
    SodiumGenericHash(std::span<const uint8_t> key, std::string kernel)
        : Implementation(
              key.empty() ? "libsodium crypto_generichash" : "libsodium crypto_generichash, key",
              std::move(kernel), key.empty() ? Operation::digest : Operation::keyed_new_key),
          key_(key) {}

    void hash(std::span<const uint8_t> message, uint8_t* out) override {
        if (crypto_generichash(out, digest_size(), message.data(), message.size(),
                               key_.empty() ? nullptr : key_.data(), key_.size()) != 0) {
            fail("crypto_generichash failed");
        }
    }

  private:
    std::span<const uint8_t> key_;
};

void add_sodium_rows(std::span<const uint8_t> key, ImplementationList& rows,
                     Environment& environment) {
    if (sodium_init() < 0) {
        environment.lines.push_back("libsodium: sodium_init failed; rows missing");
        return;
    }
    const std::string kernel = sodium_kernel_by_its_rule();
    environment.lines.push_back(std::string("libsodium ") + sodium_version_string() +
                                ", generichash kernel " + kernel);
    rows.push_back(std::make_unique<SodiumGenericHash>(std::span<const uint8_t>{}, kernel));
    rows.push_back(std::make_unique<SodiumGenericHash>(key, kernel));
}

#endif  // B2_BENCH_HAVE_SODIUM

#if B2_BENCH_HAVE_LIBB2

// libb2's simple API: blake2b, blake2bp, blake2s and blake2sp share this signature.
using Libb2Function = int (*)(uint8_t* out, const void* in, const void* key, size_t outlen,
                              size_t inlen, size_t keylen);

// libb2's blake2b() and blake2s() each call through a private function pointer that starts at
// blake2b_dispatch / blake2s_dispatch and, on the first call, is set to one of the exported
// per-ISA entry points. Comparing libb2's writable memory before and after that first call shows
// which entry point it stored.
struct MemoryRange {
    uintptr_t begin;
    uintptr_t end;
};

struct RangeSearch {
    const char* library_path;
    std::vector<MemoryRange> ranges;
};

int collect_writable_segments(dl_phdr_info* info, size_t, void* data) noexcept {
    auto* search = static_cast<RangeSearch*>(data);
    if (info->dlpi_name == nullptr || std::strcmp(info->dlpi_name, search->library_path) != 0) {
        return 0;
    }
    for (ElfW(Half) i = 0; i < info->dlpi_phnum; ++i) {
        const ElfW(Phdr)& segment = info->dlpi_phdr[i];
        if (segment.p_type == PT_LOAD && (segment.p_flags & PF_W) != 0) {
            const uintptr_t begin = info->dlpi_addr + segment.p_vaddr;
            search->ranges.push_back({begin, begin + segment.p_memsz});
        }
    }
    return 1;
}

std::vector<uintptr_t> snapshot_words(const std::vector<MemoryRange>& ranges) {
    std::vector<uintptr_t> words;
    for (const MemoryRange& range : ranges) {
        const uintptr_t first = (range.begin + sizeof(uintptr_t) - 1) & ~(sizeof(uintptr_t) - 1);
        for (uintptr_t address = first; address + sizeof(uintptr_t) <= range.end;
             address += sizeof(uintptr_t)) {
            uintptr_t word = 0;
            std::memcpy(&word, reinterpret_cast<const void*>(address), sizeof word);
            words.push_back(word);
        }
    }
    return words;
}

// libb2 0.98.1's per-ISA entry points (blake2b_<isa>, blake2s_<isa>), in its dispatch order.
constexpr const char* kEntryPoints[] = {"ref", "sse2", "ssse3", "sse41", "avx", "xop"};

// Whether this CPU runs libb2's entry point for `isa` (libb2 itself asks CPUID the same).
bool cpu_runs(const std::string& isa) {
    if (isa == "ref") {
        return true;
    }
#if defined(__x86_64__)
    __builtin_cpu_init();
    if (isa == "sse2") {
        return __builtin_cpu_supports("sse2") != 0;
    }
    if (isa == "ssse3") {
        return __builtin_cpu_supports("ssse3") != 0;
    }
    if (isa == "sse41") {
        return __builtin_cpu_supports("sse4.1") != 0;
    }
    if (isa == "avx") {
        return __builtin_cpu_supports("avx") != 0;
    }
    if (isa == "xop") {
        return __builtin_cpu_supports("xop") != 0;
    }
#endif
    return false;
}

// Must run before anything else in the process calls `function` (blake2b or blake2s, whose entry
// points are named `prefix` + ISA). Returns "" if not observed.
std::string observe_libb2_choice(Libb2Function function, const std::string& prefix) {
    Dl_info library{};
    if (dladdr(reinterpret_cast<void*>(function), &library) == 0 || library.dli_fname == nullptr) {
        return {};
    }
    RangeSearch search{library.dli_fname, {}};
    dl_iterate_phdr(collect_writable_segments, &search);
    if (search.ranges.empty()) {
        return {};
    }
    const std::vector<uintptr_t> before = snapshot_words(search.ranges);
    uint8_t out[32];
    const uint8_t in[1] = {0};
    if (function(out, in, nullptr, sizeof out, sizeof in, 0) != 0) {
        fail("libb2 " + prefix + " failed");
    }
    const std::vector<uintptr_t> after = snapshot_words(search.ranges);

    std::string observed;
    for (size_t i = 0; i < before.size() && i < after.size(); ++i) {
        if (before[i] == after[i]) {
            continue;
        }
        for (const char* isa : kEntryPoints) {
            const std::string symbol = prefix + isa;
            void* address = dlsym(RTLD_DEFAULT, symbol.c_str());
            if (address != nullptr && reinterpret_cast<uintptr_t>(address) == after[i]) {
                observed = isa;
            }
        }
    }
    return observed;
}

// Fallback when the observation fails: libb2 0.98.1's CPUID rule (blake2-dispatch.c), the same for
// blake2b and blake2s: the best of sse2 < ssse3 < sse41 < avx (AVX and OSXSAVE and XCR0 & 6) <
// xop; it has no AVX2 kernel.
std::string libb2_kernel_by_its_rule() {
#if defined(__x86_64__)
    unsigned eax = 1;
    unsigned ebx = 0;
    unsigned ecx = 0;
    unsigned edx = 0;
    __asm__ __volatile__("cpuid" : "+a"(eax), "=b"(ebx), "=c"(ecx), "=d"(edx));
    std::string kernel = "sse2";
    if ((ecx >> 9) & 1) {
        kernel = "ssse3";
    }
    if ((ecx >> 19) & 1) {
        kernel = "sse41";
    }
    if ((ecx >> 28) & (ecx >> 27) & 1) {
        unsigned xcr0_low = 0;
        unsigned xcr0_high = 0;
        __asm__ __volatile__("xgetbv" : "=a"(xcr0_low), "=d"(xcr0_high) : "c"(0));
        if ((xcr0_low & 6) == 6) {
            kernel = "avx";
        }
    }
    eax = 0x80000001;
    __asm__ __volatile__("cpuid" : "+a"(eax), "=b"(ebx), "=c"(ecx), "=d"(edx));
    if ((ecx >> 11) & 1) {
        kernel = "xop";
    }
    return kernel + " (inferred)";
#else
    return "-";
#endif
}

// One of libb2's simple-API functions, unkeyed or keyed (the key taken on every call).
class Libb2Row final : public Implementation {
  public:
    Libb2Row(const std::string& name, Libb2Function function, Algorithm algorithm,
             std::span<const uint8_t> key, std::string kernel)
        : Implementation("libb2 " + name + (key.empty() ? "" : ", key"), std::move(kernel),
                         key.empty() ? Operation::digest : Operation::keyed_new_key, algorithm),
          name_(name),
          function_(function),
          key_(key) {
        if (is_tree_mode(algorithm)) {
            mark_tree_reference();
        }
    }

    void hash(std::span<const uint8_t> message, uint8_t* out) override {
        if (function_(out, message.data(), key_.empty() ? nullptr : key_.data(), digest_size(),
                      message.size(), key_.size()) != 0) {
            fail("libb2 " + name_ + " failed");
        }
    }

    void set_key(std::span<const uint8_t> key) override { key_ = key; }

    // The tree modes hash their leaves on OpenMP threads (see tree_thread_note()).
    bool uses_other_threads() const noexcept override { return is_tree_mode(algorithm()); }

  private:
    std::string name_;
    Libb2Function function_;
    std::span<const uint8_t> key_;
};

// libb2 0.98.1 hashes the leaves of blake2bp (4) and blake2sp (8) in an OpenMP team of as many
// threads, each picking its leaf by omp_get_thread_num(), so it cannot be held to one thread (it
// then hashes leaf 0 only, and fails the KAT); the rows are timed with the process CPU clock
// instead, the threads waiting passively (main() sets OMP_WAIT_POLICY).
std::string tree_thread_note() {
    using MaxThreadsFn = int (*)();
    auto max_threads = reinterpret_cast<MaxThreadsFn>(dlsym(RTLD_DEFAULT, "omp_get_num_procs"));
    std::string note =
        "libb2 blake2bp and blake2sp: their 4 and 8 leaves run in an OpenMP team of 4 and 8 "
        "threads (on ";
    note += max_threads != nullptr ? std::to_string(max_threads()) : std::string("?");
    note +=
        " CPUs here), each through libb2's dispatched blake2b_update / blake2s_update; their rows "
        "are timed with the process CPU clock, the CPU time of all threads, not the elapsed time; "
        "OMP_WAIT_POLICY=";
    const char* wait_policy = std::getenv("OMP_WAIT_POLICY");
    note += wait_policy != nullptr ? wait_policy : "unset (libgomp spins while waiting)";
    return note;
}

// libb2's serial function `name` and its tree mode, unkeyed and keyed; the serial function's
// dispatch is observed first, before any other call can have set it.
void add_libb2_family(const char* name, Libb2Function serial, Algorithm serial_algorithm,
                      const char* tree_name, Libb2Function tree, std::span<const uint8_t> key,
                      ImplementationList& rows, Environment& environment) {
    std::string kernel = observe_libb2_choice(serial, std::string(name) + "_");
    const bool observed = !kernel.empty();
    if (!observed) {
        kernel = libb2_kernel_by_its_rule();
    }
    environment.lines.push_back(std::string("libb2 ") + B2_BENCH_LIBB2_VERSION + ", " + name +
                                " dispatches to " + name + "_" + kernel +
                                (observed ? " (observed: libb2's dispatch pointer after its first "
                                            "call)"
                                          : ""));
    const Algorithm tree_algorithm =
        serial_algorithm == Algorithm::blake2b ? Algorithm::blake2bp : Algorithm::blake2sp;
    const std::string leaf_kernel = kernel + ", leaf by leaf";
    rows.push_back(std::make_unique<Libb2Row>(name, serial, serial_algorithm,
                                              std::span<const uint8_t>{}, kernel));
    rows.push_back(std::make_unique<Libb2Row>(name, serial, serial_algorithm, key, kernel));
    rows.push_back(std::make_unique<Libb2Row>(tree_name, tree, tree_algorithm,
                                              std::span<const uint8_t>{}, leaf_kernel));
    rows.push_back(std::make_unique<Libb2Row>(tree_name, tree, tree_algorithm, key, leaf_kernel));
}

// libb2's blake2s through each per-ISA entry point this CPU runs, unkeyed: the kernel-for-kernel
// counterparts of this provider's forced BLAKE2s rows.
void add_libb2_blake2s_entry_points(ImplementationList& rows, Environment& environment) {
    std::string listed;
    for (const char* isa : kEntryPoints) {
        const std::string symbol = std::string("blake2s_") + isa;
        auto function = reinterpret_cast<Libb2Function>(dlsym(RTLD_DEFAULT, symbol.c_str()));
        if (function == nullptr || !cpu_runs(isa)) {
            continue;
        }
        rows.push_back(std::make_unique<Libb2Row>(symbol, function, Algorithm::blake2s,
                                                  std::span<const uint8_t>{}, isa));
        listed += (listed.empty() ? "" : ", ") + symbol;
    }
    environment.lines.push_back(
        "libb2 blake2s per-ISA entry points timed directly (the ones this "
        "CPU runs): " +
        (listed.empty() ? std::string("none") : listed));
}

void add_libb2_rows(std::span<const uint8_t> key, ImplementationList& rows,
                    Environment& environment) {
    add_libb2_family("blake2b", blake2b, Algorithm::blake2b, "blake2bp", blake2bp, key, rows,
                     environment);
    add_libb2_family("blake2s", blake2s, Algorithm::blake2s, "blake2sp", blake2sp, key, rows,
                     environment);
    add_libb2_blake2s_entry_points(rows, environment);
    environment.lines.push_back(tree_thread_note());
}

#endif  // B2_BENCH_HAVE_LIBB2

}  // namespace

void add_external_implementations(std::span<const uint8_t> key, ImplementationList& rows,
                                  Environment& environment) {
#if B2_BENCH_HAVE_LIBB2
    add_libb2_rows(key, rows, environment);
#else
    environment.lines.push_back("libb2: not built in (libb2-dev / pkg-config libb2 not found)");
#endif
#if B2_BENCH_HAVE_SODIUM
    add_sodium_rows(key, rows, environment);
#else
    environment.lines.push_back("libsodium: not built in (libsodium-dev not found)");
#endif
    (void)key;
    (void)rows;
}

}  // namespace blake2simd::bench
