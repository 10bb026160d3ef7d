// The official BLAKE2bp known answers (vectors/blake2bp-kat.json), read for the bench's check.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace blake2simd::bench {

struct KnownAnswer {
    std::vector<uint8_t> message;
    std::vector<uint8_t> key;  // empty for the unkeyed entries
    std::vector<uint8_t> digest;
};

// Every entry of a file in the official blake2-kat.json layout (objects with "in", "key" and
// "out" hex strings). Returns an empty list, with `error` set, if the file is missing or
// malformed.
std::vector<KnownAnswer> read_known_answers(const std::string& path, std::string& error);

}  // namespace blake2simd::bench
