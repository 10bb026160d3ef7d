// Every native BLAKE2sp 8-lane kernel of the registry against eight single-lane oracle runs, and
// within guard pages: no byte read outside its blocks, none touched outside its states.
// SPDX-License-Identifier: Apache-2.0
//
// Usage: test_kernels_lanes8 [random_cases] [--require-all]
//   random_cases   per native form (default 3000)
//   --require-all  exit 77 when this CPU cannot run some built native form, so a host that
//                  leaves a form unchecked shows a skipped test (without it: 77 only when
//                  no form at all can run here)
#include <sys/mman.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include "cpu_features.hpp"
#include "kernel.hpp"
#include "kernels_check.hpp"
#include "lanes_by_lane.hpp"
#include "registry.hpp"

namespace {

using namespace blake2simd;
using b2kernels_test::Random;
using b2test::Report;

// The oracle: the plain reference loop, lane by lane. Once tests/support/reference_compress.hpp
// has the plain BLAKE2s oracle (and the shipped ref kernel is tuned), lane by lane that instead.
constexpr Blake2sCompress8Fn kOracle8 =
    &compress_by_lane<Blake2sFamily, &kernels::blake2s_compress_ref>;

// One guard state after the eight: a kernel must not write past states[7].
constexpr size_t kStates = kBlake2spLanes + 1;

// States at a 4-byte offset from any 8-byte boundary: Blake2sState needs only 4.
class StateArea final {
  public:
    StateArea() {
        for (size_t i = 0; i < kStates; ++i) {
            new (m_bytes.data() + kOffset + i * sizeof(Blake2sState)) Blake2sState{};
        }
    }
    Blake2sState* states() {
        return std::launder(reinterpret_cast<Blake2sState*>(m_bytes.data() + kOffset));
    }

  private:
    static constexpr size_t kOffset = 4;
    alignas(64) std::array<uint8_t, kOffset + kStates * sizeof(Blake2sState)> m_bytes{};
};

uint32_t random_counter_low(Random& random) {
    switch (random.below(4)) {
        case 0:  // the carry into t[1] happens within the next blocks
            return ~0U - static_cast<uint32_t>(random.below(600));
        case 1:
            return static_cast<uint32_t>(random.below(1000));
        default:
            return static_cast<uint32_t>(random.next());
    }
}

uint32_t random_flag(Random& random) {
    switch (random.below(3)) {
        case 0:
            return 0;
        case 1:
            return ~0U;
        default:  // the contract XORs the word in as it is
            return static_cast<uint32_t>(random.next());
    }
}

// Distinct random chaining values, counters (t[1] wrapping too) and flags in every lane.
void randomize(Blake2sState* states, Random& random) {
    for (size_t lane = 0; lane < kStates; ++lane) {
        Blake2sState& state = states[lane];
        for (auto& word : state.h) {
            word = static_cast<uint32_t>(random.next());
        }
        state.t[0] = random_counter_low(random);
        state.t[1] = random.below(8) == 0 ? ~0U : static_cast<uint32_t>(random.next());
        state.f[0] = random_flag(random);
        state.f[1] = random_flag(random);
    }
}

struct Layout {
    const uint8_t* blocks[kBlake2spLanes];
    size_t stride;
    const char* kind;
};

// BLAKE2sp's interleaved leaves, one shared block, a fixed block per lane (stride 0), and
// independent misaligned pointers with arbitrary strides; each fits `count` blocks in `area`.
Layout random_layout(const std::vector<uint8_t>& area, size_t count, Random& random) {
    Layout layout{};
    const uint8_t* data = area.data();
    switch (random.below(4)) {
        case 0: {
            layout.kind = "blake2sp";
            const uint8_t* base = data + random.below(64);
            for (size_t lane = 0; lane < kBlake2spLanes; ++lane) {
                layout.blocks[lane] = base + lane * kBlake2sBlockBytes;
            }
            layout.stride = kBlake2spLanes * kBlake2sBlockBytes;
            break;
        }
        case 1:
            layout.kind = "one shared block";
            layout.blocks[0] = data + random.below(512);
            for (auto& block : layout.blocks) {
                block = layout.blocks[0];
            }
            layout.stride = 0;
            break;
        case 2:
            layout.kind = "stride 0";
            for (auto& block : layout.blocks) {
                block = data + random.below(area.size() - kBlake2sBlockBytes);
            }
            layout.stride = 0;
            break;
        default: {
            layout.kind = "independent";
            layout.stride = kBlake2sBlockBytes + random.below(700);
            const size_t span = count * layout.stride + kBlake2sBlockBytes;
            for (auto& block : layout.blocks) {
                block = data + random.below(area.size() - span);
            }
            break;
        }
    }
    return layout;
}

size_t random_block_count(Random& random) {
    return random.below(8) == 0 ? random.below(40) : random.below(6);
}

uint32_t random_increment(Random& random) {
    switch (random.below(4)) {
        case 0:  // a final block's byte count
            return static_cast<uint32_t>(random.below(kBlake2sBlockBytes + 1));
        case 1:  // any 32-bit value: carries into t[1] on most blocks
            return static_cast<uint32_t>(random.next());
        default:
            return kBlake2sBlockBytes;
    }
}

void compare_random(const registry::KernelRow& row, long cases, Random& random, Report& checks) {
    std::vector<uint8_t> area(64 * 1024);
    for (auto& byte : area) {
        byte = static_cast<uint8_t>(random.next());
    }
    StateArea expected_area;
    StateArea actual_area;
    Blake2sState* expected = expected_area.states();
    Blake2sState* actual = actual_area.states();
    for (long i = 0; i < cases; ++i) {
        randomize(expected, random);
        std::memcpy(actual, expected, kStates * sizeof(Blake2sState));
        const size_t count = random_block_count(random);
        const uint32_t increment = random_increment(random);
        const Layout layout = random_layout(area, count, random);

        kOracle8(expected, layout.blocks, count, layout.stride, increment);
        row.blake2s.lanes(actual, layout.blocks, count, layout.stride, increment);
        const bool same = std::memcmp(expected, actual, kStates * sizeof(Blake2sState)) == 0;
        if (!checks.check(same, "8-lane form equals eight single-lane runs")) {
            std::fprintf(stderr,
                         "  %s: case %ld: %zu blocks, %s layout, stride %zu, increment %u\n",
                         row.name, i, count, layout.kind, layout.stride, increment);
        }
    }
}

// RFC 7693 appendix B: BLAKE2s-256("abc"), in all eight lanes at once, so the oracle is not the
// only witness.
void check_rfc7693_abc(const registry::KernelRow& row, Report& checks) {
    static constexpr uint8_t kExpected[32] = {0x50, 0x8C, 0x5E, 0x8C, 0x32, 0x7C, 0x14, 0xE2,
                                              0xE1, 0xA7, 0x2B, 0xA3, 0x4E, 0xEB, 0x45, 0x2F,
                                              0x37, 0x45, 0x8B, 0x20, 0x9E, 0xD6, 0x3A, 0x29,
                                              0x4D, 0x99, 0x9B, 0x4C, 0x86, 0x67, 0x59, 0x82};
    uint8_t block[kBlake2sBlockBytes] = {'a', 'b', 'c'};
    Blake2sState states[kBlake2spLanes];
    const uint8_t* blocks[kBlake2spLanes];
    for (size_t lane = 0; lane < kBlake2spLanes; ++lane) {
        Blake2sState& state = states[lane];
        for (size_t i = 0; i < 8; ++i) {
            state.h[i] = kBlake2sIV[i];
        }
        state.h[0] ^= 0x01010000U ^ 32U;  // fanout 1, depth 1, 32-byte digest, no key
        state.t[0] = state.t[1] = 0;
        state.f[0] = ~0U;
        state.f[1] = 0;
        blocks[lane] = block;
    }
    row.blake2s.lanes(states, blocks, 1, 0, 3);
    for (size_t lane = 0; lane < kBlake2spLanes; ++lane) {
        uint8_t digest[32];
        for (size_t i = 0; i < 8; ++i) {
            for (size_t byte = 0; byte < 4; ++byte) {
                digest[4 * i + byte] = static_cast<uint8_t>(states[lane].h[i] >> (8 * byte));
            }
        }
        checks.check(std::memcmp(digest, kExpected, sizeof digest) == 0,
                     "RFC 7693 BLAKE2s-256(\"abc\") in every lane");
    }
}

using b2kernels_test::GuardedArea;

// BLAKE2sp's layout and a stride-0 one, with the blocks and the eight states flush against the
// trailing guard page, then against the leading one; each result still equals the oracle's.
void check_guards(const registry::KernelRow& row, Random& random, Report& checks) {
    constexpr size_t kSteps = 4;
    constexpr size_t kSpan = kSteps * kBlake2spLanes * kBlake2sBlockBytes;
    constexpr size_t kStateBytes = kBlake2spLanes * sizeof(Blake2sState);
    GuardedArea data(kSpan);
    GuardedArea state_area(kStateBytes);
    if (!checks.check(data.ok() && state_area.ok(), "guard pages mapped")) {
        return;
    }
    for (const bool at_end : {true, false}) {
        uint8_t* message = at_end ? data.at_end(kSpan) : data.at_start();
        for (size_t i = 0; i < kSpan; ++i) {
            message[i] = static_cast<uint8_t>(random.next());
        }
        auto* states = reinterpret_cast<Blake2sState*>(at_end ? state_area.at_end(kStateBytes)
                                                              : state_area.at_start());
        for (const bool interleaved : {true, false}) {
            const uint8_t* blocks[kBlake2spLanes];
            for (size_t lane = 0; lane < kBlake2spLanes; ++lane) {
                // Stride 0: lane i's one block at the area's edge block (last or first).
                const size_t edge_block = at_end ? kSpan / kBlake2sBlockBytes - 1 - lane : lane;
                blocks[lane] = message + (interleaved ? lane : edge_block) * kBlake2sBlockBytes;
            }
            const size_t stride = interleaved ? kBlake2spLanes * kBlake2sBlockBytes : 0;
            Blake2sState expected[kStates];
            randomize(expected, random);
            for (size_t lane = 0; lane < kBlake2spLanes; ++lane) {
                new (&states[lane]) Blake2sState(expected[lane]);
            }
            kOracle8(expected, blocks, kSteps, stride, kBlake2sBlockBytes);
            row.blake2s.lanes(states, blocks, kSteps, stride, kBlake2sBlockBytes);
            checks.check(std::memcmp(expected, states, kStateBytes) == 0,
                         "8-lane form within guard pages equals the oracle");
        }
    }
}

}  // namespace

int main(int argc, char** argv) {
    long cases = 3000;
    bool require_all = false;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "--require-all") {
            require_all = true;
        } else {
            cases = std::strtol(argv[i], nullptr, 10);
        }
    }
    Report checks("test_kernels_lanes8");
    Random random(0x6c616e657338ULL);
    const auto& features = cpu::detected_features();
    size_t ran = 0;
    size_t skipped = 0;
    for (const registry::KernelRow& row : registry::kKernelRows) {
        if (!row.blake2s.has_lanes) {
            continue;
        }
        if (!row.built) {
            std::printf("  %-7s not built by this toolchain\n", row.name);
            continue;
        }
        checks.check(row.blake2s.lanes != nullptr, "a built native form has an entry point");
        if (!registry::meets(row.need, features)) {
            std::printf("  %-7s SKIPPED (this CPU cannot run it)\n", row.name);
            ++skipped;
            continue;
        }
        const long failed_before = checks.failed();
        check_rfc7693_abc(row, checks);
        compare_random(row, cases, random, checks);
        check_guards(row, random, checks);
        std::printf("  %-7s %ld random cases and the guard pages, %s\n", row.name, cases,
                    checks.failed() == failed_before ? "all equal" : "MISMATCHES");
        ++ran;
    }
    if (checks.failed() == 0 && (ran == 0 || (require_all && skipped > 0))) {
        std::printf(
            "test_kernels_lanes8: SKIP: %zu native 8-lane form(s) ran, %zu need a CPU "
            "feature this host lacks\n",
            ran, skipped);
        return b2kernels_test::kSkipExitCode;
    }
    return checks.finish();
}
