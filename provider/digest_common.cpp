// What the digests of both families share: their fixed params and ctx param tables.
// SPDX-License-Identifier: Apache-2.0
#include "baseline_guard.hpp"
#include "context.hpp"

#include <openssl/core_names.h>
#include <openssl/params.h>

#include "algorithm_params.hpp"
#include "errors.hpp"
#include "names.hpp"
#include "ossl_param.hpp"

namespace blake2simd {

bool get_digest_params(OSSL_PARAM params[], size_t block_size, size_t digest_size,
                       bool xof) noexcept {
    return write_params(nullptr, params,
                        {OutputParam::size(OSSL_DIGEST_PARAM_BLOCK_SIZE, block_size),
                         OutputParam::size(OSSL_DIGEST_PARAM_SIZE, digest_size),
                         OutputParam::integer(OSSL_DIGEST_PARAM_XOF, xof ? 1 : 0),
                         OutputParam::integer(OSSL_DIGEST_PARAM_ALGID_ABSENT, 0)});
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
