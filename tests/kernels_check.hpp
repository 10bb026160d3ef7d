// Check counter and random source for the kernel-level tests, which link no OpenSSL.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <cstdio>

namespace b2kernels_test {

// Exit status for "this host cannot run the test"; CTest maps it via SKIP_RETURN_CODE.
inline constexpr int kSkipExitCode = 77;

class Checks final {
  public:
    explicit Checks(const char* program) : m_program(program) {}

    // Returns `condition` so callers can stop early on a failure.
    bool check(bool condition, const char* what) {
        if (condition) {
            ++m_passed;
        } else {
            ++m_failed;
            if (m_failed <= 20) {
                std::fprintf(stderr, "FAIL %s: %s\n", m_program, what);
            }
        }
        return condition;
    }

    [[nodiscard]] long failed() const noexcept { return m_failed; }

    // Prints the summary and returns the exit status; no checks at all counts as failure.
    [[nodiscard]] int finish() const {
        std::printf("%s: %ld passed, %ld failed\n", m_program, m_passed, m_failed);
        return (m_failed == 0 && m_passed > 0) ? 0 : 1;
    }

  private:
    const char* m_program;
    long m_passed = 0;
    long m_failed = 0;
};

// splitmix64: small and deterministic, so a failure reproduces from the seed.
class Random final {
  public:
    explicit Random(uint64_t seed) : m_state(seed) {}
    uint64_t next() {
        uint64_t z = (m_state += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    uint64_t below(uint64_t bound) { return next() % bound; }

  private:
    uint64_t m_state;
};

}  // namespace b2kernels_test
