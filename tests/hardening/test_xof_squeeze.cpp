// BLAKE2XB / BLAKE2XS squeeze (OpenSSL 3.3's OSSL_FUNC_DIGEST_SQUEEZE), called through the
// module's dispatch table, so every OpenSSL version runs it (EVP_DigestSqueeze needs 3.3+;
// tests/test_blake2x.cpp uses it where it exists). Squeezed pieces must continue one stream
// equal to final's output (which evp.blake2x checks against vectors/gen_blake2x.py), also across
// many groups of the 4- / 8-lane output form; a copy made between squeezes must continue it too,
// and final after squeeze, squeeze after final, and squeezing past a known length must fail.
// SPDX-License-Identifier: Apache-2.0
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "b2test/check.hpp"
#include "direct_module.hpp"

#ifndef OSSL_FUNC_DIGEST_SQUEEZE
#define OSSL_FUNC_DIGEST_SQUEEZE 14
#endif

namespace {

using Bytes = std::vector<unsigned char>;
using SqueezeFn = int(void*, unsigned char*, size_t*, size_t);

struct Xof {
    direct_module::DigestFns fns;
    SqueezeFn* squeeze = nullptr;
    OSSL_FUNC_digest_dupctx_fn* dupctx = nullptr;
    OSSL_FUNC_digest_set_ctx_params_fn* set_ctx_params = nullptr;
};

// Every failure printed: each names a different step of one algorithm.
b2test::Report& report() {
    static b2test::Report tally("test_xof_squeeze", std::numeric_limits<int>::max());
    return tally;
}

void check(bool condition, const std::string& what) {
    report().check(condition, what);
}

Xof find(const direct_module::Instance& instance, const char* name) {
    const OSSL_DISPATCH* table = instance.implementation(OSSL_OP_DIGEST, name);
    Xof xof;
    xof.fns = instance.digest(name);
    xof.squeeze = direct_module::find_function<SqueezeFn>(table, OSSL_FUNC_DIGEST_SQUEEZE);
    xof.dupctx =
        direct_module::find_function<OSSL_FUNC_digest_dupctx_fn>(table, OSSL_FUNC_DIGEST_DUPCTX);
    xof.set_ctx_params = direct_module::find_function<OSSL_FUNC_digest_set_ctx_params_fn>(
        table, OSSL_FUNC_DIGEST_SET_CTX_PARAMS);
    return xof;
}

// What EVP_DigestFinalXOF does: "xoflen", then final.
bool final_xof(const Xof& xof, void* ctx, unsigned char* out, size_t length) {
    OSSL_PARAM params[] = {OSSL_PARAM_construct_size_t("xoflen", &length),
                           OSSL_PARAM_construct_end()};
    size_t written = 0;
    return xof.set_ctx_params(ctx, params) == 1 && xof.fns.final(ctx, out, &written, length) == 1 &&
           written == length;
}

bool squeeze(const Xof& xof, void* ctx, unsigned char* out, size_t length) {
    size_t written = 0;
    return xof.squeeze(ctx, out, &written, length) == 1 && written == length;
}

// A context that absorbed `message` in the unknown-length mode, and a copy of it that wrote the
// first whole.size() bytes of its output with final.
struct Started {
    void* ctx;
    void* reference;
};

Started start_unknown(const Xof& xof, void* provctx, const std::string& message,
                      const std::string& name, Bytes& whole) {
    void* ctx = xof.fns.newctx(provctx);
    const auto* bytes = reinterpret_cast<const unsigned char*>(message.data());
    check(xof.fns.init(ctx, nullptr) == 1 && xof.fns.update(ctx, bytes, message.size()) == 1,
          name + ": init and update");
    void* reference = xof.dupctx(ctx);
    check(final_xof(xof, reference, whole.data(), whole.size()),
          name + ": final of " + std::to_string(whole.size()));
    return {ctx, reference};
}

void check_unknown_length(const Xof& xof, void* provctx, const std::string& name) {
    const unsigned char message[] = "squeeze me";
    Bytes whole(1000);
    const auto [ctx, reference] = start_unknown(xof, provctx, "squeeze me", name, whole);
    Bytes pieces(1000);
    check(squeeze(xof, ctx, pieces.data(), 1) && squeeze(xof, ctx, pieces.data() + 1, 99),
          name + ": squeezes of 1 and 99");
    void* copy = xof.dupctx(ctx);
    check(squeeze(xof, ctx, pieces.data() + 100, 900) && pieces == whole,
          name + ": squeezes of 1, 99, 900 are final's 1000 bytes");
    Bytes rest(900);
    check(copy != nullptr && squeeze(xof, copy, rest.data(), 900) &&
              Bytes(whole.begin() + 100, whole.end()) == rest,
          name + ": a copy made after 100 squeezed bytes continues the stream");
    unsigned char out[16];
    size_t written = 0;
    check(xof.fns.update(ctx, message, 1) != 1, name + ": update after squeeze fails");
    check(!final_xof(xof, ctx, out, sizeof out), name + ": final after squeeze fails");
    check(xof.squeeze(reference, out, &written, sizeof out) != 1,
          name + ": squeeze after final fails");
    xof.fns.freectx(copy);
    xof.fns.freectx(reference);
    xof.fns.freectx(ctx);
}

// Squeezes that start and end inside the output form's groups (4 x 64 / 8 x 32 bytes) and
// span several of them continue final's stream.
void check_long_squeeze(const Xof& xof, void* provctx, const std::string& name) {
    Bytes whole(4000);
    const auto [ctx, reference] = start_unknown(xof, provctx, "groups", name, whole);
    Bytes pieces(whole.size());
    size_t done = 0;
    for (const size_t piece : {1, 255, 257, 1023, 2, 1537, 31, 894}) {
        check(squeeze(xof, ctx, pieces.data() + done, piece), name + ": a squeeze");
        done += piece;
    }
    check(done == whole.size() && pieces == whole,
          name + ": squeezes of 1, 255, 257, 1023, 2, 1537, 31, 894 are final's 4000 bytes");
    xof.fns.freectx(reference);
    xof.fns.freectx(ctx);
}

// With a length at init, squeezing yields that many bytes and no more.
void check_known_length(const Xof& xof, void* provctx, const std::string& name) {
    size_t length = 150;
    OSSL_PARAM params[] = {OSSL_PARAM_construct_size_t("xoflen", &length),
                           OSSL_PARAM_construct_end()};
    void* ctx = xof.fns.newctx(provctx);
    check(xof.fns.init(ctx, params) == 1, name + ": init with xoflen 150");
    void* reference = xof.dupctx(ctx);
    Bytes whole(150);
    Bytes pieces(150);
    check(final_xof(xof, reference, whole.data(), whole.size()), name + ": final of 150");
    check(squeeze(xof, ctx, pieces.data(), 100) && squeeze(xof, ctx, pieces.data() + 100, 50) &&
              pieces == whole,
          name + ": squeezes of 100 and 50 are the 150-byte output");
    unsigned char out[1];
    size_t written = 0;
    check(xof.squeeze(ctx, out, &written, 1) != 1, name + ": squeezing past 150 bytes fails");
    xof.fns.freectx(reference);
    xof.fns.freectx(ctx);
}

}  // namespace

int main() {
    direct_module::Instance instance;
    if (!instance.open()) {
        std::fprintf(stderr, "FAIL: cannot load the module\n");
        return 1;
    }
    for (const char* name : {"BLAKE2XB", "BLAKE2XS"}) {
        const Xof xof = find(instance, name);
        if (xof.fns.newctx == nullptr || xof.squeeze == nullptr || xof.dupctx == nullptr ||
            xof.set_ctx_params == nullptr) {
            std::fprintf(stderr, "FAIL: %s lacks a dispatch entry (squeeze?)\n", name);
            return 1;
        }
        check_unknown_length(xof, instance.provctx(), name);
        check_known_length(xof, instance.provctx(), name);
        check_long_squeeze(xof, instance.provctx(), name);
    }
    instance.close();
    return report().finish();
}
