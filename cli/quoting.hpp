// How coreutils' b2sum shows file names in messages: its "shell-escape" quoting with ':' quoted
// (what gnulib's quotef gives), and its locale quotes ('x', or ‘x’ in a UTF-8 locale).
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <string_view>

namespace b2sum {

// A name as the shell would need it: unchanged when nothing in it is special, else in single
// quotes with unprintable bytes as $'\ooo' pieces, or in double quotes when that is shorter.
// Printability follows the LC_CTYPE locale (setlocale must have run).
std::string quote_name(std::string_view name);

// 'text' in the C locale, ‘text’ when the locale's character set is UTF-8.
std::string quote_text(std::string_view text);

// The escaping of names in checksum lines: '\\' -> "\\\\", '\n' -> "\\n", '\r' -> "\\r".
bool name_needs_escape(std::string_view name);
std::string escape_name(std::string_view name);

}  // namespace b2sum
