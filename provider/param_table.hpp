// A table of the params an algorithm takes, one row a param, and everything derived from it:
// the settable and gettable OSSL_PARAM lists, and the one parser (one pass over the caller's
// array: each given param's type and range checked, its refusal on this algorithm raised with
// its reason, its value applied to a copy of the settings). Generic: a row knows a name, an
// OSSL type, a range, a reason and a setter, nothing of BLAKE2 (algorithm_params.hpp holds the
// BLAKE2 tables; a KDF's table is one more array of rows).
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <openssl/core.h>
#include <openssl/params.h>  // OSSL_PARAM_UNMODIFIED: a macro, no libcrypto call

#include <array>
#include <cstddef>
#include <cstdint>

#include "errors.hpp"
#include "ossl_param.hpp"

namespace blake2simd::params {

// How a row's param is described in the settable and gettable lists, and read.
enum class Type : uint8_t {
    size,     // integer, described as size_t
    integer,  // integer, described as int
    uint64,   // integer, described as uint64_t (read: any integer of 1..8 bytes, as all are)
    uint32,   // integer, described as uint32_t (Argon2's numbers, as OpenSSL's)
    octets,   // octet string; min/max bound its length
    utf8,     // UTF-8 string; min/max bound its length
};

// A param's value as read: the integer, or the string's bytes (referenced in the caller's array).
struct Value {
    uint64_t number = 0;
    const uint8_t* bytes = nullptr;
    size_t length = 0;
};

// What a table's setters write into: `settings`, the algorithm's one plain settings struct
// (copied, applied whole when every param was valid), and what a call takes that is no setting
// (a key referenced in the caller's array, BLAKE2X's per-call output length).
template <class Target>
using Setter = bool (*)(Target& target, const Value& value, Refusal& failure) noexcept;

template <class Settings>
using Getter = uint64_t (*)(const Settings& settings) noexcept;

template <class Target>
struct Row {
    const char* name;
    Type type;
    uint64_t min;  // the integer's range, or the string's length range
    uint64_t max;
    Refusal refusal;     // a value outside [min, max]; without a setter, any value
    Setter<Target> set;  // nullptr: this algorithm refuses the param whatever its value
    Getter<typename Target::Settings> get = nullptr;  // gettable integer, else nullptr
    Refusal wrong_type = Reason::wrong_param_type;    // a param of another OSSL type
    // Whether `get` is set. A flag, not a test of `get` for nullptr, for the lists made at
    // compile time: GCC does not fold a function address compared with nullptr under the
    // sanitizers.
    bool gettable = false;
};

// A row this algorithm refuses outright: it is settable (listed, so a caller reaches the
// reason instead of a silent "unknown"), and every value is refused with `reason`.
template <class Target>
constexpr Row<Target> refused(const char* name, Type type, Refusal refusal) noexcept {
    return Row<Target>{name, type, 0, 0, refusal, nullptr};
}

// Reads `p` as `type` and checks its range; false with the reason otherwise. Shared by every
// table (not a template): the part of a row that does not depend on what it sets.
bool read_value(const OSSL_PARAM* p, Type type, uint64_t min, uint64_t max, Refusal refusal,
                Refusal wrong_type, Value& value, Refusal& failure) noexcept;

// Which refusal a call with several invalid params reports: the first in the caller's array, or
// that of the first row in the table (a KDF whose table is in the order OpenSSL applies them).
enum class Precedence : uint8_t { array_order, table_order };

// The one parser. Every param of the caller's array that names a row is checked and applied to
// `target` (which the caller copied from the current settings: a failing call changes nothing
// it keeps), in one pass over the array, the first of a name only (as OSSL_PARAM_locate finds
// it). Unknown names are ignored, as everywhere in OpenSSL.
template <class Target, size_t kRows>
bool parse(const OSSL_PARAM* params, const std::array<Row<Target>, kRows>& table, Target& target,
           Refusal& failure, Precedence precedence = Precedence::array_order) noexcept {
    static_assert(kRows <= 64, "one bit a row marks the names already met");
    uint64_t met = 0;
    size_t failed_row = kRows;  // table_order: the first failing row so far
    for (const OSSL_PARAM* p = params; p != nullptr && p->key != nullptr; ++p) {
        size_t i = 0;
        while (i < kRows && !param::is_named(p->key, table[i].name)) {
            ++i;
        }
        if (i == kRows || (met >> i & 1U) != 0) {
            continue;
        }
        met |= uint64_t{1} << i;
        const Row<Target>& row = table[i];
        Value value;
        Refusal refusal = row.refusal;
        if (row.set != nullptr &&
            read_value(p, row.type, row.min, row.max, row.refusal, row.wrong_type, value,
                       refusal) &&
            row.set(target, value, refusal)) {
            continue;
        }
        if (precedence == Precedence::array_order) {
            failure = refusal;
            return false;
        }
        if (i < failed_row) {
            failed_row = i;
            failure = refusal;
        }
    }
    return failed_row == kRows;
}

// The OSSL_PARAM describing a row in a settable or gettable list.
constexpr OSSL_PARAM describe(const char* name, Type type) noexcept {
    switch (type) {
        case Type::size:
            return {name, OSSL_PARAM_UNSIGNED_INTEGER, nullptr, sizeof(size_t),
                    OSSL_PARAM_UNMODIFIED};
        case Type::integer:
            return {name, OSSL_PARAM_INTEGER, nullptr, sizeof(int), OSSL_PARAM_UNMODIFIED};
        case Type::uint64:
            return {name, OSSL_PARAM_UNSIGNED_INTEGER, nullptr, sizeof(uint64_t),
                    OSSL_PARAM_UNMODIFIED};
        case Type::uint32:
            return {name, OSSL_PARAM_UNSIGNED_INTEGER, nullptr, sizeof(uint32_t),
                    OSSL_PARAM_UNMODIFIED};
        case Type::octets:
            return {name, OSSL_PARAM_OCTET_STRING, nullptr, 0, OSSL_PARAM_UNMODIFIED};
        case Type::utf8:
            return {name, OSSL_PARAM_UTF8_STRING, nullptr, 0, OSSL_PARAM_UNMODIFIED};
    }
    return {nullptr, 0, nullptr, 0, 0};
}

inline constexpr OSSL_PARAM kEnd = {nullptr, 0, nullptr, 0, 0};

// Every row of `kTable`, then the end marker.
template <const auto& kTable>
constexpr auto settable_list() noexcept {
    std::array<OSSL_PARAM, kTable.size() + 1> list{};
    for (size_t i = 0; i < kTable.size(); ++i) {
        list[i] = describe(kTable[i].name, kTable[i].type);
    }
    list[kTable.size()] = kEnd;
    return list;
}

template <const auto& kTable>
constexpr size_t gettable_count() noexcept {
    size_t count = 0;
    for (const auto& row : kTable) {
        count += row.gettable ? 1 : 0;
    }
    return count;
}

// `common` (what every context of the kind answers), then every row with a getter, then the end
// marker.
template <const auto& kTable, const auto& kCommon>
constexpr auto gettable_list() noexcept {
    std::array<OSSL_PARAM, kCommon.size() + gettable_count<kTable>() + 1> list{};
    size_t count = 0;
    for (const OSSL_PARAM& param : kCommon) {
        list[count++] = param;
    }
    for (const auto& row : kTable) {
        if (row.gettable) {
            list[count++] = describe(row.name, row.type);
        }
    }
    list[count] = kEnd;
    return list;
}

// The lists themselves, one static array each, made at compile time.
template <const auto& kTable>
inline constexpr auto kSettable = settable_list<kTable>();

template <const auto& kTable, const auto& kCommon>
inline constexpr auto kGettable = gettable_list<kTable, kCommon>();

}  // namespace blake2simd::params
