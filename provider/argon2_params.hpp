// The Argon2 KDFs' settable params as one table of the generic parameter table
// (param_table.hpp: name, OSSL type, accepted range, the reason a value outside it is refused
// with, the setter), read in one pass before anything is applied.
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
#include "param_table.hpp"

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
enum class Input : uint8_t { pass, salt, secret, ad };
inline constexpr size_t kInputCount = 4;

// What one call's params set: a copy of the context's settings, and the byte strings given
// (referenced in the caller's array; the context copies them once every param was valid).
struct ParamTarget {
    using Settings = argon2::Settings;
    Settings settings;
    Bytes inputs[kInputCount] = {};
    bool given[kInputCount] = {};
    bool size_given = false;  // derive's length must then equal it
};

template <Input kInput>
bool set_input(ParamTarget& target, const params::Value& value, Refusal&) noexcept {
    target.inputs[static_cast<size_t>(kInput)] = {value.bytes, value.length};
    target.given[static_cast<size_t>(kInput)] = true;
    return true;
}

template <uint32_t Settings::*kField>
bool set_number(ParamTarget& target, const params::Value& value, Refusal&) noexcept {
    target.settings.*kField = static_cast<uint32_t>(value.number);  // the row's range: 32 bits
    return true;
}

inline bool set_size(ParamTarget& target, const params::Value& value, Refusal& failure) noexcept {
    target.size_given = true;
    return set_number<&Settings::out_size>(target, value, failure);
}

// Between the two versions, nothing is one.
inline bool set_version(ParamTarget& target, const params::Value& value,
                        Refusal& failure) noexcept {
    if (value.number != kVersion10 && value.number != kVersion13) {
        failure = Reason::argon2_version;
        return false;
    }
    return set_number<&Settings::version>(target, value, failure);
}

// Accepted and checked, not used: H0 and H' run on our own BLAKE2b, never a fetched one.
inline bool accept_properties(ParamTarget&, const params::Value&, Refusal&) noexcept {
    return true;
}

inline constexpr uint32_t kMaxLanes = 0xFFFFFF;  // and threads

using ParamType = params::Type;
using ParamRow = params::Row<ParamTarget>;

// In OpenSSL's order of application (argon2.c), which is the order refusals are found in: the
// parser reports the first failing row (params::Precedence::table_order).
inline constexpr std::array kParams = {
    ParamRow{OSSL_KDF_PARAM_PASSWORD, ParamType::octets, 0, UINT32_MAX,
             Reason::argon2_input_too_long, &set_input<Input::pass>},
    ParamRow{OSSL_KDF_PARAM_SALT, ParamType::octets, 8, UINT32_MAX, Reason::argon2_salt_length,
             &set_input<Input::salt>},
    ParamRow{OSSL_KDF_PARAM_SECRET, ParamType::octets, 0, UINT32_MAX, Reason::argon2_input_too_long,
             &set_input<Input::secret>},
    ParamRow{names::kParamArgon2Ad, ParamType::octets, 0, UINT32_MAX, Reason::argon2_input_too_long,
             &set_input<Input::ad>},
    ParamRow{OSSL_KDF_PARAM_SIZE, ParamType::uint32, 4, UINT32_MAX, Reason::argon2_output_size,
             &set_size},
    ParamRow{OSSL_KDF_PARAM_ITER, ParamType::uint32, 1, UINT32_MAX, Reason::argon2_iterations,
             &set_number<&Settings::passes>},
    ParamRow{names::kParamThreads, ParamType::uint32, 1, kMaxLanes, Reason::argon2_threads,
             &set_number<&Settings::threads>},
    ParamRow{names::kParamArgon2Lanes, ParamType::uint32, 1, kMaxLanes, Reason::argon2_lanes,
             &set_number<&Settings::lanes>},
    ParamRow{names::kParamArgon2Memcost, ParamType::uint32, kMinMemcost, UINT32_MAX,
             Reason::argon2_memcost, &set_number<&Settings::memcost>},
    ParamRow{names::kParamEarlyClean, ParamType::uint32, 0, UINT32_MAX, Reason::argon2_flag,
             &set_number<&Settings::early_clean>},
    ParamRow{names::kParamArgon2Version, ParamType::uint32, kVersion10, kVersion13,
             Reason::argon2_version, &set_version},
    ParamRow{OSSL_KDF_PARAM_PROPERTIES, ParamType::utf8, 0, SIZE_MAX, Reason::argon2_properties,
             &accept_properties, nullptr, Reason::argon2_properties},
};

}  // namespace blake2simd::argon2
