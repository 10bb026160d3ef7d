// What the BLAKE2B-512 and BLAKE2BP-512 digests share: their fixed params and ctx param tables.
// SPDX-License-Identifier: Apache-2.0
#include "digest_common.hpp"
#include "baseline_guard.hpp"

#include <openssl/core_names.h>
#include <openssl/params.h>

#include "blake2b_engine.hpp"
#include "names.hpp"
#include "ossl_param.hpp"

namespace blake2simd {

bool get_digest_params(OSSL_PARAM params[], size_t digest_size) noexcept {
    OSSL_PARAM* p = nullptr;
    if ((p = param::locate(params, OSSL_DIGEST_PARAM_BLOCK_SIZE)) != nullptr &&
        param::set_size_t(p, kBlockBytes) != param::Status::ok) {
        return false;
    }
    if ((p = param::locate(params, OSSL_DIGEST_PARAM_SIZE)) != nullptr &&
        param::set_size_t(p, digest_size) != param::Status::ok) {
        return false;
    }
    if ((p = param::locate(params, OSSL_DIGEST_PARAM_XOF)) != nullptr &&
        param::set_int(p, 0) != param::Status::ok) {
        return false;
    }
    if ((p = param::locate(params, OSSL_DIGEST_PARAM_ALGID_ABSENT)) != nullptr &&
        param::set_int(p, 0) != param::Status::ok) {
        return false;
    }
    return true;
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
