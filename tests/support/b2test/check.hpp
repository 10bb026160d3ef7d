// The check/report layer of every C++ test: count, show the first failures, summarise.
// Needs no OpenSSL (kernel tests link none); openssl_errors.hpp adds the error queue to
// failure messages.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace b2test {

// Exit status a test returns when the host cannot run it; CTest maps it via SKIP_RETURN_CODE.
inline constexpr int kSkipExitCode = 77;

// For tests that fork() a multithreaded process: TSan's own state does not survive that (it
// reports the parent's threads as leaked in the child, and can hang there), so under TSan no
// verdict is possible. True (with the SKIP line printed) when the test must exit kSkipExitCode.
inline bool multithreaded_fork_unsupported() {
#if defined(__SANITIZE_THREAD__)
    std::printf("SKIP: fork() of a multithreaded process is not supported under ThreadSanitizer\n");
    return true;
#else
    return false;
#endif
}

// Extra text for failure messages (the EVP tests' OpenSSL error queue, openssl_errors.hpp);
// nullptr in tests that link no OpenSSL.
inline std::string (*failure_note)() = nullptr;

inline std::string take_failure_note() {
    return failure_note != nullptr ? failure_note() : std::string();
}

inline bool contains(std::string_view text, std::string_view part) {
    return text.find(part) != std::string_view::npos;
}

// Counts checks of one test program. Only the first few failures are printed in full so a
// systematic bug does not bury the summary under thousands of identical lines.
class Report final {
  public:
    explicit Report(std::string_view program, int max_printed_failures = 10)
        : m_program(program), m_max_printed(max_printed_failures) {}

    void pass() noexcept { ++m_passed; }

    void fail(const char* file, int line, const char* condition, std::string_view context) {
        ++m_failed;
        if (m_failed <= m_max_printed) {
            const std::string errors = take_failure_note();
            const std::string where =
                file != nullptr
                    ? std::string(file) + ":" + std::to_string(line) + ": " + condition + " --"
                    : std::string();
            std::fprintf(stderr, "FAIL %s %.*s%s%s\n", where.c_str(),
                         static_cast<int>(context.size()), context.data(),
                         errors.empty() ? "" : " | ", errors.c_str());
        } else if (m_failed == m_max_printed + 1) {
            std::fprintf(stderr, "(further failures are counted but not printed)\n");
        }
    }

    // For callers whose context is built anyway: counts `condition`, returns it (so a caller
    // can stop early on a failure).
    bool check(bool condition, std::string_view what) {
        if (condition) {
            pass();
        } else {
            fail(nullptr, 0, nullptr, what);
        }
        return condition;
    }

    [[nodiscard]] long failed() const noexcept { return m_failed; }
    [[nodiscard]] long passed() const noexcept { return m_passed; }

    // Prints the summary; the return value is the process exit status.
    [[nodiscard]] int finish() const {
        std::printf("%s: %ld passed, %ld failed\n", m_program.c_str(), m_passed, m_failed);
        if (m_passed == 0 && m_failed == 0) {
            std::printf("%s: no checks ran, counted as failure\n", m_program.c_str());
            return 1;
        }
        return m_failed == 0 ? 0 : 1;
    }

  private:
    std::string m_program;
    int m_max_printed;
    long m_passed = 0;
    long m_failed = 0;
};

// Fatal setup failure: print why (with the failure note) and exit 1.
[[noreturn]] inline void fatal(std::string_view why) {
    const std::string errors = take_failure_note();
    std::fprintf(stderr, "FATAL: %.*s%s%s\n", static_cast<int>(why.size()), why.data(),
                 errors.empty() ? "" : " | ", errors.c_str());
    std::exit(1);
}

}  // namespace b2test

// `context` is evaluated only when the check fails, so it may build strings freely.
#define B2_CHECK(report, condition, context)                          \
    do {                                                              \
        if (condition) {                                              \
            (report).pass();                                          \
        } else {                                                      \
            (report).fail(__FILE__, __LINE__, #condition, (context)); \
        }                                                             \
    } while (0)

#define B2_REQUIRE(condition, context)                                              \
    do {                                                                            \
        if (!(condition)) {                                                         \
            ::b2test::fatal(std::string(#condition " -- ") + std::string(context)); \
        }                                                                           \
    } while (0)
