// BLAKE2b parameter parsing for the digest and MAC, plus the size and key readers BLAKE2bp uses.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <openssl/core.h>

#include <cstddef>
#include <cstdint>

#include "blake2b_engine.hpp"
#include "errors.hpp"
#include "ossl_param.hpp"

namespace blake2simd {

// What a caller can configure; it takes effect at the next init.
struct Blake2bSettings {
    uint8_t output_size = kMaxDigestBytes;
    uint8_t salt[kSaltBytes] = {};
    uint8_t personal[kPersonalBytes] = {};

    Blake2bParams to_params(uint8_t key_length) const noexcept;
};

struct KeyArgument {
    const uint8_t* bytes = nullptr;  // nullptr: no key given
    size_t length = 0;
};

struct ParsedParams {
    Blake2bSettings settings;  // the current settings with every given param applied
    bool settings_changed = false;
    KeyArgument key;  // a "key" param; only parsed when the caller accepts keys
};

enum class KeyPolicy { reject, accept };

// Validates every recognised parameter before anything is applied, so a failing call
// changes nothing. Unknown parameters are ignored, as everywhere in OpenSSL.
bool parse_params(const OSSL_PARAM params[], const Blake2bSettings& current, KeyPolicy key_policy,
                  ParsedParams& parsed, Reason& failure) noexcept;

bool is_valid_key_length(size_t length) noexcept;

// An integer param read as size_t and required to lie in [min, max]. A param of another type,
// or with no data, is wrong_param_type and never read (OpenSSL 3.0's getters would dereference
// it); a value outside the range or not representable as size_t is `out_of_range`.
bool parse_size_param(const OSSL_PARAM* p, size_t min, size_t max, Reason out_of_range,
                      size_t& size, Reason& failure) noexcept;

// The "key" param: an octet string of a valid key length, referenced (not copied) by `key`.
bool parse_key_param(const OSSL_PARAM* p, KeyArgument& key, Reason& failure) noexcept;

// The reason a param setter's failure is reported with: the caller's param has the wrong type,
// or cannot hold the value.
Reason setter_failure(param::Status status) noexcept;

// Fills the gettable parameters common to digest and MAC contexts, and "block-size" when
// `block_size` is not 0 (MAC contexts report it; digests report it as a fixed param). A param
// that cannot take its value fails the call, with the reason raised through `provider`.
bool get_common_ctx_params(const ProviderContext* provider, OSSL_PARAM params[], size_t output_size,
                           const char* kernel_name, size_t block_size = 0) noexcept;

}  // namespace blake2simd
