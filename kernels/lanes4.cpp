// 4-lane kernels: lane-by-lane adapters of the single-lane kernels, self-test, choice per ISA.
// SPDX-License-Identifier: Apache-2.0
#include "lanes4.hpp"

#include <cstring>
#include <initializer_list>

#include "baseline_guard.hpp"
#include "dispatch.hpp"
#if B2_HAVE_X64_KERNEL
#include "compress_x64.hpp"
#endif

namespace blake2simd {
namespace {

// Block-major order: the four lanes' blocks of one step are adjacent in a BLAKE2bp message,
// so each cache line of the input is used once.
template <CompressFn compress>
void compress4_by_lane(Blake2bState* states, const uint8_t* const* blocks, size_t block_count,
                       size_t block_stride, uint64_t counter_increment) noexcept {
    for (size_t k = 0; k < block_count; ++k) {
        for (size_t lane = 0; lane < kLanes; ++lane) {
            compress(&states[lane], blocks[lane] + k * block_stride, 1, counter_increment);
        }
    }
}

constexpr KernelId kAllIds[] = {KernelId::ref, KernelId::x64,  KernelId::ssse3,
                                KernelId::avx, KernelId::avx2, KernelId::avx512};
constexpr size_t kIdCount = sizeof kAllIds / sizeof kAllIds[0];

const char* id_name(KernelId id) noexcept {
    switch (id) {
        case KernelId::ref:
            return "ref";
        case KernelId::x64:
            return "x64";
        case KernelId::ssse3:
            return "ssse3";
        case KernelId::avx:
            return "avx";
        case KernelId::avx2:
            return "avx2";
        case KernelId::avx512:
            return "avx512";
    }
    return "ref";
}

struct Lanes4Facts {
    bool usable[kIdCount];  // built, runnable on this CPU, and passed the self-test
};

Lanes4Facts check_candidates() noexcept {
    Lanes4Facts facts{};
    const cpu::CpuFeatures& features = cpu::detected_features();
    for (size_t i = 0; i < kIdCount; ++i) {
        const Compress4Fn candidate = dispatch::lanes4_candidate(kAllIds[i]);
        // Short-circuit: a kernel the CPU lacks is never called, not even by the self-test.
        facts.usable[i] = candidate != nullptr && dispatch::cpu_can_run(kAllIds[i], features) &&
                          dispatch::lanes4_passes_self_test(candidate);
    }
    return facts;
}

const Lanes4Facts& lanes4_facts() noexcept {
    // Function-local static: checked once, thread-safely, on first use; trivially destructible.
    static const Lanes4Facts facts = check_candidates();
    return facts;
}

// --- self-test

constexpr size_t kTestSteps = 3;
constexpr size_t kInterleavedStride = kLanes * kBlockBytes;
constexpr size_t kAreaBytes = 8 + kTestSteps * kInterleavedStride;

void reference_lanes(Blake2bState* states, const uint8_t* const* blocks, size_t block_count,
                     size_t block_stride, uint64_t counter_increment) noexcept {
    compress4_by_lane<&kernels::compress_ref>(states, blocks, block_count, block_stride,
                                              counter_increment);
}

void initial_test_states(Blake2bState states[kLanes]) noexcept {
    // Distinct chaining values; lanes 1 and 3 carry out of t[0] during the test; every
    // combination of the two flags occurs once.
    constexpr uint64_t kCounters[kLanes] = {0, ~0ULL - 200, 1ULL << 40, ~0ULL - 127};
    for (size_t lane = 0; lane < kLanes; ++lane) {
        for (size_t i = 0; i < 8; ++i) {
            states[lane].h[i] = kIV[i] ^ (0x0123456789abcdefULL * (lane * 8 + i + 1));
        }
        states[lane].t[0] = kCounters[lane];
        states[lane].t[1] = lane * 0x1000000001ULL;
        states[lane].f[0] = (lane & 1) != 0 ? ~0ULL : 0;
        states[lane].f[1] = (lane & 2) != 0 ? ~0ULL : 0;
    }
}

void run_test_calls(Compress4Fn compress4, Blake2bState states[kLanes],
                    const uint8_t* area) noexcept {
    // BLAKE2bp's layout, from an odd address.
    const uint8_t* interleaved[kLanes];
    for (size_t lane = 0; lane < kLanes; ++lane) {
        interleaved[lane] = area + 1 + lane * kBlockBytes;
    }
    compress4(states, interleaved, kTestSteps, kInterleavedStride, kBlockBytes);
    // One block shared by all lanes (a key block), partial-block increment.
    const uint8_t* shared[kLanes] = {area + 7, area + 7, area + 7, area + 7};
    compress4(states, shared, 1, 0, 77);
    // Contiguous runs in arbitrary order; zero blocks must change nothing.
    const uint8_t* runs[kLanes] = {area + 3 * kBlockBytes, area + 2, area + 5 * kBlockBytes + 4,
                                   area + 9};
    compress4(states, runs, 2, kBlockBytes, kBlockBytes);
    compress4(states, runs, 0, kBlockBytes, kBlockBytes);
}

}  // namespace

namespace dispatch {

bool lanes4_passes_self_test(Compress4Fn compress4) noexcept {
    uint8_t area[kAreaBytes];
    for (size_t i = 0; i < kAreaBytes; ++i) {
        area[i] = static_cast<uint8_t>((i * 167 + 13) ^ (i >> 8));
    }
    Blake2bState expected[kLanes];
    Blake2bState actual[kLanes];
    initial_test_states(expected);
    initial_test_states(actual);
    run_test_calls(&reference_lanes, expected, area);
    run_test_calls(compress4, actual, area);
    return std::memcmp(expected, actual, sizeof expected) == 0;
}

Compress4Fn lanes4_candidate(KernelId id) noexcept {
    switch (id) {
        case KernelId::ref:
            return &compress4_by_lane<&kernels::compress_ref>;
        case KernelId::x64:
#if B2_HAVE_X64_KERNEL
            return &compress4_by_lane<&kernels::compress_x64>;
#else
            return nullptr;
#endif
        case KernelId::ssse3:
#if BLAKE2SIMD_HAVE_SSSE3
            return &compress4_by_lane<&kernels::compress_ssse3>;
#else
            return nullptr;
#endif
        case KernelId::avx:
#if BLAKE2SIMD_HAVE_AVX
            return &compress4_by_lane<&kernels::compress_avx>;
#else
            return nullptr;
#endif
        case KernelId::avx2:
#if B2_HAVE_LANES4_AVX2
            return &kernels::compress4_avx2;
#else
            return nullptr;
#endif
        case KernelId::avx512:
#if B2_HAVE_LANES4_AVX512
            return &kernels::compress4_avx512;
#else
            return nullptr;
#endif
    }
    return nullptr;
}

Lanes4Kernel lanes4_for(KernelId id, bool automatic) noexcept {
    const Lanes4Facts& facts = lanes4_facts();
    const auto usable = [&facts](KernelId wanted) {
        for (size_t i = 0; i < kIdCount; ++i) {
            if (kAllIds[i] == wanted) {
                return facts.usable[i];
            }
        }
        return false;
    };
    if (automatic) {
        // vprorq makes the AVX-512VL kernel do strictly less work than the AVX2 one.
        for (const KernelId preferred : {KernelId::avx512, KernelId::avx2}) {
            if (usable(preferred)) {
                return {id_name(preferred), lanes4_candidate(preferred)};
            }
        }
    }
    if (usable(id)) {
        return {id_name(id), lanes4_candidate(id)};
    }
    return {"ref", &compress4_by_lane<&kernels::compress_ref>};
}

}  // namespace dispatch
}  // namespace blake2simd
