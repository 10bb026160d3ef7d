// SPDX-License-Identifier: Apache-2.0
#include "quoting.hpp"

#include <langinfo.h>
#include <cwchar>
#include <cwctype>

namespace b2sum {
namespace {

// Characters that never need quoting, whatever the position.
bool always_plain(unsigned char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '%' ||
           c == '+' || c == ',' || c == '-' || c == '.' || c == '/' || c == ']' || c == '_';
}

// Special to the shell anywhere.
bool shell_special(unsigned char c) {
    static constexpr std::string_view kSpecial = "!\"$&()*;<=>?[\\^`|";
    return kSpecial.find(static_cast<char>(c)) != std::string_view::npos;
}

// One piece of the name: a printable run of bytes (one character) or one unprintable byte
// (an invalid or unprintable multibyte character is shown byte by byte).
struct Piece {
    size_t length;
    bool printable;
};

Piece next_piece(std::string_view name, size_t at) {
    const auto c = static_cast<unsigned char>(name[at]);
    if (c < 0x80) {
        return {1, std::iswprint(c) != 0};
    }
    std::mbstate_t state{};
    wchar_t wide = 0;
    const size_t used = std::mbrtowc(&wide, name.data() + at, name.size() - at, &state);
    if (used == static_cast<size_t>(-1) || used == static_cast<size_t>(-2) || used == 0) {
        return {1, false};
    }
    return {used, std::iswprint(static_cast<wint_t>(wide)) != 0};
}

// How the name's characters classify it.
struct Survey {
    bool needs_quotes = false;
    bool has_unprintable = false;
    bool has_single_quote = false;
    bool double_quotes_fit = true;  // every character may stand as it is between "..."
};

Survey survey(std::string_view name) {
    Survey s;
    for (size_t at = 0; at < name.size();) {
        const auto c = static_cast<unsigned char>(name[at]);
        const Piece piece = next_piece(name, at);
        bool fits_double = false;
        if (c == '\'') {
            s.needs_quotes = s.has_single_quote = true;
            fits_double = true;
        } else if (c == ' ' || c == ':') {  // ':' is quoted by the colon variant
            s.needs_quotes = true;
            fits_double = true;
        } else if (c == '#' || c == '~') {
            fits_double = at == 0;
            s.needs_quotes |= at == 0;
        } else if (c == '{' || c == '}') {
            fits_double = name.size() == 1;
            s.needs_quotes |= name.size() == 1;
        } else if (shell_special(c)) {
            s.needs_quotes = true;
        } else if (always_plain(c)) {
            fits_double = true;
        } else if (!piece.printable) {
            s.needs_quotes = s.has_unprintable = true;
        } else {
            fits_double = true;
        }
        s.double_quotes_fit &= fits_double;
        at += piece.length;
    }
    return s;
}

void append_escape(std::string& out, unsigned char c) {
    static constexpr std::string_view kLetters = "abtnvfr";  // \a=7 .. \r=13
    if (c >= 7 && c <= 13) {
        out += '\\';
        out += kLetters[c - 7];
        return;
    }
    out += '\\';
    out += static_cast<char>('0' + (c >> 6));
    out += static_cast<char>('0' + ((c >> 3) & 7));
    out += static_cast<char>('0' + (c & 7));
}

// Single quotes, unprintable bytes as $'...' pieces, each ' as '\''. `in_escape` starts as the
// state a first pass left: coreutils scans once more from the start after a single quote
// without resetting it, which is why some names gain a leading '' (kept for byte equality).
std::string single_quoted(std::string_view name, bool in_escape) {
    std::string out = "'";
    for (size_t at = 0; at < name.size();) {
        const Piece piece = next_piece(name, at);
        if (name[at] == '\'') {
            out += "'\\''";
            in_escape = false;
        } else if (!piece.printable) {
            if (!in_escape) {
                out += "'$'";
                in_escape = true;
            }
            for (size_t k = 0; k < piece.length; ++k) {
                append_escape(out, static_cast<unsigned char>(name[at + k]));
            }
        } else {
            if (in_escape) {
                out += "''";
                in_escape = false;
            }
            out.append(name.substr(at, piece.length));
        }
        at += piece.length;
    }
    out += '\'';
    return out;
}

// Whether a full pass ends inside a $'...' piece: the last piece is unprintable.
bool ends_in_escape(std::string_view name) {
    bool in_escape = false;
    for (size_t at = 0; at < name.size();) {
        const Piece piece = next_piece(name, at);
        in_escape = !piece.printable;
        at += piece.length;
    }
    return in_escape;
}

}  // namespace

std::string quote_name(std::string_view name) {
    if (name.empty()) {
        return "''";
    }
    const Survey s = survey(name);
    if (!s.needs_quotes) {
        return std::string(name);
    }
    if (s.has_single_quote && s.double_quotes_fit) {
        return std::string(1, '"').append(name).append(1, '"');
    }
    // coreutils rescans after a single quote, starting in the state the first pass ended in.
    const bool stale_escape = s.has_single_quote && ends_in_escape(name);
    return single_quoted(name, stale_escape);
}

std::string quote_text(std::string_view text) {
    const std::string_view codeset = nl_langinfo(CODESET);
    const bool utf8 = codeset == "UTF-8" || codeset == "utf8" || codeset == "UTF8";
    const char* open = utf8 ? "\xe2\x80\x98" : "'";
    const char* close = utf8 ? "\xe2\x80\x99" : "'";
    return open + std::string(text) + close;
}

bool name_needs_escape(std::string_view name) {
    return name.find_first_of("\\\n\r") != std::string_view::npos;
}

std::string escape_name(std::string_view name) {
    std::string out;
    out.reserve(name.size() + 8);
    for (char c : name) {
        if (c == '\\') {
            out += "\\\\";
        } else if (c == '\n') {
            out += "\\n";
        } else if (c == '\r') {
            out += "\\r";
        } else {
            out += c;
        }
    }
    return out;
}

}  // namespace b2sum
