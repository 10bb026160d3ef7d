// Clearing secrets with stores the compiler may not drop, from libc: the module links no
// libcrypto. Contexts are freed at every EVP_DigestInit_ex2 on OpenSSL 3.0 and MACs re-key per
// message: glibc's explicit_bzero is a vectorized memset, where OPENSSL_cleanse clears 8 bytes
// a step.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstring>

namespace blake2simd {

inline void cleanse(void* memory, size_t size) noexcept {
    explicit_bzero(memory, size);
}

}  // namespace blake2simd
