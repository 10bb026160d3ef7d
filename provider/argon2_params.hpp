// The Argon2 KDFs' settable params as one declarative table (name, OSSL type, accepted range,
// the reason a value outside it is refused with, the setting it sets), and the one reader that
// checks a whole OSSL_PARAM array against it before anything is applied. Shaped to move into
// the per-kind parameter tables the digests and MACs are getting (docs/architecture.md).
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <openssl/core.h>
#include <openssl/core_names.h>
#include <openssl/params.h>

#include <array>
#include <cstddef>
#include <cstdint>

#include "argon2.hpp"
#include "errors.hpp"
#include "names.hpp"

namespace blake2simd::argon2 {

// The numbers a context keeps between calls, OpenSSL's defaults (EVP_KDF-ARGON2(7)).
struct Settings {
    uint32_t out_size = 64;
    uint32_t passes = 3;
    uint32_t threads = 1;
    uint32_t lanes = 1;
    uint32_t memcost = kMinMemcost;
    uint32_t early_clean = 0;  // non-zero: drop pass and secret once H0 is made
    uint32_t version = kVersion13;
};

// The byte strings a context keeps copies of, by index.
enum class Input : uint8_t { pass, salt, secret, ad, none };
inline constexpr size_t kInputCount = 4;

enum class ParamType : uint8_t { octets, uint32, utf8 };
enum class Rule : uint8_t { range, version };  // version: kVersion10 or kVersion13 only

struct ParamRow {
    const char* name;
    ParamType type;
    uint32_t min;  // octets: the length; uint32: the value
    uint32_t max;
    Rule rule;
    Reason reason;               // a value or length outside the range
    uint32_t Settings::*number;  // what a uint32 sets (nullptr otherwise)
    Input input;                 // what octets set (Input::none otherwise)
};

inline constexpr uint32_t kMaxLanes = 0xFFFFFF;  // and threads

// In OpenSSL's order of application (argon2.c), which is the order refusals are found in.
inline constexpr ParamRow kParams[] = {
    {OSSL_KDF_PARAM_PASSWORD, ParamType::octets, 0, UINT32_MAX, Rule::range,
     Reason::argon2_input_too_long, nullptr, Input::pass},
    {OSSL_KDF_PARAM_SALT, ParamType::octets, 8, UINT32_MAX, Rule::range, Reason::argon2_salt_length,
     nullptr, Input::salt},
    {OSSL_KDF_PARAM_SECRET, ParamType::octets, 0, UINT32_MAX, Rule::range,
     Reason::argon2_input_too_long, nullptr, Input::secret},
    {names::kParamArgon2Ad, ParamType::octets, 0, UINT32_MAX, Rule::range,
     Reason::argon2_input_too_long, nullptr, Input::ad},
    {OSSL_KDF_PARAM_SIZE, ParamType::uint32, 4, UINT32_MAX, Rule::range, Reason::argon2_output_size,
     &Settings::out_size, Input::none},
    {OSSL_KDF_PARAM_ITER, ParamType::uint32, 1, UINT32_MAX, Rule::range, Reason::argon2_iterations,
     &Settings::passes, Input::none},
    {names::kParamThreads, ParamType::uint32, 1, kMaxLanes, Rule::range, Reason::argon2_threads,
     &Settings::threads, Input::none},
    {names::kParamArgon2Lanes, ParamType::uint32, 1, kMaxLanes, Rule::range, Reason::argon2_lanes,
     &Settings::lanes, Input::none},
    {names::kParamArgon2Memcost, ParamType::uint32, kMinMemcost, UINT32_MAX, Rule::range,
     Reason::argon2_memcost, &Settings::memcost, Input::none},
    {names::kParamEarlyClean, ParamType::uint32, 0, UINT32_MAX, Rule::range, Reason::argon2_flag,
     &Settings::early_clean, Input::none},
    {names::kParamArgon2Version, ParamType::uint32, kVersion10, kVersion13, Rule::version,
     Reason::argon2_version, &Settings::version, Input::none},
    // Accepted and checked, not used: H0 and H' run on our own BLAKE2b, never a fetched one.
    {OSSL_KDF_PARAM_PROPERTIES, ParamType::utf8, 0, 0, Rule::range, Reason::argon2_properties,
     nullptr, Input::none},
};
inline constexpr size_t kParamCount = sizeof kParams / sizeof kParams[0];

// The settable list OpenSSL shows (`openssl kdf -help`, EVP_KDF_settable_ctx_params), made from
// the table: uint32 for numbers as OpenSSL's, octet strings, a UTF-8 string.
constexpr std::array<OSSL_PARAM, kParamCount + 1> settable_params() noexcept {
    std::array<OSSL_PARAM, kParamCount + 1> list{};
    for (size_t i = 0; i < kParamCount; ++i) {
        const ParamRow& row = kParams[i];
        const unsigned int type = row.type == ParamType::octets   ? OSSL_PARAM_OCTET_STRING
                                  : row.type == ParamType::uint32 ? OSSL_PARAM_UNSIGNED_INTEGER
                                                                  : OSSL_PARAM_UTF8_STRING;
        list[i] = {row.name, type, nullptr, row.type == ParamType::uint32 ? sizeof(uint32_t) : 0,
                   OSSL_PARAM_UNMODIFIED};
    }
    list[kParamCount] = {nullptr, 0, nullptr, 0, 0};
    return list;
}

// What one call's params hold, row by row, checked and not yet applied.
struct ParsedParam {
    bool given = false;
    uint32_t number = 0;
    Bytes bytes;  // referenced, not copied
};
using ParsedParams = std::array<ParsedParam, kParamCount>;

// Checks every param the table knows (the first of each name, as OpenSSL's decoders take);
// unknown names are ignored. On failure `failure` says why and nothing was applied.
bool parse_params(const OSSL_PARAM params[], ParsedParams& parsed, Reason& failure) noexcept;

// The numbers of `parsed` into `settings` (the byte strings are the context's to copy).
void apply_numbers(const ParsedParams& parsed, Settings& settings) noexcept;

inline bool size_given(const ParsedParams& parsed) noexcept {
    for (size_t i = 0; i < kParamCount; ++i) {
        if (kParams[i].number == &Settings::out_size) {
            return parsed[i].given;
        }
    }
    return false;
}

}  // namespace blake2simd::argon2
