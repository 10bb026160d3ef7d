// The Argon2 KDFs' params, read against the table of argon2_params.hpp.
// SPDX-License-Identifier: Apache-2.0
#include "argon2_params.hpp"
#include "baseline_guard.hpp"

#include "ossl_param.hpp"

namespace blake2simd::argon2 {
namespace {

bool within(const ParamRow& row, uint64_t value) noexcept {
    if (row.rule == Rule::version) {
        return value == kVersion10 || value == kVersion13;
    }
    return value >= row.min && value <= row.max;
}

bool parse_one(const ParamRow& row, const OSSL_PARAM* p, ParsedParam& parsed,
               Reason& failure) noexcept {
    switch (row.type) {
        case ParamType::octets: {
            if (param::get_octet_string_view(p, parsed.bytes.data, parsed.bytes.size) !=
                param::Status::ok) {
                failure = Reason::wrong_param_type;
                return false;
            }
            if (!within(row, parsed.bytes.size)) {
                failure = row.reason;
                return false;
            }
            return true;
        }
        case ParamType::uint32: {
            size_t value = 0;
            const param::Status status = param::get_size_t(p, value);
            if (status == param::Status::wrong_type) {
                failure = Reason::wrong_param_type;
                return false;
            }
            if (status != param::Status::ok || !within(row, value)) {
                failure = row.reason;
                return false;
            }
            parsed.number = static_cast<uint32_t>(value);
            return true;
        }
        case ParamType::utf8:
            if (p->data_type != OSSL_PARAM_UTF8_STRING) {
                failure = row.reason;
                return false;
            }
            return true;
    }
    return false;
}

}  // namespace

bool parse_params(const OSSL_PARAM params[], ParsedParams& parsed, Reason& failure) noexcept {
    parsed = ParsedParams{};
    if (params == nullptr) {
        return true;
    }
    for (size_t i = 0; i < kParamCount; ++i) {
        const OSSL_PARAM* p = param::locate(params, kParams[i].name);
        if (p == nullptr) {
            continue;
        }
        if (!parse_one(kParams[i], p, parsed[i], failure)) {
            return false;
        }
        parsed[i].given = true;
    }
    return true;
}

void apply_numbers(const ParsedParams& parsed, Settings& settings) noexcept {
    for (size_t i = 0; i < kParamCount; ++i) {
        if (parsed[i].given && kParams[i].number != nullptr) {
            settings.*kParams[i].number = parsed[i].number;
        }
    }
}

}  // namespace blake2simd::argon2
