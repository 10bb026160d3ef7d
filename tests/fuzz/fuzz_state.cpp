// Serialized-state fuzz target: blobs into every digest's deserialize (OSSL_FUNC_DIGEST_
// DESERIALIZE, called through the dispatch table: the fuzz build's OpenSSL 3.0 has no
// EVP_MD_CTX_deserialize). Input: a byte picking the algorithm, a byte picking the mode, then
//   mode bit 0 clear: the rest is the blob, as is;
//   mode bit 0 set: a message length (2 bytes) and a setting (1 byte); a real state of that
//     message is serialized, then the rest of the input overwrites it, as (offset, byte) pairs.
// Checks, besides memory errors: a refused blob leaves the context as it was (it finishes as a
// copy taken before the call does); an accepted one is canonical (serialized again it gives the
// very bytes loaded) and the context finishes.
// SPDX-License-Identifier: Apache-2.0
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "b2test/digest_slots.hpp"
#include "fuzz_common.hpp"

namespace {

using Bytes = std::vector<uint8_t>;

constexpr const char* kAlgorithms[] = {
    "BLAKE2B-512", "BLAKE2S-256", "BLAKE2B-160",  "BLAKE2B-256",  "BLAKE2B-384", "BLAKE2S-128",
    "BLAKE2S-160", "BLAKE2S-224", "BLAKE2BP-512", "BLAKE2SP-256", "BLAKE2XB",    "BLAKE2XS",
};
constexpr size_t kAlgorithmCount = sizeof kAlgorithms / sizeof kAlgorithms[0];

struct Fns : b2test::DigestSlots {
    bool xof;
};

struct Module {
    void* provctx;
    Fns fns[kAlgorithmCount];

    static const Module& get() {
        static const Module instance = []() {
            Module m{};
            OSSL_LIB_CTX* libctx = fuzz::providers().libctx;
            OSSL_PROVIDER* provider = OSSL_PROVIDER_load(libctx, "blake2simd");
            int no_cache = 0;
            const OSSL_ALGORITHM* algorithms =
                OSSL_PROVIDER_query_operation(provider, OSSL_OP_DIGEST, &no_cache);
            m.provctx = OSSL_PROVIDER_get0_provider_ctx(provider);
            for (size_t a = 0; a < kAlgorithmCount; ++a) {
                const OSSL_ALGORITHM* found = algorithms;
                const size_t length = std::strlen(kAlgorithms[a]);
                while (std::strncmp(found->algorithm_names, kAlgorithms[a], length) != 0 ||
                       (found->algorithm_names[length] != ':' &&
                        found->algorithm_names[length] != '\0')) {
                    ++found;
                }
                m.fns[a] = {b2test::digest_slots(found->implementation), a >= 10};
            }
            return m;
        }();
        return instance;
    }
};

// The rest of a context's output: final (an XOF: 100 bytes squeezed); empty when refused.
Bytes finish(const Fns& f, void* ctx) {
    Bytes out(100);
    size_t outl = 0;
    const int ok = f.xof ? f.squeeze(ctx, out.data(), &outl, out.size())
                         : f.final(ctx, out.data(), &outl, out.size());
    out.resize(ok == 1 ? outl : 0);
    return out;
}

// A real state to mutate: `length` message bytes under one of a few settings.
Bytes real_state(const Fns& f, void* provctx, size_t length, uint8_t setting) {
    void* ctx = f.newctx(provctx);
    size_t xoflen = 1 + setting;
    unsigned char salt[8] = {setting, 1, 2, 3, 4, 5, 6, 7};
    OSSL_PARAM params[] = {OSSL_PARAM_construct_size_t(OSSL_DIGEST_PARAM_XOFLEN, &xoflen),
                           OSSL_PARAM_construct_octet_string(OSSL_MAC_PARAM_SALT, salt, 8),
                           OSSL_PARAM_construct_end()};
    // The tree modes refuse a salt: they start with none.
    const bool tree = f.squeeze == nullptr && f.init(ctx, params) != 1;
    if (tree || (setting & 1) == 0) {
        f.init(ctx, nullptr);
    }
    const Bytes message(length, setting);
    f.update(ctx, message.data(), message.size());
    if (f.xof && (setting & 2) != 0) {
        unsigned char out[1];
        size_t outl = 0;
        f.squeeze(ctx, out, &outl, 1);  // squeezing
    }
    const Bytes blob = b2test::serialized(f, ctx);
    f.freectx(ctx);
    return blob;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const Module& module = Module::get();
    fuzz::Reader in(data, size);
    const Fns& f = module.fns[in.byte() % kAlgorithmCount];
    const uint8_t mode = in.byte();
    Bytes blob;
    if ((mode & 1) == 0) {
        size_t length = 0;
        const uint8_t* bytes = in.rest(length);
        blob.assign(bytes, bytes + length);
    } else {
        const size_t length = in.u16() % 4096;
        blob = real_state(f, module.provctx, length, in.byte());
        for (size_t pairs = size; pairs > 0 && !blob.empty(); --pairs) {
            const size_t at = in.u16() % blob.size();
            const uint8_t value = in.byte();
            if (value == 0 && at == 0) {
                break;
            }
            blob[at] = value;
        }
    }
    // A target in a state of its own, and a copy of it to compare with.
    void* target = f.newctx(module.provctx);
    f.init(target, nullptr);
    f.update(target, reinterpret_cast<const unsigned char*>("target"), 6);
    void* before = f.dupctx(target);
    if (f.deserialize(target, blob.data(), blob.size()) == 1) {
        if (b2test::serialized(f, target) != blob) {
            std::fprintf(stderr, "FAIL: an accepted blob is not what the state serializes to\n");
            std::abort();
        }
        (void)finish(f, target);
    } else if (finish(f, target) != finish(f, before)) {
        std::fprintf(stderr, "FAIL: a refused blob changed the context\n");
        std::abort();
    }
    f.freectx(target);
    f.freectx(before);
    return 0;
}
