// RFC 9106 section 5's test vectors (version 0x13, every input set, 32 KiB in four lanes, three
// passes, 32-byte tags): the inputs as EVP_KDF params and the tag of each type, for the tests
// that need one Argon2 answer nobody here computed.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <openssl/params.h>

#include <cstdint>
#include <vector>

namespace b2test::rfc9106 {

struct Vector {
    const char* kdf;
    const char* tag;  // hex
};
inline constexpr Vector kVectors[] = {
    {"ARGON2D", "512b391b6f1162975371d30919734294f868e3be3984f3c1a13a4db9fabe4acb"},
    {"ARGON2I", "c814d9d1dc7f37aa13f0d77f2494bda1c8de6b016dd388d29952a4c4672b6ce8"},
    {"ARGON2ID", "0d640df58d78766c08c037a34a8b53c9d01ef0452d75b65eb52520e96b01e659"},
};
inline constexpr size_t kTagBytes = 32;

// The inputs as params, `threads` as asked (the answer never depends on it). The array points
// into the object, which is therefore neither copied nor moved.
class Params final {
  public:
    explicit Params(uint32_t threads = 1) {
        m_numbers[1].value = threads;
        for (Input& input : m_inputs) {
            m_array.push_back(OSSL_PARAM_construct_octet_string(input.name, input.bytes.data(),
                                                                input.bytes.size()));
        }
        for (Number& number : m_numbers) {
            m_array.push_back(OSSL_PARAM_construct_uint32(number.name, &number.value));
        }
        m_array.push_back(OSSL_PARAM_construct_end());
    }
    Params(const Params&) = delete;
    Params& operator=(const Params&) = delete;

    [[nodiscard]] OSSL_PARAM* get() noexcept { return m_array.data(); }

  private:
    struct Input {
        const char* name;
        std::vector<uint8_t> bytes;  // RFC 9106 fills each with one byte value
    };
    struct Number {
        const char* name;
        uint32_t value;
    };
    Input m_inputs[4] = {{"pass", std::vector<uint8_t>(32, 0x01)},
                         {"salt", std::vector<uint8_t>(16, 0x02)},
                         {"secret", std::vector<uint8_t>(8, 0x03)},
                         {"ad", std::vector<uint8_t>(12, 0x04)}};
    Number m_numbers[4] = {{"lanes", 4}, {"threads", 1}, {"memcost", 32}, {"iter", 3}};
    std::vector<OSSL_PARAM> m_array;
};

}  // namespace b2test::rfc9106
