// Markdown tables and CSV for the benchmark results.
// SPDX-License-Identifier: Apache-2.0
#include "report.hpp"

#include <cstdio>
#include <fstream>
#include <functional>
#include <sstream>

namespace blake2simd::bench {
namespace {

std::string format(const char* pattern, double value) {
    char text[64];
    std::snprintf(text, sizeof text, pattern, value);
    return text;
}

std::string csv_quote(const std::string& text) {
    std::string quoted = "\"";
    for (char c : text) {
        quoted += c;
        if (c == '"') {
            quoted += '"';
        }
    }
    return quoted + "\"";
}

using CellFormatter = std::function<std::string(const RowResult&, size_t size_index)>;

// One table per family (BLAKE2b with BLAKE2bp, BLAKE2s with BLAKE2sp), each with its own baseline.
std::string table(const Report& report, Algorithm family, const std::string& title,
                  const CellFormatter& cell) {
    std::ostringstream out;
    out << title << "\n\n| implementation | operation | kernel |";
    for (size_t size : report.sizes) {
        out << ' ' << size_label(size) << " |";
    }
    out << "\n|---|---|---|";
    for (size_t i = 0; i < report.sizes.size(); ++i) {
        out << "---:|";
    }
    out << '\n';
    for (const RowResult& row : report.rows) {
        if (serial_form(row.algorithm) != family) {
            continue;
        }
        out << "| " << row.label << " | " << operation_name(row.operation) << " | " << row.kernel
            << " |";
        for (size_t i = 0; i < report.sizes.size(); ++i) {
            out << ' ' << cell(row, i) << " |";
        }
        out << '\n';
    }
    return out.str();
}

}  // namespace

double megabytes_per_second(size_t size, double ns_per_call) noexcept {
    return ns_per_call > 0.0 ? static_cast<double>(size) * 1e3 / ns_per_call : 0.0;
}

double cycles_per_byte(const Report& report, size_t size, double ns_per_call) noexcept {
    return report.clock_ghz * ns_per_call / static_cast<double>(size);
}

double ratio_to_default(const Report& report, const RowResult& row, size_t size_index) noexcept {
    for (const RowResult& baseline : report.rows) {
        if (baseline.is_openssl_default && baseline.operation == row.operation &&
            baseline.algorithm == serial_form(row.algorithm)) {
            const double own = row.per_size[size_index].median_ns_per_call;
            return own > 0.0 ? baseline.per_size[size_index].median_ns_per_call / own : 0.0;
        }
    }
    return 0.0;
}

std::string size_label(size_t size) {
    if (size >= (1u << 20) && size % (1u << 20) == 0) {
        return std::to_string(size >> 20) + " MiB";
    }
    if (size >= 1024 && size % 1024 == 0) {
        return std::to_string(size >> 10) + " KiB";
    }
    return std::to_string(size) + " B";
}

namespace {

bool has_rows_of(const Report& report, Algorithm family) {
    for (const RowResult& row : report.rows) {
        if (serial_form(row.algorithm) == family) {
            return true;
        }
    }
    return false;
}

std::string family_tables(const Report& report, Algorithm family) {
    const std::string serial = algorithm_name(family);
    const std::string tree =
        algorithm_name(family == Algorithm::blake2b ? Algorithm::blake2bp : Algorithm::blake2sp);
    const std::string heading = serial + " and " + tree + ": ";
    std::string text = table(
        report, family,
        heading + "throughput in MB/s (10^6 bytes/s), median of " +
            std::to_string(report.repetitions) +
            " repetitions; in brackets the speed relative to OpenSSL's default provider doing the "
            "same operation with " +
            serial + " (it has no " + tree.substr(0, tree.find('-')) +
            ") at the same size in the same run (2.00x = twice as fast):",
        [&report](const RowResult& row, size_t i) {
            const double ns = row.per_size[i].median_ns_per_call;
            return format("%.0f", megabytes_per_second(report.sizes[i], ns)) +
                   format(" (%.2fx)", ratio_to_default(report, row, i));
        });
    text += '\n';
    text += table(report, family,
                  heading + "nanoseconds per call (one whole message: init, update, final):",
                  [](const RowResult& row, size_t i) {
                      return format("%.0f", row.per_size[i].median_ns_per_call);
                  });
    if (report.clock_ghz > 0.0) {
        text += '\n';
        text +=
            table(report, family,
                  heading + "estimated cycles per byte (ns per byte x " +
                      format("%.2f", report.clock_ghz) +
                      " GHz, the clock estimated from a dependent add chain):",
                  [&report](const RowResult& row, size_t i) {
                      return format("%.2f", cycles_per_byte(report, report.sizes[i],
                                                            row.per_size[i].median_ns_per_call));
                  });
    }
    return text;
}

}  // namespace

std::string markdown_tables(const Report& report) {
    std::string text;
    for (Algorithm family : {Algorithm::blake2b, Algorithm::blake2s}) {
        if (has_rows_of(report, family)) {
            if (!text.empty()) {
                text += '\n';
            }
            text += family_tables(report, family);
        }
    }
    return text;
}

bool write_csv(const Report& report, const std::string& path) {
    std::ofstream out(path);
    if (!out) {
        return false;
    }
    out << "implementation,operation,kernel,size_bytes,repetitions,calls_per_repetition,"
           "median_ns_per_call,min_ns_per_call,max_ns_per_call,mb_per_s,est_clock_ghz,"
           "est_cycles_per_byte,ratio_to_openssl_default,algorithm\n";
    for (const RowResult& row : report.rows) {
        for (size_t i = 0; i < report.sizes.size(); ++i) {
            const Measurement& m = row.per_size[i];
            out << csv_quote(row.label) << ',' << csv_quote(operation_name(row.operation)) << ','
                << csv_quote(row.kernel) << ',' << report.sizes[i] << ',' << report.repetitions
                << ',' << m.calls_per_repetition << ',' << format("%.2f", m.median_ns_per_call)
                << ',' << format("%.2f", m.min_ns_per_call) << ','
                << format("%.2f", m.max_ns_per_call) << ','
                << format("%.2f", megabytes_per_second(report.sizes[i], m.median_ns_per_call))
                << ',' << format("%.3f", report.clock_ghz) << ','
                << format("%.3f", cycles_per_byte(report, report.sizes[i], m.median_ns_per_call))
                << ',' << format("%.3f", ratio_to_default(report, row, i)) << ','
                << csv_quote(algorithm_name(row.algorithm)) << '\n';
        }
    }
    return static_cast<bool>(out);
}

}  // namespace blake2simd::bench
