// Turns measurements into the markdown tables and the CSV file.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "implementations.hpp"

namespace blake2simd::bench {

struct Measurement {
    double median_ns_per_call = 0.0;
    double min_ns_per_call = 0.0;
    double max_ns_per_call = 0.0;
    uint64_t calls_per_repetition = 0;
};

struct RowResult {
    std::string label;
    std::string kernel;
    Operation operation;
    Algorithm algorithm;
    bool is_openssl_default;
    bool timed_across_threads;          // process CPU clock: the library used other threads too
    std::vector<Measurement> per_size;  // indexed like Report::sizes
};

struct Report {
    std::vector<size_t> sizes;
    std::vector<RowResult> rows;
    unsigned repetitions = 0;
    double target_ms = 0.0;
    double clock_ghz = 0.0;  // 0 when no estimate: cycles per byte are then omitted
};

// Bytes per microsecond, i.e. 10^6 bytes per second.
double megabytes_per_second(size_t size, double ns_per_call) noexcept;
double cycles_per_byte(const Report& report, size_t size, double ns_per_call) noexcept;
// OpenSSL default provider's time for the same operation, size and serial algorithm (BLAKE2b for
// BLAKE2bp, BLAKE2s for BLAKE2sp) divided by this row's time (above 1: faster than the default
// provider); 0 when there is no such baseline.
double ratio_to_default(const Report& report, const RowResult& row, size_t size_index) noexcept;

std::string size_label(size_t size);
std::string markdown_tables(const Report& report);
// Returns false if the file could not be written.
bool write_csv(const Report& report, const std::string& path);

}  // namespace blake2simd::bench
