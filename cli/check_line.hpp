// Parsing one line of a checksum file as coreutils 9.1's `b2sum -c` does (untagged
// "HEX  NAME", "HEX *NAME", BSD-reversed "HEX NAME", tagged "BLAKE2b-256 (NAME) = HEX" and
// OpenSSL's "BLAKE2b-256(NAME)= HEX", a leading backslash marking an escaped name), plus the
// BLAKE2s/BLAKE2bp/BLAKE2sp tags of our other algorithms.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "algorithms.hpp"

namespace b2sum {

struct CheckLine {
    const Algorithm* algorithm;
    unsigned bits;     // digest length the line states (tag) or implies (hex width)
    std::string hex;   // as written (either case)
    std::string name;  // unescaped; like coreutils, cut at a NUL byte
};

class CheckLineParser {
  public:
    // `forced`: the algorithm -a named, or nullptr (b2sum's BLAKE2b rules plus our tags).
    explicit CheckLineParser(const Algorithm* forced) : forced_(forced) {}

    // `line`: without its newline and one trailing carriage return; not empty, not a comment.
    // The choice between untagged and BSD-reversed lines is made by the first such line and
    // holds for every later one, in every checksum file (as in coreutils).
    std::optional<CheckLine> parse(std::string_view line);

  private:
    const Algorithm* forced_;
    int reversed_format_ = -1;  // -1 undecided, 0 "HEX  NAME", 1 "HEX NAME"
};

}  // namespace b2sum
