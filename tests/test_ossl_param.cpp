// The module's own OSSL_PARAM helpers (provider/ossl_param.cpp) against libcrypto's, for every
// data type and every data_size from 0 to 16, with and without data: the same answers, values,
// return sizes and bytes written wherever libcrypto's answer is sound, and a refusal that
// touches nothing where libcrypto reads outside the param (an integer of data_size 0), guesses
// (a REAL for an integer; a size query of the wrong type) or stretches (integers over 8 bytes).
// Buffers are heap-allocated to their exact size, so ASan sees any read outside one.
// SPDX-License-Identifier: Apache-2.0
#include <openssl/err.h>
#include <openssl/params.h>

#include <climits>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "b2test.hpp"
#include "ossl_param.hpp"

namespace {

using b2test::Report;
using blake2simd::param::Status;
namespace param = blake2simd::param;

constexpr size_t kMaxDataSize = 16;
constexpr unsigned char kFill = 0xa5;

const unsigned int kTypes[] = {
    OSSL_PARAM_INTEGER,     OSSL_PARAM_UNSIGNED_INTEGER, OSSL_PARAM_REAL,
    OSSL_PARAM_UTF8_STRING, OSSL_PARAM_OCTET_STRING,     OSSL_PARAM_UTF8_PTR,
    OSSL_PARAM_OCTET_PTR,
};

bool is_integer_type(unsigned int type) {
    return type == OSSL_PARAM_INTEGER || type == OSSL_PARAM_UNSIGNED_INTEGER;
}

std::string describe(unsigned int type, size_t size, bool with_data) {
    return "type " + std::to_string(type) + " data_size " + std::to_string(size) +
           (with_data ? "" : " data NULL");
}

// A buffer of exactly `size` bytes (at least one, so data_size 0 still has a valid pointer
// whose neighbours are outside the allocation), filled with kFill.
struct Buffer {
    explicit Buffer(size_t data_size)
        : bytes(new unsigned char[data_size == 0 ? 1 : data_size]), size(data_size) {
        std::memset(bytes.get(), kFill, data_size == 0 ? 1 : data_size);
    }
    bool same_as(const Buffer& other) const {
        return std::memcmp(bytes.get(), other.bytes.get(), size == 0 ? 1 : size) == 0;
    }
    bool untouched() const {
        for (size_t i = 0; i < (size == 0 ? 1 : size); ++i) {
            if (bytes[i] != kFill) {
                return false;
            }
        }
        return true;
    }
    std::unique_ptr<unsigned char[]> bytes;
    size_t size;
};

OSSL_PARAM make_param(unsigned int type, void* data, size_t size) {
    OSSL_PARAM p = {"x", type, data, size, OSSL_PARAM_UNMODIFIED};
    return p;
}

// Where our setters refuse on purpose and libcrypto's do something else.
bool integer_setter_refuses(unsigned int type, size_t size, bool with_data) {
    return type == OSSL_PARAM_REAL ||
           (is_integer_type(type) && with_data && (size == 0 || size > sizeof(uint64_t)));
}

template <class Value, class Ours, class Theirs>
void check_integer_setter(Report& report, const char* name, const std::vector<Value>& values,
                          Ours ours, Theirs theirs) {
    for (unsigned int type : kTypes) {
        for (size_t size = 0; size <= kMaxDataSize; ++size) {
            for (bool with_data : {true, false}) {
                for (Value value : values) {
                    const std::string what = std::string(name) + "(" + std::to_string(value) +
                                             ") " + describe(type, size, with_data);
                    Buffer our_buffer(size);
                    OSSL_PARAM our_param =
                        make_param(type, with_data ? our_buffer.bytes.get() : nullptr, size);
                    const Status status = ours(&our_param, value);
                    if (integer_setter_refuses(type, size, with_data)) {
                        B2_CHECK(report, status != Status::ok, what + ": refused");
                        B2_CHECK(report, our_buffer.untouched(), what + ": nothing written");
                        continue;
                    }
                    Buffer their_buffer(size);
                    OSSL_PARAM their_param =
                        make_param(type, with_data ? their_buffer.bytes.get() : nullptr, size);
                    const bool accepted = theirs(&their_param, value) == 1;
                    B2_CHECK(report, (status == Status::ok) == accepted,
                             what + ": libcrypto " + (accepted ? "accepts" : "refuses"));
                    ERR_clear_error();  // newer libcryptos raise one when they refuse
                    // After a refusal return_size differs between libcrypto versions (3.0: the
                    // value's size; 4.0: 0), so only an answer is compared.
                    if (accepted) {
                        B2_CHECK(report, our_param.return_size == their_param.return_size,
                                 what + ": return_size " + std::to_string(our_param.return_size) +
                                     " vs " + std::to_string(their_param.return_size));
                    }
                    B2_CHECK(report, our_buffer.same_as(their_buffer), what + ": bytes written");
                    if (!is_integer_type(type)) {
                        B2_CHECK(report, status == Status::wrong_type, what + ": wrong_type");
                    }
                }
            }
        }
    }
}

void check_integer_setters(Report& report) {
    const std::vector<size_t> sizes = {0,
                                       1,
                                       64,
                                       127,
                                       128,
                                       255,
                                       256,
                                       32767,
                                       32768,
                                       65535,
                                       65536,
                                       0x7fffffffULL,
                                       0x80000000ULL,
                                       0xffffffffULL,
                                       0x100000000ULL,
                                       0xffffffffffULL,
                                       0x7fffffffffffffffULL,
                                       0x8000000000000000ULL,
                                       SIZE_MAX};
    check_integer_setter(report, "set_size_t", sizes, param::set_size_t, OSSL_PARAM_set_size_t);
    const std::vector<int> ints = {0,     1,     -1,      127,     128,        -128,   -129,
                                   255,   256,   -256,    32767,   32768,      -32768, -32769,
                                   65535, 65536, INT_MAX, INT_MIN, INT_MIN + 1};
    check_integer_setter(report, "set_int", ints, param::set_int, OSSL_PARAM_set_int);
}

// Byte patterns for an integer of `size` bytes: zero, one, the extremes of each sign, and a
// mixed one; written in the machine's order, so they mean the same to both readers.
std::vector<std::vector<unsigned char>> integer_patterns(size_t size) {
    std::vector<std::vector<unsigned char>> patterns;
    for (int fill : {0x00, 0xff, 0x7f, 0x80, 0x5a}) {
        patterns.emplace_back(size, static_cast<unsigned char>(fill));
    }
    std::vector<unsigned char> one(size, 0);
    if (size > 0) {
        std::memcpy(one.data(), "\x01", 1);
    }
    patterns.push_back(one);
    return patterns;
}

void check_size_getter(Report& report) {
    for (unsigned int type : kTypes) {
        for (size_t size = 0; size <= kMaxDataSize; ++size) {
            for (bool with_data : {true, false}) {
                for (const auto& pattern : integer_patterns(size)) {
                    const std::string what = "get_size_t " + describe(type, size, with_data);
                    Buffer buffer(size);
                    if (size > 0) {
                        std::memcpy(buffer.bytes.get(), pattern.data(), size);
                    }
                    const OSSL_PARAM p =
                        make_param(type, with_data ? buffer.bytes.get() : nullptr, size);
                    size_t ours = 12345;
                    const Status status = param::get_size_t(&p, ours);
                    const bool readable =
                        is_integer_type(type) && with_data && size >= 1 && size <= sizeof(uint64_t);
                    if (!readable) {
                        // libcrypto reads before the buffer (data_size 0), dereferences NULL,
                        // converts a REAL, or reads past 8 bytes: we refuse all of them.
                        B2_CHECK(report, status == Status::wrong_type, what + ": refused");
                        B2_CHECK(report, ours == 12345, what + ": value untouched");
                        continue;
                    }
                    size_t theirs = 0;
                    const bool accepted = OSSL_PARAM_get_size_t(&p, &theirs) == 1;
                    ERR_clear_error();
                    B2_CHECK(report, (status == Status::ok) == accepted,
                             what + ": libcrypto " + (accepted ? "accepts" : "refuses"));
                    if (accepted && status == Status::ok) {
                        B2_CHECK(
                            report, ours == theirs,
                            what + ": " + std::to_string(ours) + " vs " + std::to_string(theirs));
                    }
                    if (!accepted) {
                        B2_CHECK(report, status == Status::out_of_range, what + ": out_of_range");
                    }
                }
            }
        }
    }
}

void check_utf8_setter(Report& report) {
    // Lengths 0, 3, 4 and 8 against buffers of 0..kMaxDataSize bytes: what fits, what does not,
    // and where the terminator does not.
    for (const char* value : {"", "abc", "wxyz", "utf8-str"}) {
        const size_t length = std::strlen(value);
        for (unsigned int type : kTypes) {
            for (size_t size = 0; size <= kMaxDataSize; ++size) {
                for (bool with_data : {true, false}) {
                    const std::string what = std::string("set_utf8(\"") + value + "\") " +
                                             describe(type, size, with_data);
                    // A UTF8_PTR param's data is where the pointer goes.
                    Buffer our_buffer(type == OSSL_PARAM_UTF8_PTR ? sizeof(char*) : size);
                    Buffer their_buffer(type == OSSL_PARAM_UTF8_PTR ? sizeof(char*) : size);
                    OSSL_PARAM ours =
                        make_param(type, with_data ? our_buffer.bytes.get() : nullptr, size);
                    OSSL_PARAM theirs =
                        make_param(type, with_data ? their_buffer.bytes.get() : nullptr, size);
                    const Status status = param::set_utf8(&ours, value);
                    if (type != OSSL_PARAM_UTF8_PTR && type != OSSL_PARAM_UTF8_STRING) {
                        // libcrypto's string setter answers a size query of any type.
                        B2_CHECK(report, status == Status::wrong_type, what + ": refused");
                        B2_CHECK(report, ours.return_size == 0, what + ": return_size 0");
                        B2_CHECK(report, our_buffer.untouched(), what + ": nothing written");
                        continue;
                    }
                    const bool accepted = (type == OSSL_PARAM_UTF8_PTR
                                               ? OSSL_PARAM_set_utf8_ptr(&theirs, value)
                                               : OSSL_PARAM_set_utf8_string(&theirs, value)) == 1;
                    ERR_clear_error();
                    B2_CHECK(report, (status == Status::ok) == accepted,
                             what + ": libcrypto " + (accepted ? "accepts" : "refuses"));
                    B2_CHECK(report, ours.return_size == theirs.return_size,
                             what + ": return_size");
                    B2_CHECK(report, our_buffer.same_as(their_buffer), what + ": bytes written");
                    if (!accepted) {
                        B2_CHECK(report, status == Status::buffer_too_small && size < length,
                                 what + ": buffer_too_small");
                    }
                }
            }
        }
    }
}

void check_octet_string_view(Report& report) {
    for (unsigned int type : kTypes) {
        for (size_t size = 0; size <= kMaxDataSize; ++size) {
            for (bool with_data : {true, false}) {
                const std::string what = "get_octet_string_view " + describe(type, size, with_data);
                Buffer buffer(size);
                const OSSL_PARAM p =
                    make_param(type, with_data ? buffer.bytes.get() : nullptr, size);
                const uint8_t* bytes = nullptr;
                size_t length = 99;
                const Status status = param::get_octet_string_view(&p, bytes, length);
                if (type == OSSL_PARAM_OCTET_STRING && !with_data && size == 0) {
                    // An empty string; libcrypto refuses it for want of data to copy.
                    B2_CHECK(report, status == Status::ok && length == 0, what + ": empty");
                    continue;
                }
                unsigned char copy[kMaxDataSize];
                void* destination = copy;
                size_t used = 0;
                const bool accepted =
                    OSSL_PARAM_get_octet_string(&p, &destination, sizeof copy, &used) == 1;
                ERR_clear_error();
                B2_CHECK(report, (status == Status::ok) == accepted,
                         what + ": libcrypto " + (accepted ? "accepts" : "refuses"));
                if (accepted && status == Status::ok) {
                    B2_CHECK(report,
                             length == used && (length == 0 || std::memcmp(bytes, copy, used) == 0),
                             what + ": same bytes");
                }
            }
        }
    }
}

void check_locate(Report& report) {
    size_t a = 0;
    size_t b = 0;
    OSSL_PARAM params[] = {
        OSSL_PARAM_construct_size_t("size", &a),
        OSSL_PARAM_construct_size_t("salt", &b),
        OSSL_PARAM_construct_size_t("size", &b),
        OSSL_PARAM_construct_size_t("sizes", &b),
        OSSL_PARAM_construct_end(),
    };
    for (const char* key : {"size", "salt", "sizes", "siz", "", "custom"}) {
        B2_CHECK(report, param::locate(params, key) == OSSL_PARAM_locate(params, key),
                 std::string("locate ") + key);
        const OSSL_PARAM* constant = params;
        B2_CHECK(report, param::locate(constant, key) == OSSL_PARAM_locate_const(params, key),
                 std::string("locate const ") + key);
    }
    B2_CHECK(report, param::locate(static_cast<OSSL_PARAM*>(nullptr), "size") == nullptr,
             "locate in NULL");
    B2_CHECK(report, param::locate(params, nullptr) == nullptr, "locate NULL key");
    B2_CHECK(report, param::locate(params + 4, "size") == nullptr, "locate in empty array");
}

}  // namespace

int main() {
    Report report("test_ossl_param");
    check_locate(report);
    check_integer_setters(report);
    check_size_getter(report);
    check_utf8_setter(report);
    check_octet_string_view(report);
    return report.finish();
}
