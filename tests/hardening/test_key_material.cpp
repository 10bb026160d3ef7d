// Key material must not outlive its context: with libcrypto's allocator hooked before
// anything else runs, every block freed through OPENSSL_free/OPENSSL_clear_free (the module's
// contexts included) is scanned for any 8-byte window of the key and of the keyed chaining
// value, across free after final, free mid-stream, re-key then free, dup then free both; for
// BLAKE2BMAC, BLAKE2BPMAC, BLAKE2SMAC and BLAKE2SPMAC.
// SPDX-License-Identifier: Apache-2.0
#include <openssl/crypto.h>
#include <openssl/evp.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "b2test.hpp"
#include "rfc7693.hpp"

namespace {

// --- Allocation tracking (fixed tables: the hooks must not allocate through OpenSSL).

struct Block {
    void* pointer;
    size_t size;
};
constexpr size_t kSlots = size_t{1} << 16;
Block g_live[kSlots];

constexpr size_t kMaxNeedles = 16;
constexpr size_t kNeedleBytes = 64;  // the longest: BLAKE2b's key and chaining value
constexpr size_t kWindow = 8;
uint8_t g_needles[kMaxNeedles][kNeedleBytes];
size_t g_needle_lengths[kMaxNeedles];
size_t g_needle_count = 0;

struct AllocationScan {
    long frees_scanned = 0;
    long leaks = 0;
    long context_sized_frees = 0;
    size_t context_size = 0;     // the module's MAC context size, once known
    bool recording_new = false;  // inside EVP_MAC_CTX_new: remember the largest block
    size_t largest_new = 0;
};
AllocationScan g_scan;

size_t slot_of(const void* pointer) {
    return (reinterpret_cast<uintptr_t>(pointer) >> 4) * 0x9E3779B97F4A7C15ULL >> 48;
}

void remember(void* pointer, size_t size) {
    if (pointer == nullptr) {
        return;
    }
    for (size_t i = slot_of(pointer), n = 0; n < kSlots; i = (i + 1) % kSlots, ++n) {
        if (g_live[i].pointer == nullptr) {
            g_live[i] = {pointer, size};
            return;
        }
    }
    std::fprintf(stderr, "FATAL: allocation table full\n");
    std::abort();
}

size_t forget(void* pointer) {
    for (size_t i = slot_of(pointer), n = 0; n < kSlots; i = (i + 1) % kSlots, ++n) {
        if (g_live[i].pointer == pointer) {
            const size_t size = g_live[i].size;
            // Backward-shift deletion keeps the probe chains intact.
            size_t hole = i;
            for (size_t j = (i + 1) % kSlots; g_live[j].pointer != nullptr; j = (j + 1) % kSlots) {
                const size_t home = slot_of(g_live[j].pointer);
                const bool movable =
                    (j > hole) ? (home <= hole || home > j) : (home <= hole && home > j);
                if (movable) {
                    g_live[hole] = g_live[j];
                    hole = j;
                }
            }
            g_live[hole] = {nullptr, 0};
            return size;
        }
    }
    return 0;
}

bool holds_secret(const uint8_t* bytes, size_t size) {
    for (size_t n = 0; n < g_needle_count; ++n) {
        for (size_t w = 0; w + kWindow <= g_needle_lengths[n]; ++w) {
            const uint8_t* window = g_needles[n] + w;
            for (size_t at = 0; at + kWindow <= size; ++at) {
                if (bytes[at] == window[0] && std::memcmp(bytes + at, window, kWindow) == 0) {
                    return true;
                }
            }
        }
    }
    return false;
}

void* hooked_malloc(size_t size, const char*, int) {
    void* pointer = std::malloc(size);
    remember(pointer, size);
    if (g_scan.recording_new && size > g_scan.largest_new) {
        g_scan.largest_new = size;
    }
    return pointer;
}

void scan_before_release(void* pointer) {
    const size_t size = forget(pointer);
    ++g_scan.frees_scanned;
    if (g_scan.context_size != 0 && size == g_scan.context_size) {
        ++g_scan.context_sized_frees;
    }
    if (holds_secret(static_cast<const uint8_t*>(pointer), size)) {
        ++g_scan.leaks;
        std::fprintf(stderr, "LEAK: a freed block of %zu bytes holds key material\n", size);
    }
}

void* hooked_realloc(void* pointer, size_t size, const char*, int) {
    if (pointer != nullptr) {
        scan_before_release(pointer);
    }
    void* moved = std::realloc(pointer, size);
    remember(moved, size);
    return moved;
}

void hooked_free(void* pointer, const char*, int) {
    if (pointer != nullptr) {
        scan_before_release(pointer);
    }
    std::free(pointer);
}

// True if some live block of the context size holds `needle` (the positive control: the
// scan would see the secret if the module left it behind).
bool live_context_holds(const std::vector<uint8_t>& needle) {
    for (const Block& block : g_live) {
        if (block.pointer != nullptr && block.size == g_scan.context_size) {
            const auto* bytes = static_cast<const uint8_t*>(block.pointer);
            for (size_t at = 0; at + needle.size() <= block.size; ++at) {
                if (std::memcmp(bytes + at, needle.data(), needle.size()) == 0) {
                    return true;
                }
            }
        }
    }
    return false;
}

// --- The secrets.

using Bytes = std::vector<uint8_t>;

Bytes distinctive_key(uint8_t seed, size_t length) {
    Bytes key(length);
    uint32_t x = 0x9E3779B9u * (seed + 1u);
    for (uint8_t& byte : key) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        byte = static_cast<uint8_t>(x >> 24);
    }
    return key;
}

// One MAC under test: its name, its key length, and whether it is BLAKE2s-based or a tree.
struct Variant {
    const char* name;
    size_t key_bytes;  // the longest key, which is also the chaining value's size
    bool blake2s;
    bool tree;
};
constexpr Variant kVariants[] = {
    {"BLAKE2BMAC", 64, false, false},
    {"BLAKE2BPMAC", 64, false, true},
    {"BLAKE2SMAC", 32, true, false},
    {"BLAKE2SPMAC", 32, true, true},
};

// As the module holds it: eight words in this CPU's byte order (big-endian on s390x).
template <class State>
Bytes words_of(const State& state) {
    Bytes h(sizeof state.h);
    std::memcpy(h.data(), state.h, sizeof state.h);
    return h;
}

// The MAC's parameters, or (tree) those of the tree's first leaf: `fanout` leaves, depth 2,
// node 0, inner length the chaining value's size.
template <class Options>
Options keyed_options(const Variant& variant, const Bytes& key, uint8_t fanout) {
    Options o;
    o.key = key.data();
    o.key_len = key.size();
    if (variant.tree) {
        o.fanout = fanout;
        o.depth = 2;
        o.inner_length = static_cast<uint8_t>(variant.key_bytes);
    }
    return o;
}

// The MAC's keyed state, or that of the tree's first leaf (BLAKE2bp: 4 leaves, BLAKE2sp: 8).
Bytes keyed_chaining_value(const Variant& variant, const Bytes& key) {
    if (variant.blake2s) {
        return words_of(rfc7693::blake2s::keyed_state(
            keyed_options<rfc7693::blake2s::Options>(variant, key, 8)));
    }
    return words_of(rfc7693::keyed_state(keyed_options<rfc7693::Options>(variant, key, 4)));
}

void add_needle(const Bytes& bytes) {
    B2_REQUIRE(
        g_needle_count < kMaxNeedles && bytes.size() <= kNeedleBytes && bytes.size() >= kWindow,
        "needle table");
    std::memcpy(g_needles[g_needle_count], bytes.data(), bytes.size());
    g_needle_lengths[g_needle_count++] = bytes.size();
}

// --- Scenarios.

EVP_MAC_CTX* new_ctx(EVP_MAC* mac) {
    g_scan.recording_new = true;
    g_scan.largest_new = 0;
    EVP_MAC_CTX* ctx = EVP_MAC_CTX_new(mac);
    g_scan.recording_new = false;
    return ctx;
}

// Two keys and the keyed states they give: what no freed block may hold.
struct Secrets {
    Bytes key_a;
    Bytes key_b;
    Bytes state_a;
    Bytes state_b;
};

Secrets make_secrets(const Variant& variant, uint8_t seed) {
    Secrets s{distinctive_key(seed + 1, variant.key_bytes),
              distinctive_key(seed + 2, variant.key_bytes),
              {},
              {}};
    s.state_a = keyed_chaining_value(variant, s.key_a);
    s.state_b = keyed_chaining_value(variant, s.key_b);
    return s;
}

// Learns the module's context size from a context that never sees a secret.
void learn_context_size(b2test::Report& report, EVP_MAC* mac, const Variant& variant) {
    EVP_MAC_CTX* probe = new_ctx(mac);
    g_scan.context_size = g_scan.largest_new;
    EVP_MAC_CTX_free(probe);
    B2_CHECK(report, g_scan.context_size >= 3 * variant.key_bytes,
             "the module's MAC context (" + std::to_string(g_scan.context_size) +
                 " bytes) is allocated through OpenSSL and big enough for key and state");
}

// The ways a keyed context ends: freed after final, mid-stream, after a re-key, as a dup (and
// its original), holding a key set as a parameter and never used.
void free_after_final(b2test::Report& report, EVP_MAC* mac, const Variant& variant,
                      const Secrets& s, const Bytes& message) {
    unsigned char out[64];
    size_t length = 0;
    EVP_MAC_CTX* ctx = new_ctx(mac);
    EVP_MAC_init(ctx, s.key_a.data(), s.key_a.size(), nullptr);
    // Right after init: a tree's leaves move on with the message (BLAKE2b caches its state).
    B2_CHECK(
        report, live_context_holds(s.state_a),
        std::string(variant.name) + ": positive control: keyed chaining value in the live context");
    EVP_MAC_update(ctx, message.data(), message.size());
    B2_CHECK(report, live_context_holds(s.key_a),
             std::string(variant.name) + ": positive control: key in the live context");
    B2_CHECK(report, EVP_MAC_final(ctx, out, &length, sizeof out) == 1, "final");
    EVP_MAC_CTX_free(ctx);
}

void free_mid_stream(EVP_MAC* mac, const Secrets& s, const Bytes& message) {
    EVP_MAC_CTX* ctx = new_ctx(mac);
    EVP_MAC_init(ctx, s.key_a.data(), s.key_a.size(), nullptr);
    EVP_MAC_update(ctx, message.data(), 300);
    EVP_MAC_CTX_free(ctx);
}

void free_after_rekey(b2test::Report& report, EVP_MAC* mac, const Variant& variant,
                      const Secrets& s, const Bytes& message) {
    EVP_MAC_CTX* ctx = new_ctx(mac);
    EVP_MAC_init(ctx, s.key_a.data(), s.key_a.size(), nullptr);
    EVP_MAC_update(ctx, message.data(), 10);
    EVP_MAC_init(ctx, s.key_b.data(), s.key_b.size(), nullptr);
    B2_CHECK(report, live_context_holds(s.state_b),
             std::string(variant.name) + ": re-keyed context holds the new state");
    EVP_MAC_update(ctx, message.data(), 500);
    B2_CHECK(report, !live_context_holds(s.state_a),
             std::string(variant.name) + ": re-keying wiped the old state");
    EVP_MAC_CTX_free(ctx);
}

// Mid-stream and right after init.
void free_dups(b2test::Report& report, EVP_MAC* mac, const Secrets& s, const Bytes& message) {
    unsigned char out[64];
    size_t length = 0;
    for (const size_t prefix : {size_t{0}, size_t{700}}) {
        EVP_MAC_CTX* ctx = new_ctx(mac);
        EVP_MAC_init(ctx, s.key_b.data(), s.key_b.size(), nullptr);
        EVP_MAC_update(ctx, message.data(), prefix);
        EVP_MAC_CTX* copy = EVP_MAC_CTX_dup(ctx);
        B2_CHECK(report, copy != nullptr, "dup");
        EVP_MAC_CTX_free(ctx);
        EVP_MAC_final(copy, out, &length, sizeof out);
        EVP_MAC_CTX_free(copy);
    }
}

void free_unused_key_param(EVP_MAC* mac, const Secrets& s) {
    EVP_MAC_CTX* ctx = new_ctx(mac);
    OSSL_PARAM params[] = {OSSL_PARAM_construct_octet_string(
                               "key", const_cast<uint8_t*>(s.key_a.data()), s.key_a.size()),
                           OSSL_PARAM_construct_end()};
    EVP_MAC_CTX_set_params(ctx, params);
    EVP_MAC_CTX_free(ctx);
}

void run(b2test::Report& report, EVP_MAC* mac, const Variant& variant, uint8_t seed) {
    Secrets s = make_secrets(variant, seed);
    const Bytes message(1000, 0x42);
    learn_context_size(report, mac, variant);
    for (const Bytes* secret : {&s.key_a, &s.key_b, &s.state_a, &s.state_b}) {
        add_needle(*secret);
    }
    const long frees_before = g_scan.context_sized_frees;
    free_after_final(report, mac, variant, s, message);
    free_mid_stream(mac, s, message);
    free_after_rekey(report, mac, variant, s, message);
    free_dups(report, mac, s, message);
    free_unused_key_param(mac, s);

    const long module_frees = g_scan.context_sized_frees - frees_before;
    B2_CHECK(report, module_frees >= 7,
             "the module's context blocks were seen freed: " + std::to_string(module_frees));
    B2_CHECK(report, g_scan.leaks == 0,
             std::to_string(g_scan.leaks) + " freed blocks held key material");
    std::printf(
        "key material, %s: %ld frees scanned, %ld module MAC contexts (%zu bytes) freed, "
        "%ld leaks\n",
        variant.name, g_scan.frees_scanned, module_frees, g_scan.context_size, g_scan.leaks);
    // The test's own copies go back to the C library unhooked, and libcrypto may get the same
    // chunks next and free them with stale bytes in their unused part (seen: a 32-byte stack
    // array in a later EVP_MAC_fetch): wiped, they cannot be taken for the module's leak.
    for (Bytes* secret : {&s.key_a, &s.key_b, &s.state_a, &s.state_b}) {
        OPENSSL_cleanse(secret->data(), secret->size());
    }
}

}  // namespace

int main() {
    if (CRYPTO_set_mem_functions(hooked_malloc, hooked_realloc, hooked_free) != 1) {
        std::fprintf(stderr, "FATAL: CRYPTO_set_mem_functions refused (allocations happened)\n");
        return 1;
    }
    b2test::Report report("test_key_material");
    {
        b2test::ProviderSession session(b2test::ProviderSession::Default::exclude);
        // The tree modes keep the key itself (TreeEngine's copy, for leaves that get no
        // message byte) besides their keyed leaf states.
        uint8_t seed = 0;
        for (const Variant& variant : kVariants) {
            b2test::MacPtr mac = session.fetch_mac(variant.name, b2test::kOurPropq);
            B2_REQUIRE(mac != nullptr, std::string("fetch ") + variant.name + " from blake2simd");
            run(report, mac.get(), variant, seed);
            seed = static_cast<uint8_t>(seed + 10);
        }
    }
    B2_CHECK(report, g_scan.leaks == 0, "no key material in blocks freed at teardown");
    return report.finish();
}
