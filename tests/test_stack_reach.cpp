// stack_reach (kernels/scrub.cpp), which sets how deep the stack is wiped after a single-lane
// kernel compressed a key block: a stand-in kernel that writes a known depth must be measured
// at least that deep (and not far deeper), one deeper than the limit must give the limit, and
// every single-lane BLAKE2 kernel this CPU runs must be measured within the limit (the depths
// are printed). hardening.key_scrub then proves, through the module, that no key word
// survives the wipe that follows. Skipped where the build wipes a fixed depth instead.
// SPDX-License-Identifier: Apache-2.0
#include <cstdio>
#include <string>

#include "kernels_check.hpp"
#include "registry.hpp"
#include "scrub.hpp"

namespace {

using blake2simd::Blake2bState;
using blake2simd::SingleLaneKernel;
using blake2simd::stack_reach;

constexpr size_t kLimit = 8192;

// Writes `kDepth` bytes of its own frame, below the return address its caller pushed.
template <size_t kDepth>
__attribute__((noinline)) void writes_deep(Blake2bState* state, const uint8_t* block, size_t,
                                           uint64_t) noexcept {
    volatile uint8_t area[kDepth];
    for (size_t i = 0; i < kDepth; ++i) {
        area[i] = static_cast<uint8_t>(i ^ block[0]);
    }
    state->h[0] ^= area[0];
}

template <size_t kDepth>
size_t reach_of_writer() {
    Blake2bState state{};
    uint8_t block[128] = {};
    return stack_reach(reinterpret_cast<SingleLaneKernel>(&writes_deep<kDepth>), &state, block,
                       sizeof block, kLimit);
}

template <size_t kDepth>
void check_writer(b2test::Report& report) {
    const size_t reach = reach_of_writer<kDepth>();
    // The frame holds the area and a little more (saved registers, alignment).
    report.check(reach >= kDepth && reach <= kDepth + 256,
                 "a stand-in writing " + std::to_string(kDepth) + " bytes measured " +
                     std::to_string(reach));
}

template <class Family>
void check_kernel(b2test::Report& report, const char* name,
                  const blake2simd::registry::MemberEntries<Family>& entries) {
    if (!entries.has_single || entries.single == nullptr) {
        return;
    }
    typename Family::State state{};
    uint8_t block[Family::kBlockBytes] = {};
    const size_t reach = stack_reach(reinterpret_cast<SingleLaneKernel>(entries.single), &state,
                                     block, Family::kBlockBytes, kLimit);
    std::printf("%s %s: %zu bytes below its caller\n", name, Family::kName, reach);
    // At least the return address; short of the limit, or the wipe is at the limit's depth.
    report.check(reach >= 8 && reach < kLimit && reach % 8 == 0,
                 std::string(name) + " " + Family::kName + " measured " + std::to_string(reach));
}

}  // namespace

int main() {
    if (!blake2simd::stack_reach_is_measured()) {
        std::printf(
            "SKIP: this build wipes a fixed depth (not x86-64 ELF, unoptimised, "
            "AddressSanitizer, or no valgrind/memcheck.h)\n");
        return b2kernels_test::kSkipExitCode;
    }
    b2test::Report report("test_stack_reach");
    check_writer<64>(report);
    check_writer<700>(report);
    check_writer<3000>(report);
    const size_t beyond = reach_of_writer<kLimit + 1024>();
    report.check(beyond == kLimit, "a stand-in writing past the limit measured " +
                                       std::to_string(beyond) + ", not the limit");
    const blake2simd::cpu::CpuFeatures& features = blake2simd::cpu::detected_features();
    for (const blake2simd::registry::KernelRow& row : blake2simd::registry::kKernelRows) {
        if (row.built && blake2simd::registry::meets(row.need, features)) {
            check_kernel(report, row.name, row.blake2b);
            check_kernel(report, row.name, row.blake2s);
        }
    }
    return report.finish();
}
