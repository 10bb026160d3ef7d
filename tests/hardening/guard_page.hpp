// Memory whose first byte follows an inaccessible page: a read before it faults (SIGSEGV),
// with or without a sanitizer. What libcrypto 3.0's integer getters read for an INTEGER param
// of data_size 0.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>

class BytesAfterGuardPage final {
  public:
    BytesAfterGuardPage() {
        m_page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
        void* base =
            mmap(nullptr, 2 * m_page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (base != MAP_FAILED && mprotect(base, m_page, PROT_NONE) == 0) {
            m_base = static_cast<unsigned char*>(base);
        }
    }
    ~BytesAfterGuardPage() {
        if (m_base != nullptr) {
            munmap(m_base, 2 * m_page);
        }
    }
    BytesAfterGuardPage(const BytesAfterGuardPage&) = delete;
    BytesAfterGuardPage& operator=(const BytesAfterGuardPage&) = delete;

    // nullptr if the mapping failed.
    [[nodiscard]] unsigned char* data() const noexcept {
        return m_base != nullptr ? m_base + m_page : nullptr;
    }

  private:
    size_t m_page = 0;
    unsigned char* m_base = nullptr;
};
