// Argon2 parameter fuzz target: random OSSL_PARAM arrays (the Argon2 names and others, every
// type, sizes, contents, NULL data) into ARGON2I/ARGON2D/ARGON2ID's set_ctx_params and derive.
// Besides memory errors it checks that a refused set_params changes nothing (the context and a
// copy taken before, dupctx, then derive the same) and that an accepted one derives. Derives run
// at bounded cost: lanes 1, memcost 8, iter 1 are set on both before they derive.
// SPDX-License-Identifier: Apache-2.0
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/kdf.h>
#include <openssl/params.h>

#include <vector>

#include "fuzz_common.hpp"

namespace {

using Bytes = std::vector<uint8_t>;

constexpr const char* kNames[] = {
    "pass",    "salt",    "secret",      "ad",         "size",   "iter", "threads", "lanes",
    "memcost", "version", "early_clean", "properties", "kernel", "",     "key",     "sizes"};
constexpr const char* kTypeNames[] = {"ARGON2I", "ARGON2D", "ARGON2ID"};

// Bounded cost, the same on both contexts; a missing salt is set so a derive can run.
Bytes bounded_derive(EVP_KDF_CTX* ctx, bool give_salt) {
    uint32_t one = 1;
    uint32_t eight = 8;
    static const uint8_t kSalt[16] = {9, 8, 7};
    std::vector<OSSL_PARAM> bounds = {
        OSSL_PARAM_construct_uint32("lanes", &one), OSSL_PARAM_construct_uint32("threads", &one),
        OSSL_PARAM_construct_uint32("iter", &one), OSSL_PARAM_construct_uint32("memcost", &eight)};
    if (give_salt) {
        bounds.push_back(
            OSSL_PARAM_construct_octet_string("salt", const_cast<uint8_t*>(kSalt), sizeof kSalt));
    }
    bounds.push_back(OSSL_PARAM_construct_end());
    Bytes out(32);
    if (EVP_KDF_CTX_set_params(ctx, bounds.data()) != 1 ||
        EVP_KDF_derive(ctx, out.data(), out.size(), nullptr) != 1) {
        fuzz::mismatch("a bounded Argon2 derive failed");
    }
    return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static EVP_KDF* const kdfs[3] = {
        EVP_KDF_fetch(fuzz::providers().libctx, kTypeNames[0], "provider=blake2simd"),
        EVP_KDF_fetch(fuzz::providers().libctx, kTypeNames[1], "provider=blake2simd"),
        EVP_KDF_fetch(fuzz::providers().libctx, kTypeNames[2], "provider=blake2simd")};
    fuzz::Reader in(data, size);
    const uint8_t mode = in.byte();
    fuzz::RandomParams random;
    random.read(in, kNames, sizeof kNames / sizeof kNames[0]);
    EVP_KDF_CTX* ctx = EVP_KDF_CTX_new(kdfs[mode % 3]);
    if (ctx == nullptr) {
        fuzz::mismatch("no Argon2 context");
    }
    EVP_KDF_CTX* before = EVP_KDF_CTX_dup(ctx);
    const int rc = EVP_KDF_CTX_set_params(ctx, random.params.data());
    ERR_clear_error();
    const bool give_salt = (mode & 0x10) != 0;
    if (rc == 0) {
        if (bounded_derive(ctx, true) != bounded_derive(before, true)) {
            fuzz::mismatch("a refused Argon2 set_params changed the context");
        }
    } else {
        // Accepted: derive at bounded cost, or (no salt ever given) refused with a reason.
        uint32_t one = 1;
        uint32_t eight = 8;
        OSSL_PARAM bounds[] = {
            OSSL_PARAM_construct_uint32("lanes", &one),
            OSSL_PARAM_construct_uint32("threads", &one), OSSL_PARAM_construct_uint32("iter", &one),
            OSSL_PARAM_construct_uint32("memcost", &eight), OSSL_PARAM_construct_end()};
        uint8_t out[40];
        if (EVP_KDF_CTX_set_params(ctx, bounds) != 1) {
            fuzz::mismatch("bounds refused");
        }
        if (give_salt) {
            bounded_derive(ctx, true);
        } else if (EVP_KDF_derive(ctx, out, sizeof out, nullptr) != 1 && ERR_peek_error() == 0) {
            fuzz::mismatch("a refused Argon2 derive gave no reason");
        }
    }
    ERR_clear_error();
    EVP_KDF_CTX_free(before);
    EVP_KDF_CTX_free(ctx);
    return 0;
}
