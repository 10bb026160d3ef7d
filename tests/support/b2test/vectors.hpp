// Loads the vector files of vectors/ (official BLAKE2 KATs and our extended format).
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "hex.hpp"
#include "json.hpp"

#ifndef B2_VECTORS_DIR
#error "B2_VECTORS_DIR must name the vectors/ directory (set by b2_add_evp_test)"
#endif

namespace b2test {

// One BLAKE2 computation: a non-empty key means the MAC, otherwise the digest.
// The parameter block's tree fields (vectors/gen_tree_params.py).
struct TreeFields {
    unsigned int fanout = 1;
    unsigned int depth = 1;
    uint32_t leaf_size = 0;
    uint64_t node_offset = 0;
    unsigned int node_depth = 0;
    unsigned int inner_size = 0;
    unsigned int last_node = 0;
};

struct Blake2bVector {
    std::string name;
    std::vector<uint8_t> message;
    std::vector<uint8_t> key;
    std::vector<uint8_t> salt;
    std::vector<uint8_t> custom;
    size_t size = 64;
    std::vector<uint8_t> expected;
    std::optional<TreeFields> tree_fields;  // the whole parameter block
    size_t tree_leaf_size = 0;              // not 0: `expected` is a tree's root (gen_tree_params)
};

inline std::string vectors_path(const std::string& file_name) {
    return std::string(B2_VECTORS_DIR) + "/" + file_name;
}

// The generative message of the extended vectors: byte i is i % 251.
inline std::vector<uint8_t> pattern_mod251(size_t length) {
    std::vector<uint8_t> bytes(length);
    for (size_t i = 0; i < length; ++i) {
        bytes[i] = static_cast<uint8_t>(i % 251);
    }
    return bytes;
}

// Deterministic bytes for tests that need distinct, non-trivial data: seed + step * i.
inline std::vector<uint8_t> pattern(size_t length, uint8_t seed, uint8_t step) {
    std::vector<uint8_t> bytes(length);
    for (size_t i = 0; i < length; ++i) {
        bytes[i] = static_cast<uint8_t>(seed + step * i);
    }
    return bytes;
}

inline std::vector<uint8_t> hex_field(const JsonObject& object, const std::string& key,
                                      const std::string& entry_name) {
    auto bytes = from_hex(object.string(key));
    if (!bytes) {
        throw std::runtime_error("entry " + entry_name + ": field '" + key + "' is not hex");
    }
    return *bytes;
}

// Entries in the official blake2-kat.json layout ({"hash","in","key","out"}); only those of
// `hash` ("blake2b", "blake2s", "blake2sp", ...).
inline std::vector<Blake2bVector> load_official_kat(const std::string& path,
                                                    const std::string& hash = "blake2b") {
    std::vector<Blake2bVector> vectors;
    size_t index = 0;
    for (const JsonObject& object : read_json_objects(path)) {
        const std::string name = "official#" + std::to_string(index++);
        if (object.string("hash") != hash) {
            continue;
        }
        Blake2bVector vector;
        vector.name = name;
        vector.message = hex_field(object, "in", name);
        vector.key = hex_field(object, "key", name);
        vector.expected = hex_field(object, "out", name);
        vector.size = vector.expected.size();
        vectors.push_back(std::move(vector));
    }
    return vectors;
}

// Entries in our extended layout (see vectors/README.md).
inline std::vector<Blake2bVector> load_extended(const std::string& path) {
    std::vector<Blake2bVector> vectors;
    for (const JsonObject& object : read_json_objects(path)) {
        Blake2bVector vector;
        vector.name = object.string("name");
        const std::string& pattern = object.string("in_pattern");
        const int64_t length = object.number("in_len");
        if (length < 0) {
            throw std::runtime_error("entry " + vector.name + ": negative in_len");
        }
        if (pattern == "hex") {
            vector.message = hex_field(object, "in", vector.name);
        } else if (pattern == "mod251") {
            vector.message = pattern_mod251(static_cast<size_t>(length));
        } else {
            throw std::runtime_error("entry " + vector.name + ": unknown in_pattern " + pattern);
        }
        if (vector.message.size() != static_cast<size_t>(length)) {
            throw std::runtime_error("entry " + vector.name + ": in_len disagrees with in");
        }
        vector.key = hex_field(object, "key", vector.name);
        vector.salt = hex_field(object, "salt", vector.name);
        vector.custom = hex_field(object, "custom", vector.name);
        vector.size = static_cast<size_t>(object.number("size"));
        vector.expected = hex_field(object, "out", vector.name);
        if (object.has("tree")) {
            vector.tree_leaf_size = static_cast<size_t>(object.number("leaf_size"));
        } else if (object.has("fanout")) {
            TreeFields& fields = vector.tree_fields.emplace();
            fields.fanout = static_cast<unsigned int>(object.number("fanout"));
            fields.depth = static_cast<unsigned int>(object.number("depth"));
            fields.leaf_size = static_cast<uint32_t>(object.number("leaf_size"));
            fields.node_offset = std::stoull(object.string("node_offset"));
            fields.node_depth = static_cast<unsigned int>(object.number("node_depth"));
            fields.inner_size = static_cast<unsigned int>(object.number("inner_size"));
            fields.last_node = static_cast<unsigned int>(object.number("last_node"));
        }
        if (vector.expected.size() != vector.size) {
            throw std::runtime_error("entry " + vector.name + ": out length differs from size");
        }
        vectors.push_back(std::move(vector));
    }
    return vectors;
}

}  // namespace b2test
