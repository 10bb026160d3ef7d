// A deliberately small JSON reader: an array of flat objects whose values are strings or integers.
// SPDX-License-Identifier: Apache-2.0
//
// Enough for the vector files in vectors/ (ours and the official layout); anything else
// (nesting, floats, true/false/null) is rejected with a message naming the offset.
#pragma once

#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace b2test {

struct JsonValue {
    bool is_number = false;
    std::string text;  // the string value (strings only)
    int64_t number = 0;
};

class JsonObject final {
  public:
    void set(std::string key, JsonValue value) { m_values[std::move(key)] = std::move(value); }

    [[nodiscard]] bool has(const std::string& key) const { return m_values.count(key) != 0; }

    [[nodiscard]] const std::string& string(const std::string& key) const {
        const JsonValue& value = lookup(key);
        if (value.is_number) {
            throw std::runtime_error("JSON key '" + key + "' is a number, expected a string");
        }
        return value.text;
    }

    [[nodiscard]] int64_t number(const std::string& key) const {
        const JsonValue& value = lookup(key);
        if (!value.is_number) {
            throw std::runtime_error("JSON key '" + key + "' is a string, expected a number");
        }
        return value.number;
    }

  private:
    [[nodiscard]] const JsonValue& lookup(const std::string& key) const {
        const auto found = m_values.find(key);
        if (found == m_values.end()) {
            throw std::runtime_error("JSON object lacks key '" + key + "'");
        }
        return found->second;
    }

    std::map<std::string, JsonValue> m_values;
};

class FlatJsonParser final {
  public:
    explicit FlatJsonParser(std::string_view text) : m_text(text) {}

    std::vector<JsonObject> parse_array_of_objects() {
        std::vector<JsonObject> objects;
        expect('[');
        if (try_consume(']')) {
            return finish(std::move(objects));
        }
        do {
            objects.push_back(parse_object());
        } while (try_consume(','));
        expect(']');
        return finish(std::move(objects));
    }

  private:
    std::vector<JsonObject> finish(std::vector<JsonObject> objects) {
        skip_space();
        if (m_pos != m_text.size()) {
            error("trailing characters after the array");
        }
        return objects;
    }

    JsonObject parse_object() {
        JsonObject object;
        expect('{');
        if (try_consume('}')) {
            return object;
        }
        do {
            std::string key = parse_string();
            expect(':');
            object.set(std::move(key), parse_value());
        } while (try_consume(','));
        expect('}');
        return object;
    }

    JsonValue parse_value() {
        skip_space();
        JsonValue value;
        if (peek() == '"') {
            value.text = parse_string();
        } else {
            value.is_number = true;
            value.number = parse_integer();
        }
        return value;
    }

    int64_t parse_integer() {
        skip_space();
        const bool negative = m_pos < m_text.size() && m_text[m_pos] == '-';
        if (negative) {
            ++m_pos;
        }
        const size_t start = m_pos;
        int64_t magnitude = 0;
        while (m_pos < m_text.size() && m_text[m_pos] >= '0' && m_text[m_pos] <= '9') {
            if (magnitude > (INT64_MAX - 9) / 10) {
                error("integer out of range");
            }
            magnitude = magnitude * 10 + (m_text[m_pos] - '0');
            ++m_pos;
        }
        if (m_pos == start) {
            error("expected a string or an integer");
        }
        return negative ? -magnitude : magnitude;
    }

    std::string parse_string() {
        expect('"');
        std::string text;
        while (true) {
            if (m_pos >= m_text.size()) {
                error("unterminated string");
            }
            const char c = m_text[m_pos++];
            if (c == '"') {
                return text;
            }
            if (c != '\\') {
                text.push_back(c);
                continue;
            }
            if (m_pos >= m_text.size()) {
                error("unterminated escape");
            }
            const char escaped = m_text[m_pos++];
            switch (escaped) {
                case '"':
                case '\\':
                case '/':
                    text.push_back(escaped);
                    break;
                case 'n':
                    text.push_back('\n');
                    break;
                case 't':
                    text.push_back('\t');
                    break;
                default:
                    // \uXXXX and the rarer escapes never occur in our vector files.
                    error("unsupported escape sequence");
            }
        }
    }

    void skip_space() noexcept {
        while (m_pos < m_text.size() && (m_text[m_pos] == ' ' || m_text[m_pos] == '\n' ||
                                         m_text[m_pos] == '\r' || m_text[m_pos] == '\t')) {
            ++m_pos;
        }
    }

    char peek() const noexcept { return m_pos < m_text.size() ? m_text[m_pos] : '\0'; }

    bool try_consume(char expected) noexcept {
        skip_space();
        if (peek() == expected) {
            ++m_pos;
            return true;
        }
        return false;
    }

    void expect(char expected) {
        if (!try_consume(expected)) {
            error(std::string("expected '") + expected + "'");
        }
    }

    [[noreturn]] void error(const std::string& what) const {
        throw std::runtime_error("JSON parse error at offset " + std::to_string(m_pos) + ": " +
                                 what);
    }

    std::string_view m_text;
    size_t m_pos = 0;
};

inline std::string read_text_file(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    if (!file) {
        throw std::runtime_error("cannot open " + path);
    }
    std::ostringstream content;
    content << file.rdbuf();
    return content.str();
}

inline std::vector<JsonObject> read_json_objects(const std::string& path) {
    const std::string text = read_text_file(path);
    try {
        return FlatJsonParser(text).parse_array_of_objects();
    } catch (const std::runtime_error& error) {
        throw std::runtime_error(path + ": " + error.what());
    }
}

}  // namespace b2test
