// What the digests share: their fixed params (each context's ctx params come from its table).
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

}  // namespace blake2simd
