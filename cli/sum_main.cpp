// blake2simd-sum: coreutils b2sum's interface over the blake2simd provider.
// SPDX-License-Identifier: Apache-2.0
#include <unistd.h>
#include <cerrno>
#include <clocale>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "checking.hpp"
#include "evp_hash.hpp"
#include "generating.hpp"
#include "hash_file.hpp"
#include "messages.hpp"
#include "options.hpp"
#include "quoting.hpp"

namespace b2sum {
namespace {

constexpr int kProviderFailure = 2;

std::unique_ptr<ProviderSession> load_provider(const Options& options) {
    // The provider reads its kernel request from the environment when it starts.
    if (!options.kernel.empty() && setenv("BLAKE2SIMD_KERNEL", options.kernel.c_str(), 1) != 0) {
        report("cannot pass the kernel request", errno);
        return nullptr;
    }
    // Every directory that failed is named: a build tree's module refused (as root, under /tmp)
    // must not hide behind the installed directory's "not found".
    std::vector<std::string> errors;
    for (const std::string& directory : module_directories(options.provider_path)) {
        std::string error;
        std::unique_ptr<ProviderSession> session = ProviderSession::load(directory, &error);
        if (session) {
            return session;
        }
        errors.push_back(error);
    }
    for (const std::string& error : errors) {
        report(error);
    }
    return nullptr;
}

// coreutils' close_stdout: a failed write of the output fails the run.
bool close_output() {
    const bool had_error = std::ferror(stdout) != 0;
    errno = 0;
    if (std::fclose(stdout) != 0 || had_error) {
        std::fprintf(stderr, "%s: write error", g_program_name);
        if (errno != 0) {
            std::fprintf(stderr, ": %s", std::strerror(errno));
        }
        std::fputc('\n', stderr);
        return false;
    }
    return true;
}

int run(int argc, char** argv) {
    Options options;
    const int parsed = parse_options(argc, argv, options);
    if (parsed >= 0) {
        return parsed;
    }
    Key key;
    std::string error;
    if (!options.key_path.empty() &&
        !key.load(options.key_path, options.algorithm->max_key, &error)) {
        report("key file " + quote_name(options.key_path) + ": " + error);
        return EXIT_FAILURE;
    }
    const std::unique_ptr<ProviderSession> session = load_provider(options);
    if (!session) {
        return kProviderFailure;
    }
    const Run outcome =
        options.check ? check_files(options, *session, key) : generate_sums(options, *session, key);
    if (outcome == Run::provider_failed) {
        return kProviderFailure;
    }
    bool ok = outcome == Run::ok;
    if (g_read_stdin.load() && close(STDIN_FILENO) != 0) {
        report("standard input", errno);
        ok = false;
    }
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}

}  // namespace
}  // namespace b2sum

int main(int argc, char** argv) {
    b2sum::g_program_name = argv[0] != nullptr ? argv[0] : "blake2simd-sum";
    std::setlocale(LC_ALL, "");
    // Whole lines reach the output at once, as with coreutils (parallel runs do not mix).
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    const int status = b2sum::run(argc, argv);
    const bool closed = b2sum::close_output();
    return closed ? status : EXIT_FAILURE;
}
