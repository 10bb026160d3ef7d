// Argon2 params that EVP passes on unchecked and the KDFs must refuse: of the wrong type, or a
// value past a 32-bit param's range, or a salt under 8 bytes; each with a word the refusal's
// reason must contain. For test_bad_input (through EVP) and test_direct_dispatch.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <openssl/params.h>

#include <cstdint>
#include <span>

namespace b2test {

class BadArgon2Params final {
  public:
    struct Row {
        OSSL_PARAM param;
        const char* reason;  // a part of our reason text
    };

    BadArgon2Params() = default;
    BadArgon2Params(const BadArgon2Params&) = delete;  // the rows point into the object
    BadArgon2Params& operator=(const BadArgon2Params&) = delete;

    [[nodiscard]] std::span<const Row> rows() const noexcept { return m_rows; }

  private:
    char m_text[3] = "16";
    int32_t m_negative = -1;
    uint64_t m_above_32_bits = uint64_t{1} << 32;
    uint8_t m_short_salt[7] = {7, 6, 5, 4, 3, 2, 1};
    // Initialised after the values above, which they point to.
    Row m_rows[8] = {
        {OSSL_PARAM_construct_utf8_string("pass", m_text, 2), "wrong data type"},
        {OSSL_PARAM_construct_octet_string("iter", m_text, 2), "wrong data type"},
        {OSSL_PARAM_construct_utf8_string("memcost", m_text, 2), "wrong data type"},
        {OSSL_PARAM_construct_int32("memcost", &m_negative), "memcost"},
        {OSSL_PARAM_construct_uint64("memcost", &m_above_32_bits), "memcost"},
        {OSSL_PARAM_construct_uint64("lanes", &m_above_32_bits), "lanes"},
        {OSSL_PARAM_construct_octet_string("properties", m_text, 2), "properties"},
        {OSSL_PARAM_construct_octet_string("salt", m_short_salt, sizeof m_short_salt), "salt"},
    };
};

}  // namespace b2test
