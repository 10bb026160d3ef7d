// The OSSL_PARAM helpers the module needs, so that it links no libcrypto: one module then
// serves every 3.x and 4.x core. Where libcrypto's helpers read or write a malformed param
// anyway, or accept it by guessing, these refuse it; otherwise they give libcrypto 3.0's answers
// (tests/test_ossl_param.cpp compares the two for every type and size).
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <openssl/core.h>

#include <cstddef>
#include <cstdint>

namespace blake2simd::param {

enum class Status : uint8_t {
    ok,
    wrong_type,        // another data type, or an integer of a size outside 1..8 bytes
    out_of_range,      // an integer param whose value does not fit what is asked
    buffer_too_small,  // a string, or an integer, the caller's buffer cannot hold
};

// Whether a param's key is `name`. Param names are a few bytes: an inlined byte loop costs less
// than a call to strcmp.
inline bool is_named(const char* key, const char* name) noexcept {
    while (*name != '\0' && *key == *name) {
        ++key;
        ++name;
    }
    return *key == *name;
}

// The first param named `key`, or nullptr (also for a NULL array).
const OSSL_PARAM* locate(const OSSL_PARAM* params, const char* key) noexcept;
OSSL_PARAM* locate(OSSL_PARAM* params, const char* key) noexcept;

// A signed or unsigned INTEGER of 1 to 8 bytes, read without guessing: NULL data, data_size 0
// (libcrypto 3.0 reads the byte before the buffer) and larger sizes are wrong_type, and never
// read; a negative value is out_of_range. REAL is wrong_type: no BLAKE2 param is a real.
Status get_size_t(const OSSL_PARAM* p, size_t& value) noexcept;
// The same, up to 2^64-1 on every target (a BLAKE2b node offset needs all 64 bits).
Status get_uint64(const OSSL_PARAM* p, uint64_t& value) noexcept;

// Write `value` into an INTEGER or UNSIGNED_INTEGER param of 1 to 8 bytes. A param with NULL
// data is a size query: return_size tells the value's size. return_size is data_size on
// success; on failure, the value's size, or 0 for a type that can never hold it.
Status set_size_t(OSSL_PARAM* p, size_t value) noexcept;
Status set_int(OSSL_PARAM* p, int value) noexcept;
Status set_uint64(OSSL_PARAM* p, uint64_t value) noexcept;

// Chooses by data_type: a UTF8_PTR param is pointed at `value` (which must outlive the
// caller's use), a UTF8_STRING param receives a copy, NUL-terminated when there is room.
// return_size is strlen(value), or 0 for another data type.
Status set_utf8(OSSL_PARAM* p, const char* value) noexcept;

// An OCTET_STRING param's bytes, referenced, not copied. NULL data is wrong_type unless
// data_size is 0 (an empty string).
Status get_octet_string_view(const OSSL_PARAM* p, const uint8_t*& bytes, size_t& size) noexcept;

// A UTF8_STRING param's bytes (data_size of them, no terminator needed), referenced; as above.
Status get_utf8_string_view(const OSSL_PARAM* p, const uint8_t*& bytes, size_t& size) noexcept;

}  // namespace blake2simd::param
