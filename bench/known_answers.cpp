// Reads the official BLAKE2bp known-answer file: just enough JSON for its fixed layout.
// SPDX-License-Identifier: Apache-2.0
#include "known_answers.hpp"

#include <fstream>
#include <iterator>
#include <optional>

namespace blake2simd::bench {
namespace {

int hex_value(char c) noexcept {
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
        return c - 'A' + 10;
    }
    return -1;
}

std::optional<std::vector<uint8_t>> decode_hex(const std::string& text) {
    if (text.size() % 2 != 0) {
        return std::nullopt;
    }
    std::vector<uint8_t> bytes;
    for (size_t i = 0; i < text.size(); i += 2) {
        const int high = hex_value(text[i]);
        const int low = hex_value(text[i + 1]);
        if (high < 0 || low < 0) {
            return std::nullopt;
        }
        bytes.push_back(static_cast<uint8_t>(high * 16 + low));
    }
    return bytes;
}

// The hex string value of `"field": "..."` at or after `from`, which moves past it.
std::optional<std::vector<uint8_t>> next_field(const std::string& json, const std::string& field,
                                               size_t& from) {
    const std::string opening = "\"" + field + "\"";
    const size_t name = json.find(opening, from);
    if (name == std::string::npos) {
        return std::nullopt;
    }
    const size_t quote = json.find('"', json.find(':', name + opening.size()));
    const size_t end = quote == std::string::npos ? quote : json.find('"', quote + 1);
    if (end == std::string::npos) {
        return std::nullopt;
    }
    from = end + 1;
    return decode_hex(json.substr(quote + 1, end - quote - 1));
}

}  // namespace

std::vector<KnownAnswer> read_known_answers(const std::string& path, std::string& error) {
    std::ifstream file(path);
    if (!file) {
        error = "cannot read " + path;
        return {};
    }
    const std::string json{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
    std::vector<KnownAnswer> answers;
    size_t at = 0;
    while (json.find("\"in\"", at) != std::string::npos) {
        auto message = next_field(json, "in", at);
        auto key = next_field(json, "key", at);
        auto digest = next_field(json, "out", at);
        if (!message || !key || !digest || digest->empty()) {
            error = path + ": malformed entry " + std::to_string(answers.size());
            return {};
        }
        answers.push_back({std::move(*message), std::move(*key), std::move(*digest)});
    }
    if (answers.empty()) {
        error = path + ": no entries";
    }
    return answers;
}

}  // namespace blake2simd::bench
