// What the kernel-level tests share on top of the one check/tally layer (b2test::Report, which
// needs no OpenSSL: these tests link none): a reproducible random source and guarded memory.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>

#include "support/b2test/check.hpp"

namespace b2kernels_test {

using b2test::kSkipExitCode;

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

// `bytes` usable bytes between two PROT_NONE pages; a stray access ends the process (SIGSEGV).
class GuardedArea final {
  public:
    explicit GuardedArea(size_t bytes) {
        m_page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
        m_usable = (bytes + m_page - 1) / m_page * m_page;
        void* mapping = mmap(nullptr, m_usable + 2 * m_page, PROT_READ | PROT_WRITE,
                             MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (mapping == MAP_FAILED) {
            return;
        }
        m_mapping = static_cast<uint8_t*>(mapping);
        if (mprotect(m_mapping, m_page, PROT_NONE) == 0 &&
            mprotect(m_mapping + m_page + m_usable, m_page, PROT_NONE) == 0) {
            m_start = m_mapping + m_page;
        }
    }
    GuardedArea(const GuardedArea&) = delete;
    GuardedArea& operator=(const GuardedArea&) = delete;
    ~GuardedArea() {
        if (m_mapping != nullptr) {
            munmap(m_mapping, m_usable + 2 * m_page);
        }
    }
    [[nodiscard]] bool ok() const { return m_start != nullptr; }
    [[nodiscard]] uint8_t* at_start() const { return m_start; }
    [[nodiscard]] uint8_t* at_end(size_t bytes) const { return m_start + m_usable - bytes; }

  private:
    size_t m_page = 0;
    size_t m_usable = 0;
    uint8_t* m_mapping = nullptr;
    uint8_t* m_start = nullptr;
};

}  // namespace b2kernels_test
