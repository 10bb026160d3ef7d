// The digest slots OpenSSL added after 3.0, absent from the 3.0 headers the module builds
// against, with OpenSSL's values: squeeze (3.3), copyctx (3.5), serialize and deserialize (4.0).
// A core that does not know an id never looks it up. Tests that call the slots directly include
// this too.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <openssl/core_dispatch.h>

#ifndef OSSL_FUNC_DIGEST_SQUEEZE
#define OSSL_FUNC_DIGEST_SQUEEZE 14
OSSL_CORE_MAKE_FUNC(int, digest_squeeze,
                    (void* dctx, unsigned char* out, size_t* outl, size_t outsz))
#endif
#ifndef OSSL_FUNC_DIGEST_COPYCTX
#define OSSL_FUNC_DIGEST_COPYCTX 15
OSSL_CORE_MAKE_FUNC(void, digest_copyctx, (void* outctx, void* inctx))
#endif
#ifndef OSSL_FUNC_DIGEST_SERIALIZE
#define OSSL_FUNC_DIGEST_SERIALIZE 16
#define OSSL_FUNC_DIGEST_DESERIALIZE 17
OSSL_CORE_MAKE_FUNC(int, digest_serialize, (void* dctx, unsigned char* out, size_t* outl))
OSSL_CORE_MAKE_FUNC(int, digest_deserialize, (void* dctx, const unsigned char* in, size_t inl))
#endif
