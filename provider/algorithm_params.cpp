// Reading one param of a table's row (param_table.hpp), and write_params, the one writer of
// output params.
// SPDX-License-Identifier: Apache-2.0
#include "algorithm_params.hpp"
#include "baseline_guard.hpp"

#include "ossl_param.hpp"
#include "param_table.hpp"

namespace blake2simd {

namespace params {

bool read_value(const OSSL_PARAM* p, Type type, uint64_t min, uint64_t max, Refusal refusal,
                Refusal wrong_type, Value& value, Refusal& failure) noexcept {
    param::Status status = param::Status::wrong_type;
    uint64_t measure = 0;  // the integer, or the string's length
    switch (type) {
        case Type::size:
        case Type::integer:
        case Type::uint64:
        case Type::uint32:
            status = param::get_uint64(p, value.number);
            measure = value.number;
            break;
        case Type::octets:
            status = param::get_octet_string_view(p, value.bytes, value.length);
            measure = value.length;
            break;
        case Type::utf8:
            status = param::get_utf8_string_view(p, value.bytes, value.length);
            measure = value.length;
            break;
    }
    // A param of another type, or with no data, is never read (OpenSSL 3.0's getters would
    // dereference it); a negative integer is out of range.
    if (status == param::Status::wrong_type) {
        failure = wrong_type;
        return false;
    }
    if (status != param::Status::ok || measure < min || measure > max) {
        failure = refusal;
        return false;
    }
    return true;
}

}  // namespace params

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
            return param::set_size_t(p, static_cast<size_t>(value.number));
        case OutputParam::Type::integer:
            return param::set_int(p, static_cast<int>(static_cast<int64_t>(value.number)));
        case OutputParam::Type::uint64:
            return param::set_uint64(p, value.number);
        case OutputParam::Type::utf8:
            return param::set_utf8(p, value.text);
    }
    return param::Status::wrong_type;
}

}  // namespace

bool write_value(const ProviderContext* provider, OSSL_PARAM* p,
                 const OutputParam& value) noexcept {
    const param::Status status = write_one(p, value);
    if (status == param::Status::ok) {
        return true;
    }
    if (provider != nullptr) {
        B2_RAISE(provider, setter_failure(status));
    } else {
        B2_RAISE_WITHOUT_CONTEXT(setter_failure(status));
    }
    return false;
}

}  // namespace blake2simd
