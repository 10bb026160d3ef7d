// Guard pages around every input and state: every runnable single-lane kernel (ref included),
// BLAKE2b and BLAKE2s forms, and every usable 4-lane candidate (native and lane by lane) must
// neither read a byte outside its blocks nor write a byte outside its states. Inputs end exactly at
// a PROT_NONE page (and, in a second pass, start right after one); states sit against guard pages
// the same way. An access outside ends the process with SIGSEGV, so a pass means no stray access
// happened. A negative control (a kernel that reads one byte too many, run in a child) shows the
// guard catches it. SPDX-License-Identifier: Apache-2.0
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "forms.hpp"
#include "kernels_check.hpp"
#include "registry.hpp"
#include "support/reference_compress.hpp"

namespace {

using blake2simd::Blake2bState;
using blake2simd::kBlake2bBlockBytes;
using blake2simd::kBlake2bpLanes;
namespace dispatch = blake2simd::dispatch;
using blake2simd::registry::row_of;

constexpr size_t kMaxSteps = 5;
constexpr size_t kAreaBytes = kMaxSteps * kBlake2bpLanes * kBlake2bBlockBytes;

using b2kernels_test::GuardedArea;

void fill(uint8_t* bytes, size_t length, uint32_t seed) {
    for (size_t i = 0; i < length; ++i) {
        seed = seed * 1664525u + 1013904223u;
        bytes[i] = static_cast<uint8_t>(seed >> 24);
    }
}

void initial_states(Blake2bState* states, size_t count) {
    for (size_t lane = 0; lane < count; ++lane) {
        for (size_t i = 0; i < 8; ++i) {
            states[lane].h[i] =
                blake2simd::kBlake2bIV[i] ^ (0x9E3779B97F4A7C15ULL * (lane * 8 + i + 1));
        }
        states[lane].t[0] = lane * 1000;
        states[lane].t[1] = 0;
        states[lane].f[0] = lane == 2 ? ~0ULL : 0;
        states[lane].f[1] = lane == 3 ? ~0ULL : 0;
    }
}

struct Areas {
    GuardedArea input{kAreaBytes};
    GuardedArea states{kBlake2bpLanes * sizeof(Blake2bState)};
    GuardedArea runs[kBlake2bpLanes] = {GuardedArea{kAreaBytes}, GuardedArea{kAreaBytes},
                                        GuardedArea{kAreaBytes}, GuardedArea{kAreaBytes}};
    bool ok() const {
        bool all = input.ok() && states.ok();
        for (const GuardedArea& run : runs) {
            all = all && run.ok();
        }
        return all;
    }
};

// --- single lane

void check_single_lane(b2test::Report& checks, const blake2simd::Blake2bFamily::Kernel& kernel,
                       const Areas& areas) {
    int cases = 0;
    for (const bool at_end : {true, false}) {
        for (const size_t blocks :
             {size_t{1}, size_t{2}, size_t{3}, size_t{kMaxSteps * kBlake2bpLanes}}) {
            for (const uint64_t increment : {uint64_t{kBlake2bBlockBytes}, uint64_t{77}}) {
                const size_t bytes = blocks * kBlake2bBlockBytes;
                uint8_t* input = at_end ? areas.input.at_end(bytes) : areas.input.at_start();
                fill(input, bytes, static_cast<uint32_t>(blocks * 31 + increment));
                auto* state = reinterpret_cast<Blake2bState*>(
                    at_end ? areas.states.at_end(sizeof(Blake2bState)) : areas.states.at_start());
                Blake2bState expected;
                initial_states(&expected, 1);
                *state = expected;
                blake2simd::kernels::blake2b_compress_ref(&expected, input, blocks, increment);
                kernel.compress(state, input, blocks, increment);
                const std::string what = std::string(kernel.name) + ", " + std::to_string(blocks) +
                                         " blocks " + (at_end ? "ending at" : "starting at") +
                                         " a guard page";
                checks.check(std::memcmp(state, &expected, sizeof expected) == 0, what.c_str());
                ++cases;
            }
        }
    }
    std::printf("  %-7s single lane: %d guarded cases\n", kernel.name, cases);
}

// --- single lane, BLAKE2s

void check_blake2s_single_lane(b2test::Report& checks, const char* name,
                               blake2simd::Blake2sCompressFn compress, const Areas& areas) {
    using blake2simd::Blake2sState;
    using blake2simd::kBlake2sBlockBytes;
    int cases = 0;
    for (const bool at_end : {true, false}) {
        for (const size_t blocks :
             {size_t{1}, size_t{2}, size_t{3}, size_t{kMaxSteps * kBlake2bpLanes}}) {
            for (const uint32_t increment : {uint32_t{kBlake2sBlockBytes}, uint32_t{37}}) {
                const size_t bytes = blocks * kBlake2sBlockBytes;
                uint8_t* input = at_end ? areas.input.at_end(bytes) : areas.input.at_start();
                fill(input, bytes, static_cast<uint32_t>(blocks * 17 + increment));
                auto* state = reinterpret_cast<Blake2sState*>(
                    at_end ? areas.states.at_end(sizeof(Blake2sState)) : areas.states.at_start());
                Blake2sState expected{};
                for (size_t i = 0; i < 8; ++i) {
                    expected.h[i] =
                        blake2simd::kBlake2sIV[i] ^ static_cast<uint32_t>(i * 0x9E3779B9U);
                }
                expected.t[0] = 0xFFFFFFC0U;  // the counter carries inside the call
                expected.f[0] = blocks == 1 ? ~0U : 0;
                *state = expected;
                b2kernels_test::reference_blake2s_compress(&expected, input, blocks, increment);
                compress(state, input, blocks, increment);
                const std::string what = std::string(name) + " BLAKE2s, " + std::to_string(blocks) +
                                         " blocks " + (at_end ? "ending at" : "starting at") +
                                         " a guard page";
                checks.check(std::memcmp(state, &expected, sizeof expected) == 0, what.c_str());
                ++cases;
            }
        }
    }
    std::printf("  %-7s BLAKE2s single lane: %d guarded cases\n", name, cases);
}

// --- four lanes

void reference4(Blake2bState* states, const uint8_t* const* blocks, size_t block_count,
                size_t stride, uint64_t increment) {
    for (size_t k = 0; k < block_count; ++k) {
        for (size_t lane = 0; lane < kBlake2bpLanes; ++lane) {
            blake2simd::kernels::blake2b_compress_ref(&states[lane], blocks[lane] + k * stride, 1,
                                                      increment);
        }
    }
}

void run4(b2test::Report& checks, const dispatch::Candidate& candidate, const char* name,
          const Areas& areas, bool states_at_end, const uint8_t* const* blocks, size_t steps,
          size_t stride, const char* layout) {
    auto* states = reinterpret_cast<Blake2bState*>(
        states_at_end ? areas.states.at_end(kBlake2bpLanes * sizeof(Blake2bState))
                      : areas.states.at_start());
    Blake2bState expected[kBlake2bpLanes];
    initial_states(expected, kBlake2bpLanes);
    std::memcpy(states, expected, sizeof expected);
    reference4(expected, blocks, steps, stride, kBlake2bBlockBytes);
    candidate.entry.blake2b_lanes(states, blocks, steps, stride, kBlake2bBlockBytes);
    const std::string what = std::string(name) +
                             (candidate.lane_by_lane ? " lane by lane " : " native 4-lane ") +
                             layout + ", " + std::to_string(steps) + " steps";
    checks.check(std::memcmp(states, expected, sizeof expected) == 0, what.c_str());
}

void check_four_lanes(b2test::Report& checks, const dispatch::Candidate& candidate,
                      const char* name, const Areas& areas) {
    int cases = 0;
    for (const bool at_end : {true, false}) {
        for (size_t steps = 1; steps <= kMaxSteps; steps += 2) {
            // BLAKE2bp's layout: lane i reads block i of each 512-byte group.
            const size_t bytes = steps * kBlake2bpLanes * kBlake2bBlockBytes;
            uint8_t* message = at_end ? areas.input.at_end(bytes) : areas.input.at_start();
            fill(message, bytes, static_cast<uint32_t>(steps));
            const uint8_t* interleaved[kBlake2bpLanes] = {message, message + kBlake2bBlockBytes,
                                                          message + 2 * kBlake2bBlockBytes,
                                                          message + 3 * kBlake2bBlockBytes};
            run4(checks, candidate, name, areas, at_end, interleaved, steps,
                 kBlake2bpLanes * kBlake2bBlockBytes,
                 at_end ? "interleaved, ending at a guard" : "interleaved, starting at a guard");
            // Four separate runs, each against its own guard page.
            const uint8_t* runs[kBlake2bpLanes];
            for (size_t lane = 0; lane < kBlake2bpLanes; ++lane) {
                uint8_t* run = at_end ? areas.runs[lane].at_end(steps * kBlake2bBlockBytes)
                                      : areas.runs[lane].at_start();
                fill(run, steps * kBlake2bBlockBytes, static_cast<uint32_t>(lane + 7 * steps));
                runs[lane] = run;
            }
            run4(checks, candidate, name, areas, !at_end, runs, steps, kBlake2bBlockBytes,
                 "separate runs, each against a guard");
            cases += 2;
        }
        // One shared block (stride 0), as BLAKE2bp's key block.
        uint8_t* block = at_end ? areas.input.at_end(kBlake2bBlockBytes) : areas.input.at_start();
        fill(block, kBlake2bBlockBytes, 99);
        const uint8_t* shared[kBlake2bpLanes] = {block, block, block, block};
        run4(checks, candidate, name, areas, at_end, shared, 1, 0, "one shared block at a guard");
        ++cases;
    }
    std::printf("  %-7s %-13s: %d guarded cases\n", name,
                candidate.lane_by_lane ? "lane by lane" : "native 4-lane", cases);
}

// --- negative control

void over_reading_kernel(Blake2bState* state, const uint8_t* blocks, size_t block_count,
                         uint64_t) noexcept {
    const volatile uint8_t* past = blocks + block_count * kBlake2bBlockBytes;
    state->h[0] ^= *past;
}

constexpr int kFaulted = 42;

void on_fault(int) {
    _exit(kFaulted);
}

// Our own handler, so a sanitizer's report-and-abort does not hide which signal it was.
bool guard_catches_an_over_read(const Areas& areas) {
    std::fflush(stdout);
    const pid_t pid = fork();
    if (pid == 0) {
        struct sigaction action {};
        action.sa_handler = on_fault;
        sigemptyset(&action.sa_mask);
        sigaction(SIGSEGV, &action, nullptr);
        Blake2bState state{};
        over_reading_kernel(&state, areas.input.at_end(kBlake2bBlockBytes), 1, kBlake2bBlockBytes);
        _exit(0);
    }
    int status = 0;
    return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
           WEXITSTATUS(status) == kFaulted;
}

// The indices of a single-lane form's usable candidates; the others are named.
std::vector<size_t> usable_candidates(dispatch::Form form) {
    std::vector<size_t> usable;
    for (size_t i = 0; i < dispatch::candidates(form).size(); ++i) {
        if (dispatch::facts(form)[i].usable) {
            usable.push_back(i);
        } else {
            std::printf("  %-7s %s: not runnable here\n",
                        row_of(dispatch::candidates(form)[i].id).name,
                        dispatch::kForms[dispatch::index_of(form)].title);
        }
    }
    return usable;
}

}  // namespace

int main() {
    b2test::Report checks("test_kernel_guards");
    const Areas areas;
    if (!areas.ok()) {
        std::fprintf(stderr, "cannot map guarded areas\n");
        return 1;
    }
    checks.check(guard_catches_an_over_read(areas),
                 "negative control: a kernel reading one byte past its block gets SIGSEGV");
    using dispatch::Form;
    for (const size_t i : usable_candidates(Form::blake2b)) {
        const dispatch::Candidate& c = dispatch::candidates(Form::blake2b)[i];
        check_single_lane(checks, {row_of(c.id).name, c.entry.blake2b}, areas);
    }
    for (const size_t i : usable_candidates(Form::blake2s)) {
        const dispatch::Candidate& c = dispatch::candidates(Form::blake2s)[i];
        check_blake2s_single_lane(checks, row_of(c.id).name, c.entry.blake2s, areas);
    }
    const auto candidates = dispatch::candidates(Form::blake2bp);
    const auto measurements = dispatch::facts(Form::blake2bp);
    for (size_t i = 0; i < candidates.size(); ++i) {
        const dispatch::Candidate& candidate = candidates[i];
        const char* name = row_of(candidate.id).name;
        if (!measurements[i].usable) {
            std::printf("  %-7s %-13s: not usable here\n", name,
                        candidate.lane_by_lane ? "lane by lane" : "native 4-lane");
            continue;
        }
        check_four_lanes(checks, candidate, name, areas);
    }
    return checks.finish();
}
