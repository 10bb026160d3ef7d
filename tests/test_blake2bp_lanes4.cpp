// Every usable 4-lane candidate against four blake2b_compress_ref runs, this process's live choice
// for every form and request, and the first use's cost. (The pure choice of every form, over
// synthetic measurements, is test_dispatch's.)
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
#include <ctime>
#include <string>
#include <string_view>
#include <vector>

#include "forms.hpp"
#include "kernels_check.hpp"

namespace {

using namespace blake2simd;
using dispatch::Form;

const char* name_of(KernelId id) {
    return registry::row_of(id).name;
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

b2test::Report& report() {
    static b2test::Report tally("test_blake2bp_lanes4", 20);
    return tally;
}

bool check(bool condition, const std::string& what) {
    return report().check(condition, what);
}

void reference4(Blake2bState* states, const uint8_t* const* blocks, size_t count, size_t stride,
                uint64_t increment) {
    for (size_t lane = 0; lane < kBlake2bpLanes; ++lane) {
        for (size_t k = 0; k < count; ++k) {
            kernels::blake2b_compress_ref(&states[lane], blocks[lane] + k * stride, 1, increment);
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
        Blake2bState expected[kBlake2bpLanes + 1];  // one guard state after the four
        for (auto& state : expected) {
            for (auto& word : state.h) {
                word = random.next();
            }
            state.t[0] = random.below(4) == 0 ? ~0ULL - random.below(600) : random.next();
            state.t[1] = random.next();
            state.f[0] = random.below(2) != 0 ? ~0ULL : 0;
            state.f[1] = random.below(2) != 0 ? ~0ULL : 0;
        }
        Blake2bState actual[kBlake2bpLanes + 1];
        std::memcpy(actual, expected, sizeof actual);

        const size_t count = random.below(9);
        const uint64_t increment = random.below(3) == 0 ? random.below(129) : 128;
        const uint8_t* blocks[kBlake2bpLanes];
        size_t stride = 0;
        switch (random.below(3)) {
            case 0: {  // BLAKE2bp
                const uint8_t* base = area.data() + random.below(64);
                for (size_t lane = 0; lane < kBlake2bpLanes; ++lane) {
                    blocks[lane] = base + lane * kBlake2bBlockBytes;
                }
                stride = kBlake2bpLanes * kBlake2bBlockBytes;
                break;
            }
            case 1:  // one shared block
                blocks[0] = blocks[1] = blocks[2] = blocks[3] = area.data() + random.below(512);
                stride = 0;
                break;
            default:
                stride = kBlake2bBlockBytes + random.below(1024);
                for (size_t lane = 0; lane < kBlake2bpLanes; ++lane) {
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

// --- this process

struct Options {
    int random_cases = 2000;
    bool have_cpu_features = false;
    std::string runnable_isas;  // the baseline kernels and the CPU model's features
};

// What the first use of the provider does (provider.cpp make_kernel_choice): detection, the
// self-tests and all four calibrations (BLAKE2b, 4-lane, BLAKE2s, 8-lane). Its time is printed,
// not bounded (speed is the benchmark's business); the work it may do is bounded below, in
// test_calibration_work_bound.
void measure_first_use() {
    const bool fresh = !dispatch::calibration_has_run();
    timespec cpu_start{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu_start);
    const auto start = std::chrono::steady_clock::now();
    const dispatch::Servings servings = dispatch::serve(dispatch::parse_request("auto"));
    const double microseconds =
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
    timespec cpu_stop{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu_stop);
    const double cpu_microseconds = static_cast<double>(cpu_stop.tv_sec - cpu_start.tv_sec) * 1e6 +
                                    static_cast<double>(cpu_stop.tv_nsec - cpu_start.tv_nsec) / 1e3;
    check(fresh, "nothing was calibrated before the first selection");
    std::printf("first use (auto): %.1f us, %.1f us CPU; calibration", microseconds,
                cpu_microseconds);
    for (const dispatch::FormRow& form : dispatch::kForms) {
        const double spent = dispatch::calibration_microseconds(form.form);
        std::printf(" %s%s %.1f us", form.form == Form::blake2b ? "" : "+ ", form.label, spent);
        check(spent > 0, std::string(form.label) + ": calibrated");
        check(servings[dispatch::index_of(form.form)].served,
              std::string(form.label) + ": automatic selection serves");
    }
    std::printf("\n");
    for (const dispatch::FormRow& form : dispatch::kForms) {
        std::printf("%s %s\n", form.label, servings[dispatch::index_of(form.form)].description);
    }
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
    const auto candidates = dispatch::candidates(Form::blake2bp);
    const auto measurements = dispatch::measurements(Form::blake2bp);
    const cpu::CpuFeatures& features = cpu::detected_features();
    check(measurements.size() == candidates.size(), "one 4-lane measurement per candidate");
    check(!candidates.empty() && candidates[0].id == KernelId::ref && candidates[0].lane_by_lane,
          "the reference lane by lane is the first candidate");
    const auto singles = dispatch::candidates(Form::blake2b);
    int compared = 0;
    for (size_t i = 0; i < candidates.size(); ++i) {
        const dispatch::Candidate& candidate = candidates[i];
        const char* name = name_of(candidate.id);
        const char* form = candidate.lane_by_lane ? "lane by lane" : "native 4-lane";
        bool runnable = !candidate.lane_by_lane && dispatch::cpu_can_run(candidate.id, features);
        for (size_t k = 0; k < singles.size() && candidate.lane_by_lane; ++k) {
            runnable = runnable ||
                       (singles[k].id == candidate.id && dispatch::facts(Form::blake2b)[k].usable);
        }
        const bool usable = measurements[i].usable;
        std::printf("  %-7s %-13s %-10s", name, form, usable ? "usable" : "not usable");
        if (usable) {
            std::printf(" %8.1f ns/step %7.0f MB/s", measurements[i].nanoseconds_per_unit,
                        static_cast<double>(kBlake2bpLanes * kBlake2bBlockBytes) * 1000.0 /
                            measurements[i].nanoseconds_per_unit);
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
        const bool passes = dispatch::passes_self_test(Form::blake2bp, candidate.entry);
        check(passes, what + " passes the 4-lane self-test");
        check(usable == passes, what + ": usable = runnable and self-test");
        check(!usable || measurements[i].nanoseconds_per_unit > 0, what + " was measured");
        compare_random(what.c_str(), candidate.entry.blake2b_lanes, options.random_cases, random);
        ++compared;
    }
    // The live choice is the pure decision over the live measurements.
    const dispatch::KernelRequest automatic = dispatch::parse_request("auto");
    const dispatch::Serving pure =
        dispatch::choose(Form::blake2bp, automatic, features, candidates, measurements);
    const dispatch::Serving live = dispatch::serve(automatic)[dispatch::index_of(Form::blake2bp)];
    check(pure.candidate.entry.blake2b_lanes == live.candidate.entry.blake2b_lanes,
          "serve (auto) = choose over this process's measurements");
    std::printf("%d 4-lane candidates compared with the reference\n", compared);
}

// Whether registry row `id` has a candidate in the form (a request naming it can be served).
bool has_candidate(Form form, KernelId id) {
    for (const dispatch::Candidate& candidate : dispatch::candidates(form)) {
        if (candidate.id == id) {
            return true;
        }
    }
    return false;
}

// One form's serving of one request: it serves, runs here, and keeps a named instruction set.
void check_serving(const Options& options, const char* request, const dispatch::FormRow& form,
                   const dispatch::Serving& serving) {
    const std::string what = std::string("request '") + request + "': " + form.label + " " +
                             (serving.served ? serving.name() : "(none)");
    if (!check(serving.served, what + " serves")) {
        return;
    }
    const std::string_view served = serving.name();
    const dispatch::KernelRequest parsed = dispatch::parse_request(request);
    const bool named = parsed.kind == dispatch::KernelRequest::Kind::named &&
                       std::string_view(name_of(parsed.id)) == served;
    check(serving.automatic == !named, what + ": automatic unless served by name");
    check(dispatch::cpu_can_run(serving.candidate.id, cpu::detected_features()),
          what + " runs on this CPU");
    if (options.have_cpu_features) {
        check(in_list(options.runnable_isas, served),
              what + " not among the CPU model's " + options.runnable_isas);
        if (in_list(options.runnable_isas, request) && has_candidate(form.form, parsed.id)) {
            check(served == request, what + ": the model runs the requested kernel");
        }
    }
}

// Every request, as BLAKE2SIMD_KERNEL or the config would make it, for every form: what serves
// can run here, and a request served by name keeps its instruction set.
void check_every_request(const Options& options) {
    std::vector<const char*> requests = {"auto", ""};
    for (const registry::KernelRow& row : registry::kKernelRows) {
        requests.push_back(row.name);
    }
    requests.push_back("bogus");
    for (const char* request : requests) {
        const dispatch::Servings servings = dispatch::serve(dispatch::parse_request(request));
        std::printf("request %-8s", request);
        for (const dispatch::FormRow& form : dispatch::kForms) {
            const dispatch::Serving& serving = servings[dispatch::index_of(form.form)];
            std::printf(" %s %s", form.label, serving.served ? serving.name() : "(none)");
            check_serving(options, request, form, serving);
        }
        std::printf("\n");
    }
}

// The kernels every x86-64 CPU model runs (those needing no feature), comma-separated.
std::string baseline_kernel_names() {
    std::string names;
    for (const registry::KernelRow& row : registry::kKernelRows) {
        if (row.need == registry::CpuNeed::nothing || row.need == registry::CpuNeed::x86_64) {
            names.append(names.empty() ? "" : ",").append(row.name);
        }
    }
    return names;
}

bool parse_options(int argc, char** argv, Options& options) {
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        constexpr std::string_view kFeatures = "--cpu-features=";
        if (arg.substr(0, kFeatures.size()) == kFeatures) {
            const std::string_view features = arg.substr(kFeatures.size());
            options.have_cpu_features = true;
            options.runnable_isas = baseline_kernel_names();
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
    Random random(0x6c616e657334ULL);
    check_live_measurements(options, random);
    check_every_request(options);
    // The self-test itself must be able to fail.
    const Compress4Fn broken = [](Blake2bState* states, const uint8_t* const* blocks, size_t count,
                                  size_t stride, uint64_t increment) noexcept {
        reference4(states, blocks, count, stride, increment);
        states[2].h[5] ^= count != 0 ? 1 : 0;
    };
    check(!dispatch::passes_self_test(Form::blake2bp, Entry{.blake2b_lanes = broken}),
          "self-test rejects a broken kernel");
    return report().finish();
}
