// SPDX-License-Identifier: Apache-2.0
#include "check_line.hpp"

#include <cerrno>
#include <cinttypes>
#include <cstdlib>

namespace b2sum {
namespace {

bool is_blank(char c) {
    return c == ' ' || c == '\t';
}

bool is_hex(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

// "\\n" -> newline, "\\r" -> carriage return, "\\\\" -> backslash; any other escape, a
// trailing backslash or a NUL byte makes the name invalid.
std::optional<std::string> unescape(std::string_view escaped) {
    std::string out;
    out.reserve(escaped.size());
    for (size_t i = 0; i < escaped.size(); ++i) {
        const char c = escaped[i];
        if (c == '\0') {
            return std::nullopt;
        }
        if (c != '\\') {
            out += c;
            continue;
        }
        if (++i == escaped.size()) {
            return std::nullopt;
        }
        switch (escaped[i]) {
            case 'n':
                out += '\n';
                break;
            case 'r':
                out += '\r';
                break;
            case '\\':
                out += '\\';
                break;
            default:
                return std::nullopt;
        }
    }
    return out;
}

// The name as a C string would hold it: up to the first NUL.
std::string up_to_nul(std::string_view s) {
    return std::string(s.substr(0, s.find('\0')));
}

std::optional<std::string> take_name(std::string_view raw, bool escaped) {
    return escaped ? unescape(raw) : std::optional<std::string>(up_to_nul(raw));
}

// Exactly `hex_digits` hex digits and then the end of the line.
bool valid_hex(std::string_view hex, size_t hex_digits) {
    if (hex.size() != hex_digits) {
        return false;
    }
    for (char c : hex) {
        if (!is_hex(c)) {
            return false;
        }
    }
    return true;
}

// The length after "BLAKE2b-": strtoumax's syntax in base 0 (blanks, '+', 0x.., octal), no
// minus sign; stops at the first character that is not part of the number.
std::optional<uintmax_t> tag_length(const char* text, const char** end) {
    const char* p = text;
    while (*p == ' ' || (*p >= '\t' && *p <= '\r')) {
        ++p;
    }
    if (*p == '-') {
        return std::nullopt;
    }
    char* stop = nullptr;
    errno = 0;
    const uintmax_t value = std::strtoumax(text, &stop, 0);
    if (stop == text || errno == ERANGE) {
        return std::nullopt;
    }
    *end = stop;
    return value;
}

struct Tag {
    const Algorithm* algorithm;
    size_t length;
};

// Which algorithm's tag starts `s`. coreutils accepts "BLAKE2b" followed by any character
// (which it then skips); our other tags must be followed by '-', '(' or ' '.
std::optional<Tag> match_tag(std::string_view s, const Algorithm* forced) {
    for (const Algorithm& a : kAlgorithms) {
        if (forced != nullptr && forced != &a) {
            continue;
        }
        if (&a == &kDefaultAlgorithm || !s.starts_with(a.tag) || s.size() == a.tag.size()) {
            continue;
        }
        const char next = s[a.tag.size()];
        if (next == '-' || next == '(' || next == ' ') {
            return Tag{&a, a.tag.size()};
        }
    }
    if ((forced == nullptr || forced == &kDefaultAlgorithm) && s.starts_with("BLAKE2b")) {
        return Tag{&kDefaultAlgorithm, 7};
    }
    return std::nullopt;
}

// "NAME) = HEX" after the tag's '(': the name ends at the last ')'.
std::optional<CheckLine> parse_tagged_rest(std::string_view s, bool escaped, CheckLine line) {
    const size_t close = s.rfind(')');
    if (s.empty() || close == std::string_view::npos) {
        return std::nullopt;
    }
    std::optional<std::string> name = take_name(s.substr(0, close), escaped);
    if (!name) {
        return std::nullopt;
    }
    size_t i = close + 1;
    while (i < s.size() && is_blank(s[i])) {
        ++i;
    }
    if (i == s.size() || s[i] != '=') {
        return std::nullopt;
    }
    ++i;
    while (i < s.size() && is_blank(s[i])) {
        ++i;
    }
    const std::string_view hex = s.substr(i);
    if (!valid_hex(hex, line.bits / 4)) {
        return std::nullopt;
    }
    line.hex = hex;
    line.name = std::move(*name);
    return line;
}

// `s` starts at the tag; `text` is the same bytes with a NUL after them.
std::optional<CheckLine> parse_tagged(std::string_view s, const char* text, Tag tag, bool escaped) {
    CheckLine line{tag.algorithm, tag.algorithm->default_bits, {}, {}};
    size_t i = tag.length;
    if (i == s.size()) {
        return std::nullopt;
    }
    const char after_tag = s[i];
    if (after_tag != '(') {
        ++i;  // coreutils overwrites that character with the tag's terminator
    }
    if (after_tag == '-') {
        const char* end = nullptr;
        const std::optional<uintmax_t> bits = tag_length(text + i, &end);
        if (!bits || *bits == 0 || *bits > tag.algorithm->max_bits || *bits % 8 != 0 ||
            (!tag.algorithm->variable_length && *bits != tag.algorithm->max_bits)) {
            return std::nullopt;
        }
        line.bits = static_cast<unsigned>(*bits);
        i = static_cast<size_t>(end - text);
    }
    if (i < s.size() && s[i] == ' ') {
        ++i;
    }
    if (i == s.size() || s[i] != '(') {
        return std::nullopt;
    }
    return parse_tagged_rest(s.substr(i + 1), escaped, std::move(line));
}

}  // namespace

std::optional<CheckLine> CheckLineParser::parse(std::string_view input) {
    const std::string buffer(input);  // NUL-terminated, as the C string functions need
    const std::string_view s = buffer;
    const size_t n = s.size();
    size_t i = 0;
    while (i < n && is_blank(s[i])) {
        ++i;
    }
    const bool escaped = i < n && s[i] == '\\';
    i += escaped ? 1 : 0;
    if (const std::optional<Tag> tag = match_tag(s.substr(i), forced_)) {
        return parse_tagged(s.substr(i), buffer.c_str() + i, *tag, escaped);
    }
    const Algorithm& algorithm = forced_ != nullptr ? *forced_ : kDefaultAlgorithm;
    if (n - i < 3 + ((i < n && s[i] == '\\') ? 1u : 0u)) {
        return std::nullopt;
    }
    const size_t hex_start = i;
    size_t hex_digits = 0;
    while (hex_start + hex_digits < n && is_hex(s[hex_start + hex_digits])) {
        ++hex_digits;
    }
    const size_t max_digits = algorithm.max_bits / 4;
    if (hex_digits < 2 || hex_digits % 2 != 0 || hex_digits > max_digits ||
        (!algorithm.variable_length && hex_digits != max_digits)) {
        return std::nullopt;
    }
    while (i < n && s[i] != '\0' && !is_blank(s[i])) {
        ++i;
    }
    if (i == n || s[i] == '\0') {  // a blank must end the digest
        return std::nullopt;
    }
    const std::string_view hex = s.substr(hex_start, i - hex_start);
    ++i;
    if (!valid_hex(hex, hex_digits)) {
        return std::nullopt;
    }
    if (n - i == 1 || (i == n || (s[i] != ' ' && s[i] != '*'))) {
        if (reversed_format_ == 0) {
            return std::nullopt;
        }
        reversed_format_ = 1;
    } else if (reversed_format_ != 1) {
        reversed_format_ = 0;
        ++i;  // the mode character
    }
    std::optional<std::string> name = take_name(s.substr(i), escaped);
    if (!name) {
        return std::nullopt;
    }
    return CheckLine{&algorithm, static_cast<unsigned>(hex_digits * 4), std::string(hex),
                     std::move(*name)};
}

}  // namespace b2sum
