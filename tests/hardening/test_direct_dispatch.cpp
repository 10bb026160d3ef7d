// The module driven without libcrypto's EVP layer: dlopen blake2simd.so, initialise it with a
// minimal core of our own that records raised errors, and call the digest and MAC dispatch
// functions directly with what EVP never passes (small output sizes, NULL output, init twice
// on one context, calls out of order); the Argon2 KDFs' likewise (NULL key, freectx(NULL), odd
// params, derive before the salt, reset, dups of fresh and used contexts).
// SPDX-License-Identifier: Apache-2.0
#include <dlfcn.h>
#include <openssl/core.h>
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/params.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "b2test/algorithms.hpp"
#include "b2test/argon2_bad_params.hpp"
#include "b2test/check.hpp"
#include "direct_module.hpp"
#include "guard_page.hpp"
#include "rfc7693.hpp"

namespace {

using Bytes = std::vector<uint8_t>;

// --- The minimal core: records the reason of each raised error.
struct ErrorLog {
    int raised = 0;
    uint32_t last_reason = 0;
    bool debug_set = false;
};
ErrorLog g_errors;

int core_get_params(const OSSL_CORE_HANDLE*, OSSL_PARAM[]) noexcept {
    return 1;
}
void core_new_error(const OSSL_CORE_HANDLE*) noexcept {
    ++g_errors.raised;
    g_errors.debug_set = false;
}
void core_set_error_debug(const OSSL_CORE_HANDLE*, const char* file, int line,
                          const char* func) noexcept {
    g_errors.debug_set = file != nullptr && line > 0 && func != nullptr;
}
void core_vset_error(const OSSL_CORE_HANDLE*, uint32_t reason, const char*, va_list) noexcept {
    g_errors.last_reason = reason;
}

// The module links no libcrypto: its memory comes from the core, here libc's, counted.
struct MemoryLog {
    int allocated = 0;
    int freed = 0;
};
MemoryLog g_memory;

void* core_malloc(size_t size, const char*, int) noexcept {
    ++g_memory.allocated;
    return std::malloc(size);
}
void* core_zalloc(size_t size, const char*, int) noexcept {
    ++g_memory.allocated;
    return std::calloc(1, size);
}
void core_free(void* memory, const char*, int) noexcept {
    g_memory.freed += memory != nullptr ? 1 : 0;
    std::free(memory);
}

const OSSL_DISPATCH kCore[] = {
    {OSSL_FUNC_CRYPTO_MALLOC, reinterpret_cast<void (*)(void)>(&core_malloc)},
    {OSSL_FUNC_CRYPTO_ZALLOC, reinterpret_cast<void (*)(void)>(&core_zalloc)},
    {OSSL_FUNC_CRYPTO_FREE, reinterpret_cast<void (*)(void)>(&core_free)},
    {OSSL_FUNC_CORE_GET_PARAMS, reinterpret_cast<void (*)(void)>(&core_get_params)},
    {OSSL_FUNC_CORE_NEW_ERROR, reinterpret_cast<void (*)(void)>(&core_new_error)},
    {OSSL_FUNC_CORE_SET_ERROR_DEBUG, reinterpret_cast<void (*)(void)>(&core_set_error_debug)},
    {OSSL_FUNC_CORE_VSET_ERROR, reinterpret_cast<void (*)(void)>(&core_vset_error)},
    {0, nullptr},
};

using direct_module::find_function;

// Every failure printed: each names a different case.
using Checks = b2test::Report;

struct Module {
    void* handle = nullptr;
    void* provctx = nullptr;
    const OSSL_DISPATCH* provider = nullptr;
    const OSSL_ITEM* reasons = nullptr;

    // The first algorithm of the operation, or the one whose first name is `name`.
    const OSSL_DISPATCH* implementation(int operation, const char* name = nullptr) const {
        auto* query = find_function<OSSL_FUNC_provider_query_operation_fn>(
            provider, OSSL_FUNC_PROVIDER_QUERY_OPERATION);
        int no_cache = -1;
        const OSSL_ALGORITHM* algorithms =
            query != nullptr ? query(provctx, operation, &no_cache) : nullptr;
        for (; algorithms != nullptr && algorithms->algorithm_names != nullptr; ++algorithms) {
            const std::string names = std::string(algorithms->algorithm_names) + ":";
            if (name == nullptr || names.find(std::string(name) + ":") == 0) {
                return algorithms->implementation;
            }
        }
        return nullptr;
    }

    std::string reason_text(uint32_t reason) const {
        for (const OSSL_ITEM* item = reasons; item != nullptr && item->id != 0; ++item) {
            if (item->id == reason) {
                return static_cast<const char*>(item->ptr);
            }
        }
        return "(unknown reason " + std::to_string(reason) + ")";
    }
};

// Runs `call`; checks its return value, and if it must fail, that exactly one error with a
// reason text containing `reason` was raised (with file/line/function).
class Harness {
  public:
    Harness(Checks& checks, const Module& module) : m_checks(checks), m_module(module) {}

    void succeeds(int rc, const std::string& what) {
        m_checks.check(rc == 1 && g_errors.raised == m_errors_before, what + " succeeds");
        m_errors_before = g_errors.raised;
    }
    void fails(int rc, const char* reason, const std::string& what) {
        const std::string text = m_module.reason_text(g_errors.last_reason);
        m_checks.check(rc == 0, what + " fails");
        m_checks.check(g_errors.raised == m_errors_before + 1 && g_errors.debug_set,
                       what + " raises one error with debug info");
        m_checks.check(text.find(reason) != std::string::npos,
                       what + ": reason '" + text + "' lacks '" + reason + "'");
        m_errors_before = g_errors.raised;
    }
    Checks& checks() { return m_checks; }

  private:
    Checks& m_checks;
    const Module& m_module;
    int m_errors_before = g_errors.raised;
};

Bytes pattern(size_t length, uint8_t seed) {
    Bytes bytes(length);
    for (size_t i = 0; i < length; ++i) {
        bytes[i] = static_cast<uint8_t>(seed + 31 * i);
    }
    return bytes;
}

bool untouched(const Bytes& buffer, size_t from) {
    for (size_t i = from; i < buffer.size(); ++i) {
        if (buffer[i] != 0xA5) {
            return false;
        }
    }
    return true;
}

using b2test::Blake2Algorithm;

// The answer from outside the module (rfc7693.hpp) for any of the four algorithms.
Bytes oracle(const Blake2Algorithm& algorithm, const Bytes& key, const uint8_t* data, size_t length,
             size_t out_len) {
    if (algorithm.tree) {
        return &algorithm == &b2test::kBlake2sp
                   ? rfc7693::blake2sp(key.data(), key.size(), data, length)
                   : rfc7693::blake2bp(key.data(), key.size(), data, length);
    }
    if (&algorithm == &b2test::kBlake2s) {
        rfc7693::blake2s::Options o;
        o.key = key.data();
        o.key_len = key.size();
        o.out_len = out_len;
        return rfc7693::blake2s::hash(o, data, length);
    }
    rfc7693::Options o;
    o.key = key.data();
    o.key_len = key.size();
    o.out_len = out_len;
    return rfc7693::hash(o, data, length);
}

// The first `count` bytes of an output buffer.
Bytes first(const Bytes& buffer, size_t count) {
    return Bytes(buffer.begin(), buffer.begin() + static_cast<std::ptrdiff_t>(count));
}

struct DigestFns {
    OSSL_FUNC_digest_newctx_fn* newctx;
    OSSL_FUNC_digest_freectx_fn* freectx;
    OSSL_FUNC_digest_dupctx_fn* dupctx;
    OSSL_FUNC_digest_init_fn* init;
    OSSL_FUNC_digest_update_fn* update;
    OSSL_FUNC_digest_final_fn* final;
    OSSL_FUNC_digest_set_ctx_params_fn* set_params;
    OSSL_FUNC_digest_get_ctx_params_fn* get_params;
};

size_t digest_ctx_size(const DigestFns& d, void* ctx) {
    size_t size = 0;
    OSSL_PARAM params[] = {OSSL_PARAM_construct_size_t(OSSL_DIGEST_PARAM_SIZE, &size),
                           OSSL_PARAM_construct_end()};
    return d.get_params(ctx, params) == 1 ? size : 0;
}

DigestFns digest_functions(const OSSL_DISPATCH* table) {
    return DigestFns{
        find_function<OSSL_FUNC_digest_newctx_fn>(table, OSSL_FUNC_DIGEST_NEWCTX),
        find_function<OSSL_FUNC_digest_freectx_fn>(table, OSSL_FUNC_DIGEST_FREECTX),
        find_function<OSSL_FUNC_digest_dupctx_fn>(table, OSSL_FUNC_DIGEST_DUPCTX),
        find_function<OSSL_FUNC_digest_init_fn>(table, OSSL_FUNC_DIGEST_INIT),
        find_function<OSSL_FUNC_digest_update_fn>(table, OSSL_FUNC_DIGEST_UPDATE),
        find_function<OSSL_FUNC_digest_final_fn>(table, OSSL_FUNC_DIGEST_FINAL),
        find_function<OSSL_FUNC_digest_set_ctx_params_fn>(table, OSSL_FUNC_DIGEST_SET_CTX_PARAMS),
        find_function<OSSL_FUNC_digest_get_ctx_params_fn>(table, OSSL_FUNC_DIGEST_GET_CTX_PARAMS),
    };
}

// An integer size param no getter reads whole: data_size 0 (libcrypto 3.0 reads the byte
// before it: here a guard page) or over 8 bytes, refused before it is read, by `set` and `init`
// (each given the params).
template <typename SetParams, typename InitWith>
void check_odd_size_params(Harness& h, const char* param, const std::string& label, SetParams set,
                           InitWith init) {
    const BytesAfterGuardPage guarded;
    for (const size_t data_size : {size_t{0}, size_t{9}}) {
        for (const unsigned int type : {OSSL_PARAM_INTEGER, OSSL_PARAM_UNSIGNED_INTEGER}) {
            OSSL_PARAM odd[] = {{param, type, guarded.data(), data_size, OSSL_PARAM_UNMODIFIED},
                                OSSL_PARAM_construct_end()};
            const std::string what = label + " size of data_size " + std::to_string(data_size);
            h.fails(set(odd), "wrong data type", what + ", set_params");
            h.fails(init(odd), "wrong data type", what + ", init");
        }
    }
}

// One digest context under test, with the message every step hashes.
struct DigestUnderTest {
    Harness& h;
    const DigestFns& d;
    const Blake2Algorithm& algorithm;
    void* ctx;
    std::string name = algorithm.digest;
    Bytes message = pattern(300, 1);
};

// The phases: nothing before init, a NULL-out and a too-small final refused harmlessly, nothing
// after final.
void check_digest_phases(DigestUnderTest& t) {
    auto& [h, d, algorithm, ctx, name, message] = t;
    const size_t full = algorithm.max_size;
    Bytes out(128, 0xA5);
    size_t outl = 0;
    h.fails(d.update(ctx, message.data(), 1), "not initialized", "digest update before init");
    h.fails(d.final(ctx, out.data(), &outl, full), "not initialized", "digest final before init");
    void* fresh_copy = d.dupctx(ctx);
    h.fails(d.final(fresh_copy, out.data(), &outl, full), "not initialized",
            "final on a fresh dup");
    d.freectx(fresh_copy);

    h.succeeds(d.init(ctx, nullptr), "digest init");
    h.succeeds(d.update(ctx, nullptr, 0), "zero-length update with NULL data");
    h.succeeds(d.update(ctx, message.data(), message.size()), "digest update");
    outl = 0;
    h.succeeds(d.final(ctx, nullptr, &outl, 0), "final with NULL out");
    h.checks().check(outl == full, name + ": NULL out reports its size");
    h.fails(d.final(ctx, out.data(), &outl, full - 1), "output buffer too small",
            name + ": final into a byte less");
    h.checks().check(untouched(out, 0), "nothing written into the small buffer");
    h.succeeds(d.final(ctx, out.data(), &outl, full), "final after the refused ones");
    h.checks().check(outl == full && first(out, full) == oracle(algorithm, {}, message.data(),
                                                                message.size(), full),
                     name + ": digest right after NULL-out and too-small finals");
    h.fails(d.final(ctx, out.data(), &outl, full), "final already called", "final twice");
    h.fails(d.update(ctx, message.data(), 1), "update after final", "update after final");
}

// `size` survives re-init on one provider context (libcrypto 3.0 re-creates contexts at each
// EVP init, so only this level can show it); a failing init changes nothing.
void check_digest_size_kept(DigestUnderTest& t) {
    auto& [h, d, algorithm, ctx, name, message] = t;
    const size_t half = algorithm.max_size / 2;
    Bytes out(128, 0xA5);
    size_t outl = 0;
    size_t size = half;
    OSSL_PARAM set_size[] = {OSSL_PARAM_construct_size_t(OSSL_DIGEST_PARAM_SIZE, &size),
                             OSSL_PARAM_construct_end()};
    h.succeeds(d.set_params(ctx, set_size), name + ": set size " + std::to_string(half));
    const Bytes expected_half = oracle(algorithm, {}, message.data(), message.size(), half);
    for (int round = 0; round < 2; ++round) {
        std::fill(out.begin(), out.end(), 0xA5);
        h.succeeds(d.init(ctx, nullptr), "init #" + std::to_string(round + 1));
        h.checks().check(digest_ctx_size(d, ctx) == half, name + ": size kept after re-init");
        h.succeeds(d.update(ctx, message.data(), message.size()), "update");
        h.fails(d.final(ctx, out.data(), &outl, half - 1), "output buffer too small",
                name + ": final into a byte less than the size set");
        h.succeeds(d.final(ctx, out.data(), &outl, half), "final into exactly the size set");
        h.checks().check(outl == half && untouched(out, half), "exactly that many bytes written");
        h.checks().check(first(out, half) == expected_half,
                         name + ": the shorter digest after init #" + std::to_string(round + 1));
    }

    size_t bad_size = algorithm.max_size + 1;
    OSSL_PARAM bad[] = {OSSL_PARAM_construct_size_t(OSSL_DIGEST_PARAM_SIZE, &bad_size),
                        OSSL_PARAM_construct_end()};
    h.fails(d.init(ctx, bad), "invalid output size", name + ": init with a size too big");
    h.checks().check(digest_ctx_size(d, ctx) == half, name + ": settings survive a failed init");
    h.fails(d.update(ctx, message.data(), 1), "update after final", "phase survives failed init");
}

// Malformed params (NULL data with a non-zero size, odd integer sizes) are refused, never
// dereferenced, and change no setting.
void check_digest_malformed_params(DigestUnderTest& t) {
    auto& [h, d, algorithm, ctx, name, message] = t;
    for (const char* param : {OSSL_DIGEST_PARAM_SIZE, OSSL_MAC_PARAM_SALT, OSSL_MAC_PARAM_CUSTOM}) {
        const unsigned int type = std::strcmp(param, OSSL_DIGEST_PARAM_SIZE) == 0
                                      ? OSSL_PARAM_UNSIGNED_INTEGER
                                      : OSSL_PARAM_OCTET_STRING;
        OSSL_PARAM null_data[] = {{param, type, nullptr, 8, OSSL_PARAM_UNMODIFIED},
                                  OSSL_PARAM_construct_end()};
        h.fails(d.set_params(ctx, null_data), "", name + ": " + param + " NULL data");
    }
    check_odd_size_params(
        h, OSSL_DIGEST_PARAM_SIZE, "digest",
        // Init-captures: clang before 16 cannot capture a structured binding itself.
        [&d = d, ctx = ctx](const OSSL_PARAM* params) { return d.set_params(ctx, params); },
        [&d = d, ctx = ctx](const OSSL_PARAM* params) { return d.init(ctx, params); });
    h.checks().check(digest_ctx_size(d, ctx) == algorithm.max_size / 2,
                     "settings survive refused NULL params");
}

// Size changed mid-stream applies to the next message only (a dup taken then agrees).
void check_digest_size_mid_stream(DigestUnderTest& t) {
    auto& [h, d, algorithm, ctx, name, message] = t;
    const size_t full = algorithm.max_size;
    const size_t half = full / 2;
    const Bytes expected_half = oracle(algorithm, {}, message.data(), message.size(), half);
    Bytes out(128, 0xA5);
    size_t outl = 0;
    h.succeeds(d.init(ctx, nullptr), "init");
    h.succeeds(d.update(ctx, message.data(), 100), "update");
    size_t size = half / 2;
    OSSL_PARAM set_size[] = {OSSL_PARAM_construct_size_t(OSSL_DIGEST_PARAM_SIZE, &size),
                             OSSL_PARAM_construct_end()};
    h.succeeds(d.set_params(ctx, set_size), name + ": set a smaller size mid-stream");
    h.checks().check(digest_ctx_size(d, ctx) == half, "running message keeps its size");
    void* mid_copy = d.dupctx(ctx);
    h.succeeds(d.update(ctx, message.data() + 100, message.size() - 100), "update rest");
    h.succeeds(d.final(ctx, out.data(), &outl, full), "final");
    h.checks().check(outl == half && first(out, half) == expected_half,
                     name + ": mid-stream size change ignored by the running message");
    h.checks().check(digest_ctx_size(d, ctx) == half / 2, "next message gets the new size");
    h.succeeds(d.update(mid_copy, message.data() + 100, message.size() - 100), "copy update");
    h.succeeds(d.final(mid_copy, out.data(), &outl, half), "copy final");
    h.checks().check(first(out, half) == expected_half, name + ": copy agrees");
    d.freectx(mid_copy);
}

void check_digest(Harness& h, const Module& module, const Blake2Algorithm& algorithm) {
    const OSSL_DISPATCH* table = module.implementation(OSSL_OP_DIGEST, algorithm.digest);
    h.checks().check(table != nullptr,
                     std::string("query_operation(OSSL_OP_DIGEST) has ") + algorithm.digest);
    if (table == nullptr) {
        return;
    }
    const DigestFns d = digest_functions(table);
    DigestUnderTest t{h, d, algorithm, d.newctx(module.provctx)};
    h.checks().check(t.ctx != nullptr, t.name + " newctx");
    // In this order: each step starts in the phase and with the settings the one before left.
    check_digest_phases(t);
    check_digest_size_kept(t);
    check_digest_malformed_params(t);
    check_digest_size_mid_stream(t);
    d.freectx(t.ctx);
}

struct MacFns {
    OSSL_FUNC_mac_newctx_fn* newctx;
    OSSL_FUNC_mac_freectx_fn* freectx;
    OSSL_FUNC_mac_dupctx_fn* dupctx;
    OSSL_FUNC_mac_init_fn* init;
    OSSL_FUNC_mac_update_fn* update;
    OSSL_FUNC_mac_final_fn* final;
    OSSL_FUNC_mac_set_ctx_params_fn* set_params;
    OSSL_FUNC_mac_get_ctx_params_fn* get_params;
};

size_t mac_ctx_size(const MacFns& m, void* ctx) {
    size_t size = 0;
    OSSL_PARAM params[] = {OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &size),
                           OSSL_PARAM_construct_end()};
    return m.get_params(ctx, params) == 1 ? size : 0;
}

MacFns mac_functions(const OSSL_DISPATCH* table) {
    return MacFns{
        find_function<OSSL_FUNC_mac_newctx_fn>(table, OSSL_FUNC_MAC_NEWCTX),
        find_function<OSSL_FUNC_mac_freectx_fn>(table, OSSL_FUNC_MAC_FREECTX),
        find_function<OSSL_FUNC_mac_dupctx_fn>(table, OSSL_FUNC_MAC_DUPCTX),
        find_function<OSSL_FUNC_mac_init_fn>(table, OSSL_FUNC_MAC_INIT),
        find_function<OSSL_FUNC_mac_update_fn>(table, OSSL_FUNC_MAC_UPDATE),
        find_function<OSSL_FUNC_mac_final_fn>(table, OSSL_FUNC_MAC_FINAL),
        find_function<OSSL_FUNC_mac_set_ctx_params_fn>(table, OSSL_FUNC_MAC_SET_CTX_PARAMS),
        find_function<OSSL_FUNC_mac_get_ctx_params_fn>(table, OSSL_FUNC_MAC_GET_CTX_PARAMS),
    };
}

// One MAC context under test (a single-lane or a tree MAC), with the key and message every step
// uses.
struct MacUnderTest {
    Harness& h;
    const MacFns& m;
    const Blake2Algorithm& algorithm;
    void* ctx;
    size_t message_bytes;
    std::string name = algorithm.mac;
    Bytes key = pattern(algorithm.max_key, 9);
    Bytes message = pattern(message_bytes, 4);
};

// Keys and phases: no MAC without a key or with a bad one, nothing before init, a refused final
// writes nothing, nothing after final; a size set after init waits for the next init.
void check_mac_keys_and_phases(MacUnderTest& t) {
    auto& [h, m, algorithm, ctx, message_bytes, name, key, message] = t;
    const size_t full = algorithm.max_size;
    const Bytes long_key = pattern(algorithm.max_key + 1, 9);
    Bytes out(128, 0xA5);
    size_t outl = 0;
    h.fails(m.init(ctx, nullptr, 0, nullptr), "no key set", "MAC init with no key ever set");
    h.fails(m.init(ctx, key.data(), 0, nullptr), "invalid key length", "MAC init with 0-byte key");
    h.fails(m.init(ctx, long_key.data(), long_key.size(), nullptr), "invalid key length",
            name + ": too long key");
    h.fails(m.update(ctx, message.data(), 1), "not initialized", "MAC update before init");
    h.fails(m.final(ctx, out.data(), &outl, full), "not initialized", "MAC final before init");

    h.succeeds(m.init(ctx, key.data(), key.size(), nullptr), "MAC init");
    h.succeeds(m.final(ctx, nullptr, &outl, 0), "MAC final with NULL out");
    h.checks().check(outl == full, name + ": NULL out reports its size");
    h.succeeds(m.update(ctx, message.data(), message.size()), "update");
    size_t size = 24;
    OSSL_PARAM set_size[] = {OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &size),
                             OSSL_PARAM_construct_end()};
    h.succeeds(m.set_params(ctx, set_size), "set size 24 after init");
    h.checks().check(mac_ctx_size(m, ctx) == full, name + ": running MAC keeps its size");
    h.fails(m.final(ctx, out.data(), &outl, 24), "output buffer too small",
            "MAC final into 24 after size changed to 24");
    h.checks().check(untouched(out, 0), "nothing written past a refused buffer");
    h.succeeds(m.final(ctx, out.data(), &outl, full), name + ": final into its size");
    h.checks().check(
        outl == full && untouched(out, full) &&
            first(out, full) == oracle(algorithm, key, message.data(), message.size(), full),
        name + ": MAC right, exactly its size written");
    h.fails(m.final(ctx, out.data(), &outl, full), "final already called", "MAC final twice");
    h.fails(m.update(ctx, message.data(), 1), "update after final", "MAC update after final");
}

// Init twice on one context: the key and the new size (24) survive; the empty message after a
// keyless re-init, and a dup taken right after init.
void check_mac_reinit(MacUnderTest& t) {
    auto& [h, m, algorithm, ctx, message_bytes, name, key, message] = t;
    const size_t full = algorithm.max_size;
    const Bytes expected24 = oracle(algorithm, key, message.data(), message.size(), 24);
    const Bytes expected24_empty = oracle(algorithm, key, nullptr, 0, 24);
    Bytes out(128, 0xA5);
    size_t outl = 0;
    for (int round = 0; round < 2; ++round) {
        std::fill(out.begin(), out.end(), 0xA5);
        h.succeeds(m.init(ctx, nullptr, 0, nullptr), "MAC re-init without key");
        h.succeeds(m.update(ctx, message.data(), message.size()), "update");
        h.fails(m.final(ctx, out.data(), &outl, 23), "output buffer too small", "final into 23");
        h.succeeds(m.final(ctx, out.data(), &outl, 24), "final into 24");
        h.checks().check(outl == 24 && untouched(out, 24) && first(out, 24) == expected24,
                         name + ": 24-byte MAC after re-init #" + std::to_string(round + 1));
    }
    h.succeeds(m.init(ctx, nullptr, 0, nullptr), "init for the empty message");
    void* copy = m.dupctx(ctx);
    h.succeeds(m.final(ctx, out.data(), &outl, full), "final of the empty message");
    h.checks().check(first(out, 24) == expected24_empty, name + ": empty-message MAC");
    h.succeeds(m.final(copy, out.data(), &outl, full), "copy final of the empty message");
    h.checks().check(first(out, 24) == expected24_empty,
                     name + ": copy gives the empty-message MAC");
    m.freectx(copy);
}

// Malformed params (NULL data with a non-zero size, odd integer sizes) are refused, never
// dereferenced, and a NULL key is not mistaken for "no key given"; on a fresh context.
void check_mac_malformed_params(MacUnderTest& t, void* fresh) {
    auto& [h, m, algorithm, ctx, message_bytes, name, key, message] = t;
    const char* const names[] = {OSSL_MAC_PARAM_SIZE, OSSL_MAC_PARAM_SALT, OSSL_MAC_PARAM_CUSTOM,
                                 OSSL_MAC_PARAM_KEY};
    const unsigned int types[] = {OSSL_PARAM_UNSIGNED_INTEGER, OSSL_PARAM_OCTET_STRING,
                                  OSSL_PARAM_OCTET_STRING, OSSL_PARAM_OCTET_STRING};
    for (size_t i = 0; i < 4; ++i) {
        OSSL_PARAM null_data[] = {{names[i], types[i], nullptr, 8, OSSL_PARAM_UNMODIFIED},
                                  OSSL_PARAM_construct_end()};
        h.fails(m.set_params(fresh, null_data), "",
                std::string("MAC param ") + names[i] + " with NULL data");
        h.fails(m.init(fresh, nullptr, 0, null_data), "",
                std::string("MAC init, param ") + names[i] + " with NULL data");
    }
    check_odd_size_params(
        h, OSSL_MAC_PARAM_SIZE, "MAC",
        // Init-captures: clang before 16 cannot capture a structured binding itself.
        [&m = m, fresh](const OSSL_PARAM* params) { return m.set_params(fresh, params); },
        [&m = m, &key = key, fresh](const OSSL_PARAM* params) {
            return m.init(fresh, key.data(), key.size(), params);
        });
}

// A failing init with a new key and bad params changes neither key nor settings.
void check_mac_failed_init(MacUnderTest& t) {
    auto& [h, m, algorithm, ctx, message_bytes, name, key, message] = t;
    // Not a prefix of the key in use, so a key wrongly taken would change the MAC.
    const Bytes new_key = pattern(algorithm.max_key, 4);
    Bytes out(128, 0xA5);
    size_t outl = 0;
    size_t bad_size = 0;
    OSSL_PARAM bad[] = {OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &bad_size),
                        OSSL_PARAM_construct_end()};
    h.fails(m.init(ctx, new_key.data(), new_key.size(), bad), "invalid output size",
            name + ": init with a new key and size 0");
    h.succeeds(m.init(ctx, nullptr, 0, nullptr), "init after the failed one");
    h.succeeds(m.update(ctx, message.data(), message.size()), "update");
    h.succeeds(m.final(ctx, out.data(), &outl, algorithm.max_size), "final");
    h.checks().check(first(out, 24) == oracle(algorithm, key, message.data(), message.size(), 24),
                     name + ": old key and size kept after a failed init");
}

// The steps of one MAC's misuse; the malformed-params one on a fresh context of its own.
struct MacSteps {
    void (*keys_and_phases)(MacUnderTest&);
    void (*reinit)(MacUnderTest&);
    void (*malformed_params)(MacUnderTest&, void* fresh);
    void (*failed_init)(MacUnderTest&);
};

void run_mac_steps(Harness& h, const Module& module, const Blake2Algorithm& algorithm,
                   size_t message_bytes, const MacSteps& steps) {
    const OSSL_DISPATCH* table = module.implementation(OSSL_OP_MAC, algorithm.mac);
    h.checks().check(table != nullptr,
                     std::string("query_operation(OSSL_OP_MAC) has ") + algorithm.mac);
    if (table == nullptr) {
        return;
    }
    const MacFns m = mac_functions(table);
    MacUnderTest t{h, m, algorithm, m.newctx(module.provctx), message_bytes};
    h.checks().check(t.ctx != nullptr, t.name + " newctx");
    // In this order: each step starts in the phase and with the settings the one before left.
    steps.keys_and_phases(t);
    steps.reinit(t);
    void* fresh = m.newctx(module.provctx);
    steps.malformed_params(t, fresh);
    m.freectx(fresh);
    steps.failed_init(t);
    m.freectx(t.ctx);
}

void check_mac(Harness& h, const Module& module, const Blake2Algorithm& algorithm) {
    run_mac_steps(h, module, algorithm, 200,
                  {check_mac_keys_and_phases, check_mac_reinit, check_mac_malformed_params,
                   check_mac_failed_init});
}

// Every failing get_params raises its reason: the provider's, and a digest's, which OpenSSL
// calls without a provider context.
void check_failed_gets(Harness& h, const Module& module) {
    char text[64] = {};
    auto* provider_get = find_function<OSSL_FUNC_provider_get_params_fn>(
        module.provider, OSSL_FUNC_PROVIDER_GET_PARAMS);
    OSSL_PARAM status_as_text[] = {
        OSSL_PARAM_construct_utf8_string(OSSL_PROV_PARAM_STATUS, text, sizeof text),
        OSSL_PARAM_construct_end()};
    h.fails(provider_get(module.provctx, status_as_text), "wrong data type",
            "provider status as a string");
    OSSL_PARAM short_version[] = {
        OSSL_PARAM_construct_utf8_string(OSSL_PROV_PARAM_VERSION, text, 1),
        OSSL_PARAM_construct_end()};
    h.fails(provider_get(module.provctx, short_version), "output buffer too small",
            "provider version into 1 byte");
    for (const Blake2Algorithm* algorithm : b2test::kAllAlgorithms) {
        const std::string name = algorithm->digest;
        const OSSL_DISPATCH* table = module.implementation(OSSL_OP_DIGEST, algorithm->digest);
        auto* digest_get =
            find_function<OSSL_FUNC_digest_get_params_fn>(table, OSSL_FUNC_DIGEST_GET_PARAMS);
        OSSL_PARAM size_as_text[] = {
            OSSL_PARAM_construct_utf8_string(OSSL_DIGEST_PARAM_SIZE, text, sizeof text),
            OSSL_PARAM_construct_end()};
        h.fails(digest_get(size_as_text), "wrong data type",
                name + ": digest get_params, size as a string");
        signed char byte = 0;  // holds BLAKE2s's 64, not BLAKE2b's 128
        OSSL_PARAM block_size_in_a_byte[] = {
            {OSSL_DIGEST_PARAM_BLOCK_SIZE, OSSL_PARAM_INTEGER, &byte, 1, OSSL_PARAM_UNMODIFIED},
            OSSL_PARAM_construct_end()};
        if (algorithm->block_bytes > 127) {
            h.fails(digest_get(block_size_in_a_byte), "output buffer too small",
                    name + ": digest get_params, block size 128 into a signed byte");
        } else {
            h.succeeds(digest_get(block_size_in_a_byte),
                       name + ": digest get_params, block size 64 into a signed byte");
            h.checks().check(byte == static_cast<signed char>(algorithm->block_bytes),
                             name + ": block size " + std::to_string(byte));
        }
    }
}

// --- The tree modes: the same misuse through BLAKE2BP-512 / BLAKE2BPMAC and BLAKE2SP-256 /
// BLAKE2SPMAC (one output size only).

// NULL data with a non-zero size, for each parameter a tree mode looks at.
void check_null_data_params(Harness& h, const std::string& what,
                            const std::function<int(const OSSL_PARAM*)>& call) {
    const char* const names[] = {OSSL_MAC_PARAM_SIZE, OSSL_MAC_PARAM_SALT, OSSL_MAC_PARAM_CUSTOM,
                                 OSSL_MAC_PARAM_KEY};
    const unsigned int types[] = {OSSL_PARAM_UNSIGNED_INTEGER, OSSL_PARAM_OCTET_STRING,
                                  OSSL_PARAM_OCTET_STRING, OSSL_PARAM_OCTET_STRING};
    for (size_t i = 0; i < 4; ++i) {
        OSSL_PARAM null_data[] = {{names[i], types[i], nullptr, 8, OSSL_PARAM_UNMODIFIED},
                                  OSSL_PARAM_construct_end()};
        const int rc = call(null_data);
        if (i == 3 && rc == 1) {
            // The digest ignores a key param (it takes none); it still must not read it.
            h.succeeds(rc, what + ", key param with NULL data (ignored)");
            continue;
        }
        h.fails(rc, "", what + ", param " + names[i] + " with NULL data");
    }
}

void check_tree_digest(Harness& h, const Module& module, const Blake2Algorithm& tree) {
    const OSSL_DISPATCH* table = module.implementation(OSSL_OP_DIGEST, tree.digest);
    const std::string dn = tree.digest;
    const size_t full = tree.max_size;
    h.checks().check(table != nullptr, "query_operation(OSSL_OP_DIGEST) has " + dn);
    if (table == nullptr) {
        return;
    }
    const DigestFns d = digest_functions(table);
    const Bytes message = pattern(1300, 5);
    const Bytes expected = oracle(tree, {}, message.data(), message.size(), full);
    Bytes out(128, 0xA5);
    size_t outl = 0;
    void* ctx = d.newctx(module.provctx);
    h.checks().check(ctx != nullptr, dn + " newctx");
    h.fails(d.update(ctx, message.data(), 1), "not initialized", dn + " update before init");
    h.fails(d.final(ctx, out.data(), &outl, full), "not initialized", dn + " final before init");
    void* fresh_copy = d.dupctx(ctx);
    h.fails(d.final(fresh_copy, out.data(), &outl, full), "not initialized",
            dn + " final on a fresh dup");
    d.freectx(fresh_copy);

    for (int round = 0; round < 2; ++round) {  // init twice on one context
        std::fill(out.begin(), out.end(), 0xA5);
        h.succeeds(d.init(ctx, nullptr), dn + " init #" + std::to_string(round + 1));
        h.succeeds(d.update(ctx, nullptr, 0), dn + " zero-length update with NULL data");
        h.succeeds(d.update(ctx, message.data(), message.size()), dn + " update");
        outl = 0;
        h.succeeds(d.final(ctx, nullptr, &outl, 0), dn + " final with NULL out");
        h.checks().check(outl == full, dn + " NULL out reports its size");
        h.fails(d.final(ctx, out.data(), &outl, full - 1), "output buffer too small",
                dn + " final into a byte less");
        h.checks().check(untouched(out, 0), dn + ": nothing written into a byte less");
        h.succeeds(d.final(ctx, out.data(), &outl, full), dn + " final");
        h.checks().check(outl == full && untouched(out, full) && first(out, full) == expected,
                         dn + " digest right, exactly its size written");
    }
    h.fails(d.final(ctx, out.data(), &outl, full), "final already called", dn + " final twice");
    h.fails(d.update(ctx, message.data(), 1), "update after final", dn + " update after final");

    size_t size = full + 1;
    OSSL_PARAM bad[] = {OSSL_PARAM_construct_size_t(OSSL_DIGEST_PARAM_SIZE, &size),
                        OSSL_PARAM_construct_end()};
    h.fails(d.init(ctx, bad), "invalid output size", dn + " init with a size too large");
    h.fails(d.update(ctx, message.data(), 1), "update after final",
            dn + " phase survives a failed init");
    check_null_data_params(h, dn + " set_params",
                           [&](const OSSL_PARAM* p) { return d.set_params(ctx, p); });
    check_null_data_params(h, dn + " init", [&](const OSSL_PARAM* p) { return d.init(ctx, p); });
    d.freectx(ctx);
}

// No MAC without a key or with a bad one, nothing before init, a refused final writes nothing,
// nothing after final.
void check_tree_mac_keys_and_phases(MacUnderTest& t) {
    auto& [h, m, tree, ctx, message_bytes, mn, key, message] = t;
    const size_t full = tree.max_size;
    const Bytes long_key = pattern(tree.max_key + 1, 9);
    const Bytes expected = oracle(tree, key, message.data(), message.size(), full);
    Bytes out(128, 0xA5);
    size_t outl = 0;
    h.fails(m.init(ctx, nullptr, 0, nullptr), "no key set", mn + " init, no key ever set");
    h.fails(m.init(ctx, key.data(), 0, nullptr), "invalid key length", mn + " 0-byte key");
    h.fails(m.init(ctx, long_key.data(), long_key.size(), nullptr), "invalid key length",
            mn + " too long key");
    h.fails(m.update(ctx, message.data(), 1), "not initialized", mn + " update before init");
    h.fails(m.final(ctx, out.data(), &outl, full), "not initialized", mn + " final before init");

    h.succeeds(m.init(ctx, key.data(), key.size(), nullptr), mn + " init");
    h.succeeds(m.final(ctx, nullptr, &outl, 0), mn + " final with NULL out");
    h.checks().check(outl == full, mn + " NULL out reports its size");
    h.succeeds(m.update(ctx, message.data(), message.size()), mn + " update");
    h.fails(m.final(ctx, out.data(), &outl, full - 1), "output buffer too small",
            mn + " final into a byte less");
    h.checks().check(untouched(out, 0), mn + ": nothing written into a byte less");
    h.succeeds(m.final(ctx, out.data(), &outl, full), mn + " final into its size");
    h.checks().check(outl == full && untouched(out, full) && first(out, full) == expected,
                     mn + " right, exactly its size written");
    h.fails(m.final(ctx, out.data(), &outl, full), "final already called", mn + " final twice");
    h.fails(m.update(ctx, message.data(), 1), "update after final", mn + " update after final");
}

// Re-init without a key keeps the key; the empty message, and a dup taken right after init.
void check_tree_mac_reinit(MacUnderTest& t) {
    auto& [h, m, tree, ctx, message_bytes, mn, key, message] = t;
    const size_t full = tree.max_size;
    const Bytes expected = oracle(tree, key, message.data(), message.size(), full);
    const Bytes expected_empty = oracle(tree, key, nullptr, 0, full);
    Bytes out(128, 0xA5);
    size_t outl = 0;
    for (int round = 0; round < 2; ++round) {
        h.succeeds(m.init(ctx, nullptr, 0, nullptr), mn + " re-init without key");
        h.succeeds(m.update(ctx, message.data(), message.size()), mn + " update");
        h.succeeds(m.final(ctx, out.data(), &outl, full), mn + " final");
        h.checks().check(first(out, full) == expected,
                         mn + " after re-init #" + std::to_string(round + 1));
    }
    h.succeeds(m.init(ctx, nullptr, 0, nullptr), mn + " init for the empty message");
    void* copy = m.dupctx(ctx);
    h.succeeds(m.final(ctx, out.data(), &outl, full), mn + " final of the empty message");
    h.checks().check(first(out, full) == expected_empty, mn + " empty message");
    h.succeeds(m.final(copy, out.data(), &outl, full), mn + " copy final, empty message");
    h.checks().check(first(out, full) == expected_empty, mn + " copy gives the empty-message MAC");
    m.freectx(copy);
}

// A failing init with a new key and a bad size changes nothing.
void check_tree_mac_failed_init(MacUnderTest& t) {
    auto& [h, m, tree, ctx, message_bytes, mn, key, message] = t;
    const size_t full = tree.max_size;
    const Bytes other_key = pattern(tree.max_key / 2 + 1, 2);
    Bytes out(128, 0xA5);
    size_t outl = 0;
    size_t bad_size = full + 1;
    OSSL_PARAM bad[] = {OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &bad_size),
                        OSSL_PARAM_construct_end()};
    h.fails(m.init(ctx, other_key.data(), other_key.size(), bad), "invalid output size",
            mn + " init with a new key and a size too large");
    h.succeeds(m.init(ctx, nullptr, 0, nullptr), mn + " init after the failed one");
    h.succeeds(m.update(ctx, message.data(), message.size()), mn + " update");
    h.succeeds(m.final(ctx, out.data(), &outl, full), mn + " final");
    h.checks().check(first(out, full) == oracle(tree, key, message.data(), message.size(), full),
                     mn + " keeps the old key after a failed init");
}

void check_tree_mac_malformed_params(MacUnderTest& t, void* fresh) {
    const MacFns& m = t.m;
    check_null_data_params(t.h, t.name + " set_params",
                           [&](const OSSL_PARAM* p) { return m.set_params(fresh, p); });
    check_null_data_params(t.h, t.name + " init",
                           [&](const OSSL_PARAM* p) { return m.init(fresh, nullptr, 0, p); });
}

void check_tree_mac(Harness& h, const Module& module, const Blake2Algorithm& tree) {
    run_mac_steps(h, module, tree, 700,
                  {check_tree_mac_keys_and_phases, check_tree_mac_reinit,
                   check_tree_mac_malformed_params, check_tree_mac_failed_init});
}

// --- The Argon2 KDFs: what EVP never passes (a NULL key, freectx(NULL)) and what it passes on
// unchecked (odd params, a zero length, derive before the salt); small memcost.

// The KDF's functions, each looked up in its dispatch table as it is called.
class KdfFns {
  public:
    explicit KdfFns(const OSSL_DISPATCH* table) : m_table(table) {}

    void* newctx(void* provctx) const {
        return slot<OSSL_FUNC_kdf_newctx_fn>(OSSL_FUNC_KDF_NEWCTX)(provctx);
    }
    void* dupctx(void* ctx) const {
        return slot<OSSL_FUNC_kdf_dupctx_fn>(OSSL_FUNC_KDF_DUPCTX)(ctx);
    }
    void freectx(void* ctx) const { slot<OSSL_FUNC_kdf_freectx_fn>(OSSL_FUNC_KDF_FREECTX)(ctx); }
    void reset(void* ctx) const { slot<OSSL_FUNC_kdf_reset_fn>(OSSL_FUNC_KDF_RESET)(ctx); }
    int derive(void* ctx, unsigned char* key, size_t length, const OSSL_PARAM params[]) const {
        return slot<OSSL_FUNC_kdf_derive_fn>(OSSL_FUNC_KDF_DERIVE)(ctx, key, length, params);
    }
    int set_params(void* ctx, const OSSL_PARAM params[]) const {
        return slot<OSSL_FUNC_kdf_set_ctx_params_fn>(OSSL_FUNC_KDF_SET_CTX_PARAMS)(ctx, params);
    }
    int get_params(void* ctx, OSSL_PARAM params[]) const {
        return slot<OSSL_FUNC_kdf_get_ctx_params_fn>(OSSL_FUNC_KDF_GET_CTX_PARAMS)(ctx, params);
    }

  private:
    template <class Fn>
    Fn* slot(int id) const {
        return find_function<Fn>(m_table, id);
    }
    const OSSL_DISPATCH* m_table;
};

// Every input set, 16 KiB of blocks, two lanes, one pass: what each context derives.
struct KdfInputs {
    KdfInputs() = default;
    KdfInputs(const KdfInputs&) = delete;  // `params` points into this object
    KdfInputs& operator=(const KdfInputs&) = delete;

    Bytes pass = pattern(24, 11);
    Bytes salt = pattern(16, 12);
    Bytes secret = pattern(8, 13);
    Bytes ad = pattern(9, 14);
    uint32_t memcost = 16;
    uint32_t lanes = 2;
    uint32_t iter = 1;
    OSSL_PARAM params[8] = {
        OSSL_PARAM_construct_octet_string("pass", pass.data(), pass.size()),
        OSSL_PARAM_construct_octet_string("salt", salt.data(), salt.size()),
        OSSL_PARAM_construct_octet_string("secret", secret.data(), secret.size()),
        OSSL_PARAM_construct_octet_string("ad", ad.data(), ad.size()),
        OSSL_PARAM_construct_uint32("memcost", &memcost),
        OSSL_PARAM_construct_uint32("lanes", &lanes),
        OSSL_PARAM_construct_uint32("iter", &iter),
        OSSL_PARAM_construct_end(),
    };
};

struct KdfUnderTest {
    Harness& h;
    const KdfFns& k;
    std::string name;
    void* ctx;
    KdfInputs inputs{};
    Bytes expected{};  // the first derive's answer: every later one must repeat it
};

// 32 bytes derived; empty on failure. The buffer past the output must stay untouched.
Bytes kdf_derive(KdfUnderTest& t, void* ctx, const OSSL_PARAM* params = nullptr) {
    Bytes out(48, 0xA5);
    if (t.k.derive(ctx, out.data(), 32, params) != 1) {
        t.h.checks().check(untouched(out, 0), t.name + ": a refused derive writes nothing");
        return {};
    }
    t.h.checks().check(untouched(out, 32), t.name + ": derive writes exactly its length");
    return first(out, 32);
}

// Refused before the salt; a NULL key, lengths 0 and 3 refused; a fresh and a used dup;
// freectx(NULL); derive twice.
void check_kdf_phases(KdfUnderTest& t) {
    auto& [h, k, name, ctx, inputs, expected] = t;
    Bytes out(48, 0xA5);
    size_t size = 0;
    OSSL_PARAM get_size[] = {OSSL_PARAM_construct_size_t(OSSL_KDF_PARAM_SIZE, &size),
                             OSSL_PARAM_construct_end()};
    h.succeeds(k.get_params(ctx, get_size), name + " get size");
    h.checks().check(size == SIZE_MAX, name + ": size is SIZE_MAX");
    void* fresh_copy = k.dupctx(ctx);
    h.checks().check(fresh_copy != nullptr, name + " dupctx of a fresh context");
    h.fails(k.derive(fresh_copy, out.data(), 32, nullptr), "missing Argon2 salt",
            name + " derive on a fresh dup");
    k.freectx(fresh_copy);
    h.fails(k.derive(ctx, out.data(), 32, nullptr), "missing Argon2 salt",
            name + " derive before any param");
    k.freectx(nullptr);
    h.succeeds(1, name + " freectx(NULL) raises nothing");

    h.succeeds(k.set_params(ctx, inputs.params), name + " set every input");
    h.fails(k.derive(ctx, nullptr, 32, nullptr), "output buffer too small",
            name + " derive into NULL");
    for (const size_t length : {size_t{0}, size_t{3}}) {
        h.fails(k.derive(ctx, out.data(), length, nullptr), "invalid Argon2 size",
                name + " derive of " + std::to_string(length) + " bytes");
    }
    h.checks().check(untouched(out, 0), name + ": refused derives wrote nothing");
    expected = kdf_derive(t, ctx);
    h.succeeds(expected.empty() ? 0 : 1, name + " derive");
    h.checks().check(kdf_derive(t, ctx) == expected, name + ": a second derive repeats the first");

    void* used_copy = k.dupctx(ctx);
    h.checks().check(used_copy != nullptr, name + " dupctx of a used context");
    k.freectx(ctx);  // the copy owns copies of its inputs
    ctx = used_copy;
    h.checks().check(kdf_derive(t, ctx) == expected, name + ": the dup of a used context");
}

// reset forgets every input (derive refused for want of a salt) and the numbers; a failing
// set_params or derive changes nothing.
void check_kdf_reset_and_failures(KdfUnderTest& t) {
    auto& [h, k, name, ctx, inputs, expected] = t;
    Bytes out(48, 0xA5);
    k.reset(ctx);
    h.fails(k.derive(ctx, out.data(), 32, nullptr), "missing Argon2 salt",
            name + " derive after reset");
    OSSL_PARAM salt_only[] = {inputs.params[1], OSSL_PARAM_construct_end()};
    h.succeeds(k.set_params(ctx, salt_only), name + " salt after reset");
    const Bytes defaults = kdf_derive(t, ctx);
    h.checks().check(!defaults.empty() && defaults != expected,
                     name + ": after reset the pass, secret, ad and numbers are gone");
    h.succeeds(k.set_params(ctx, inputs.params), name + " every input again");
    h.checks().check(kdf_derive(t, ctx) == expected, name + ": reset, set again, same answer");

    Bytes other_pass = pattern(24, 99);
    Bytes short_salt = pattern(7, 98);
    uint32_t no_lanes = 0;
    OSSL_PARAM bad_salt[] = {
        OSSL_PARAM_construct_octet_string("pass", other_pass.data(), other_pass.size()),
        OSSL_PARAM_construct_octet_string("salt", short_salt.data(), short_salt.size()),
        OSSL_PARAM_construct_end()};
    h.fails(k.set_params(ctx, bad_salt), "salt", name + " set a new pass and a 7-byte salt");
    OSSL_PARAM bad_lanes[] = {
        OSSL_PARAM_construct_octet_string("pass", other_pass.data(), other_pass.size()),
        OSSL_PARAM_construct_uint32("lanes", &no_lanes), OSSL_PARAM_construct_end()};
    h.fails(k.derive(ctx, out.data(), 32, bad_lanes), "lanes", name + " derive with lanes 0");
    h.checks().check(kdf_derive(t, ctx) == expected, name + ": failed calls changed nothing");
}

// NULL data with a size, integers of data_size 0 and 9, a 4 GiB octet string over one page,
// params of the wrong type or out of range: each refused with a reason, nothing read or kept.
void check_kdf_malformed_params(KdfUnderTest& t) {
    auto& [h, k, name, ctx, inputs, expected] = t;
    for (const char* octets : {"pass", "salt", "secret", "ad"}) {
        OSSL_PARAM null_data[] = {
            {octets, OSSL_PARAM_OCTET_STRING, nullptr, 8, OSSL_PARAM_UNMODIFIED},
            OSSL_PARAM_construct_end()};
        h.fails(k.set_params(ctx, null_data), "", name + ": " + octets + " NULL data");
    }
    for (const char* number : {"iter", "memcost", "lanes", "threads", "version", "early_clean"}) {
        OSSL_PARAM null_data[] = {
            {number, OSSL_PARAM_UNSIGNED_INTEGER, nullptr, 4, OSSL_PARAM_UNMODIFIED},
            OSSL_PARAM_construct_end()};
        h.fails(k.set_params(ctx, null_data), "", name + ": " + number + " NULL data");
    }
    Bytes out(48, 0xA5);
    check_odd_size_params(
        h, "memcost", name,
        [&k = k, ctx = ctx](const OSSL_PARAM* params) { return k.set_params(ctx, params); },
        [&k = k, ctx = ctx, &out](const OSSL_PARAM* params) {
            return k.derive(ctx, out.data(), 32, params);
        });
    const BytesAfterGuardPage guarded;
    if constexpr (sizeof(size_t) > 4) {
        OSSL_PARAM huge_pass[] = {{"pass", OSSL_PARAM_OCTET_STRING, guarded.data(), size_t{1} << 32,
                                   OSSL_PARAM_UNMODIFIED},
                                  OSSL_PARAM_construct_end()};
        h.fails(k.set_params(ctx, huge_pass), "too long", name + ": a 4 GiB pass");
    }
    const b2test::BadArgon2Params bad_params;
    for (const auto& row : bad_params.rows()) {
        OSSL_PARAM params[] = {row.param, OSSL_PARAM_construct_end()};
        h.fails(k.set_params(ctx, params), row.reason,
                name + ": " + row.param.key + " of type " + std::to_string(row.param.data_type));
    }
    h.checks().check(kdf_derive(t, ctx) == expected, name + ": refused params changed nothing");
}

void check_kdf(Harness& h, const Module& module, const char* name) {
    const OSSL_DISPATCH* table = module.implementation(OSSL_OP_KDF, name);
    h.checks().check(table != nullptr, std::string("query_operation(OSSL_OP_KDF) has ") + name);
    if (table == nullptr) {
        return;
    }
    const KdfFns k{table};
    KdfUnderTest t{h, k, name, k.newctx(module.provctx)};
    h.checks().check(t.ctx != nullptr, t.name + " newctx");
    // In this order: each step starts with the settings and the answer the one before left.
    check_kdf_phases(t);
    check_kdf_reset_and_failures(t);
    check_kdf_malformed_params(t);
    k.freectx(t.ctx);
}

}  // namespace

int main() {
    const std::string path = std::string(B2_MODULE_DIR) + "/blake2simd.so";
    Module module;
    module.handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (module.handle == nullptr) {
        std::fprintf(stderr, "FATAL: dlopen %s: %s\n", path.c_str(), dlerror());
        return 1;
    }
    auto* init =
        reinterpret_cast<OSSL_provider_init_fn*>(dlsym(module.handle, "OSSL_provider_init"));
    if (init == nullptr || init(reinterpret_cast<const OSSL_CORE_HANDLE*>(&module), kCore,
                                &module.provider, &module.provctx) != 1) {
        std::fprintf(stderr, "FATAL: OSSL_provider_init\n");
        return 1;
    }
    auto* reasons = find_function<OSSL_FUNC_provider_get_reason_strings_fn>(
        module.provider, OSSL_FUNC_PROVIDER_GET_REASON_STRINGS);
    module.reasons = reasons != nullptr ? reasons(module.provctx) : nullptr;

    Checks checks("test_direct_dispatch", std::numeric_limits<int>::max());
    Harness harness(checks, module);
    for (const Blake2Algorithm* algorithm : b2test::kAllAlgorithms) {
        if (algorithm->tree) {
            check_tree_digest(harness, module, *algorithm);
            check_tree_mac(harness, module, *algorithm);
        } else {
            check_digest(harness, module, *algorithm);
            check_mac(harness, module, *algorithm);
        }
    }
    check_failed_gets(harness, module);
    for (const char* kdf : {"ARGON2I", "ARGON2D", "ARGON2ID"}) {
        check_kdf(harness, module, kdf);
    }

    auto* teardown =
        find_function<OSSL_FUNC_provider_teardown_fn>(module.provider, OSSL_FUNC_PROVIDER_TEARDOWN);
    if (teardown != nullptr) {
        teardown(module.provctx);
    }
    dlclose(module.handle);
    // Provider and algorithm contexts all came from the core's allocator and went back to it.
    checks.check(g_memory.allocated > 2 && g_memory.freed == g_memory.allocated,
                 "core allocator: " + std::to_string(g_memory.allocated) + " allocated, " +
                     std::to_string(g_memory.freed) + " freed");
    return checks.finish();
}
