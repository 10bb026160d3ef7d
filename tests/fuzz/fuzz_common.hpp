// Shared pieces of the libFuzzer targets: an input reader and the in-process providers.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <openssl/core.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

extern "C" int OSSL_provider_init(const OSSL_CORE_HANDLE* handle, const OSSL_DISPATCH* in,
                                  const OSSL_DISPATCH** out, void** provctx);

namespace fuzz {

// Consumes the fuzzer's bytes from the front; past the end every read yields zero.
class Reader {
  public:
    Reader(const uint8_t* data, size_t size) : m_data(data), m_size(size) {}

    uint8_t byte() { return m_offset < m_size ? m_data[m_offset++] : 0; }
    uint16_t u16() { return static_cast<uint16_t>(byte() | (byte() << 8)); }
    bool flag() { return (byte() & 1) != 0; }
    // Up to `length` bytes (fewer at the end of input), advancing past them.
    const uint8_t* take(size_t& length) {
        const size_t left = m_size - m_offset;
        length = length < left ? length : left;
        const uint8_t* start = m_data + m_offset;
        m_offset += length;
        return start;
    }
    const uint8_t* rest(size_t& length) {
        length = m_size - m_offset;
        const uint8_t* start = m_data + m_offset;
        m_offset = m_size;
        return start;
    }

  private:
    const uint8_t* m_data;
    size_t m_size;
    size_t m_offset = 0;
};

// One library context with the provider sources linked into this executable (registered as
// a built-in named blake2simd, so the module file and its uninstrumented loader are not
// involved) and OpenSSL's default provider. Lives for the whole process.
struct Providers {
    OSSL_LIB_CTX* libctx;
    EVP_MD* our_md;
    EVP_MD* default_md;
    EVP_MAC* our_mac;
    EVP_MAC* default_mac;
    EVP_MD* our_bp_md;  // BLAKE2BP-512 (OpenSSL's default provider has no BLAKE2bp)
    EVP_MAC* our_bp_mac;
    EVP_MD* our_s_md;  // BLAKE2S-256 and BLAKE2SMAC, ours and the default provider's
    EVP_MD* default_s_md;
    EVP_MAC* our_s_mac;
    EVP_MAC* default_s_mac;
    EVP_MD* our_sp_md;  // BLAKE2SP-256 and BLAKE2SPMAC, ours alone
    EVP_MAC* our_sp_mac;
    EVP_MD* our_xb_md;  // BLAKE2XB, BLAKE2XBMAC, BLAKE2XS, BLAKE2XSMAC, ours alone
    EVP_MAC* our_xb_mac;
    EVP_MD* our_xs_md;
    EVP_MAC* our_xs_mac;
};

inline const Providers& providers() {
    static const Providers instance = []() {
        Providers p{};
        p.libctx = OSSL_LIB_CTX_new();
        if (p.libctx == nullptr ||
            OSSL_PROVIDER_add_builtin(p.libctx, "blake2simd", &OSSL_provider_init) != 1 ||
            OSSL_PROVIDER_load(p.libctx, "blake2simd") == nullptr ||
            OSSL_PROVIDER_load(p.libctx, "default") == nullptr) {
            std::fprintf(stderr, "FATAL: cannot load the providers\n");
            std::abort();
        }
        p.our_md = EVP_MD_fetch(p.libctx, "BLAKE2B-512", "provider=blake2simd");
        p.default_md = EVP_MD_fetch(p.libctx, "BLAKE2B-512", "provider=default");
        p.our_mac = EVP_MAC_fetch(p.libctx, "BLAKE2BMAC", "provider=blake2simd");
        p.default_mac = EVP_MAC_fetch(p.libctx, "BLAKE2BMAC", "provider=default");
        p.our_bp_md = EVP_MD_fetch(p.libctx, "BLAKE2BP-512", "provider=blake2simd");
        p.our_bp_mac = EVP_MAC_fetch(p.libctx, "BLAKE2BPMAC", "provider=blake2simd");
        p.our_s_md = EVP_MD_fetch(p.libctx, "BLAKE2S-256", "provider=blake2simd");
        p.default_s_md = EVP_MD_fetch(p.libctx, "BLAKE2S-256", "provider=default");
        p.our_s_mac = EVP_MAC_fetch(p.libctx, "BLAKE2SMAC", "provider=blake2simd");
        p.default_s_mac = EVP_MAC_fetch(p.libctx, "BLAKE2SMAC", "provider=default");
        p.our_sp_md = EVP_MD_fetch(p.libctx, "BLAKE2SP-256", "provider=blake2simd");
        p.our_sp_mac = EVP_MAC_fetch(p.libctx, "BLAKE2SPMAC", "provider=blake2simd");
        p.our_xb_md = EVP_MD_fetch(p.libctx, "BLAKE2XB", "provider=blake2simd");
        p.our_xb_mac = EVP_MAC_fetch(p.libctx, "BLAKE2XBMAC", "provider=blake2simd");
        p.our_xs_md = EVP_MD_fetch(p.libctx, "BLAKE2XS", "provider=blake2simd");
        p.our_xs_mac = EVP_MAC_fetch(p.libctx, "BLAKE2XSMAC", "provider=blake2simd");
        if (!p.our_md || !p.default_md || !p.our_mac || !p.default_mac || !p.our_bp_md ||
            !p.our_bp_mac || !p.our_s_md || !p.default_s_md || !p.our_s_mac || !p.default_s_mac ||
            !p.our_sp_md || !p.our_sp_mac || !p.our_xb_md || !p.our_xb_mac || !p.our_xs_md ||
            !p.our_xs_mac) {
            std::fprintf(stderr, "FATAL: cannot fetch the algorithms\n");
            std::abort();
        }
        return p;
    }();
    return instance;
}

constexpr unsigned int kParamTypes[] = {
    OSSL_PARAM_INTEGER,      OSSL_PARAM_UNSIGNED_INTEGER,
    OSSL_PARAM_OCTET_STRING, OSSL_PARAM_UTF8_STRING,
    OSSL_PARAM_REAL,         OSSL_PARAM_OCTET_PTR,
    OSSL_PARAM_UTF8_PTR,     99,
};

// Random OSSL_PARAM arrays (names, types, sizes, contents, NULL data), owning the array and every
// buffer it points into.
struct RandomParams {
    std::vector<OSSL_PARAM> params;
    std::vector<std::vector<uint8_t>> buffers;
    std::vector<const void*> pointers;  // targets of the *_PTR types

    // Up to five params; a shape byte picks the name (names[shape % name_count]) and the type.
    void read(Reader& in, const char* const* names, size_t name_count) {
        const size_t count = in.byte() % 6;
        buffers.resize(count);
        pointers.resize(count);
        for (size_t i = 0; i < count; ++i) {
            const uint8_t shape = in.byte();
            const char* name = names[shape % name_count];
            const unsigned int type = kParamTypes[(shape >> 3) % 8];
            size_t size = in.byte() % 80;
            const uint8_t* bytes = in.take(size);
            buffers[i].assign(bytes, bytes + size);
            buffers[i].resize(size + 1);  // never a zero-length allocation to point at
            OSSL_PARAM p{};
            p.key = name;
            p.data_type = type;
            if (type == OSSL_PARAM_OCTET_PTR || type == OSSL_PARAM_UTF8_PTR) {
                pointers[i] = (shape & 0x40) != 0 ? nullptr : buffers[i].data();
                p.data = &pointers[i];
                p.data_size = size;
            } else {
                // Malformed on purpose: NULL data that claims bytes.
                p.data = (shape & 0x40) != 0 ? nullptr : buffers[i].data();
                p.data_size = size;
            }
            p.return_size = OSSL_PARAM_UNMODIFIED;
            params.push_back(p);
        }
        params.push_back(OSSL_PARAM_construct_end());
    }
};

[[noreturn]] inline void mismatch(const char* what) {
    std::fprintf(stderr, "MISMATCH: %s\n", what);
    std::abort();
}

}  // namespace fuzz
