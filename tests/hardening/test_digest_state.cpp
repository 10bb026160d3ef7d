// Copy into an existing context (copyctx, OpenSSL 3.5) and the serialized state (serialize and
// deserialize, OpenSSL 4.0) of every digest, on every kernel this CPU runs, through the module's
// dispatch functions (ids 15, 16, 17) with a minimal core of our own: any core, 3.0 included.
//   copyctx: at every phase (fresh, absorbing at generated split points, BLAKE2X squeezing) into
//     contexts behind and ahead of the source; byte for byte what dupctx gives (the core's
//     allocator tells the context's size), no allocation, the source unchanged, both go on to the
//     one-shot digest.
//   serialize: the size query, a short buffer refused, no state outside absorbing; a state saved
//     on one kernel resumes on the next (fresh context, and one holding another state) and ends
//     in the one-shot digest. Refused, with a reason and the context byte for byte unchanged:
//     every single-bit flip of the fixed fields, truncated and overlong blobs, another
//     algorithm's state, counters and lengths out of range.
// Usage: test_digest_state [--save DIR | --resume DIR]: the states of every digest at fixed
// points of a fixed message written to DIR, or those of DIR resumed on every kernel and checked
// against this process's one-shot output. tools/ci-cross.sh saves on s390x and resumes on
// x86-64, and the other way (the byte order is the format's, not the host's).
// SPDX-License-Identifier: Apache-2.0
#include <openssl/core.h>
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/params.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "b2test/check.hpp"
#include "b2test/digest_slots.hpp"
#include "cpu_features.hpp"
#include "direct_module.hpp"
#include "forms.hpp"
#include "registry.hpp"

namespace {

using Bytes = std::vector<uint8_t>;

// --- The core: libc's memory, every allocation's size recorded; raised errors counted.
std::map<void*, size_t> g_sizes;
long g_allocations = 0;
long g_errors = 0;

void* core_malloc(size_t size, const char*, int) noexcept {
    ++g_allocations;
    void* memory = std::malloc(size);
    g_sizes[memory] = size;
    return memory;
}
void* core_zalloc(size_t size, const char* file, int line) noexcept {
    void* memory = core_malloc(size, file, line);
    std::memset(memory, 0, size);
    return memory;
}
void core_free(void* memory, const char*, int) noexcept {
    g_sizes.erase(memory);
    std::free(memory);
}
void core_new_error(const OSSL_CORE_HANDLE*) noexcept {
    ++g_errors;
}
void core_set_error_debug(const OSSL_CORE_HANDLE*, const char*, int, const char*) noexcept {}
void core_vset_error(const OSSL_CORE_HANDLE*, uint32_t, const char*, va_list) noexcept {}

const OSSL_DISPATCH kCore[] = {
    {OSSL_FUNC_CRYPTO_MALLOC, reinterpret_cast<void (*)(void)>(&core_malloc)},
    {OSSL_FUNC_CRYPTO_ZALLOC, reinterpret_cast<void (*)(void)>(&core_zalloc)},
    {OSSL_FUNC_CRYPTO_FREE, reinterpret_cast<void (*)(void)>(&core_free)},
    {OSSL_FUNC_CORE_GET_PARAMS, reinterpret_cast<void (*)(void)>(&direct_module::core_get_params)},
    {OSSL_FUNC_CORE_NEW_ERROR, reinterpret_cast<void (*)(void)>(&core_new_error)},
    {OSSL_FUNC_CORE_SET_ERROR_DEBUG, reinterpret_cast<void (*)(void)>(&core_set_error_debug)},
    {OSSL_FUNC_CORE_VSET_ERROR, reinterpret_cast<void (*)(void)>(&core_vset_error)},
    {0, nullptr},
};

struct Algorithm {
    const char* name;
    size_t block;
    size_t word;  // the family's word: 8 (BLAKE2b) or 4 (BLAKE2s)
    enum { plain, named, tree, xof } kind;
};

const Algorithm kAlgorithms[] = {
    {"BLAKE2B-512", 128, 8, Algorithm::plain}, {"BLAKE2S-256", 64, 4, Algorithm::plain},
    {"BLAKE2B-160", 128, 8, Algorithm::named}, {"BLAKE2B-256", 128, 8, Algorithm::named},
    {"BLAKE2B-384", 128, 8, Algorithm::named}, {"BLAKE2S-128", 64, 4, Algorithm::named},
    {"BLAKE2S-160", 64, 4, Algorithm::named},  {"BLAKE2S-224", 64, 4, Algorithm::named},
    {"BLAKE2BP-512", 128, 8, Algorithm::tree}, {"BLAKE2SP-256", 64, 4, Algorithm::tree},
    {"BLAKE2XB", 128, 8, Algorithm::xof},      {"BLAKE2XS", 64, 4, Algorithm::xof},
};

constexpr size_t kXofOutput = 300;

// An implementation's slots and the provider instance its contexts belong to.
struct Fns : b2test::DigestSlots {
    void* provctx;
};

Fns functions(const direct_module::Instance& instance, const char* name) {
    return {b2test::digest_slots(instance.implementation(OSSL_OP_DIGEST, name)),
            instance.provctx()};
}

// Two settings per algorithm: the defaults, and another size, salt, custom and every tree field
// where the algorithm takes them (the tree modes: a size alone; BLAKE2X's unknown-length mode).
bool init(const Fns& f, void* ctx, const Algorithm& algorithm, int variant) {
    static const unsigned char kSalt[] = "salt of 8", kCustom[] = "custom 8";
    size_t size = algorithm.block == 128 ? 40 : 20;
    size_t xoflen = kXofOutput;
    // fanout, depth, leaf-size, node-offset, node-depth, inner-size, last-node: none a default.
    static const char* const kTreeFields[] = {
        "fanout", "depth", "leaf-size", "node-offset", "node-depth", "inner-size", "last-node"};
    static uint64_t tree_values[] = {0, 3, 4096, 0x0000badc0ffee5, 1, 16, 1};
    std::vector<OSSL_PARAM> params;
    if (algorithm.kind == Algorithm::xof && variant == 0) {
        params.push_back(OSSL_PARAM_construct_size_t(OSSL_DIGEST_PARAM_XOFLEN, &xoflen));
    }
    if (variant == 1 && algorithm.kind == Algorithm::tree) {
        params.push_back(OSSL_PARAM_construct_size_t(OSSL_DIGEST_PARAM_SIZE, &size));
    }
    if (variant == 1 && algorithm.kind != Algorithm::tree) {
        if (algorithm.kind == Algorithm::plain) {
            params.push_back(OSSL_PARAM_construct_size_t(OSSL_DIGEST_PARAM_SIZE, &size));
        }
        if (algorithm.kind != Algorithm::xof) {
            for (size_t i = 0; i < std::size(kTreeFields); ++i) {
                params.push_back(OSSL_PARAM_construct_uint64(kTreeFields[i], &tree_values[i]));
            }
        }
        params.push_back(OSSL_PARAM_construct_octet_string(OSSL_MAC_PARAM_SALT,
                                                           const_cast<unsigned char*>(kSalt), 8));
        params.push_back(OSSL_PARAM_construct_octet_string(OSSL_MAC_PARAM_CUSTOM,
                                                           const_cast<unsigned char*>(kCustom), 8));
    }
    params.push_back(OSSL_PARAM_construct_end());
    return f.init(ctx, params.data()) == 1;
}

// The rest of the output: an XOF squeezes up to kXofOutput bytes in all, the others finish.
Bytes finish(const Fns& f, void* ctx, const Algorithm& algorithm, size_t squeezed) {
    Bytes out(algorithm.kind == Algorithm::xof ? kXofOutput - squeezed : 64);
    size_t outl = 0;
    const int ok = algorithm.kind == Algorithm::xof ? f.squeeze(ctx, out.data(), &outl, out.size())
                                                    : f.final(ctx, out.data(), &outl, out.size());
    out.resize(ok == 1 ? outl : 0);
    return out;
}

Bytes squeeze(const Fns& f, void* ctx, size_t length) {
    Bytes out(length);
    size_t outl = 0;
    return f.squeeze(ctx, out.data(), &outl, length) == 1 ? out : Bytes{};
}

Bytes message_of(size_t length) {
    Bytes message(length);
    for (size_t i = 0; i < length; ++i) {
        message[i] = static_cast<uint8_t>(i * 167 + length);
    }
    return message;
}

// A context's bytes, as the core allocated them.
Bytes bytes_of(void* ctx) {
    const auto* p = static_cast<const uint8_t*>(ctx);
    return Bytes(p, p + g_sizes.at(ctx));
}

// Where a phase of a message is: `split` bytes absorbed, `squeezed` bytes squeezed (XOF only).
struct Phase {
    size_t split;
    size_t squeezed;
};

struct Case {
    const Algorithm& algorithm;
    int variant;
    Bytes message;
    Bytes expected;  // the one-shot output (an XOF's whole kXofOutput bytes)
};

// A context of `f` at `phase` of `c`'s message, and the output it gave so far.
void* prepare(const Fns& f, const Case& c, Phase phase, Bytes& given) {
    void* ctx = f.newctx(f.provctx);
    if (ctx == nullptr || !init(f, ctx, c.algorithm, c.variant) ||
        f.update(ctx, c.message.data(), phase.split) != 1) {
        b2test::fatal(std::string("prepare ") + c.algorithm.name);
    }
    given = phase.squeezed > 0 ? squeeze(f, ctx, phase.squeezed) : Bytes{};
    return ctx;
}

// What `ctx` (at `phase`) gives once it has the rest of the message.
Bytes continue_to_end(const Fns& f, void* ctx, const Case& c, Phase phase, Bytes given) {
    if (phase.squeezed == 0 &&
        f.update(ctx, c.message.data() + phase.split, c.message.size() - phase.split) != 1) {
        return {};
    }
    const Bytes rest = finish(f, ctx, c.algorithm, phase.squeezed);
    given.insert(given.end(), rest.begin(), rest.end());
    return given;
}

// A context in another state than `phase`'s: the other settings, further into another message,
// or finished.
void* other_context(const Fns& f, const Case& c, int which) {
    void* ctx = f.newctx(f.provctx);
    if (which == 0) {
        return ctx;  // fresh: never initialised
    }
    init(f, ctx, c.algorithm, 1 - c.variant);
    const Bytes other = message_of(5 * c.algorithm.block + 77);
    f.update(ctx, other.data(), other.size());
    if (which == 2) {
        finish(f, ctx, c.algorithm, 0);
    }
    return ctx;
}

std::string describe(const Case& c, Phase phase, const std::string& kernel) {
    return std::string(c.algorithm.name) + " variant " + std::to_string(c.variant) + " length " +
           std::to_string(c.message.size()) + " split " + std::to_string(phase.split) +
           " squeezed " + std::to_string(phase.squeezed) + " kernel " + kernel;
}

void check_copyctx(b2test::Report& checks, const Fns& f, const Case& c, Phase phase,
                   const std::string& where) {
    Bytes given;
    void* source = prepare(f, c, phase, given);
    const Bytes source_before = bytes_of(source);
    void* duplicate = f.dupctx(source);
    for (int which = 0; which < 3; ++which) {
        void* target = other_context(f, c, which);
        const long allocations = g_allocations;
        f.copyctx(target, source);
        B2_CHECK(checks, g_allocations == allocations, "copyctx allocates nothing: " + where);
        B2_CHECK(checks, bytes_of(target) == bytes_of(duplicate),
                 "copyctx gives dupctx's bytes: " + where);
        B2_CHECK(checks, bytes_of(source) == source_before, "copyctx leaves the source: " + where);
        B2_CHECK(checks, continue_to_end(f, target, c, phase, given) == c.expected,
                 "the copy goes on to the one-shot output: " + where);
        f.freectx(target);
    }
    B2_CHECK(checks, continue_to_end(f, source, c, phase, given) == c.expected,
             "the source goes on to the one-shot output: " + where);
    f.freectx(source);
    f.freectx(duplicate);
}

// Offsets into a blob: the header is 16 bytes, then (plain and named) the settings' parameter
// block and a flags byte, (xof) two parameter blocks, then the engine: h, t, buffer, buffered;
// (tree) each leaf's h and t, the pending bytes and their length, the digest length.
size_t counter_offset(const Algorithm& a) {
    const size_t parameter_block = 8 * a.word;
    switch (a.kind) {
        case Algorithm::tree:
            return 16 + 8 * a.word;
        case Algorithm::xof:
            return 16 + 2 * parameter_block + 8 * a.word;
        default:  // the settings' flags byte after the parameter block
            return 16 + parameter_block + 1 + 8 * a.word;
    }
}

void set_le32(Bytes& blob, size_t at, uint32_t value) {
    for (size_t i = 0; i < 4; ++i) {
        blob[at + i] = static_cast<uint8_t>(value >> (8 * i));
    }
}

// Each refused with a reason, the target byte for byte as it was.
void check_refusals(b2test::Report& checks, const Fns& f, const Case& c, const Bytes& blob,
                    const Bytes& foreign, const std::string& where) {
    std::vector<std::pair<std::string, Bytes>> bad;
    for (size_t bit = 0; bit < 16 * 8; ++bit) {
        Bytes flipped = blob;
        flipped[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
        bad.emplace_back("header bit " + std::to_string(bit), flipped);
    }
    for (size_t length : {size_t{0}, size_t{15}, size_t{16}, blob.size() - 1}) {
        bad.emplace_back("truncated to " + std::to_string(length),
                         Bytes(blob.begin(), blob.begin() + static_cast<long>(length)));
    }
    Bytes longer = blob;
    longer.push_back(0);
    bad.emplace_back("one byte more", longer);
    bad.emplace_back("another algorithm's state", foreign);
    Bytes counter = blob;
    counter[counter_offset(c.algorithm)] ^= 1;  // not a whole number of blocks
    bad.emplace_back("counter of a partial block", counter);
    if (c.algorithm.kind != Algorithm::tree) {
        Bytes buffered = blob;
        set_le32(buffered, counter_offset(c.algorithm) + 2 * c.algorithm.word + c.algorithm.block,
                 static_cast<uint32_t>(c.algorithm.block + 1));
        bad.emplace_back("more than a block buffered", buffered);
        Bytes parameter = blob;
        parameter[16 + 1] = 1;  // a key length: digests have none
        bad.emplace_back("a key length in the parameter block", parameter);
        if (c.algorithm.kind != Algorithm::xof) {
            Bytes flags = blob;
            flags[16 + 8 * c.algorithm.word] |= 4;  // bits 0 and 1 are the last-node flags
            bad.emplace_back("an unknown flag set", flags);
            Bytes depth = blob;
            depth[16 + 3] = 0;  // the tree depth: 1..255
            bad.emplace_back("a depth of 0", depth);
        }
    } else {
        Bytes pending = blob;
        set_le32(pending, blob.size() - 5, 0xffffffffu);  // before the digest length byte
        bad.emplace_back("pending length out of range", pending);
        for (size_t size : {size_t{0}, c.algorithm.word * 8 + 1}) {
            Bytes length = blob;
            length.back() = static_cast<uint8_t>(size);
            bad.emplace_back("tree digest length " + std::to_string(size), length);
        }
    }
    void* target = other_context(f, c, 1);
    for (const auto& [what, candidate] : bad) {
        const Bytes before = bytes_of(target);
        const long errors = g_errors;
        B2_CHECK(checks, f.deserialize(target, candidate.data(), candidate.size()) == 0,
                 "refused: " + what + ": " + where);
        B2_CHECK(checks, g_errors > errors, "refused with a reason: " + what + ": " + where);
        B2_CHECK(checks, bytes_of(target) == before, "target unchanged: " + what + ": " + where);
    }
    f.freectx(target);
}

Bytes serialize(b2test::Report& checks, const Fns& f, void* ctx, const std::string& where) {
    size_t size = 0;
    B2_CHECK(checks, f.serialize(ctx, nullptr, &size) == 1 && size > 16, "size query: " + where);
    Bytes blob(size);
    size_t short_room = size - 1;
    B2_CHECK(checks, f.serialize(ctx, blob.data(), &short_room) == 0,
             "a short buffer is refused: " + where);
    size_t written = size;
    B2_CHECK(checks, f.serialize(ctx, blob.data(), &written) == 1 && written == size,
             "serialize writes what the size query said: " + where);
    return blob;
}

void check_serialize(b2test::Report& checks, const Fns& save, const Fns& load, const Case& c,
                     Phase phase, const Bytes& foreign, const std::string& where) {
    Bytes given;
    void* source = prepare(save, c, phase, given);
    const Bytes blob = serialize(checks, save, source, where);
    for (int which = 0; which < 3; ++which) {
        void* target = other_context(load, c, which);
        B2_CHECK(checks, load.deserialize(target, blob.data(), blob.size()) == 1,
                 "deserialize: " + where);
        B2_CHECK(checks, continue_to_end(load, target, c, phase, given) == c.expected,
                 "the resumed state goes on to the one-shot output: " + where);
        load.freectx(target);
    }
    B2_CHECK(checks, continue_to_end(save, source, c, phase, given) == c.expected,
             "the saved context goes on to the one-shot output: " + where);
    if (c.algorithm.kind != Algorithm::xof) {  // a squeezing XOF is still going
        size_t size = blob.size();
        Bytes after(size);
        B2_CHECK(checks, save.serialize(source, after.data(), &size) == 0,
                 "no state of a finished context: " + where);
    }
    save.freectx(source);
    if (phase.split == c.message.size() / 2 && phase.squeezed == 0) {
        check_refusals(checks, load, c, blob, foreign, where);
    }
}

// The blob of another algorithm of the same length class (any other will do).
Bytes foreign_blob(const Fns& f, const Algorithm& algorithm) {
    void* ctx = f.newctx(f.provctx);
    init(f, ctx, algorithm, 0);
    const Bytes blob = b2test::serialized(f, ctx);
    f.freectx(ctx);
    return blob;
}

std::vector<Phase> phases_of(const Case& c, unsigned& seed) {
    const size_t length = c.message.size();
    std::vector<Phase> phases;
    for (size_t split : {size_t{0}, size_t{1}, length / 2, length - (length > 0 ? 1 : 0), length}) {
        phases.push_back({split < length ? split : length, 0});
    }
    seed = seed * 1103515245u + 12345u;
    phases.push_back({length > 0 ? (seed >> 8) % length : 0, 0});
    if (c.algorithm.kind == Algorithm::xof) {
        for (size_t squeezed : {size_t{1}, size_t{64}, size_t{65}, kXofOutput - 1, kXofOutput}) {
            phases.push_back({length, squeezed});
        }
    }
    return phases;
}

std::vector<std::string> runnable_kernels() {
    std::vector<std::string> names;
    const auto& features = blake2simd::cpu::detected_features();
    for (const auto& row : blake2simd::registry::kKernelRows) {
        if (row.built && blake2simd::dispatch::cpu_can_run(row.id, features)) {
            names.emplace_back(row.name);
        }
    }
    return names;
}

// The exchanged states: each digest, both settings, saved a third into a 1000-byte message (and
// BLAKE2X also after squeezing 65 bytes of it), one file each, named after the three.
struct Exchanged {
    const Algorithm& algorithm;
    int variant;
    Phase phase;
    std::string file;
};

std::vector<Exchanged> exchanged_states(const std::string& directory) {
    std::vector<Exchanged> states;
    for (const Algorithm& algorithm : kAlgorithms) {
        for (int variant = 0; variant < 2; ++variant) {
            for (const Phase phase : {Phase{333, 0}, Phase{1000, 65}}) {
                if (phase.squeezed == 0 || algorithm.kind == Algorithm::xof) {
                    states.push_back({algorithm, variant, phase,
                                      directory + "/" + algorithm.name + "-" +
                                          std::to_string(variant) + "-" +
                                          std::to_string(phase.squeezed) + ".state"});
                }
            }
        }
    }
    return states;
}

int exchange(const std::string& mode, const std::string& directory,
             const std::vector<std::string>& kernels,
             const std::vector<direct_module::Instance>& instances) {
    b2test::Report checks("test_digest_state " + mode);
    for (const Exchanged& state : exchanged_states(directory)) {
        Case c{state.algorithm, state.variant, message_of(1000), {}};
        const Fns reference = functions(instances[0], state.algorithm.name);
        void* one_shot = reference.newctx(reference.provctx);
        init(reference, one_shot, state.algorithm, state.variant);
        c.expected = continue_to_end(reference, one_shot, c, {0, 0}, {});
        reference.freectx(one_shot);
        if (mode == "--save") {
            Bytes given;
            void* ctx = prepare(reference, c, state.phase, given);
            const Bytes blob = b2test::serialized(reference, ctx);
            reference.freectx(ctx);
            std::FILE* file = std::fopen(state.file.c_str(), "wb");
            B2_CHECK(checks,
                     file != nullptr && !blob.empty() &&
                         std::fwrite(blob.data(), 1, blob.size(), file) == blob.size() &&
                         std::fclose(file) == 0,
                     "saved " + state.file);
            continue;
        }
        Bytes blob(4096);
        std::FILE* file = std::fopen(state.file.c_str(), "rb");
        B2_REQUIRE(file != nullptr, "cannot read " + state.file);
        blob.resize(std::fread(blob.data(), 1, blob.size(), file));
        std::fclose(file);
        const Bytes rest(c.expected.begin() + static_cast<long>(state.phase.squeezed),
                         c.expected.end());
        for (size_t k = 0; k < kernels.size(); ++k) {
            const Fns f = functions(instances[k], state.algorithm.name);
            void* ctx = f.newctx(f.provctx);
            B2_CHECK(checks,
                     f.deserialize(ctx, blob.data(), blob.size()) == 1 &&
                         continue_to_end(f, ctx, c, state.phase, {}) == rest,
                     state.file + " resumed on " + kernels[k] + " gives this host's output");
            f.freectx(ctx);
        }
    }
    return checks.finish();
}

}  // namespace

int main(int argc, char** argv) {
    const std::vector<std::string> kernels = runnable_kernels();
    std::vector<direct_module::Instance> instances(kernels.size());
    for (size_t k = 0; k < kernels.size(); ++k) {
        B2_REQUIRE(instances[k].open(kernels[k].c_str(), kCore), kernels[k]);
        B2_REQUIRE(instances[k].param("kernel") == kernels[k], "served by " + kernels[k]);
    }
    if (argc == 3) {
        return exchange(argv[1], argv[2], kernels, instances);
    }
    b2test::Report checks("test_digest_state");
    unsigned seed = 2029;
    for (const Algorithm& algorithm : kAlgorithms) {
        const Fns reference = functions(instances[0], algorithm.name);
        B2_REQUIRE(reference.copyctx != nullptr && reference.serialize != nullptr &&
                       reference.deserialize != nullptr,
                   std::string("copyctx and serialize in the table of ") + algorithm.name);
        const Algorithm& other = &algorithm == &kAlgorithms[0] ? kAlgorithms[2] : kAlgorithms[0];
        const Bytes foreign = foreign_blob(functions(instances[0], other.name), other);
        for (int variant = 0; variant < 2; ++variant) {
            for (size_t length :
                 {size_t{0}, size_t{1}, algorithm.block - 1, algorithm.block, algorithm.block + 1,
                  8 * algorithm.block, 15 * algorithm.block + 3, size_t{3000}}) {
                Case c{algorithm, variant, message_of(length), {}};
                void* one_shot = reference.newctx(reference.provctx);
                init(reference, one_shot, algorithm, variant);
                c.expected = continue_to_end(reference, one_shot, c, {0, 0}, {});
                reference.freectx(one_shot);
                B2_REQUIRE(!c.expected.empty(), std::string("one-shot ") + algorithm.name);
                for (const Phase phase : phases_of(c, seed)) {
                    for (size_t k = 0; k < kernels.size(); ++k) {
                        const Fns save = functions(instances[k], algorithm.name);
                        const Fns load =
                            functions(instances[(k + 1) % kernels.size()], algorithm.name);
                        const std::string where = describe(c, phase, kernels[k]);
                        check_copyctx(checks, save, c, phase, where);
                        check_serialize(checks, save, load, c, phase, foreign, where);
                    }
                }
            }
        }
        // No state before init: nothing to save.
        void* fresh = reference.newctx(reference.provctx);
        Bytes blob(4096);
        size_t size = blob.size();
        B2_CHECK(checks, reference.serialize(fresh, blob.data(), &size) == 0,
                 std::string("no state of an uninitialised context: ") + algorithm.name);
        reference.freectx(fresh);
    }
    for (direct_module::Instance& instance : instances) {
        instance.close();
    }
    return checks.finish();
}
