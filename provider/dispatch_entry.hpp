// Building OSSL_DISPATCH tables from our noexcept callbacks.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <openssl/core_dispatch.h>

// The entry for slot OSSL_FUNC_<ID>, served by `function`, checked against OpenSSL's typedef
// for that slot (our callbacks are noexcept; the typedefs are not, and the conversion is
// implicit).
#define B2_DISPATCH_TO(ID, slot, function)                                                   \
    {                                                                                        \
        OSSL_FUNC_##ID,                                                                      \
            reinterpret_cast<void (*)(void)>(static_cast<OSSL_FUNC_##slot##_fn*>(&function)) \
    }

// The entry for slot OSSL_FUNC_<ID>, served by `<prefix>_<slot>` (the provider's own table:
// blake2simd_provider_teardown, ...). The algorithms' callbacks are static members of their
// family templates instead (B2_DIGEST_FUNCTIONS below), told apart in a profile or a backtrace by
// the template argument.
#define B2_DISPATCH(prefix, ID, slot) B2_DISPATCH_TO(ID, slot, prefix##_##slot)

// The dispatch tables of a digest and a MAC whose callbacks are the static members of
// `Algorithm` (newctx, freectx, dupctx, init, update, finalize, ...); a digest's further
// entries (an XOF's squeeze) follow `Algorithm`.
#define B2_DIGEST_FUNCTIONS(Algorithm, ...)                                              \
    {                                                                                    \
        B2_DISPATCH_TO(DIGEST_NEWCTX, digest_newctx, Algorithm::newctx),                 \
            B2_DISPATCH_TO(DIGEST_FREECTX, digest_freectx, Algorithm::freectx),          \
            B2_DISPATCH_TO(DIGEST_DUPCTX, digest_dupctx, Algorithm::dupctx),             \
            B2_DISPATCH_TO(DIGEST_INIT, digest_init, Algorithm::init),                   \
            B2_DISPATCH_TO(DIGEST_UPDATE, digest_update, Algorithm::update),             \
            B2_DISPATCH_TO(DIGEST_FINAL, digest_final, Algorithm::finalize),             \
            B2_DISPATCH_TO(DIGEST_GET_PARAMS, digest_get_params, Algorithm::get_params), \
            B2_DISPATCH_TO(DIGEST_GETTABLE_PARAMS, digest_gettable_params,               \
                           Algorithm::gettable_params),                                  \
            B2_DISPATCH_TO(DIGEST_SET_CTX_PARAMS, digest_set_ctx_params,                 \
                           Algorithm::set_ctx_params),                                   \
            B2_DISPATCH_TO(DIGEST_SETTABLE_CTX_PARAMS, digest_settable_ctx_params,       \
                           Algorithm::settable_ctx_params),                              \
            B2_DISPATCH_TO(DIGEST_GET_CTX_PARAMS, digest_get_ctx_params,                 \
                           Algorithm::get_ctx_params),                                   \
            B2_DISPATCH_TO(DIGEST_GETTABLE_CTX_PARAMS, digest_gettable_ctx_params,       \
                           Algorithm::gettable_ctx_params),                              \
            __VA_OPT__(__VA_ARGS__, ) {                                                  \
            0, nullptr                                                                   \
        }                                                                                \
    }

#define B2_MAC_FUNCTIONS(Algorithm)                                                            \
    {                                                                                          \
        B2_DISPATCH_TO(MAC_NEWCTX, mac_newctx, Algorithm::newctx),                             \
            B2_DISPATCH_TO(MAC_FREECTX, mac_freectx, Algorithm::freectx),                      \
            B2_DISPATCH_TO(MAC_DUPCTX, mac_dupctx, Algorithm::dupctx),                         \
            B2_DISPATCH_TO(MAC_INIT, mac_init, Algorithm::init),                               \
            B2_DISPATCH_TO(MAC_UPDATE, mac_update, Algorithm::update),                         \
            B2_DISPATCH_TO(MAC_FINAL, mac_final, Algorithm::finalize),                         \
            B2_DISPATCH_TO(MAC_SET_CTX_PARAMS, mac_set_ctx_params, Algorithm::set_ctx_params), \
            B2_DISPATCH_TO(MAC_SETTABLE_CTX_PARAMS, mac_settable_ctx_params,                   \
                           Algorithm::settable_ctx_params),                                    \
            B2_DISPATCH_TO(MAC_GET_CTX_PARAMS, mac_get_ctx_params, Algorithm::get_ctx_params), \
            B2_DISPATCH_TO(MAC_GETTABLE_CTX_PARAMS, mac_gettable_ctx_params,                   \
                           Algorithm::gettable_ctx_params),                                    \
        {                                                                                      \
            0, nullptr                                                                         \
        }                                                                                      \
    }
