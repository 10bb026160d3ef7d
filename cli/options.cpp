// SPDX-License-Identifier: Apache-2.0
#include "options.hpp"

#include <getopt.h>
#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <string>

#include "messages.hpp"
#include "quoting.hpp"

namespace b2sum {
namespace {

enum LongOnly {
    kIgnoreMissing = CHAR_MAX + 1,
    kStatus,
    kQuiet,
    kStrict,
    kTag,
    kKernel,
    kProviderPath,
    kHelp,
    kVersion,
};

// Where --help lists an option.
enum class Section : uint8_t { main, checking, information };

// Every option, once: getopt's tables, --help and the -a list follow from it (the bash
// completion and the man page are checked against --help by tests/cli_sum_options.py).
// In --help's order, which is also getopt's: options sharing a prefix (--status/--strict,
// --tag/--text, --key/--kernel, --print-kernel/--provider-path) keep b2sum's relative order,
// so an ambiguous abbreviation lists them as b2sum does. Ours are spelled so that no b2sum
// option's abbreviation becomes ambiguous (no --verbose beside --version, nothing starting
// with "s").
struct OptionSpec {
    int id;                // the short option's letter, or a LongOnly value
    const char* name;      // the long option
    const char* argument;  // its argument's name; nullptr: none
    Section section;
    const char* help;  // '\n' starts a continuation line
};

// The -a line is made from kAlgorithms (print_option_help).
constexpr const char* kAlgorithmHelp = nullptr;

constexpr OptionSpec kOptionSpecs[] = {
    {'a', "algorithm", "NAME", Section::main, kAlgorithmHelp},
    {'b', "binary", nullptr, Section::main, "read in binary mode"},
    {'c', "check", nullptr, Section::main, "read checksums from the FILEs and check them"},
    {'l', "length", "BITS", Section::main,
     "digest length in bits; must not exceed the max for\n"
     "  the algorithm and must be a multiple of 8\n"
     "  (blake2bp/blake2sp: every node's digest length,\n"
     "  as the reference b2sum; for blake2xb/blake2xs\n"
     "  the XOF output length, up to 524288 bits, fixed\n"
     "  in the root hash as in the official vectors;\n"
     "  default 512/256)"},
    {kTag, "tag", nullptr, Section::main, "create a BSD-style checksum (BLAKE2b-256 (FILE) = ...)"},
    {'t', "text", nullptr, Section::main, "read in text mode (default)"},
    {'z', "zero", nullptr, Section::main,
     "end each output line with NUL, not newline,\n  and disable file name escaping"},
    {'k', "key", "FILE", Section::main,
     "keyed hashing (BLAKE2 MAC) with the key in FILE (1 to 64\n"
     "  bytes, 32 for blake2s/blake2sp; mode 600 or stricter)"},
    {'j', "jobs", "N", Section::main, "hash up to N files at once (output stays in order)"},
    {kKernel, "kernel", "NAME", Section::main,
     "ask the provider for this kernel (see blake2simd(7))"},
    {'v', "print-kernel", nullptr, Section::main, "tell on stderr which kernel hashed each file"},
    {kProviderPath, "provider-path", "DIR", Section::main, "load blake2simd.so from DIR only"},
    {kIgnoreMissing, "ignore-missing", nullptr, Section::checking,
     "don't fail or report status for missing files"},
    {kQuiet, "quiet", nullptr, Section::checking,
     "don't print OK for each successfully verified file"},
    {kStatus, "status", nullptr, Section::checking,
     "don't output anything, status code shows success"},
    {kStrict, "strict", nullptr, Section::checking,
     "exit non-zero for improperly formatted checksum lines"},
    {'w', "warn", nullptr, Section::checking, "warn about improperly formatted checksum lines"},
    {kHelp, "help", nullptr, Section::information, "display this help and exit"},
    {kVersion, "version", nullptr, Section::information, "output version information and exit"},
};
constexpr size_t kOptionCount = sizeof kOptionSpecs / sizeof kOptionSpecs[0];

constexpr bool has_short_name(const OptionSpec& spec) {
    return spec.id <= CHAR_MAX;
}

// getopt_long's tables, from kOptionSpecs.
struct GetoptTables {
    option long_options[kOptionCount + 1];
    char short_options[2 * kOptionCount + 1];
};

constexpr GetoptTables make_getopt_tables() {
    GetoptTables tables{};
    size_t used = 0;
    for (size_t i = 0; i < kOptionCount; ++i) {
        const OptionSpec& spec = kOptionSpecs[i];
        const int has_argument = spec.argument != nullptr ? required_argument : no_argument;
        tables.long_options[i] = option{spec.name, has_argument, nullptr, spec.id};
        if (has_short_name(spec)) {
            tables.short_options[used++] = static_cast<char>(spec.id);
            if (spec.argument != nullptr) {
                tables.short_options[used++] = ':';
            }
        }
    }
    tables.long_options[kOptionCount] = option{nullptr, 0, nullptr, 0};
    tables.short_options[used] = '\0';
    return tables;
}

constexpr GetoptTables kGetopt = make_getopt_tables();

// "blake2b (default), blake2s, ..., blake2xb or blake2xs" (--help), and "blake2b, blake2s, ...,
// blake2xs", the list an unknown -a names.
std::string algorithm_list(const char* last_separator, bool mark_default) {
    std::string text;
    for (const Algorithm& a : kAlgorithms) {
        if (!text.empty()) {
            text += &a == &kAlgorithms[std::size(kAlgorithms) - 1] ? last_separator : ", ";
        }
        text += a.option;
        if (mark_default && &a == &kDefaultAlgorithm) {
            text += " (default)";
        }
    }
    return text;
}

// One option's --help entry: "  -a, --algorithm=NAME  text", continuation lines under the text.
void print_option_help(const OptionSpec& spec) {
    const size_t column = spec.section == Section::information ? 15 : 22;
    std::string head = has_short_name(spec) ? std::string("  -") + static_cast<char>(spec.id) + ","
                                            : std::string("     ");
    head += std::string(" --") + spec.name;
    if (spec.argument != nullptr) {
        head += std::string("=") + spec.argument;
    }
    head.resize(std::max(head.size(), column), ' ');
    std::string text = spec.help != nullptr ? spec.help : "";
    if (spec.help == kAlgorithmHelp) {
        // Wrapped after the fourth name, as the reference's width allows.
        text = algorithm_list(" or ", true);
        const size_t fourth = text.find(", ", text.find(", ", text.find(", ") + 2) + 2);
        const size_t cut = text.find(", ", fourth + 2);
        if (cut != std::string::npos) {
            text.replace(cut, 2, ",\n  ");
        }
    }
    // A continuation line ("  more") starts under the text, two columns in.
    const std::string newline = std::string(1, '\n').append(column + 2, ' ');
    size_t position = 0;
    while ((position = text.find('\n', position)) != std::string::npos) {
        text.replace(position, 1, newline);
        position += newline.size();
    }
    std::printf("%s  %s\n", head.c_str(), text.c_str());
}

void print_section(Section section) {
    for (const OptionSpec& spec : kOptionSpecs) {
        if (spec.section == section) {
            print_option_help(spec);
        }
    }
}

int usage_error(const std::string& message) {
    report(message);
    report_try_help();
    return EXIT_FAILURE;
}

// coreutils' -l syntax: decimal, optional blanks and '+', nothing after the digits.
// Prints its error and returns false when the text is not a number.
bool parse_length(const char* text, uintmax_t* bits) {
    const char* p = text;
    while (*p == ' ' || (*p >= '\t' && *p <= '\r')) {
        ++p;
    }
    char* end = nullptr;
    errno = 0;
    const uintmax_t value = *p == '-' ? 0 : std::strtoumax(text, &end, 10);
    const bool overflow = errno == ERANGE;
    if (*p == '-' || end == text || *end != '\0') {
        report("invalid length: " + quote_text(text));
        return false;
    }
    if (overflow) {
        report("invalid length: " + quote_text(text), EOVERFLOW);
        return false;
    }
    *bits = value;
    return true;
}

bool parse_jobs(const char* text, unsigned* jobs) {
    char* end = nullptr;
    errno = 0;
    const unsigned long value = std::strtoul(text, &end, 10);
    if (end == text || *end != '\0' || errno != 0 || value == 0 || value > 256 || *text == '-') {
        report("invalid number of jobs: " + quote_text(text) + " (1 to 256)");
        return false;
    }
    *jobs = static_cast<unsigned>(value);
    return true;
}

void print_help();
void print_version();

// The option loop; -1 to go on, else an exit status.
int read_options(int argc, char** argv, Options& o, uintmax_t* bits) {
    int c = 0;
    while ((c = getopt_long(argc, argv, kGetopt.short_options, kGetopt.long_options, nullptr)) !=
           -1) {
        switch (c) {
            case 'l':
                if (!parse_length(optarg, bits)) {
                    return EXIT_FAILURE;
                }
                o.length_text = optarg;
                break;
            case 'c':
                o.check = true;
                break;
            case kStatus:
                o.status = true;
                o.warn = o.quiet = false;
                break;
            case 'b':
                o.binary = 1;
                break;
            case 't':
                o.binary = 0;
                break;
            case 'w':
                o.warn = true;
                o.status = o.quiet = false;
                break;
            case kIgnoreMissing:
                o.ignore_missing = true;
                break;
            case kQuiet:
                o.quiet = true;
                o.status = o.warn = false;
                break;
            case kStrict:
                o.strict = true;
                break;
            case kTag:
                o.tag = true;
                o.binary = 1;
                break;
            case 'z':
                o.delimiter = '\0';
                break;
            case 'a':
                o.algorithm = find_algorithm(optarg);
                if (o.algorithm == nullptr) {
                    return usage_error("invalid algorithm " + quote_text(optarg) + " (" +
                                       algorithm_list(", ", false) + ")");
                }
                o.algorithm_given = true;
                break;
            case 'k':
                o.key_path = optarg;
                break;
            case kKernel:
                o.kernel = optarg;
                break;
            case 'v':
                o.show_kernel = true;
                break;
            case 'j':
                if (!parse_jobs(optarg, &o.jobs)) {
                    return EXIT_FAILURE;
                }
                break;
            case kProviderPath:
                o.provider_path = optarg;
                break;
            case kHelp:
                print_help();
                return EXIT_SUCCESS;
            case kVersion:
                print_version();
                return EXIT_SUCCESS;
            default:
                report_try_help();
                return EXIT_FAILURE;
        }
    }
    for (int i = optind; i < argc; ++i) {
        o.files.emplace_back(argv[i]);
    }
    if (o.files.empty()) {
        o.files.emplace_back("-");
    }
    return -1;
}

// The length checks, in b2sum's order, after the option loop.
int check_length(Options& o, uintmax_t bits) {
    const Algorithm& a = *o.algorithm;
    if (bits % 8 != 0) {
        report("invalid length: " + quote_text(o.length_text));
        report("length is not a multiple of 8");
        return EXIT_FAILURE;
    }
    if (bits > a.max_bits) {
        report("invalid length: " + quote_text(o.length_text));
        report("maximum digest length for " + quote_text(a.tag) + " is " +
               std::to_string(a.max_bits) + " bits");
        return EXIT_FAILURE;
    }
    if (!a.variable_length && bits != 0 && bits != a.max_bits) {
        report("--length is not supported with -a " + std::string(a.option) +
               ": its output is "
               "always " +
               std::to_string(a.max_bits) + " bits");
        return EXIT_FAILURE;
    }
    o.bits = bits == 0 ? a.default_bits : static_cast<unsigned>(bits);
    return -1;
}

// The combinations b2sum refuses, in its order.
int check_combinations(const Options& o) {
    struct Rule {
        bool refused;
        const char* message;
    };
    const Rule rules[] = {
        {o.tag && o.binary == 0, "--tag does not support --text mode"},
        {o.delimiter != '\n' && o.check,
         "the --zero option is not supported when verifying checksums"},
        {o.tag && o.check, "the --tag option is meaningless when verifying checksums"},
        {o.binary >= 0 && o.check,
         "the --binary and --text options are meaningless when verifying checksums"},
        {o.ignore_missing && !o.check,
         "the --ignore-missing option is meaningful only when verifying checksums"},
        {o.status && !o.check, "the --status option is meaningful only when verifying checksums"},
        {o.warn && !o.check, "the --warn option is meaningful only when verifying checksums"},
        {o.quiet && !o.check, "the --quiet option is meaningful only when verifying checksums"},
        {o.strict && !o.check, "the --strict option is meaningful only when verifying checksums"},
    };
    for (const Rule& rule : rules) {
        if (rule.refused) {
            return usage_error(rule.message);
        }
    }
    return -1;
}

void print_help() {
    std::printf(
        "Usage: %s [OPTION]... [FILE]...\n"
        "Print or check BLAKE2 checksums, computed by the blake2simd OpenSSL provider.\n"
        "Output and checksum files are those of coreutils' b2sum.\n"
        "\n"
        "With no FILE, or when FILE is -, read standard input.\n"
        "\n"
        "Mandatory arguments to long options are mandatory for short options too.\n",
        g_program_name);
    print_section(Section::main);
    std::printf("\nThe following five options are useful only when verifying checksums:\n");
    print_section(Section::checking);
    std::printf("\n");
    print_section(Section::information);
    std::printf(
        "\n"
        "The sums are computed as described in RFC 7693 (and the BLAKE2 paper's tree\n"
        "modes for blake2bp and blake2sp). The provider is loaded into a library context\n"
        "of this program's own: openssl.cnf is not read, and nothing but blake2simd hashes.\n"
        "Exit status: 0 on success, 1 if a file failed or did not match, 2 if the\n"
        "provider cannot be loaded.\n"
        "Manual: blake2simd-sum(1).\n");
}

void print_version() {
    std::printf(
        "blake2simd-sum (blake2simd) %s\n"
        "Compatible with the output and checksum files of coreutils' b2sum.\n"
        "License: Apache-2.0.\n",
        B2_VERSION);
}

}  // namespace

int parse_options(int argc, char** argv, Options& options) {
    uintmax_t bits = 0;
    int status = read_options(argc, argv, options, &bits);
    if (status < 0) {
        status = check_length(options, bits);
    }
    if (status < 0) {
        status = check_combinations(options);
    }
    return status;
}

}  // namespace b2sum
