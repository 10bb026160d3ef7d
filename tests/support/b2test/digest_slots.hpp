// A digest implementation's dispatch functions, the slots OpenSSL added after 3.0 included
// (provider/digest_ids.hpp), for tests and fuzz targets that call them directly; and a state
// serialized the way EVP_MD_CTX_serialize asks (the size, then the bytes).
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <openssl/core_dispatch.h>

#include <cstdint>
#include <vector>

#include "digest_ids.hpp"

namespace b2test {

struct DigestSlots {
    OSSL_FUNC_digest_newctx_fn* newctx = nullptr;
    OSSL_FUNC_digest_freectx_fn* freectx = nullptr;
    OSSL_FUNC_digest_dupctx_fn* dupctx = nullptr;
    OSSL_FUNC_digest_copyctx_fn* copyctx = nullptr;
    OSSL_FUNC_digest_init_fn* init = nullptr;
    OSSL_FUNC_digest_update_fn* update = nullptr;
    OSSL_FUNC_digest_final_fn* final = nullptr;
    OSSL_FUNC_digest_squeeze_fn* squeeze = nullptr;  // the XOFs only
    OSSL_FUNC_digest_serialize_fn* serialize = nullptr;
    OSSL_FUNC_digest_deserialize_fn* deserialize = nullptr;
};

// The slots `table` has; the others stay nullptr.
inline DigestSlots digest_slots(const OSSL_DISPATCH* table) {
    DigestSlots slots;
    for (; table != nullptr && table->function_id != 0; ++table) {
        auto* function = table->function;
        switch (table->function_id) {
            case OSSL_FUNC_DIGEST_NEWCTX:
                slots.newctx = reinterpret_cast<OSSL_FUNC_digest_newctx_fn*>(function);
                break;
            case OSSL_FUNC_DIGEST_FREECTX:
                slots.freectx = reinterpret_cast<OSSL_FUNC_digest_freectx_fn*>(function);
                break;
            case OSSL_FUNC_DIGEST_DUPCTX:
                slots.dupctx = reinterpret_cast<OSSL_FUNC_digest_dupctx_fn*>(function);
                break;
            case OSSL_FUNC_DIGEST_COPYCTX:
                slots.copyctx = reinterpret_cast<OSSL_FUNC_digest_copyctx_fn*>(function);
                break;
            case OSSL_FUNC_DIGEST_INIT:
                slots.init = reinterpret_cast<OSSL_FUNC_digest_init_fn*>(function);
                break;
            case OSSL_FUNC_DIGEST_UPDATE:
                slots.update = reinterpret_cast<OSSL_FUNC_digest_update_fn*>(function);
                break;
            case OSSL_FUNC_DIGEST_FINAL:
                slots.final = reinterpret_cast<OSSL_FUNC_digest_final_fn*>(function);
                break;
            case OSSL_FUNC_DIGEST_SQUEEZE:
                slots.squeeze = reinterpret_cast<OSSL_FUNC_digest_squeeze_fn*>(function);
                break;
            case OSSL_FUNC_DIGEST_SERIALIZE:
                slots.serialize = reinterpret_cast<OSSL_FUNC_digest_serialize_fn*>(function);
                break;
            case OSSL_FUNC_DIGEST_DESERIALIZE:
                slots.deserialize = reinterpret_cast<OSSL_FUNC_digest_deserialize_fn*>(function);
                break;
            default:
                break;
        }
    }
    return slots;
}

// The size query, then the state; empty when either is refused or the sizes disagree.
inline std::vector<uint8_t> serialized(const DigestSlots& slots, void* ctx) {
    size_t size = 0;
    if (slots.serialize(ctx, nullptr, &size) != 1) {
        return {};
    }
    std::vector<uint8_t> blob(size);
    size_t written = size;
    return slots.serialize(ctx, blob.data(), &written) == 1 && written == size
               ? blob
               : std::vector<uint8_t>{};
}

}  // namespace b2test
