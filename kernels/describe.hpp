// The one describer behind every selection's buildinfo text: "<kernel> (<why>)".
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdarg>
#include <cstddef>
#include <cstdio>

namespace blake2simd::dispatch {

// Writes "<name> (" and then `why` formatted with `args` (a printf format for the rest of
// the parenthesis, closing it) into out[0..size), truncating like snprintf.
inline void describe_into(char* out, size_t size, const char* name, const char* why,
                          va_list args) noexcept {
    const int written = std::snprintf(out, size, "%s (", name);
    const size_t used = written > 0 ? static_cast<size_t>(written) : 0;
    if (used < size) {
        std::vsnprintf(out + used, size - used, why, args);
    }
}

}  // namespace blake2simd::dispatch
