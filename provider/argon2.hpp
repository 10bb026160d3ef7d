// The Argon2 algorithm (RFC 9106): H0, the variable-length hash H', the first blocks, the
// passes over slices and lanes with their reference indexing, and the final block. H0 and H' run
// on our BLAKE2b engine, the block compression G on the BlaMka form's kernel (kernels/kernel.hpp:
// FillBlockFunction). No OpenSSL call is made here (a failure is a Reason for the caller to
// raise); the EVP_KDF callbacks are kdf_argon2.cpp's.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>

#include "errors.hpp"
#include "kernel.hpp"

namespace blake2simd::argon2 {

enum class Type : uint32_t { d = 0, i = 1, id = 2 };  // the values H0 and the address block hash

inline constexpr uint32_t kVersion10 = 0x10;
inline constexpr uint32_t kVersion13 = 0x13;
inline constexpr uint32_t kSyncPoints = 4;  // slices per pass
inline constexpr uint32_t kMinMemcost = 2 * kSyncPoints;
inline constexpr size_t kBlockBytes = kArgon2BlockWords * 8;

struct Bytes {
    const uint8_t* data = nullptr;
    size_t size = 0;
};

// One derivation, every input already checked against the limits (argon2_params.cpp).
struct Job {
    Type type;
    uint32_t version;
    uint32_t lanes;
    uint32_t threads;  // at most lanes; 1 runs every lane on the calling thread
    uint32_t memcost;  // KiB blocks, at least 8 * lanes
    uint32_t passes;
    Bytes pass, salt, secret, ad;
};

// The kernels the derivation runs on.
struct Engines {
    Blake2bFamily::Compress blake2b;
    FillBlockFn fill_block;
};

// Called right after H0 is made: early_clean drops the password and secret there.
using AfterPrehash = void (*)(void* context) noexcept;

// Writes `out_size` (4 .. 2^32-1) bytes. On failure (memory that cannot be mapped) returns false
// with `failure` set and `out` untouched. Every block and H0 are wiped, and the kernels' stack and
// register copies scrubbed, before it returns; no thread it starts outlives it. `after_prehash`
// (may be null) is called with `context` once H0 is made.
bool derive(const Job& job, const Engines& engines, uint8_t* out, size_t out_size,
            AfterPrehash after_prehash, void* context, Reason& failure) noexcept;

// H'^T(X), RFC 9106 section 3.3, over the concatenation of `parts`.
void variable_length_hash(Blake2bFamily::Compress compress, uint8_t* out, size_t out_size,
                          const Bytes* parts, size_t part_count) noexcept;

}  // namespace blake2simd::argon2
