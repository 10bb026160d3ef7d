// Every runnable 4-lane kernel against four compress_ref runs, and lanes4_for's choice per ISA.
// SPDX-License-Identifier: Apache-2.0
//
// Usage: test_blake2bp_lanes4 [random_cases]   (default 2000)
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "dispatch.hpp"
#include "lanes4.hpp"

namespace {

using namespace blake2simd;

constexpr KernelId kIds[] = {KernelId::ref, KernelId::x64,  KernelId::ssse3,
                             KernelId::avx, KernelId::avx2, KernelId::avx512};
constexpr const char* kIdNames[] = {"ref", "x64", "ssse3", "avx", "avx2", "avx512"};

class Random final {
  public:
    explicit Random(uint64_t seed) : m_state(seed) {}
    uint64_t next() {
        uint64_t z = (m_state += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    uint64_t below(uint64_t bound) { return next() % bound; }

  private:
    uint64_t m_state;
};

int failures = 0;
int checks = 0;

void check(bool condition, const std::string& what) {
    ++checks;
    if (!condition) {
        if (++failures <= 10) {
            std::fprintf(stderr, "FAIL: %s\n", what.c_str());
        }
    }
}

void reference4(Blake2bState* states, const uint8_t* const* blocks, size_t count, size_t stride,
                uint64_t increment) {
    for (size_t lane = 0; lane < kLanes; ++lane) {
        for (size_t k = 0; k < count; ++k) {
            kernels::compress_ref(&states[lane], blocks[lane] + k * stride, 1, increment);
        }
    }
}

// Random states (counters near the carry sometimes, any flags), layouts: BLAKE2bp's interleaved
// groups, shared blocks, independent pointers with arbitrary strides and misalignment.
void compare_random(const char* name, Compress4Fn compress4, int cases, Random& random) {
    std::vector<uint8_t> area(40 * 1024);
    for (auto& byte : area) {
        byte = static_cast<uint8_t>(random.next());
    }
    for (int i = 0; i < cases; ++i) {
        Blake2bState expected[kLanes + 1];  // one guard state after the four
        for (auto& state : expected) {
            for (auto& word : state.h) {
                word = random.next();
            }
            state.t[0] = random.below(4) == 0 ? ~0ULL - random.below(600) : random.next();
            state.t[1] = random.next();
            state.f[0] = random.below(2) != 0 ? ~0ULL : 0;
            state.f[1] = random.below(2) != 0 ? ~0ULL : 0;
        }
        Blake2bState actual[kLanes + 1];
        std::memcpy(actual, expected, sizeof actual);

        const size_t count = random.below(9);
        const uint64_t increment = random.below(3) == 0 ? random.below(129) : 128;
        const uint8_t* blocks[kLanes];
        size_t stride = 0;
        switch (random.below(3)) {
            case 0: {  // BLAKE2bp
                const uint8_t* base = area.data() + random.below(64);
                for (size_t lane = 0; lane < kLanes; ++lane) {
                    blocks[lane] = base + lane * kBlockBytes;
                }
                stride = kLanes * kBlockBytes;
                break;
            }
            case 1:  // one shared block
                blocks[0] = blocks[1] = blocks[2] = blocks[3] = area.data() + random.below(512);
                stride = 0;
                break;
            default:
                stride = kBlockBytes + random.below(1024);
                for (size_t lane = 0; lane < kLanes; ++lane) {
                    blocks[lane] = area.data() + random.below(area.size() - 9 * stride - 128);
                }
                break;
        }
        reference4(expected, blocks, count, stride, increment);
        compress4(actual, blocks, count, stride, increment);
        check(std::memcmp(expected, actual, sizeof actual) == 0,
              std::string(name) + ": case " + std::to_string(i) + " (" + std::to_string(count) +
                  " blocks, stride " + std::to_string(stride) + ", increment " +
                  std::to_string(increment) + ")");
    }
}

}  // namespace

int main(int argc, char** argv) {
    const int cases = argc > 1 ? std::atoi(argv[1]) : 2000;
    Random random(0x6c616e657334ULL);
    const cpu::CpuFeatures& features = cpu::detected_features();
    const auto runnable_id = [&features](KernelId id) {
        return dispatch::lanes4_candidate(id) != nullptr && dispatch::cpu_can_run(id, features);
    };
    int compared = 0;
    for (size_t i = 0; i < sizeof kIds / sizeof kIds[0]; ++i) {
        const Compress4Fn candidate = dispatch::lanes4_candidate(kIds[i]);
        const bool runnable = runnable_id(kIds[i]);
        const Lanes4Kernel chosen = dispatch::lanes4_for(kIds[i]);
        const Lanes4Kernel automatic = dispatch::lanes4_for(kIds[i], true);
        std::printf("%-7s built %-3s runnable %-3s -> lanes4_for: %s, automatic: %s\n", kIdNames[i],
                    candidate != nullptr ? "yes" : "no", runnable ? "yes" : "no", chosen.name,
                    automatic.name);
        // A built, runnable kernel must serve its own ISA, not hide behind the fallback.
        const std::string expected = runnable ? kIdNames[i] : "ref";
        check(chosen.name == expected,
              std::string("lanes4_for(") + kIdNames[i] + ") chose " + chosen.name);
        // Automatic: the true 4-lane kernels first.
        const std::string expected_automatic = runnable_id(KernelId::avx512) ? "avx512"
                                               : runnable_id(KernelId::avx2) ? "avx2"
                                                                             : expected;
        check(automatic.name == expected_automatic,
              std::string("lanes4_for(") + kIdNames[i] + ", automatic) chose " + automatic.name);
        if (!runnable) {
            continue;
        }
        check(dispatch::lanes4_passes_self_test(candidate),
              std::string(kIdNames[i]) + " self-test");
        compare_random(kIdNames[i], candidate, cases, random);
        ++compared;
    }
    // The self-test itself must be able to fail.
    check(!dispatch::lanes4_passes_self_test([](Blake2bState* states, const uint8_t* const* blocks,
                                                size_t count, size_t stride,
                                                uint64_t increment) noexcept {
        reference4(states, blocks, count, stride, increment);
        states[2].h[5] ^= count != 0 ? 1 : 0;
    }),
          "self-test rejects a broken kernel");
    std::printf("test_blake2bp_lanes4: %d kernels compared, %d checks, %d failed\n", compared,
                checks, failures);
    return failures == 0 ? 0 : 1;
}
