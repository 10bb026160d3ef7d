// Parameter-parsing fuzz target: random OSSL_PARAM arrays (names, types, sizes, contents)
// into the digest's and the MAC's set_ctx_params and init, for BLAKE2b (BLAKE2B-512,
// BLAKE2BMAC) and, with mode bit 0x40, BLAKE2bp (BLAKE2BP-512, BLAKE2BPMAC); mode bit 0x20 makes
// them BLAKE2s (BLAKE2S-256, BLAKE2SMAC) and BLAKE2sp (BLAKE2SP-256, BLAKE2SPMAC). Besides memory
// errors it checks that a refused call changes nothing (the context and a copy taken before the
// call then give the same result) and that an accepted one yields exactly the size it reports.
// SPDX-License-Identifier: Apache-2.0
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include <cstring>
#include <vector>

#include "fuzz_common.hpp"

namespace {

using Bytes = std::vector<uint8_t>;

constexpr const char* kNames[] = {
    OSSL_MAC_PARAM_SIZE,
    OSSL_MAC_PARAM_SALT,
    OSSL_MAC_PARAM_CUSTOM,
    OSSL_MAC_PARAM_KEY,
    "kernel",
    OSSL_DIGEST_PARAM_XOFLEN,
    "",
    "sizes",
};
static_assert(sizeof kNames / sizeof kNames[0] == 8, "shape % 8 picks the name");
const uint8_t kKey[40] = {7, 1, 9, 3};
const uint8_t kMessage[300] = {1, 2, 3};

Bytes finish_mac(EVP_MAC_CTX* ctx) {
    const size_t reported = EVP_MAC_CTX_get_mac_size(ctx);
    Bytes out(64);
    size_t length = 0;
    if (EVP_MAC_update(ctx, kMessage, sizeof kMessage) != 1 ||
        EVP_MAC_final(ctx, out.data(), &length, out.size()) != 1) {
        return {};
    }
    if (length != reported) {
        fuzz::mismatch("MAC final length differs from the reported size");
    }
    out.resize(length);
    return out;
}

Bytes finish_digest(EVP_MD_CTX* ctx) {
    size_t reported = 0;
    OSSL_PARAM get[] = {OSSL_PARAM_construct_size_t(OSSL_DIGEST_PARAM_SIZE, &reported),
                        OSSL_PARAM_construct_end()};
    Bytes out(64);
    unsigned int length = 0;
    if (EVP_MD_CTX_get_params(ctx, get) != 1 || EVP_DigestUpdate(ctx, kMessage, 100) != 1 ||
        EVP_DigestFinal_ex(ctx, out.data(), &length) != 1) {
        return {};
    }
    if (length != reported) {
        fuzz::mismatch("digest final length differs from the reported size");
    }
    out.resize(length);
    return out;
}

// `key_length`: a valid key length for the algorithm (BLAKE2s keys are at most 32 bytes).
void fuzz_mac(EVP_MAC* mac, fuzz::RandomParams& random, uint8_t mode, size_t key_length) {
    EVP_MAC_CTX* ctx = EVP_MAC_CTX_new(mac);
    if ((mode & 1) != 0) {
        EVP_MAC_init(ctx, kKey, key_length, nullptr);  // mid-message when the params arrive
        EVP_MAC_update(ctx, kMessage, 5);
    }
    EVP_MAC_CTX* before = EVP_MAC_CTX_dup(ctx);
    int rc = 0;
    if ((mode & 2) != 0) {
        rc = EVP_MAC_init(ctx, (mode & 4) != 0 ? kKey : nullptr, (mode & 4) != 0 ? 24 : 0,
                          random.params.data());
    } else {
        rc = EVP_MAC_CTX_set_params(ctx, random.params.data());
    }
    ERR_clear_error();
    if (rc == 0 && (mode & 2) == 0) {
        // Refused set_params: ctx and the earlier copy must behave identically from here.
        if ((mode & 1) == 0) {
            EVP_MAC_init(ctx, kKey, key_length, nullptr);
            EVP_MAC_init(before, kKey, key_length, nullptr);
        }
        if (finish_mac(ctx) != finish_mac(before)) {
            fuzz::mismatch("a refused MAC set_params changed the context");
        }
    } else if (rc == 1) {
        if ((mode & 2) == 0 && (mode & 1) == 0 && EVP_MAC_init(ctx, nullptr, 0, nullptr) != 1) {
            ERR_clear_error();  // no key yet is a legitimate refusal
        } else {
            finish_mac(ctx);
        }
    }
    ERR_clear_error();
    EVP_MAC_CTX_free(before);
    EVP_MAC_CTX_free(ctx);
}

void fuzz_digest(const EVP_MD* md, fuzz::RandomParams& random, uint8_t mode) {
    EVP_MD_CTX* ctx = EVP_MD_CTX_new();
    EVP_DigestInit_ex2(ctx, md, nullptr);
    if ((mode & 1) != 0) {
        EVP_DigestUpdate(ctx, kMessage, 7);
    }
    EVP_MD_CTX* before = EVP_MD_CTX_new();
    EVP_MD_CTX_copy_ex(before, ctx);
    int rc = 0;
    if ((mode & 2) != 0) {
        rc = EVP_DigestInit_ex2(ctx, md, random.params.data());
    } else {
        rc = EVP_MD_CTX_set_params(ctx, random.params.data());
    }
    ERR_clear_error();
    if (rc == 0 && (mode & 2) == 0) {
        if (finish_digest(ctx) != finish_digest(before)) {
            fuzz::mismatch("a refused digest set_params changed the context");
        }
    } else if (rc == 1) {
        finish_digest(ctx);
    }
    ERR_clear_error();
    EVP_MD_CTX_free(before);
    EVP_MD_CTX_free(ctx);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    fuzz::Reader in(data, size);
    const uint8_t mode = in.byte();
    fuzz::RandomParams random;
    random.read(in, kNames, 8);
    const fuzz::Providers& p = fuzz::providers();
    const bool tree = (mode & 0x40) != 0;
    const bool blake2s = (mode & 0x20) != 0;
    if ((mode & 0x80) != 0) {
        const EVP_MD* const digests[2][2] = {{p.our_md, p.our_bp_md}, {p.our_s_md, p.our_sp_md}};
        fuzz_digest(digests[blake2s][tree], random, mode);
    } else {
        EVP_MAC* const macs[2][2] = {{p.our_mac, p.our_bp_mac}, {p.our_s_mac, p.our_sp_mac}};
        fuzz_mac(macs[blake2s][tree], random, mode, blake2s ? 29 : sizeof kKey);
    }
    return 0;
}
