// SPDX-License-Identifier: Apache-2.0
#include "options.hpp"

#include <getopt.h>
#include <cerrno>
#include <cinttypes>
#include <climits>
#include <cstdio>
#include <cstdlib>

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

// b2sum's long options first; ours are spelled so that no b2sum option's abbreviation becomes
// ambiguous (no --verbose beside --version, nothing starting with "s").
const option kLongOptions[] = {
    {"length", required_argument, nullptr, 'l'},
    {"check", no_argument, nullptr, 'c'},
    {"ignore-missing", no_argument, nullptr, kIgnoreMissing},
    {"quiet", no_argument, nullptr, kQuiet},
    {"status", no_argument, nullptr, kStatus},
    {"warn", no_argument, nullptr, 'w'},
    {"strict", no_argument, nullptr, kStrict},
    {"tag", no_argument, nullptr, kTag},
    {"zero", no_argument, nullptr, 'z'},
    {"binary", no_argument, nullptr, 'b'},
    {"text", no_argument, nullptr, 't'},
    {"algorithm", required_argument, nullptr, 'a'},
    {"key", required_argument, nullptr, 'k'},
    {"kernel", required_argument, nullptr, kKernel},
    {"print-kernel", no_argument, nullptr, 'v'},
    {"jobs", required_argument, nullptr, 'j'},
    {"provider-path", required_argument, nullptr, kProviderPath},
    {"help", no_argument, nullptr, kHelp},
    {"version", no_argument, nullptr, kVersion},
    {nullptr, 0, nullptr, 0},
};

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
    while ((c = getopt_long(argc, argv, "l:bctwza:k:vj:", kLongOptions, nullptr)) != -1) {
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
                    return usage_error("invalid algorithm " + quote_text(optarg) +
                                       " (blake2b, blake2s, blake2bp, blake2sp, blake2xb, "
                                       "blake2xs)");
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
        "Mandatory arguments to long options are mandatory for short options too.\n"
        "  -a, --algorithm=NAME  blake2b (default), blake2s, blake2bp, blake2sp,\n"
        "                          blake2xb or blake2xs\n"
        "  -b, --binary          read in binary mode\n"
        "  -c, --check           read checksums from the FILEs and check them\n"
        "  -l, --length=BITS     digest length in bits; must not exceed the max for\n"
        "                          the algorithm and must be a multiple of 8\n"
        "                          (blake2bp/blake2sp: every node's digest length,\n"
        "                          as the reference b2sum; for blake2xb/blake2xs\n"
        "                          the XOF output length, up to 524288 bits, fixed\n"
        "                          in the root hash as in the official vectors;\n"
        "                          default 512/256)\n"
        "      --tag             create a BSD-style checksum (BLAKE2b-256 (FILE) = ...)\n"
        "  -t, --text            read in text mode (default)\n"
        "  -z, --zero            end each output line with NUL, not newline,\n"
        "                          and disable file name escaping\n"
        "  -k, --key=FILE        keyed hashing (BLAKE2 MAC) with the key in FILE (1 to 64\n"
        "                          bytes, 32 for blake2s/blake2sp; mode 600 or stricter)\n"
        "  -j, --jobs=N          hash up to N files at once (output stays in order)\n"
        "      --kernel=NAME     ask the provider for this kernel (see blake2simd(7))\n"
        "  -v, --print-kernel    tell on stderr which kernel hashed each file\n"
        "      --provider-path=DIR  load blake2simd.so from DIR only\n"
        "\n"
        "The following five options are useful only when verifying checksums:\n"
        "      --ignore-missing  don't fail or report status for missing files\n"
        "      --quiet           don't print OK for each successfully verified file\n"
        "      --status          don't output anything, status code shows success\n"
        "      --strict          exit non-zero for improperly formatted checksum lines\n"
        "  -w, --warn            warn about improperly formatted checksum lines\n"
        "\n"
        "      --help     display this help and exit\n"
        "      --version  output version information and exit\n"
        "\n"
        "The sums are computed as described in RFC 7693 (and the BLAKE2 paper's tree\n"
        "modes for blake2bp and blake2sp). The provider is loaded into a library context\n"
        "of this program's own: openssl.cnf is not read, and nothing but blake2simd hashes.\n"
        "Exit status: 0 on success, 1 if a file failed or did not match, 2 if the\n"
        "provider cannot be loaded.\n"
        "Manual: blake2simd-sum(1).\n",
        g_program_name);
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
