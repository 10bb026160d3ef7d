// blake2simd_bench: BLAKE2b-512, BLAKE2bp-512, BLAKE2s-256 and BLAKE2sp-256 throughput of this
// provider against OpenSSL, libsodium and libb2.
// SPDX-License-Identifier: Apache-2.0
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "clock_estimate.hpp"
#include "implementations.hpp"
#include "kdf_bench.hpp"
#include "known_answers.hpp"
#include "report.hpp"
#include "stopwatch.hpp"
#include "xof_bench.hpp"

namespace blake2simd::bench {

const char* operation_name(Operation operation) noexcept {
    switch (operation) {
        case Operation::digest:
            return "digest";
        case Operation::keyed_new_key:
            return "keyed, new key";
        case Operation::keyed_same_key:
            return "keyed, same key";
    }
    return "?";
}

const char* algorithm_name(Algorithm algorithm) noexcept {
    switch (algorithm) {
        case Algorithm::blake2b:
            return "BLAKE2b-512";
        case Algorithm::blake2bp:
            return "BLAKE2bp-512";
        case Algorithm::blake2s:
            return "BLAKE2s-256";
        case Algorithm::blake2sp:
            return "BLAKE2sp-256";
    }
    return "?";
}

size_t digest_size(Algorithm algorithm) noexcept {
    return serial_form(algorithm) == Algorithm::blake2b ? 64 : 32;
}

bool is_tree_mode(Algorithm algorithm) noexcept {
    return algorithm == Algorithm::blake2bp || algorithm == Algorithm::blake2sp;
}

Algorithm serial_form(Algorithm algorithm) noexcept {
    return algorithm == Algorithm::blake2bp   ? Algorithm::blake2b
           : algorithm == Algorithm::blake2sp ? Algorithm::blake2s
                                              : algorithm;
}

void Implementation::set_key(std::span<const uint8_t>) {
    fail("set_key called on " + label() + ", which takes no key");
}

void fail(const std::string& what) {
    std::fprintf(stderr, "blake2simd_bench: %s\n", what.c_str());
    std::exit(2);
}

namespace {

constexpr size_t kSizes[] = {64, 256, 1024, 8192, 65536, 1u << 20};
constexpr size_t kLargestSize = 1u << 20;
// Lengths around the block size, checked (not timed) so a wrong result cannot hide in a fast row.
constexpr size_t kExtraCheckSizes[] = {0, 1, 127, 128, 129, 1000};

struct Options {
    unsigned repetitions = 7;
    double target_ms = 25.0;
    std::string csv_path;
    std::string markdown_path;
    std::string plot_path;
    std::string module_dir = B2_BENCH_MODULE_DIR;
    std::string compared_module_dir;
    std::string only;
    std::string blake2bp_kat_path = B2_BENCH_BLAKE2BP_KAT;
    std::string blake2sp_kat_path = B2_BENCH_BLAKE2SP_KAT;
    bool xof = false;
    bool kdf = false;
};

void print_usage() {
    std::printf(
        "usage: blake2simd_bench [options]\n"
        "  --reps N          repetitions per measurement, median reported (default 7, at least 5)\n"
        "  --target-ms MS    time per measurement (default 25)\n"
        "  --quick           5 repetitions of about 8 ms each (about 9 s in all)\n"
        "  --interleaved     101 repetitions of about 1 ms each: every row sampled in short "
        "slices\n"
        "                    spread over the whole run, so load and clock changes hit all alike\n"
        "  --csv FILE        write every measurement as CSV\n"
        "  --markdown FILE   write the tables to FILE as well as to stdout\n"
        "  --plot FILE.png   render a chart with plot.py (python3 + matplotlib); the CSV goes to\n"
        "                    --csv FILE, or FILE.png.csv\n"
        "  --module-dir DIR  directory holding blake2simd.so (default %s)\n"
        "  --compare-module DIR  also time the blake2simd.so in DIR (say, an earlier commit's),\n"
        "                    its rows (\"compared blake2simd ...\") interleaved with the rest\n"
        "  --xof             the BLAKE2XB/BLAKE2XS rows instead (absorb, squeeze, output blocks\n"
        "                    with the lanes forms on and off) beside SHAKE128/256, BLAKE2B-512\n"
        "  --kdf             HMAC (64 B, 8 KiB), HKDF and PBKDF2-HMAC (1,000,000 iterations)\n"
        "                    over BLAKE2B-512 and BLAKE2S-256, ours beside the default provider's\n"
        "  --only TEXT       time only rows whose label contains TEXT (baselines always run)\n"
        "  --blake2bp-kat FILE  official BLAKE2bp KAT, JSON (default %s)\n"
        "  --blake2sp-kat FILE  official BLAKE2sp KAT, JSON (default %s)\n",
        B2_BENCH_MODULE_DIR, B2_BENCH_BLAKE2BP_KAT, B2_BENCH_BLAKE2SP_KAT);
}

Options parse_options(int argc, char** argv) {
    Options options;
    for (int i = 1; i < argc; ++i) {
        const std::string_view flag = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) {
                fail("missing value after " + std::string(flag));
            }
            return argv[++i];
        };
        if (flag == "--reps") {
            options.repetitions = static_cast<unsigned>(std::strtoul(value().c_str(), nullptr, 10));
        } else if (flag == "--target-ms") {
            options.target_ms = std::strtod(value().c_str(), nullptr);
        } else if (flag == "--quick") {
            options.repetitions = 5;
            options.target_ms = 8.0;
        } else if (flag == "--interleaved") {
            options.repetitions = 101;
            options.target_ms = 1.0;
        } else if (flag == "--xof") {
            options.xof = true;
        } else if (flag == "--kdf") {
            options.kdf = true;
        } else if (flag == "--csv") {
            options.csv_path = value();
        } else if (flag == "--markdown") {
            options.markdown_path = value();
        } else if (flag == "--plot") {
            options.plot_path = value();
        } else if (flag == "--module-dir") {
            options.module_dir = value();
        } else if (flag == "--compare-module") {
            options.compared_module_dir = value();
        } else if (flag == "--only") {
            options.only = value();
        } else if (flag == "--blake2bp-kat") {
            options.blake2bp_kat_path = value();
        } else if (flag == "--blake2sp-kat") {
            options.blake2sp_kat_path = value();
        } else if (flag == "--help" || flag == "-h") {
            print_usage();
            std::exit(0);
        } else {
            print_usage();
            fail("unknown option " + std::string(flag));
        }
    }
    if (options.repetitions < 5) {
        fail("--reps must be at least 5 (the median of fewer is too easily skewed)");
    }
    if (!(options.target_ms > 0.0)) {
        fail("--target-ms must be positive");
    }
    if (!options.plot_path.empty() && options.csv_path.empty()) {
        options.csv_path = options.plot_path + ".csv";
    }
    return options;
}

// Deterministic bytes (splitmix64), so every run and every implementation hashes the same input.
std::vector<uint8_t> pseudo_random_bytes(size_t count, uint64_t seed) {
    std::vector<uint8_t> bytes(count);
    for (size_t i = 0; i < count; ++i) {
        seed += 0x9E3779B97F4A7C15ull;
        uint64_t z = seed;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        bytes[i] = static_cast<uint8_t>(z ^ (z >> 31));
    }
    return bytes;
}

Implementation& baseline_for(const ImplementationList& rows, const Implementation& row) {
    for (const auto& baseline : rows) {
        if (baseline->is_openssl_default() && baseline->operation() == row.operation() &&
            baseline->algorithm() == serial_form(row.algorithm())) {
            return *baseline;
        }
    }
    fail("no OpenSSL default baseline row for " + row.label());
}

bool same_digest(Implementation& reference, Implementation& row, std::span<const uint8_t> message) {
    uint8_t expected[kMaxDigestSize];
    uint8_t actual[kMaxDigestSize];
    reference.hash(message, expected);
    row.hash(message, actual);
    return std::memcmp(expected, actual, row.digest_size()) == 0;
}

void report_wrong(const Implementation& row, const std::string& where) {
    std::fprintf(stderr, "WRONG RESULT: %s [%s] %s; row dropped\n", row.label().c_str(),
                 row.kernel().c_str(), where.c_str());
}

std::vector<size_t> checked_lengths() {
    std::vector<size_t> lengths(std::begin(kSizes), std::end(kSizes));
    lengths.insert(lengths.end(), std::begin(kExtraCheckSizes), std::end(kExtraCheckSizes));
    return lengths;
}

// Must match `reference` at every benchmarked size and the lengths around the block size.
bool matches_at_all_lengths(Implementation& reference, Implementation& row,
                            std::span<const uint8_t> message) {
    for (size_t length : checked_lengths()) {
        if (!same_digest(reference, row, message.first(length))) {
            report_wrong(row, "at " + std::to_string(length) + " bytes");
            return false;
        }
    }
    return true;
}

// The official entries of the row's kind (unkeyed or keyed), through the timed object itself.
bool matches_known_answers(Implementation& row, const std::vector<KnownAnswer>& answers,
                           std::span<const uint8_t> bench_key) {
    bool right = true;
    for (const KnownAnswer& answer : answers) {
        if (answer.key.empty() == row.is_keyed() || answer.digest.size() != row.digest_size()) {
            continue;
        }
        if (row.is_keyed()) {
            row.set_key(answer.key);
        }
        uint8_t actual[kMaxDigestSize];
        row.hash(answer.message, actual);
        if (std::memcmp(actual, answer.digest.data(), row.digest_size()) != 0) {
            report_wrong(row, "on the official KAT entry with " +
                                  std::to_string(answer.message.size()) + " message bytes");
            right = false;
            break;
        }
    }
    if (row.is_keyed()) {
        row.set_key(bench_key);
    }
    return right;
}

// libb2's row of the same tree mode and kind (a keyed one for both keyed forms), if still kept.
Implementation* tree_reference_for(const ImplementationList& rows, const std::vector<bool>& wrong,
                                   const Implementation& row) {
    for (size_t r = 0; r < rows.size(); ++r) {
        if (rows[r]->is_tree_reference() && !wrong[r] && rows[r]->algorithm() == row.algorithm() &&
            rows[r]->is_keyed() == row.is_keyed()) {
            return rows[r].get();
        }
    }
    return nullptr;
}

// The official KAT of one tree mode and the libb2 function that vouches for longer messages.
struct TreeCheck {
    Algorithm algorithm;
    const char* libb2_name;
    std::string kat_path;
    std::vector<KnownAnswer> answers;
    std::string error;
    size_t against_libb2 = 0;
};

std::string tree_check_summary(const TreeCheck& check) {
    const std::string name = algorithm_name(check.algorithm);
    const std::string mode = name.substr(0, name.find('-'));
    return mode + " check before timing: " + std::to_string(check.answers.size()) +
           " official KAT entries (" + check.kat_path + ")" +
           (check.against_libb2 > 0
                ? ", and libb2's " + std::string(check.libb2_name) +
                      " at every benchmarked size and at 0, 1, 127, 128, 129 and 1000 bytes"
                : ", only (no libb2 " + std::string(check.libb2_name) +
                      " to compare with at longer sizes)");
}

// Every row must reproduce an independent answer before it is timed; mismatching rows are
// removed. BLAKE2b and BLAKE2s: OpenSSL's default provider. BLAKE2bp and BLAKE2sp (OpenSSL has
// neither): the official KAT for every row, libb2's included, then libb2's function, if it passed
// the KAT, at every benchmarked size; never this provider's own output.
bool drop_wrong_rows(ImplementationList& rows, std::span<const uint8_t> message,
                     std::span<const uint8_t> key, const Options& options,
                     Environment& environment) {
    std::vector<bool> wrong(rows.size(), false);
    TreeCheck checks[] = {{Algorithm::blake2bp, "blake2bp", options.blake2bp_kat_path, {}, {}},
                          {Algorithm::blake2sp, "blake2sp", options.blake2sp_kat_path, {}, {}}};
    for (TreeCheck& check : checks) {
        check.answers = read_known_answers(check.kat_path, check.error);
    }
    auto check_of = [&checks](const Implementation& row) -> TreeCheck& {
        return row.algorithm() == Algorithm::blake2bp ? checks[0] : checks[1];
    };
    for (size_t r = 0; r < rows.size(); ++r) {
        Implementation& row = *rows[r];
        if (!is_tree_mode(row.algorithm())) {
            wrong[r] = !matches_at_all_lengths(baseline_for(rows, row), row, message);
        } else if (const TreeCheck& check = check_of(row); check.answers.empty()) {
            report_wrong(row, "unchecked: " + check.error);
            wrong[r] = true;
        } else {
            wrong[r] = !matches_known_answers(row, check.answers, key);
        }
    }
    for (size_t r = 0; r < rows.size(); ++r) {
        Implementation& row = *rows[r];
        if (!is_tree_mode(row.algorithm()) || row.is_tree_reference() || wrong[r]) {
            continue;
        }
        if (Implementation* reference = tree_reference_for(rows, wrong, row)) {
            wrong[r] = !matches_at_all_lengths(*reference, row, message);
            ++check_of(row).against_libb2;
        }
    }
    for (const TreeCheck& check : checks) {
        environment.lines.push_back(tree_check_summary(check));
    }

    ImplementationList kept;
    for (size_t r = 0; r < rows.size(); ++r) {
        if (!wrong[r]) {
            kept.push_back(std::move(rows[r]));
        }
    }
    const bool all_right = kept.size() == rows.size();
    rows = std::move(kept);
    return all_right;
}

// Folded into a volatile at the end, so the compiler cannot discard any digest.
uint64_t g_digest_checksum = 0;
// Totals over all timed batches: their ratio is the share of the CPU this process got.
double g_total_cpu_ns = 0.0;
double g_total_wall_ns = 0.0;

// Returns the batch's CPU time in nanoseconds: this thread's, or the whole process's for a row
// that computes on other threads too.
double time_batch(Implementation& row, std::span<const uint8_t> message, uint64_t calls) {
    uint8_t out[kMaxDigestSize];
    uint64_t fold = 0;
    const bool threaded = row.uses_other_threads();
    const double wall_start = wall_ns();
    const double cpu_start = threaded ? process_cpu_ns() : thread_cpu_ns();
    for (uint64_t i = 0; i < calls; ++i) {
        row.hash(message, out);
        uint64_t word = 0;
        std::memcpy(&word, out, sizeof word);
        fold ^= word;
    }
    const double cpu_elapsed = (threaded ? process_cpu_ns() : thread_cpu_ns()) - cpu_start;
    if (!threaded) {
        // Several threads' CPU time could exceed the wall time: not a share of it.
        g_total_wall_ns += wall_ns() - wall_start;
        g_total_cpu_ns += cpu_elapsed;
    }
    g_digest_checksum ^= fold;
    return cpu_elapsed;
}

// Warm-up pass: runs the row for about the target time and returns the call count that fills it.
// One call first, untimed: a first call that pays for cold caches and pages (seen: 0.5 ms or more
// for a BLAKE2bp row's first 64-byte message) would otherwise leave the row one call per slice,
// timing the clock and cold caches instead of the hash.
uint64_t calibrate_calls(Implementation& row, std::span<const uint8_t> message, double target_ms) {
    const double target_ns = target_ms * 1e6;
    time_batch(row, message, 1);
    uint64_t calls = 1;
    double elapsed = 0.0;
    for (;;) {
        elapsed = time_batch(row, message, calls);
        if (elapsed >= target_ns * 0.5) {
            break;
        }
        calls *= elapsed < target_ns * 0.05 ? 8 : 2;
    }
    const double scaled = static_cast<double>(calls) * target_ns / elapsed;
    return std::max<uint64_t>(1, static_cast<uint64_t>(scaled));
}

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const size_t middle = values.size() / 2;
    return values.size() % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2.0;
}

std::string cpu_model() {
    std::ifstream cpuinfo("/proc/cpuinfo");
    std::string line;
    while (std::getline(cpuinfo, line)) {
        if (line.rfind("model name", 0) == 0) {
            const size_t colon = line.find(':');
            return colon == std::string::npos ? line : line.substr(colon + 2);
        }
    }
    return "unknown CPU";
}

std::string utc_now() {
    const std::time_t now = std::time(nullptr);
    std::tm parts{};
    gmtime_r(&now, &parts);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%d %H:%M UTC", &parts);
    return text;
}

constexpr int kPlotExitNoMatplotlib = 3;

int run_python(const char* interpreter, const std::string& csv_path, const std::string& png_path) {
    const pid_t child = fork();
    if (child == 0) {
        execlp(interpreter, interpreter, B2_BENCH_PLOT_SCRIPT, csv_path.c_str(), png_path.c_str(),
               static_cast<char*>(nullptr));
        _exit(127);
    }
    int status = 0;
    if (child < 0 || waitpid(child, &status, 0) != child || !WIFEXITED(status)) {
        return -1;
    }
    return WEXITSTATUS(status);
}

// A python3 first in PATH (pyenv, venv) may lack matplotlib while Debian's /usr/bin/python3 has it.
bool run_plot_script(const std::string& csv_path, const std::string& png_path) {
    const int status = run_python("python3", csv_path, png_path);
    if (status == kPlotExitNoMatplotlib || status == 127) {
        return run_python("/usr/bin/python3", csv_path, png_path) == 0;
    }
    return status == 0;
}

struct Timings {
    std::vector<std::vector<uint64_t>> calls;                   // [row][size]
    std::vector<std::vector<std::vector<double>>> ns_per_call;  // [row][size][repetition]
    std::vector<double> clock_samples_ghz;
};

// Repetitions are the outer loop and the row order rotates with each one, so slow drift of the
// shared machine's speed spreads over all implementations instead of favouring one.
Timings measure(ImplementationList& rows, std::span<const uint8_t> message,
                const Options& options) {
    Timings timings;
    timings.calls.assign(rows.size(), std::vector<uint64_t>(std::size(kSizes)));
    timings.ns_per_call.assign(rows.size(), std::vector<std::vector<double>>(std::size(kSizes)));
    for (size_t s = 0; s < std::size(kSizes); ++s) {
        for (size_t r = 0; r < rows.size(); ++r) {
            timings.calls[r][s] =
                calibrate_calls(*rows[r], message.first(kSizes[s]), options.target_ms);
        }
    }
    for (unsigned rep = 0; rep < options.repetitions; ++rep) {
        timings.clock_samples_ghz.push_back(estimate_clock(5.0).add_chain_ghz);
        for (size_t s = 0; s < std::size(kSizes); ++s) {
            for (size_t k = 0; k < rows.size(); ++k) {
                const size_t r = (k + rep) % rows.size();
                const uint64_t calls = timings.calls[r][s];
                const double ns = time_batch(*rows[r], message.first(kSizes[s]), calls);
                timings.ns_per_call[r][s].push_back(ns / static_cast<double>(calls));
            }
        }
        std::fprintf(stderr, "  repetition %u/%u done\n", rep + 1, options.repetitions);
    }
    timings.clock_samples_ghz.push_back(estimate_clock(5.0).add_chain_ghz);
    return timings;
}

Report build_report(const ImplementationList& rows, const Timings& timings, const Options& options,
                    double clock_ghz) {
    Report report;
    report.sizes.assign(std::begin(kSizes), std::end(kSizes));
    report.repetitions = options.repetitions;
    report.target_ms = options.target_ms;
    report.clock_ghz = clock_ghz;
    for (size_t r = 0; r < rows.size(); ++r) {
        RowResult result{rows[r]->label(),
                         rows[r]->kernel(),
                         rows[r]->operation(),
                         rows[r]->algorithm(),
                         rows[r]->is_openssl_default(),
                         rows[r]->uses_other_threads(),
                         {}};
        for (size_t s = 0; s < std::size(kSizes); ++s) {
            const auto& samples = timings.ns_per_call[r][s];
            result.per_size.push_back(
                {median(samples), *std::min_element(samples.begin(), samples.end()),
                 *std::max_element(samples.begin(), samples.end()), timings.calls[r][s]});
        }
        report.rows.push_back(std::move(result));
    }
    // BLAKE2b before BLAKE2s; within each operation: the baseline, this provider's serial form
    // (then the compared module's), the other libraries' serial form, then the same for the tree
    // mode.
    auto is_blake2simd = [](const std::string& label) {
        return label.rfind("blake2simd", 0) == 0 || label.rfind("compared blake2simd", 0) == 0;
    };
    auto family = [](const RowResult& row) { return serial_form(row.algorithm); };
    auto rank = [&is_blake2simd](const RowResult& row) {
        const int within = row.is_openssl_default ? 0 : is_blake2simd(row.label) ? 1 : 2;
        return (is_tree_mode(row.algorithm) ? 3 : 0) + within;
    };
    std::stable_sort(report.rows.begin(), report.rows.end(),
                     [&family, &rank](const RowResult& a, const RowResult& b) {
                         if (family(a) != family(b)) {
                             return family(a) < family(b);
                         }
                         return a.operation != b.operation ? a.operation < b.operation
                                                           : rank(a) < rank(b);
                     });
    return report;
}

void keep_only(ImplementationList& rows, const std::string& only) {
    if (only.empty()) {
        return;
    }
    ImplementationList kept;
    for (auto& row : rows) {
        if (row->is_openssl_default() || row->label().find(only) != std::string::npos) {
            kept.push_back(std::move(row));
        }
    }
    rows = std::move(kept);
}

struct RunFacts {
    std::vector<double> clock_samples_ghz;
    double imul_chain_ghz;
    double seconds;
};

std::string printf_string(const char* pattern, double a, double b = 0.0, double c = 0.0) {
    char text[160];
    std::snprintf(text, sizeof text, pattern, a, b, c);
    return text;
}

// (max - min) / median of each cell's repetitions: how much the shared machine disturbed the run.
// Rows timed across threads are summarised apart: their spread is the library's own behaviour.
std::string spread_summary(const Report& report, bool across_threads) {
    std::vector<double> spreads;
    for (const RowResult& row : report.rows) {
        if (row.timed_across_threads != across_threads) {
            continue;
        }
        for (const Measurement& m : row.per_size) {
            spreads.push_back((m.max_ns_per_call - m.min_ns_per_call) / m.median_ns_per_call);
        }
    }
    if (spreads.empty()) {
        return {};
    }
    return printf_string("median %.1f%%, worst %.1f%%", 100.0 * median(spreads),
                         100.0 * *std::max_element(spreads.begin(), spreads.end()));
}

std::string report_header(const RunFacts& facts, const Environment& environment,
                          const Report& report, const Options& options) {
    const auto& clocks = facts.clock_samples_ghz;
    std::string header = "## blake2simd_bench, " + utc_now() + "\n\n";
    header += "- CPU: " + cpu_model() + "\n";
    header += printf_string("- estimated clock: %.2f GHz (median of ", report.clock_ghz) +
              std::to_string(clocks.size()) +
              printf_string(
                  " dependent-add-chain samples, range %.2f-%.2f GHz; a dependent imul "
                  "chain gave %.2f GHz)\n",
                  *std::min_element(clocks.begin(), clocks.end()),
                  *std::max_element(clocks.begin(), clocks.end()), facts.imul_chain_ghz);
    for (const std::string& line : environment.lines) {
        header += "- " + line + "\n";
    }
    header += "- " + std::to_string(options.repetitions) +
              printf_string(
                  " repetitions x ~%.0f ms per row and size, %.0f s in all; rows "
                  "interleaved, order rotated per repetition\n",
                  options.target_ms, facts.seconds);
    header += printf_string(
        "- time measured as this thread's CPU time; while timing, the process got %.0f%% of "
        "the wall time (less means other load took the CPU)\n",
        100.0 * g_total_cpu_ns / g_total_wall_ns);
    header += "- spread between repetitions, (max-min)/median per cell: " +
              spread_summary(report, false) + "\n";
    if (const std::string threaded = spread_summary(report, true); !threaded.empty()) {
        header +=
            "- spread of the rows timed across threads (libb2 blake2bp, blake2sp): " + threaded +
            "\n";
    }
    header += "\n";
    return header;
}

int run(const Options& options) {
    if (options.xof) {
        return run_xof_bench(options.module_dir, options.repetitions, options.target_ms);
    }
    if (options.kdf) {
        return run_kdf_bench(options.module_dir, options.compared_module_dir, options.repetitions,
                             options.target_ms, options.only);
    }
    const std::vector<uint8_t> message = pseudo_random_bytes(kLargestSize, 0x0B1A4E2B);
    const std::vector<uint8_t> key = pseudo_random_bytes(kKeySize, 0x6B6579);

    Environment environment;
    ImplementationList rows;
    // libb2 first: its dispatch is observed on the first blake2b() call in the process.
    add_external_implementations(key, rows, environment);
    add_openssl_implementations({options.module_dir, options.compared_module_dir, key}, rows,
                                environment);
    // Checked before --only filters, so libb2's blake2bp can vouch for rows timed without it.
    const bool all_right = drop_wrong_rows(rows, message, key, options, environment);
    keep_only(rows, options.only);

    const ClockEstimate clock_before = estimate_clock(20.0);
    std::fprintf(stderr, "timing %zu rows x %zu sizes, %u repetitions of ~%.0f ms each...\n",
                 rows.size(), std::size(kSizes), options.repetitions, options.target_ms);
    const auto started = std::chrono::steady_clock::now();
    const Timings timings = measure(rows, message, options);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    const ClockEstimate clock_after = estimate_clock(20.0);

    std::vector<double> clock_samples = timings.clock_samples_ghz;
    clock_samples.push_back(clock_before.add_chain_ghz);
    clock_samples.push_back(clock_after.add_chain_ghz);
    const double clock_ghz = median(clock_samples);
    const Report report = build_report(rows, timings, options, clock_ghz);

    const std::string header = report_header({clock_samples, clock_before.imul_chain_ghz, seconds},
                                             environment, report, options);
    const std::string text = header + markdown_tables(report);
    std::fputs(text.c_str(), stdout);
    std::fflush(stdout);

    volatile uint64_t keep_digests = g_digest_checksum;
    std::fprintf(stderr, "digest checksum (proves every digest was used): %016llx\n",
                 static_cast<unsigned long long>(keep_digests));

    if (!options.markdown_path.empty()) {
        std::ofstream(options.markdown_path) << text;
    }
    if (!options.csv_path.empty() && !write_csv(report, options.csv_path)) {
        fail("cannot write " + options.csv_path);
    }
    if (!options.plot_path.empty() && !run_plot_script(options.csv_path, options.plot_path)) {
        std::fprintf(stderr, "plot failed (needs python3 with matplotlib): python3 %s %s %s\n",
                     B2_BENCH_PLOT_SCRIPT, options.csv_path.c_str(), options.plot_path.c_str());
        return 1;
    }
    return all_right ? 0 : 1;
}

}  // namespace
}  // namespace blake2simd::bench

int main(int argc, char** argv) {
#if B2_BENCH_HAVE_LIBB2
    // libb2's blake2bp and blake2sp wait for their OpenMP threads; by default libgomp spins, so
    // the CPU time charged to it would grow with the load other processes put on the machine.
    // Passive waiting makes it the work done. libgomp reads the variable when it loads, before
    // main, hence the restart; an explicit setting is respected.
    if (std::getenv("OMP_WAIT_POLICY") == nullptr) {
        setenv("OMP_WAIT_POLICY", "passive", 1);
        execv("/proc/self/exe", argv);
        std::perror("blake2simd_bench: restart with OMP_WAIT_POLICY=passive failed");
    }
#endif
    return blake2simd::bench::run(blake2simd::bench::parse_options(argc, argv));
}
