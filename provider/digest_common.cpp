// What the digests of both families share: their fixed params and ctx param tables.
// SPDX-License-Identifier: Apache-2.0
#include "digest_common.hpp"
#include "baseline_guard.hpp"

#include <openssl/core_names.h>
#include <openssl/params.h>

#include "errors.hpp"
#include "names.hpp"
#include "ossl_param.hpp"
#include "params.hpp"

namespace blake2simd {

namespace {

// Digests' get_params has no provider context: a failure is raised through any of ours.
template <class Value>
bool fill(OSSL_PARAM params[], const char* key, Value value,
          param::Status (*set)(OSSL_PARAM*, Value) noexcept) noexcept {
    OSSL_PARAM* p = param::locate(params, key);
    const param::Status status = p != nullptr ? set(p, value) : param::Status::ok;
    if (status != param::Status::ok) {
        B2_RAISE_WITHOUT_CONTEXT(setter_failure(status));
        return false;
    }
    return true;
}

}  // namespace

bool get_digest_params(OSSL_PARAM params[], size_t block_size, size_t digest_size,
                       bool xof) noexcept {
    return fill(params, OSSL_DIGEST_PARAM_BLOCK_SIZE, block_size, param::set_size_t) &&
           fill(params, OSSL_DIGEST_PARAM_SIZE, digest_size, param::set_size_t) &&
           fill(params, OSSL_DIGEST_PARAM_XOF, xof ? 1 : 0, param::set_int) &&
           fill(params, OSSL_DIGEST_PARAM_ALGID_ABSENT, 0, param::set_int);
}

const OSSL_PARAM kDigestGettableParams[] = {
    OSSL_PARAM_size_t(OSSL_DIGEST_PARAM_BLOCK_SIZE, nullptr),
    OSSL_PARAM_size_t(OSSL_DIGEST_PARAM_SIZE, nullptr),
    OSSL_PARAM_int(OSSL_DIGEST_PARAM_XOF, nullptr),
    OSSL_PARAM_int(OSSL_DIGEST_PARAM_ALGID_ABSENT, nullptr),
    OSSL_PARAM_END,
};

const OSSL_PARAM kDigestSettableCtxParams[] = {
    OSSL_PARAM_size_t(OSSL_DIGEST_PARAM_SIZE, nullptr),
    OSSL_PARAM_octet_string(OSSL_MAC_PARAM_SALT, nullptr, 0),
    OSSL_PARAM_octet_string(OSSL_MAC_PARAM_CUSTOM, nullptr, 0),
    OSSL_PARAM_END,
};

const OSSL_PARAM kDigestGettableCtxParams[] = {
    OSSL_PARAM_size_t(OSSL_DIGEST_PARAM_SIZE, nullptr),
    OSSL_PARAM_utf8_ptr(names::kParamKernel, nullptr, 0),
    OSSL_PARAM_END,
};

}  // namespace blake2simd
