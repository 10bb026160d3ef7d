// The OSSL_PARAM helpers the module needs, so that it links no libcrypto.
// SPDX-License-Identifier: Apache-2.0
#include "ossl_param.hpp"
#include "baseline_guard.hpp"

#include <bit>
#include <cstring>

namespace blake2simd::param {
namespace {

constexpr size_t kMaxIntegerBytes = sizeof(uint64_t);

bool is_integer_type(unsigned int data_type) noexcept {
    return data_type == OSSL_PARAM_INTEGER || data_type == OSSL_PARAM_UNSIGNED_INTEGER;
}

bool has_integer_size(size_t data_size) noexcept {
    return data_size >= 1 && data_size <= kMaxIntegerBytes;
}

// The low `size` bytes of a 64-bit word, in the machine's byte order, as OSSL_PARAM stores them.
uint64_t load_low_bytes(const void* data, size_t size) noexcept {
    uint64_t bits = 0;
    auto* word = reinterpret_cast<unsigned char*>(&bits);
    std::memcpy(std::endian::native == std::endian::little ? word : word + sizeof bits - size, data,
                size);
    return bits;
}

void store_low_bytes(void* data, size_t size, uint64_t bits) noexcept {
    const auto* word = reinterpret_cast<const unsigned char*>(&bits);
    std::memcpy(data, std::endian::native == std::endian::little ? word : word + sizeof bits - size,
                size);
}

// A value to write: `bits` is its two's complement when `negative`.
struct IntegerValue {
    uint64_t bits;
    bool negative;
    size_t natural_size;  // sizeof the C type it came from, for return_size
};

bool fits(const IntegerValue& value, unsigned int data_type, size_t size) noexcept {
    const unsigned int bits = 8 * static_cast<unsigned int>(size);
    if (data_type == OSSL_PARAM_UNSIGNED_INTEGER) {
        return size == kMaxIntegerBytes || (value.bits >> bits) == 0;
    }
    const auto as_signed = static_cast<int64_t>(value.bits);
    if (value.negative) {
        return size == kMaxIntegerBytes || (as_signed >> (bits - 1)) == -1;
    }
    return (value.bits >> (bits - 1)) == 0;
}

Status set_integer(OSSL_PARAM* p, const IntegerValue& value) noexcept {
    if (p == nullptr) {
        return Status::wrong_type;
    }
    if (!is_integer_type(p->data_type)) {
        p->return_size = 0;
        return Status::wrong_type;
    }
    if (p->data_type == OSSL_PARAM_UNSIGNED_INTEGER && value.negative) {
        p->return_size = 0;
        return Status::out_of_range;
    }
    p->return_size = value.natural_size;
    if (p->data == nullptr) {
        return Status::ok;
    }
    if (!has_integer_size(p->data_size)) {
        return Status::wrong_type;
    }
    if (!fits(value, p->data_type, p->data_size)) {
        return Status::buffer_too_small;
    }
    store_low_bytes(p->data, p->data_size, value.bits);
    p->return_size = p->data_size;
    return Status::ok;
}

Status set_utf8_string(OSSL_PARAM* p, const char* value, size_t length) noexcept {
    p->return_size = length;
    if (p->data == nullptr) {
        return Status::ok;
    }
    if (p->data_size < length) {
        return Status::buffer_too_small;
    }
    std::memcpy(p->data, value, length);
    if (p->data_size > length) {
        static_cast<char*>(p->data)[length] = '\0';
    }
    return Status::ok;
}

}  // namespace

const OSSL_PARAM* locate(const OSSL_PARAM* params, const char* key) noexcept {
    if (params == nullptr || key == nullptr) {
        return nullptr;
    }
    for (const OSSL_PARAM* p = params; p->key != nullptr; ++p) {
        if (is_named(p->key, key)) {
            return p;
        }
    }
    return nullptr;
}

OSSL_PARAM* locate(OSSL_PARAM* params, const char* key) noexcept {
    return const_cast<OSSL_PARAM*>(locate(static_cast<const OSSL_PARAM*>(params), key));
}

Status get_uint64(const OSSL_PARAM* p, uint64_t& value) noexcept {
    if (p == nullptr || !is_integer_type(p->data_type) || p->data == nullptr ||
        !has_integer_size(p->data_size)) {
        return Status::wrong_type;
    }
    const uint64_t bits = load_low_bytes(p->data, p->data_size);
    const unsigned int sign_bit = 8 * static_cast<unsigned int>(p->data_size) - 1;
    if (p->data_type == OSSL_PARAM_INTEGER && ((bits >> sign_bit) & 1) != 0) {
        return Status::out_of_range;
    }
    value = bits;
    return Status::ok;
}

Status get_size_t(const OSSL_PARAM* p, size_t& value) noexcept {
    uint64_t bits = 0;
    const Status status = get_uint64(p, bits);
    if (status != Status::ok) {
        return status;
    }
    if constexpr (sizeof(size_t) < sizeof(uint64_t)) {
        if (bits > SIZE_MAX) {
            return Status::out_of_range;
        }
    }
    value = static_cast<size_t>(bits);
    return Status::ok;
}

Status set_size_t(OSSL_PARAM* p, size_t value) noexcept {
    return set_integer(p, IntegerValue{value, false, sizeof value});
}

Status set_uint64(OSSL_PARAM* p, uint64_t value) noexcept {
    return set_integer(p, IntegerValue{value, false, sizeof value});
}

Status set_int(OSSL_PARAM* p, int value) noexcept {
    return set_integer(p, IntegerValue{static_cast<uint64_t>(static_cast<int64_t>(value)),
                                       value < 0, sizeof value});
}

Status set_utf8(OSSL_PARAM* p, const char* value) noexcept {
    if (p == nullptr || value == nullptr) {
        return Status::wrong_type;
    }
    const size_t length = std::strlen(value);
    switch (p->data_type) {
        case OSSL_PARAM_UTF8_PTR:
            p->return_size = length;
            if (p->data != nullptr) {
                std::memcpy(p->data, &value, sizeof value);
            }
            return Status::ok;
        case OSSL_PARAM_UTF8_STRING:
            return set_utf8_string(p, value, length);
        default:
            p->return_size = 0;
            return Status::wrong_type;
    }
}

namespace {

// A string param of `type`, its bytes referenced.
Status get_string_view(const OSSL_PARAM* p, unsigned int type, const uint8_t*& bytes,
                       size_t& size) noexcept {
    if (p == nullptr || p->data_type != type || (p->data == nullptr && p->data_size != 0)) {
        return Status::wrong_type;
    }
    bytes = static_cast<const uint8_t*>(p->data);
    size = p->data_size;
    return Status::ok;
}

}  // namespace

Status get_octet_string_view(const OSSL_PARAM* p, const uint8_t*& bytes, size_t& size) noexcept {
    return get_string_view(p, OSSL_PARAM_OCTET_STRING, bytes, size);
}

Status get_utf8_string_view(const OSSL_PARAM* p, const uint8_t*& bytes, size_t& size) noexcept {
    return get_string_view(p, OSSL_PARAM_UTF8_STRING, bytes, size);
}

}  // namespace blake2simd::param
