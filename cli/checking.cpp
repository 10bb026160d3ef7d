// SPDX-License-Identifier: Apache-2.0
#include "checking.hpp"

#include <sys/stat.h>
#include <cerrno>
#include <cstdio>
#include <cstdlib>

#include "check_line.hpp"
#include "hash_file.hpp"
#include "messages.hpp"
#include "quoting.hpp"

namespace b2sum {
namespace {

struct Tally {
    uintmax_t misformatted = 0;
    uintmax_t mismatched = 0;
    uintmax_t unreadable = 0;
    bool well_formed = false;
    bool matched = false;
};

bool same_hex(const std::string& written, const std::string& computed) {
    if (written.size() != computed.size()) {
        return false;
    }
    for (size_t i = 0; i < written.size(); ++i) {
        char c = written[i];
        c = (c >= 'A' && c <= 'F') ? static_cast<char>(c - 'A' + 'a') : c;
        if (c != computed[i]) {
            return false;
        }
    }
    return true;
}

class Checker {
  public:
    Checker(const Options& o, const ProviderSession& session, const Key& key)
        : o_(o),
          key_(key),
          algorithms_(session, !key.empty()),
          parser_(o.algorithm_given ? o.algorithm : nullptr),
          buffer_(/*read_ahead=*/true) {}

    // false when a checksum file fails; `provider_failed_` when the provider let us down.
    bool check_file(const std::string& name);
    bool provider_failed() const { return provider_failed_; }

  private:
    void check_line(const std::string& shown_file, const char* line, size_t length, bool from_stdin,
                    uintmax_t line_number, Tally& tally);
    void verify(const CheckLine& line, Tally& tally);
    void hint_other_algorithm(const CheckLine& line);
    void print_status(const std::string& name, const char* verdict) const;
    bool summarize(const std::string& shown_file, const Tally& tally) const;

    const Options& o_;
    const Key& key_;
    FetchedAlgorithms algorithms_;
    CheckLineParser parser_;
    Hashing hashing_;
    ReadBuffer buffer_;
    bool provider_failed_ = false;
};

// coreutils 9.1 escapes a name here only when it holds a newline (9.7: also '\\' and '\r').
void Checker::print_status(const std::string& name, const char* verdict) const {
    const bool escape = name.find('\n') != std::string::npos;
    const std::string shown = escape ? std::string(1, '\\').append(escape_name(name)) : name;
    std::printf("%s: %s\n", shown.c_str(), verdict);
}

void Checker::verify(const CheckLine& line, Tally& tally) {
    const Fetched* fetched = algorithms_.get(*line.algorithm);
    if (fetched == nullptr) {
        provider_failed_ = true;
        return;
    }
    if (key_.size() > line.algorithm->max_key) {
        report(quote_name(line.name) + ": the key is longer than the " +
               std::to_string(line.algorithm->max_key) + " bytes " +
               std::string(line.algorithm->tag) + " takes");
        ++tally.unreadable;
        if (!o_.status) {
            print_status(line.name, "FAILED open or read");
        }
        return;
    }
    const HashSpec spec{line.algorithm, line.bits, &key_, o_.kernel};
    const FileDigest d = hash_file(line.name, *fetched, spec, hashing_, buffer_, o_.show_kernel);
    if (report_wrong_kernel(o_, *line.algorithm, d)) {
        provider_failed_ = true;
        return;
    }
    if (!d.ok && !(o_.ignore_missing && d.missing)) {
        report(quote_name(line.name), d.error_number);
        ++tally.unreadable;
        if (!o_.status) {
            print_status(line.name, "FAILED open or read");
        }
        return;
    }
    if (!d.ok) {
        return;  // missing, and --ignore-missing
    }
    const bool match = same_hex(line.hex, to_hex(d.digest.data(), line.bits / 8));
    tally.matched |= match;
    tally.mismatched += match ? 0 : 1;
    if (!o_.status && (!match || !o_.quiet)) {
        print_status(line.name, match ? "OK" : "FAILED");
    }
    if (!match && !o_.status) {
        hint_other_algorithm(line);
    }
    if (o_.show_kernel) {
        report(quote_name(line.name) + ": kernel " + d.kernel);
    }
}

// A mismatch is most often a line checked with the wrong algorithm: an untagged line does not
// say its algorithm, and `-c` takes BLAKE2b unless told otherwise. When another algorithm of the
// same output length reproduces the listed checksum, say so (a failure path only: it rehashes).
void Checker::hint_other_algorithm(const CheckLine& line) {
    struct stat st {};
    // A regular file only: a pipe or device read again would block or give other bytes.
    if (line.name == "-" || stat(line.name.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
        return;
    }
    for (const Algorithm& other : kAlgorithms) {
        const bool same_length =
            other.variable_length ? line.bits <= other.max_bits : line.bits == other.default_bits;
        if (&other == line.algorithm || other.xof || !same_length || key_.size() > other.max_key) {
            continue;
        }
        const Fetched* fetched = algorithms_.get(other);
        const HashSpec spec{&other, line.bits, &key_, {}};
        const FileDigest d = fetched == nullptr
                                 ? FileDigest{}
                                 : hash_file(line.name, *fetched, spec, hashing_, buffer_, false);
        if (d.ok && same_hex(line.hex, to_hex(d.digest.data(), line.bits / 8))) {
            report(quote_name(line.name) + ": the listed checksum is its " +
                   std::string(other.tag) + ", not " + std::string(line.algorithm->tag) +
                   ": check with -a " + std::string(other.option) +
                   " (an untagged line does not name its algorithm; --tag lines do)");
            return;
        }
    }
}

void Checker::check_line(const std::string& shown_file, const char* line, size_t length,
                         bool from_stdin, uintmax_t line_number, Tally& tally) {
    std::optional<CheckLine> parsed = parser_.parse(std::string_view(line, length));
    if (!parsed || (from_stdin && parsed->name == "-")) {
        ++tally.misformatted;
        if (o_.warn) {
            report(quote_name(shown_file) + ": " + std::to_string(line_number) +
                   ": improperly formatted " + std::string(o_.algorithm->tag) + " checksum line");
        }
        return;
    }
    tally.well_formed = true;
    verify(*parsed, tally);
}

const char* plural(uintmax_t n, const char* one, const char* many) {
    return n == 1 ? one : many;
}

bool Checker::summarize(const std::string& shown_file, const Tally& t) const {
    if (!t.well_formed) {
        report(quote_name(shown_file) + ": no properly formatted checksum lines found");
    } else if (!o_.status) {
        if (t.misformatted != 0) {
            report("WARNING: " + std::to_string(t.misformatted) +
                   plural(t.misformatted, " line is", " lines are") + " improperly formatted");
        }
        if (t.unreadable != 0) {
            report("WARNING: " + std::to_string(t.unreadable) +
                   plural(t.unreadable, " listed file", " listed files") + " could not be read");
        }
        if (t.mismatched != 0) {
            report("WARNING: " + std::to_string(t.mismatched) +
                   plural(t.mismatched, " computed checksum", " computed checksums") +
                   " did NOT match");
        }
        if (o_.ignore_missing && !t.matched) {
            report(quote_name(shown_file) + ": no file was verified");
        }
    }
    return t.well_formed && t.matched && t.mismatched == 0 && t.unreadable == 0 &&
           (!o_.strict || t.misformatted == 0);
}

bool Checker::check_file(const std::string& name) {
    const bool from_stdin = name == "-";
    const std::string shown_file = from_stdin ? "standard input" : name;
    FILE* stream = from_stdin ? stdin : std::fopen(name.c_str(), "r");
    if (stream == nullptr) {
        report(quote_name(name), errno);
        return false;
    }
    g_read_stdin = g_read_stdin || from_stdin;
    Tally tally;
    char* line = nullptr;
    size_t allocated = 0;
    for (uintmax_t line_number = 1; !provider_failed_; ++line_number) {
        ssize_t length = getline(&line, &allocated, stream);
        if (length <= 0) {
            break;
        }
        if (line[0] == '#') {
            continue;
        }
        length -= line[length - 1] == '\n' ? 1 : 0;
        length -= line[length - (length > 0 ? 1 : 0)] == '\r' ? 1 : 0;
        if (length > 0) {
            check_line(shown_file, line, static_cast<size_t>(length), from_stdin, line_number,
                       tally);
        }
    }
    std::free(line);
    const bool read_failed = std::ferror(stream) != 0;
    if (from_stdin) {
        std::clearerr(stream);
    } else if (std::fclose(stream) != 0 && !read_failed) {
        report(quote_name(shown_file), errno);
        return false;
    }
    if (read_failed) {
        report(quote_name(shown_file) + ": read error");
        return false;
    }
    return summarize(shown_file, tally);
}

}  // namespace

Run check_files(const Options& options, const ProviderSession& session, const Key& key) {
    Checker checker(options, session, key);
    bool ok = true;
    for (const std::string& name : options.files) {
        ok &= checker.check_file(name);
        if (checker.provider_failed()) {
            return Run::provider_failed;
        }
    }
    return ok ? Run::ok : Run::failed;
}

}  // namespace b2sum
