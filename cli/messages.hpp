// Diagnostics as coreutils prints them: "PROGRAM: text[: strerror]" on stderr, with stdout
// flushed first so the two streams interleave as the events happened.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdio>
#include <cstring>
#include <string>

namespace b2sum {

inline const char* g_program_name = "blake2simd-sum";  // argv[0], as coreutils shows it

inline void report(const std::string& text, int error_number = 0) {
    std::fflush(stdout);
    std::fprintf(stderr, "%s: %s", g_program_name, text.c_str());
    if (error_number != 0) {
        std::fprintf(stderr, ": %s", std::strerror(error_number));
    }
    std::fputc('\n', stderr);
}

// "Try 'PROGRAM --help' for more information." after a usage error.
inline void report_try_help() {
    std::fprintf(stderr, "Try '%s --help' for more information.\n", g_program_name);
}

}  // namespace b2sum
