// Our algorithms' params: reading what a caller sets (size, salt, custom, key; the tree modes'
// rules) into Blake2Settings, and writing what a caller gets (write_params, the one writer).
// Not to be confused with ossl_param.* (reading and writing one OSSL_PARAM of any type, in place
// of libcrypto's helpers) or with ParameterBlock (blake2_engine.hpp: the BLAKE2 parameter block
// hashed into the initial chaining value).
// SPDX-License-Identifier: Apache-2.0
#include "algorithm_params.hpp"
#include "baseline_guard.hpp"

#include <openssl/core_names.h>

#include <cstring>

#include "names.hpp"
#include "ossl_param.hpp"

namespace blake2simd {
namespace {

// Salt and personalization shorter than their field are zero-padded, as in OpenSSL.
bool parse_padded_field(const OSSL_PARAM* p, uint8_t* field, size_t field_size, Reason too_long,
                        Reason& failure) noexcept {
    const uint8_t* bytes = nullptr;
    size_t size = 0;
    if (param::get_octet_string_view(p, bytes, size) != param::Status::ok) {
        failure = Reason::wrong_param_type;
        return false;
    }
    if (size > field_size) {
        failure = too_long;
        return false;
    }
    std::memset(field, 0, field_size);
    if (size > 0) {
        std::memcpy(field, bytes, size);
    }
    return true;
}

}  // namespace

template <class Family>
ParameterBlock<Family> Blake2Settings<Family>::parameter_block(uint8_t key_length) const noexcept {
    ParameterBlock<Family> block;
    block.digest_length = output_size;
    block.key_length = key_length;
    std::memcpy(block.salt, salt, Family::kSaltBytes);
    std::memcpy(block.personal, personal, Family::kPersonalBytes);
    return block;
}

bool parse_size_param(const OSSL_PARAM* p, size_t min, size_t max, Reason out_of_range,
                      size_t& size, Reason& failure) noexcept {
    const param::Status status = param::get_size_t(p, size);
    if (status == param::Status::wrong_type) {
        failure = Reason::wrong_param_type;
        return false;
    }
    if (status != param::Status::ok || size < min || size > max) {
        failure = out_of_range;
        return false;
    }
    return true;
}

template <class Family>
bool parse_key_param(const OSSL_PARAM* p, KeyArgument& key, Reason& failure) noexcept {
    const uint8_t* bytes = nullptr;
    size_t size = 0;
    if (param::get_octet_string_view(p, bytes, size) != param::Status::ok) {
        failure = Reason::wrong_param_type;
        return false;
    }
    if (!is_valid_key_length<Family>(size)) {
        failure = ParamReasons<Family>::key_length;
        return false;
    }
    key.bytes = bytes;
    key.length = size;
    return true;
}

template <class Family>
bool parse_salt_custom(const OSSL_PARAM params[], Blake2Settings<Family>& settings, bool& changed,
                       Reason& failure) noexcept {
    using Reasons = ParamReasons<Family>;
    const OSSL_PARAM* p = nullptr;
    if ((p = param::locate(params, OSSL_MAC_PARAM_SALT)) != nullptr) {
        if (!parse_padded_field(p, settings.salt, Family::kSaltBytes, Reasons::salt_length,
                                failure)) {
            return false;
        }
        changed = true;
    }
    if ((p = param::locate(params, OSSL_MAC_PARAM_CUSTOM)) != nullptr) {
        if (!parse_padded_field(p, settings.personal, Family::kPersonalBytes,
                                Reasons::custom_length, failure)) {
            return false;
        }
        changed = true;
    }
    return true;
}

template <class Family>
bool parse_params(const OSSL_PARAM params[], const Blake2Settings<Family>& current,
                  KeyPolicy key_policy, ParsedParams<Family>& parsed, Reason& failure) noexcept {
    using Reasons = ParamReasons<Family>;
    parsed = ParsedParams<Family>{};
    parsed.settings = current;
    if (params == nullptr) {
        return true;
    }
    const OSSL_PARAM* p = nullptr;
    if ((p = param::locate(params, OSSL_MAC_PARAM_SIZE)) != nullptr) {
        size_t size = 0;
        if (!parse_size_param(p, 1, Family::kMaxDigestBytes, Reasons::output_size, size, failure)) {
            return false;
        }
        parsed.settings.output_size = static_cast<uint8_t>(size);
        parsed.settings_changed = true;
    }
    if (!parse_salt_custom(params, parsed.settings, parsed.settings_changed, failure)) {
        return false;
    }
    if (key_policy == KeyPolicy::accept &&
        (p = param::locate(params, OSSL_MAC_PARAM_KEY)) != nullptr) {
        return parse_key_param<Family>(p, parsed.key, failure);
    }
    return true;
}

template struct Blake2Settings<Blake2bFamily>;
template struct Blake2Settings<Blake2sFamily>;
template bool parse_key_param<Blake2bFamily>(const OSSL_PARAM*, KeyArgument&, Reason&) noexcept;
template bool parse_key_param<Blake2sFamily>(const OSSL_PARAM*, KeyArgument&, Reason&) noexcept;
template bool parse_salt_custom<Blake2bFamily>(const OSSL_PARAM[], Blake2Settings<Blake2bFamily>&,
                                               bool&, Reason&) noexcept;
template bool parse_salt_custom<Blake2sFamily>(const OSSL_PARAM[], Blake2Settings<Blake2sFamily>&,
                                               bool&, Reason&) noexcept;
template bool parse_params<Blake2bFamily>(const OSSL_PARAM[], const Blake2Settings<Blake2bFamily>&,
                                          KeyPolicy, ParsedParams<Blake2bFamily>&,
                                          Reason&) noexcept;
template bool parse_params<Blake2sFamily>(const OSSL_PARAM[], const Blake2Settings<Blake2sFamily>&,
                                          KeyPolicy, ParsedParams<Blake2sFamily>&,
                                          Reason&) noexcept;

namespace {

// The reason a param setter's failure is reported with: the caller's param has the wrong type,
// or cannot hold the value.
Reason setter_failure(param::Status status) noexcept {
    return status == param::Status::wrong_type ? Reason::wrong_param_type
                                               : Reason::output_buffer_too_small;
}

param::Status write_one(OSSL_PARAM* p, const OutputParam& value) noexcept {
    switch (value.type) {
        case OutputParam::Type::size:
            return param::set_size_t(p, value.number);
        case OutputParam::Type::integer:
            return param::set_int(p, static_cast<int>(value.number));
        case OutputParam::Type::utf8:
            return param::set_utf8(p, value.text);
    }
    return param::Status::wrong_type;
}

// Which value a param's key names (values.size() if none).
size_t index_of_key(std::initializer_list<OutputParam> values, const char* key) noexcept {
    size_t i = 0;
    for (const OutputParam& value : values) {
        if (value.key != nullptr && param::is_named(key, value.key)) {
            break;
        }
        ++i;
    }
    return i;
}

}  // namespace

bool write_params(const ProviderContext* provider, OSSL_PARAM params[],
                  std::initializer_list<OutputParam> values) noexcept {
    // One pass over the caller's array, not one per value: every EVP_MAC_final asks for "size",
    // and a scan per value made a 64-byte MAC 5-7% slower.
    uint64_t filled = 0;  // bit i: values[i]'s key already met
    for (OSSL_PARAM* p = params; p != nullptr && p->key != nullptr; ++p) {
        const size_t i = index_of_key(values, p->key);
        if (i == values.size() || (filled >> i & 1U) != 0) {
            continue;
        }
        filled |= uint64_t{1} << i;
        const param::Status status = write_one(p, values.begin()[i]);
        if (status == param::Status::ok) {
            continue;
        }
        if (provider != nullptr) {
            B2_RAISE(provider, setter_failure(status));
        } else {
            B2_RAISE_WITHOUT_CONTEXT(setter_failure(status));
        }
        return false;
    }
    return true;
}

bool get_common_ctx_params(const ProviderContext* provider, OSSL_PARAM params[], size_t output_size,
                           const char* kernel_name, size_t block_size) noexcept {
    return write_params(
        provider, params,
        {OutputParam::size(OSSL_MAC_PARAM_SIZE, output_size),
         OutputParam::utf8(names::kParamKernel, kernel_name),
         OutputParam::size(block_size != 0 ? OSSL_MAC_PARAM_BLOCK_SIZE : nullptr, block_size)});
}

// Parameter validation for the tree modes: fixed full-size output, no salt, no personalization.

template <class Family>
bool parse_tree_params(const OSSL_PARAM params[], KeyPolicy key_policy, KeyArgument& key,
                       Reason& failure) noexcept {
    using Reasons = ParamReasons<Family>;
    key = KeyArgument{};
    if (params == nullptr) {
        return true;
    }
    const OSSL_PARAM* p = nullptr;
    size_t size = 0;
    if ((p = param::locate(params, OSSL_MAC_PARAM_SIZE)) != nullptr &&
        !parse_size_param(p, kTreeDigestBytes<Family>, kTreeDigestBytes<Family>,
                          Reasons::tree_output_size, size, failure)) {
        return false;
    }
    // Even an empty salt or custom is refused: accepting it would suggest the other lengths work.
    if (param::locate(params, OSSL_MAC_PARAM_SALT) != nullptr) {
        failure = Reasons::tree_salt;
        return false;
    }
    if (param::locate(params, OSSL_MAC_PARAM_CUSTOM) != nullptr) {
        failure = Reasons::tree_custom;
        return false;
    }
    if (key_policy == KeyPolicy::accept &&
        (p = param::locate(params, OSSL_MAC_PARAM_KEY)) != nullptr) {
        return parse_key_param<Family>(p, key, failure);
    }
    return true;
}

template bool parse_tree_params<Blake2bFamily>(const OSSL_PARAM[], KeyPolicy, KeyArgument&,
                                               Reason&) noexcept;
template bool parse_tree_params<Blake2sFamily>(const OSSL_PARAM[], KeyPolicy, KeyArgument&,
                                               Reason&) noexcept;

}  // namespace blake2simd
