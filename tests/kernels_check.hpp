// What the kernel-level tests share on top of the one check/tally layer (b2test::Report, which
// needs no OpenSSL: these tests link none): a reproducible random source.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>

#include "support/b2test/check.hpp"

namespace b2kernels_test {

using b2test::kSkipExitCode;

// The name test_dispatch.cpp still spells; it is b2test::Report, not a second tally.
using Checks = b2test::Report;

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
