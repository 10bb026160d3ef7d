// Benchmark rows for other BLAKE2b libraries: libsodium and libb2, when CMake found them.
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
        if (crypto_generichash(out, kDigestSize, message.data(), message.size(),
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

// libb2's blake2b() calls through a private function pointer that starts at blake2b_dispatch and,
// on the first call, is set to one of the exported per-ISA entry points. Comparing libb2's
// writable memory before and after that first call shows which entry point it stored.
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

// Must run before anything else in the process calls blake2b(). Returns "" if not observed.
std::string observe_libb2_choice() {
    Dl_info library{};
    if (dladdr(reinterpret_cast<void*>(&blake2b), &library) == 0 || library.dli_fname == nullptr) {
        return {};
    }
    RangeSearch search{library.dli_fname, {}};
    dl_iterate_phdr(collect_writable_segments, &search);
    if (search.ranges.empty()) {
        return {};
    }
    const std::vector<uintptr_t> before = snapshot_words(search.ranges);
    uint8_t out[kDigestSize];
    const uint8_t in[1] = {0};
    if (blake2b(out, in, nullptr, sizeof out, sizeof in, 0) != 0) {
        fail("libb2 blake2b failed");
    }
    const std::vector<uintptr_t> after = snapshot_words(search.ranges);

    static constexpr const char* kEntryPoints[] = {"ref", "sse2", "ssse3", "sse41", "avx", "xop"};
    std::string observed;
    for (size_t i = 0; i < before.size() && i < after.size(); ++i) {
        if (before[i] == after[i]) {
            continue;
        }
        for (const char* isa : kEntryPoints) {
            const std::string symbol = std::string("blake2b_") + isa;
            void* address = dlsym(RTLD_DEFAULT, symbol.c_str());
            if (address != nullptr && reinterpret_cast<uintptr_t>(address) == after[i]) {
                observed = isa;
            }
        }
    }
    return observed;
}

// Fallback when the observation fails: libb2 0.98.1's CPUID rule (blake2-dispatch.c): the best of
// sse2 < ssse3 < sse41 < avx (AVX and OSXSAVE and XCR0 & 6) < xop; it has no AVX2 kernel.
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

class Libb2Blake2b final : public Implementation {
  public:
    Libb2Blake2b(std::span<const uint8_t> key, std::string kernel)
        : Implementation(key.empty() ? "libb2 blake2b" : "libb2 blake2b, key", std::move(kernel),
                         key.empty() ? Operation::digest : Operation::keyed_new_key),
          key_(key) {}

    void hash(std::span<const uint8_t> message, uint8_t* out) override {
        if (blake2b(out, message.data(), key_.empty() ? nullptr : key_.data(), kDigestSize,
                    message.size(), key_.size()) != 0) {
            fail("libb2 blake2b failed");
        }
    }

  private:
    std::span<const uint8_t> key_;
};

// libb2's blake2bp: the four leaves through its dispatched blake2b_update, in an OpenMP parallel
// region.
class Libb2Blake2bp final : public Implementation {
  public:
    Libb2Blake2bp(std::span<const uint8_t> key, std::string kernel)
        : Implementation(key.empty() ? "libb2 blake2bp" : "libb2 blake2bp, key", std::move(kernel),
                         key.empty() ? Operation::digest : Operation::keyed_new_key,
                         Algorithm::blake2bp),
          key_(key) {
        mark_blake2bp_reference();
    }

    void hash(std::span<const uint8_t> message, uint8_t* out) override {
        if (blake2bp(out, message.data(), key_.empty() ? nullptr : key_.data(), kDigestSize,
                     message.size(), key_.size()) != 0) {
            fail("libb2 blake2bp failed");
        }
    }

    void set_key(std::span<const uint8_t> key) override { key_ = key; }

    bool uses_other_threads() const noexcept override { return true; }

  private:
    std::span<const uint8_t> key_;
};

// libb2 0.98.1 hashes blake2bp's leaves in an OpenMP team of 4 threads, each picking its leaf by
// omp_get_thread_num(), so it cannot be held to one thread (it then hashes leaf 0 only, and fails
// the KAT); the row is timed with the process CPU clock instead, the threads waiting passively
// (main() sets OMP_WAIT_POLICY).
std::string blake2bp_thread_note() {
    using MaxThreadsFn = int (*)();
    auto max_threads = reinterpret_cast<MaxThreadsFn>(dlsym(RTLD_DEFAULT, "omp_get_num_procs"));
    std::string note = "libb2 blake2bp: its 4 leaves run in an OpenMP team of 4 threads (on ";
    note += max_threads != nullptr ? std::to_string(max_threads()) : std::string("?");
    note +=
        " CPUs here), each through libb2's dispatched blake2b_update; its rows are timed with "
        "the process CPU clock, the CPU time of all threads, not the elapsed time; "
        "OMP_WAIT_POLICY=";
    const char* wait_policy = std::getenv("OMP_WAIT_POLICY");
    note += wait_policy != nullptr ? wait_policy : "unset (libgomp spins while waiting)";
    return note;
}

void add_libb2_rows(std::span<const uint8_t> key, ImplementationList& rows,
                    Environment& environment) {
    std::string kernel = observe_libb2_choice();
    const bool observed = !kernel.empty();
    if (!observed) {
        kernel = libb2_kernel_by_its_rule();
    }
    environment.lines.push_back(std::string("libb2 ") + B2_BENCH_LIBB2_VERSION +
                                ", blake2b dispatches to blake2b_" + kernel +
                                (observed ? " (observed: libb2's dispatch pointer after its first "
                                            "call)"
                                          : ""));
    rows.push_back(std::make_unique<Libb2Blake2b>(std::span<const uint8_t>{}, kernel));
    rows.push_back(std::make_unique<Libb2Blake2b>(key, kernel));
    environment.lines.push_back(blake2bp_thread_note());
    const std::string leaf_kernel = kernel + ", leaf by leaf";
    rows.push_back(std::make_unique<Libb2Blake2bp>(std::span<const uint8_t>{}, leaf_kernel));
    rows.push_back(std::make_unique<Libb2Blake2bp>(key, leaf_kernel));
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
