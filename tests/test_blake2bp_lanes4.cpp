// Every usable 4-lane candidate against four compress_ref runs, and the choice among them:
// the pure choose_lanes4() over synthetic measurements, then this process's live choice.
// SPDX-License-Identifier: Apache-2.0
//
// Usage: test_blake2bp_lanes4 [random_cases] [--cpu-features=ssse3,avx,...|none]
//   random_cases    per usable candidate (default 2000)
//   --cpu-features  what the CPU (model) is known to expose, as qemu.cmake lists it; every
//                   4-lane kernel served, for every request, must then be one it can run
#include <algorithm>
#include <array>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "calibration.hpp"
#include "dispatch.hpp"
#include "kernels_check.hpp"
#include "lanes4.hpp"
#include "registry.hpp"

namespace {

using namespace blake2simd;
using dispatch::Lanes4Candidate;
using dispatch::Lanes4Measurement;

// Every kernel the registry knows, built or not.
constexpr size_t kIdCount = registry::kKnownKernelCount;

constexpr KernelId id_of(size_t index) {
    return registry::kKernelRows[index].id;
}

const char* name_of(KernelId id) {
    return registry::row_of(id).name;
}

bool contains(const char* text, std::string_view part) {
    return std::string_view(text).find(part) != std::string_view::npos;
}

bool in_list(const std::string& list, std::string_view item) {
    size_t start = 0;
    while (start <= list.size()) {
        const size_t end = std::min(list.find(',', start), list.size());
        if (std::string_view(list).substr(start, end - start) == item) {
            return true;
        }
        start = end + 1;
    }
    return false;
}

using b2kernels_test::Random;

int failures = 0;
int checks = 0;

bool check(bool condition, const std::string& what) {
    ++checks;
    if (!condition) {
        if (++failures <= 20) {
            std::fprintf(stderr, "FAIL: %s\n", what.c_str());
        }
    }
    return condition;
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

// --- the pure decision

void fake_compress4(Blake2bState*, const uint8_t* const*, size_t, size_t, uint64_t) noexcept {}

// Like the build's table, but for every kernel the registry knows, built or not: each lane by
// lane, the reference first, then the native 4-lane forms of those that have one.
constexpr size_t native4_count() {
    size_t count = 0;
    for (const registry::KernelRow& row : registry::kKernelRows) {
        count += row.blake2b.has_native4 ? 1 : 0;
    }
    return count;
}

constexpr auto synthetic_candidates() {
    std::array<Lanes4Candidate, kIdCount + native4_count()> all{};
    size_t next = 0;
    for (size_t i = 0; i < kIdCount; ++i) {
        all[next++] = {id_of(i), true, &fake_compress4};
    }
    for (size_t i = 0; i < kIdCount; ++i) {
        if (registry::kKernelRows[i].blake2b.has_native4) {
            all[next++] = {id_of(i), false, &fake_compress4};
        }
    }
    return all;
}
constexpr auto kSyntheticCandidates = synthetic_candidates();
constexpr size_t kSyntheticCount = kSyntheticCandidates.size();

cpu::CpuFeatures features_from_mask(unsigned mask) {
    return cpu::CpuFeatures{(mask & 1) != 0, (mask & 2) != 0, (mask & 4) != 0, (mask & 8) != 0,
                            (mask & 16) != 0};
}

// The candidate a selection names (its name and form identify it), or kSyntheticCount.
size_t synthetic_index(const dispatch::Lanes4Selection& selection) {
    for (size_t i = 0; i < kSyntheticCount; ++i) {
        if (std::string_view(selection.kernel.name) == name_of(kSyntheticCandidates[i].id) &&
            selection.lane_by_lane == kSyntheticCandidates[i].lane_by_lane) {
            return i;
        }
    }
    return kSyntheticCount;
}

void check_one_choice(KernelId id, bool automatic, const cpu::CpuFeatures& features,
                      const Lanes4Measurement* measurements) {
    const auto usable = [&](size_t i) {
        return measurements[i].usable &&
               dispatch::cpu_can_run(kSyntheticCandidates[i].id, features);
    };
    size_t usable_count = 0;
    for (size_t i = 0; i < kSyntheticCount; ++i) {
        usable_count += usable(i) ? 1 : 0;
    }
    const dispatch::Lanes4Selection selection = dispatch::choose_lanes4(
        id, automatic, features, kSyntheticCandidates, {measurements, kSyntheticCount});
    const std::string what =
        std::string("choose_lanes4(") + name_of(id) + (automatic ? ", auto)" : ", named)");
    if (usable_count == 0) {
        check(selection.kernel.compress4 == nullptr && contains(selection.description, "none"),
              what + ": nothing usable serves nothing");
        return;
    }
    if (!check(selection.kernel.compress4 != nullptr && selection.kernel.name != nullptr,
               what + ": serves a candidate")) {
        return;
    }
    const size_t chosen = synthetic_index(selection);
    if (!check(chosen < kSyntheticCount && usable(chosen),
               what + ": never a candidate the features lack or that is unusable")) {
        return;
    }
    check(contains(selection.description, selection.kernel.name), what + ": description names it");
    const auto find = [&](bool lane_by_lane) {
        for (size_t i = 0; i < kSyntheticCount; ++i) {
            if (kSyntheticCandidates[i].id == id &&
                kSyntheticCandidates[i].lane_by_lane == lane_by_lane && usable(i)) {
                return i;
            }
        }
        return kSyntheticCount;
    };
    if (automatic) {
        check(contains(selection.description, "auto") && contains(selection.description, "MB/s"),
              what + ": description says auto and the speed");
        for (size_t i = 0; i < kSyntheticCount; ++i) {
            if (usable(i)) {
                check(measurements[chosen].nanoseconds_per_step <=
                          measurements[i].nanoseconds_per_step,
                      what + ": the fastest usable candidate serves");
                if (measurements[i].nanoseconds_per_step ==
                    measurements[chosen].nanoseconds_per_step) {
                    check(chosen <= i, what + ": a tie keeps the earlier candidate");
                }
            }
        }
        return;
    }
    // Named: the same instruction set, native first; otherwise the first usable.
    const size_t native = find(false);
    const size_t by_lane = find(true);
    size_t expected = native != kSyntheticCount ? native : by_lane;
    for (size_t i = 0; i < kSyntheticCount && expected == kSyntheticCount; ++i) {
        expected = usable(i) ? i : kSyntheticCount;
    }
    check(chosen == expected, what + ": served " + selection.kernel.name + ", expected " +
                                  name_of(kSyntheticCandidates[expected].id));
}

// An odd step through the unusable-candidate bit patterns: about 24 patterns whatever the count.
constexpr unsigned kUnusableStep = ((1u << kSyntheticCount) / 24) | 1u;

void test_choose_lanes4() {
    for (unsigned mask = 0; mask < 32; ++mask) {
        const cpu::CpuFeatures features = features_from_mask(mask);
        for (unsigned unusable = 0; unusable < (1u << kSyntheticCount); unusable += kUnusableStep) {
            for (unsigned order = 0; order < 4; ++order) {
                Lanes4Measurement measurements[kSyntheticCount];
                for (size_t i = 0; i < kSyntheticCount; ++i) {
                    measurements[i].usable = (unusable & (1u << i)) == 0;
                    // Orders: newest fastest, newest slowest, scrambled, all equal.
                    const double rank = order == 0   ? static_cast<double>(kSyntheticCount - i)
                                        : order == 1 ? static_cast<double>(i + 1)
                                        : order == 2 ? static_cast<double>((i * 5) % 7 + 1)
                                                     : 1.0;
                    measurements[i].nanoseconds_per_step = 250.0 * rank;
                }
                for (size_t id = 0; id < kIdCount; ++id) {
                    check_one_choice(id_of(id), true, features, measurements);
                    check_one_choice(id_of(id), false, features, measurements);
                }
            }
        }
    }
    // Measured speed decides, not the instruction set's age: a scalar kernel lane by lane that
    // outran the native AVX-512 kernel serves, whatever the single-lane choice was. The scalar
    // one is x64 where this CPU architecture runs it, else the reference.
    const cpu::CpuFeatures everything = features_from_mask(31);
    const size_t scalar = dispatch::cpu_can_run(KernelId::x64, everything) ? 1 : 0;
    Lanes4Measurement scalar_wins[kSyntheticCount];
    for (size_t i = 0; i < kSyntheticCount; ++i) {
        scalar_wins[i] = {true, i == scalar ? 100.0 : 400.0 - 10.0 * static_cast<double>(i)};
    }
    for (size_t id = 0; id < kIdCount; ++id) {
        const auto selection =
            dispatch::choose_lanes4(id_of(id), true, everything, kSyntheticCandidates, scalar_wins);
        check(
            synthetic_index(selection) == scalar && contains(selection.description, "lane by lane"),
            std::string("the fastest (") + name_of(kSyntheticCandidates[scalar].id) +
                " lane by lane) serves beside auto " + name_of(id_of(id)));
    }
    // ... and a named request is not overruled by speed.
    const auto named = dispatch::choose_lanes4(KernelId::avx2, false, everything,
                                               kSyntheticCandidates, scalar_wins);
    const size_t native_avx2 =
        static_cast<size_t>(std::find_if(kSyntheticCandidates.begin(), kSyntheticCandidates.end(),
                                         [](const Lanes4Candidate& c) {
                                             return c.id == KernelId::avx2 && !c.lane_by_lane;
                                         }) -
                            kSyntheticCandidates.begin());
    check(synthetic_index(named) == native_avx2,
          "a named avx2 request gets the native avx2 kernel");
}

// --- this process

struct Options {
    int random_cases = 2000;
    bool have_cpu_features = false;
    std::string runnable_isas;  // ref, x64 and the CPU model's features, as kernel names
};

// What the first use of the provider does (provider.cpp make_kernel_choice): detection, the
// self-tests and all four calibrations (BLAKE2b, 4-lane, BLAKE2s, 8-lane). Its time is printed,
// not bounded (speed is the benchmark's business); the work it may do is bounded below, in
// test_calibration_work_bound.
void measure_first_use() {
    const bool fresh =
        !dispatch::calibration_has_run() && !dispatch::lanes4_calibration_has_run() &&
        !dispatch::blake2s_calibration_has_run() && !dispatch::lanes8_calibration_has_run();
    const auto start = std::chrono::steady_clock::now();
    const dispatch::Selection selection = dispatch::select_kernel("auto");
    const dispatch::Lanes4Selection lanes4 = dispatch::select_lanes4(selection);
    const dispatch::Blake2sSelection blake2s = dispatch::select_blake2s("auto");
    const dispatch::Lanes8Selection lanes8 = dispatch::select_lanes8("auto");
    const double microseconds =
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
    check(fresh, "nothing was calibrated before the first selection");
    check(lanes4.kernel.compress4 != nullptr && blake2s.kernel != nullptr &&
              lanes8.kernel.compress8 != nullptr,
          "automatic selection serves 4-lane, BLAKE2s and 8-lane kernels");
    const double single = dispatch::calibration_microseconds();
    const double four = dispatch::lanes4_calibration_microseconds();
    const double single_s = dispatch::blake2s_calibration_microseconds();
    const double eight = dispatch::lanes8_calibration_microseconds();
    std::printf(
        "first use (auto): %.1f us; calibration %.1f us single-lane + %.1f us 4-lane + "
        "%.1f us BLAKE2s + %.1f us 8-lane\n",
        microseconds, single, four, single_s, eight);
    std::printf("kernel %s\nblake2bp %s\nblake2s %s\nblake2sp %s\n", selection.description,
                lanes4.description, blake2s.description, lanes8.description);
    check(single > 0 && four > 0 && single_s > 0 && eight > 0, "all four calibrations ran");
}

// The calibration loop both calibrations use bounds its work, whatever the clock says: every
// usable candidate timed at least once and at most max_rounds times, unusable ones never, the
// minimum kept. A budget already spent stops it after one round; an ample one allows them all.
void test_calibration_work_bound() {
    constexpr size_t kCount = 7;
    const auto usable = [](size_t i) { return i % 3 != 1; };
    for (int max_rounds = 1; max_rounds <= 7; ++max_rounds) {
        for (const double budget : {-1.0, 1e12}) {
            int calls[kCount] = {};
            double best[kCount];
            std::fill(best, best + kCount, -1.0);
            // Each call of a candidate is faster than its last: the minimum is the last one.
            const auto nanoseconds = [](size_t i, int call) {
                return 1000.0 - 10.0 * static_cast<double>(call) + static_cast<double>(i);
            };
            const auto time_one = [&](size_t i) { return nanoseconds(i, ++calls[i]); };
            dispatch::time_best_of_rounds(kCount, max_rounds, budget, usable, time_one, best);
            const int expected_calls = budget < 0 ? 1 : max_rounds;
            for (size_t i = 0; i < kCount; ++i) {
                char what[96];
                std::snprintf(what, sizeof what, "time_best_of_rounds(%d rounds, budget %g) #%zu",
                              max_rounds, budget, i);
                if (!usable(i)) {
                    check(calls[i] == 0 && best[i] == -1.0,
                          std::string(what) + ": unusable, never timed");
                    continue;
                }
                check(calls[i] == expected_calls,
                      std::string(what) + ": timed " + std::to_string(calls[i]) + " times");
                check(best[i] == nanoseconds(i, calls[i]),
                      std::string(what) + ": keeps the minimum");
            }
        }
    }
}

void check_live_measurements(const Options& options, Random& random) {
    const auto candidates = dispatch::lanes4_candidates();
    const auto measurements = dispatch::lanes4_measurements();
    const cpu::CpuFeatures& features = cpu::detected_features();
    check(measurements.size() == candidates.size(), "one 4-lane measurement per candidate");
    check(!candidates.empty() && candidates[0].id == KernelId::ref && candidates[0].lane_by_lane,
          "the reference lane by lane is the first candidate");
    const dispatch::Lanes4Selection automatic =
        dispatch::select_lanes4(dispatch::select_kernel("auto"));
    int compared = 0;
    for (size_t i = 0; i < candidates.size(); ++i) {
        const Lanes4Candidate& candidate = candidates[i];
        const char* name = name_of(candidate.id);
        const char* form = candidate.lane_by_lane ? "lane by lane" : "native 4-lane";
        const KernelInfo* single = dispatch::find_kernel(name);
        const bool runnable = candidate.lane_by_lane
                                  ? single != nullptr && dispatch::is_runnable(*single)
                                  : dispatch::cpu_can_run(candidate.id, features);
        const bool usable = measurements[i].usable;
        std::printf("  %-7s %-13s %-10s", name, form, usable ? "usable" : "not usable");
        if (usable) {
            std::printf(" %8.1f ns/step %7.0f MB/s", measurements[i].nanoseconds_per_step,
                        static_cast<double>(kLanes * kBlockBytes) * 1000.0 /
                            measurements[i].nanoseconds_per_step);
        }
        std::printf("\n");
        const std::string what = std::string(name) + " " + form;
        check(!usable || runnable, what + ": usable only where it can run");
        if (options.have_cpu_features) {
            check(!usable || in_list(options.runnable_isas, name),
                  what + ": usable only on a CPU model that has it");
        }
        if (!runnable) {
            continue;
        }
        const bool passes = dispatch::lanes4_passes_self_test(candidate.compress4);
        check(passes, what + " passes the 4-lane self-test");
        check(usable == passes, what + ": usable = runnable and self-test");
        check(!usable || measurements[i].nanoseconds_per_step > 0, what + " was measured");
        compare_random(what.c_str(), candidate.compress4, options.random_cases, random);
        ++compared;
    }
    // The live choice is the pure decision over the live measurements.
    const dispatch::Lanes4Selection pure =
        dispatch::choose_lanes4(KernelId::ref, true, features, candidates, measurements);
    check(pure.kernel.compress4 == automatic.kernel.compress4,
          "select_lanes4 (auto) = choose_lanes4 over this process's measurements");
    std::printf("%d 4-lane candidates compared with the reference\n", compared);
}

// Every request, as BLAKE2SIMD_KERNEL or the config would make it: the 4-lane kernel that
// serves can run here, and a request served by name keeps its instruction set for BLAKE2bp.
void check_every_request(const Options& options) {
    std::vector<const char*> requests = {"auto", ""};
    for (const registry::KernelRow& row : registry::kKernelRows) {
        requests.push_back(row.name);
    }
    requests.push_back("bogus");
    for (const char* request : requests) {
        const dispatch::Selection selection = dispatch::select_kernel(request);
        if (!check(selection.kernel != nullptr, std::string("request '") + request + "' served")) {
            continue;
        }
        const dispatch::Lanes4Selection lanes4 = dispatch::select_lanes4(selection);
        const std::string what = std::string("request '") + request + "': blake2bp " +
                                 (lanes4.kernel.name != nullptr ? lanes4.kernel.name : "(none)");
        std::printf("request %-8s -> kernel %-7s blake2bp %s\n", request, selection.kernel->name,
                    lanes4.description);
        if (!check(lanes4.kernel.compress4 != nullptr, what + " serves")) {
            continue;
        }
        const std::string_view served = lanes4.kernel.name;
        const bool served_by_name = std::string_view(request) == selection.kernel->name;
        check(selection.automatic == !served_by_name, what + ": automatic unless served by name");
        if (served_by_name) {
            check(served == request, what + ": a named kernel keeps its instruction set");
        }
        const KernelInfo* single = dispatch::find_kernel(lanes4.kernel.name);
        check(dispatch::cpu_can_run(single != nullptr ? single->id : KernelId::ref,
                                    cpu::detected_features()),
              what + " runs on this CPU");
        if (options.have_cpu_features) {
            check(in_list(options.runnable_isas, served),
                  what + " not among the CPU model's " + options.runnable_isas);
            if (in_list(options.runnable_isas, request)) {
                check(served == request, what + ": the model runs the requested kernel");
            }
        }
    }
}

bool parse_options(int argc, char** argv, Options& options) {
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        constexpr std::string_view kFeatures = "--cpu-features=";
        if (arg.substr(0, kFeatures.size()) == kFeatures) {
            const std::string_view features = arg.substr(kFeatures.size());
            options.have_cpu_features = true;
            options.runnable_isas = "ref,x64";
            if (features != "none" && !features.empty()) {
                options.runnable_isas += ",";
                options.runnable_isas += features;
            }
        } else if (!arg.empty() && arg[0] >= '0' && arg[0] <= '9') {
            options.random_cases = std::atoi(argv[i]);
        } else {
            std::fprintf(stderr, "usage: %s [random_cases] [--cpu-features=a,b,...|none]\n",
                         argv[0]);
            return false;
        }
    }
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    Options options;
    if (!parse_options(argc, argv, options)) {
        return 2;
    }
    measure_first_use();
    test_calibration_work_bound();
    test_choose_lanes4();
    Random random(0x6c616e657334ULL);
    check_live_measurements(options, random);
    check_every_request(options);
    // The self-test itself must be able to fail.
    check(!dispatch::lanes4_passes_self_test([](Blake2bState* states, const uint8_t* const* blocks,
                                                size_t count, size_t stride,
                                                uint64_t increment) noexcept {
        reference4(states, blocks, count, stride, increment);
        states[2].h[5] ^= count != 0 ? 1 : 0;
    }),
          "self-test rejects a broken kernel");
    std::printf("test_blake2bp_lanes4: %d checks, %d failed\n", checks, failures);
    return failures == 0 && checks > 0 ? 0 : 1;
}
