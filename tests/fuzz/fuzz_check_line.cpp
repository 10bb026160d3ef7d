// blake2simd-sum's checksum-line parser (cli/check_line.cpp, what `-c` reads from untrusted
// checksum files) and its name quoting. Input: one byte choosing the -a algorithm (or none),
// then lines. Besides memory errors and undefined behaviour it checks what every accepted line
// must satisfy (a length the algorithm has, exactly that many hex digits, no NUL in the name,
// the -a algorithm), and that writing the result back as b2sum writes lines, untagged and
// tagged, parses to the same algorithm, length, digest and name.
// SPDX-License-Identifier: Apache-2.0
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "check_line.hpp"
#include "quoting.hpp"

namespace {

using b2sum::Algorithm;
using b2sum::CheckLine;
using b2sum::CheckLineParser;

void require(bool condition, const char* what) {
    if (!condition) {
        std::fprintf(stderr, "fuzz_check_line: %s\n", what);
        std::abort();
    }
}

bool all_hex(std::string_view s) {
    return s.find_first_not_of("0123456789abcdefABCDEF") == std::string_view::npos;
}

void check_invariants(const CheckLine& line, const Algorithm* forced) {
    const Algorithm& a = *line.algorithm;
    require(forced == nullptr || forced == &a, "a line of another algorithm than -a");
    require(line.bits % 8 == 0 && line.bits >= 8 && line.bits <= a.max_bits, "length");
    require(a.variable_length || line.bits == a.max_bits, "a tree mode with another length");
    require(line.hex.size() == line.bits / 4 && all_hex(line.hex), "digest width");
    require(line.name.find('\0') == std::string::npos, "NUL in a name");
}

// b2sum's own output for `line`, untagged or tagged.
std::string written(const CheckLine& line, bool tagged) {
    const bool escape = b2sum::name_needs_escape(line.name);
    const std::string name = escape ? b2sum::escape_name(line.name) : line.name;
    std::string out = escape ? "\\" : "";
    if (!tagged) {
        return out + line.hex + "  " + name;
    }
    out += line.algorithm->tag;
    if (b2sum::tag_names_length(*line.algorithm, line.bits)) {
        out += "-" + std::to_string(line.bits);
    }
    return out + " (" + name + ") = " + line.hex;
}

void check_round_trip(const CheckLine& line) {
    if (line.name.empty()) {
        return;  // "HEX  " is read as a BSD-reversed line naming " "
    }
    for (const bool tagged : {false, true}) {
        CheckLineParser fresh(line.algorithm);
        const std::optional<CheckLine> again = fresh.parse(written(line, tagged));
        require(again.has_value(), "b2sum's own line for an accepted one is refused");
        require(again->algorithm == line.algorithm && again->bits == line.bits &&
                    again->hex == line.hex && again->name == line.name,
                "b2sum's own line reads back differently");
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) {
        return 0;
    }
    const size_t choice = data[0] % (std::size(b2sum::kAlgorithms) + 1);
    const Algorithm* forced = choice == 0 ? nullptr : &b2sum::kAlgorithms[choice - 1];
    CheckLineParser parser(forced);
    std::string_view rest(reinterpret_cast<const char*>(data + 1), size - 1);
    while (!rest.empty()) {
        const size_t end = rest.find('\n');
        std::string_view line = rest.substr(0, end);
        rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
        if (!line.empty() && line.back() == '\r') {
            line.remove_suffix(1);
        }
        (void)b2sum::quote_name(line);
        if (line.empty() || line.front() == '#') {
            continue;
        }
        if (const std::optional<CheckLine> parsed = parser.parse(line)) {
            check_invariants(*parsed, forced);
            check_round_trip(*parsed);
        }
    }
    return 0;
}
