// Building OSSL_DISPATCH tables from our noexcept callbacks.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <openssl/core_dispatch.h>

// The entry for slot OSSL_FUNC_<ID>, served by `<prefix>_<slot>`, checked against OpenSSL's
// typedef for that slot (our callbacks are noexcept; the typedefs are not, and the conversion
// is implicit). The prefix names the algorithm, so a profile or a backtrace tells
// blake2bp_digest_update from blake2b_digest_update.
#define B2_DISPATCH(prefix, ID, slot)                                              \
    {                                                                              \
        OSSL_FUNC_##ID, reinterpret_cast<void (*)(void)>(                          \
                            static_cast<OSSL_FUNC_##slot##_fn*>(&prefix##_##slot)) \
    }
