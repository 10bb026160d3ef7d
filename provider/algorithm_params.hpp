// Our algorithms' params: reading what a caller sets (size, salt, custom, key; the tree modes'
// rules) into Blake2Settings, and writing what a caller gets (write_params, the one writer).
// Not to be confused with ossl_param.* (reading and writing one OSSL_PARAM of any type, in place
// of libcrypto's helpers) or with ParameterBlock (blake2_engine.hpp: the BLAKE2 parameter block
// hashed into the initial chaining value).
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <openssl/core.h>

#include <cstddef>
#include <cstdint>
#include <initializer_list>

#include "blake2_engine.hpp"
#include "errors.hpp"
#include "ossl_param.hpp"

namespace blake2simd {

// The reasons a family's limits are refused with: their texts name the family's limits.
template <class Family>
struct ParamReasons;

template <>
struct ParamReasons<Blake2bFamily> {
    static constexpr Reason key_length = Reason::invalid_key_length;
    static constexpr Reason salt_length = Reason::invalid_salt_length;
    static constexpr Reason custom_length = Reason::invalid_custom_length;
    static constexpr Reason output_size = Reason::invalid_output_size;
    static constexpr Reason tree_output_size = Reason::blake2bp_output_size;
    static constexpr Reason tree_salt = Reason::blake2bp_salt;
    static constexpr Reason tree_custom = Reason::blake2bp_custom;
};

template <>
struct ParamReasons<Blake2sFamily> {
    static constexpr Reason key_length = Reason::blake2s_invalid_key_length;
    static constexpr Reason salt_length = Reason::blake2s_invalid_salt_length;
    static constexpr Reason custom_length = Reason::blake2s_invalid_custom_length;
    static constexpr Reason output_size = Reason::blake2s_invalid_output_size;
    static constexpr Reason tree_output_size = Reason::blake2sp_output_size;
    static constexpr Reason tree_salt = Reason::blake2sp_salt;
    static constexpr Reason tree_custom = Reason::blake2sp_custom;
};

// What a caller can configure; it takes effect at the next init.
template <class Family>
struct Blake2Settings {
    uint8_t output_size = Family::kMaxDigestBytes;
    uint8_t salt[Family::kSaltBytes] = {};
    uint8_t personal[Family::kPersonalBytes] = {};

    ParameterBlock<Family> parameter_block(uint8_t key_length) const noexcept;
};

using Blake2bSettings = Blake2Settings<Blake2bFamily>;

struct KeyArgument {
    const uint8_t* bytes = nullptr;  // nullptr: no key given
    size_t length = 0;
};

template <class Family>
struct ParsedParams {
    Blake2Settings<Family> settings;  // the current settings with every given param applied
    bool settings_changed = false;
    KeyArgument key;  // a "key" param; only parsed when the caller accepts keys
};

enum class KeyPolicy { reject, accept };

// Validates every recognised parameter before anything is applied, so a failing call
// changes nothing. Unknown parameters are ignored, as everywhere in OpenSSL.
template <class Family>
bool parse_params(const OSSL_PARAM params[], const Blake2Settings<Family>& current,
                  KeyPolicy key_policy, ParsedParams<Family>& parsed, Reason& failure) noexcept;

// Only salt and custom, into `settings` (a failure can leave it half-updated: pass a copy);
// `changed` set when either was given. For callers that read their length params themselves.
template <class Family>
bool parse_salt_custom(const OSSL_PARAM params[], Blake2Settings<Family>& settings, bool& changed,
                       Reason& failure) noexcept;

template <class Family>
constexpr bool is_valid_key_length(size_t length) noexcept {
    return length >= 1 && length <= Family::kMaxKeyBytes;
}

// An integer param read as size_t and required to lie in [min, max]. A param of another type,
// or with no data, is wrong_param_type and never read (OpenSSL 3.0's getters would dereference
// it); a value outside the range or not representable as size_t is `out_of_range`.
bool parse_size_param(const OSSL_PARAM* p, size_t min, size_t max, Reason out_of_range,
                      size_t& size, Reason& failure) noexcept;

// The "key" param: an octet string of a valid key length, referenced (not copied) by `key`.
template <class Family>
bool parse_key_param(const OSSL_PARAM* p, KeyArgument& key, Reason& failure) noexcept;

// One value a get_params / get_ctx_params callback answers with; a null key answers nothing.
struct OutputParam {
    enum class Type : uint8_t { size, integer, utf8 };
    const char* key;
    Type type;
    size_t number;  // size and integer
    const char* text = nullptr;

    static constexpr OutputParam size(const char* key, size_t value) noexcept {
        return {key, Type::size, value};
    }
    static constexpr OutputParam integer(const char* key, int value) noexcept {
        return {key, Type::integer, static_cast<size_t>(value)};
    }
    static constexpr OutputParam utf8(const char* key, const char* value) noexcept {
        return {key, Type::utf8, 0, value};
    }
};

// The one writer of output params: fills the first param of each value's key the caller asked
// for (at most 64 values), in the order of the caller's array. A param that cannot take its value
// fails the call, with the reason raised through `provider`, or through any instance of ours when
// there is none (a digest's get_params).
bool write_params(const ProviderContext* provider, OSSL_PARAM params[],
                  std::initializer_list<OutputParam> values) noexcept;

// The gettable ctx params digest and MAC contexts share, and "block-size" when `block_size` is
// not 0 (MAC contexts report it; digests report it as a fixed param).
bool get_common_ctx_params(const ProviderContext* provider, OSSL_PARAM params[], size_t output_size,
                           const char* kernel_name, size_t block_size = 0) noexcept;

// Parameter validation for the tree modes (BLAKE2bp, BLAKE2sp): fixed full-size output, no salt,
// no personalization.

// Checks every recognised parameter; nothing is applied here, so a failing call changes
// nothing. "size" is accepted only as the tree's digest size (64 for BLAKE2bp, 32 for
// BLAKE2sp); "salt" and "custom" are refused outright (the tree modes define neither); "key" is
// parsed into `key` only under KeyPolicy::accept. Unknown parameters are ignored, as everywhere
// in OpenSSL.
template <class Family>
bool parse_tree_params(const OSSL_PARAM params[], KeyPolicy key_policy, KeyArgument& key,
                       Reason& failure) noexcept;

}  // namespace blake2simd
