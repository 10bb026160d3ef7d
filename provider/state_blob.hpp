// A running digest's state as bytes (OSSL_FUNC_DIGEST_SERIALIZE / DESERIALIZE, OpenSSL 4.0's
// EVP_MD_CTX_serialize): the versioned format docs/semantics.md documents, and the serialize and
// deserialize callbacks every digest shares. Byte order fixed (little-endian), so a state saved
// on s390x resumes on x86-64; nothing of the kernel, so a state saved on one resumes on another.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "blake2_engine.hpp"
#include "context.hpp"
#include "core_memory.hpp"
#include "errors.hpp"

namespace blake2simd::state_blob {

// The fixed fields every blob begins with: magic, format version, algorithm, the blob's length.
inline constexpr uint8_t kMagic[8] = {'B', '2', 'S', 'I', 'M', 'D', 'S', 'T'};
inline constexpr uint16_t kFormatVersion = 1;
inline constexpr size_t kHeaderBytes = sizeof kMagic + 2 + 2 + 4;

// An algorithm's number in the header: its kind in the high byte, in the low one the output size
// its context starts with where the name gives one (BLAKE2B-512 0x0140, BLAKE2B-256 0x0120,
// BLAKE2S-256 0x0220), else 0 (BLAKE2BP-512 0x0300, BLAKE2XS 0x0600). docs/semantics.md lists
// them all.
enum class Kind : uint8_t { blake2b = 1, blake2s, blake2bp, blake2sp, blake2xb, blake2xs };

constexpr uint16_t algorithm_id(Kind kind, size_t named_size) noexcept {
    return static_cast<uint16_t>(static_cast<unsigned>(kind) << 8 | named_size);
}

// Writes little-endian fields one after another.
class Writer {
  public:
    explicit Writer(uint8_t* out) noexcept : m_at(out) {}

    void bytes(const uint8_t* data, size_t length) noexcept {
        std::memcpy(m_at, data, length);
        m_at += length;
    }
    template <class Word>
    void word(Word value) noexcept {
        for (size_t i = 0; i < sizeof value; ++i) {
            *m_at++ = static_cast<uint8_t>(value >> (8 * i));
        }
    }

  private:
    uint8_t* m_at;
};

// Reads what Writer wrote. Only over a blob whose length check_header() accepted: no read
// passes its end.
class Reader {
  public:
    explicit Reader(const uint8_t* in) noexcept : m_at(in) {}

    void bytes(uint8_t* data, size_t length) noexcept {
        std::memcpy(data, m_at, length);
        m_at += length;
    }
    template <class Word>
    Word word() noexcept {
        Word value = 0;
        for (size_t i = 0; i < sizeof value; ++i) {
            value |= static_cast<Word>(Word{*m_at++} << (8 * i));
        }
        return value;
    }

  private:
    const uint8_t* m_at;
};

void write_header(Writer& out, uint16_t algorithm, uint32_t length) noexcept;

// Whether `in` begins a blob of this format version for `algorithm`, `expected` bytes long (also
// the length `inl` gives); else false with the reason.
bool check_header(const uint8_t* in, size_t inl, uint16_t algorithm, size_t expected,
                  Reason& failure) noexcept;

// The parameter block as BLAKE2 hashes it (RFC 7693 section 2.8): 64 bytes for BLAKE2b, 32 for
// BLAKE2s. A blob holds the settings this way, so fields the settings gain travel unchanged.
template <class Family>
inline constexpr size_t kParameterBlockBytes = 8 * sizeof(typename Family::Word);

template <class Family>
void write_parameter_block(Writer& out, const ParameterBlock<Family>& parameter_block) noexcept;

// False when the bytes are no parameter block (a reserved byte set).
template <class Family>
bool read_parameter_block(Reader& in, ParameterBlock<Family>& parameter_block) noexcept;

template <class Family>
bool same_parameter_block(const ParameterBlock<Family>& a,
                          const ParameterBlock<Family>& b) noexcept;

template <class Family>
inline constexpr size_t kEngineBytes = 10 * sizeof(typename Family::Word) + Family::kBlockBytes +
                                       4 + 1;

template <class Family>
void write_engine(Writer& out, const typename Blake2Engine<Family>::Snapshot& snapshot) noexcept;

// False when the snapshot is not one an engine can be in (Blake2Engine::is_consistent).
template <class Family>
bool read_engine(Reader& in, typename Blake2Engine<Family>::Snapshot& snapshot) noexcept;

template <class Family>
inline constexpr size_t kTreeEngineBytes = Family::kLanes * 10 * sizeof(typename Family::Word) +
                                           (2 * Family::kLanes - 1) * Family::kBlockBytes + 4 + 1;

template <class Family>
void write_tree_engine(Writer& out, const typename TreeEngine<Family>::Snapshot& snapshot) noexcept;

// False when the snapshot is not one an engine can be in (TreeEngine::is_consistent).
template <class Family>
bool read_tree_engine(Reader& in, typename TreeEngine<Family>::Snapshot& snapshot) noexcept;

// A context whose state serializes: its algorithm's number, its body's length after the header,
// and its body written and read. `load_state` runs on a copy of the context and sets its phase;
// a false return (an invalid field) leaves the copy to be discarded.
template <class Context>
concept SerializableContext = AlgorithmContext<Context> &&
    requires(Context& ctx, const Context& view, Writer& out, Reader& in) {
    { Context::kStateAlgorithm } -> std::convertible_to<uint16_t>;
    { Context::kStateBodyBytes } -> std::convertible_to<size_t>;
    view.save_state(out);
    { ctx.load_state(in) } -> std::same_as<bool>;
};

template <SerializableContext Context>
inline constexpr size_t kStateBytes = kHeaderBytes + Context::kStateBodyBytes;

// `out` NULL: the size query, in any phase (every state of an algorithm has one length, its
// maximum). Otherwise `*outl` is the room at `out` on entry and what was written on return.
template <SerializableContext Context>
int serialize(const Context* ctx, unsigned char* out, size_t* outl) noexcept {
    if (outl == nullptr) {
        B2_RAISE(ctx->provider, Reason::output_buffer_too_small);
        return 0;
    }
    if (out == nullptr) {
        *outl = kStateBytes<Context>;
        return 1;
    }
    if (!require_absorbing(ctx->provider, ctx->phase, Reason::already_finalized)) {
        return 0;
    }
    if (*outl < kStateBytes<Context>) {
        B2_RAISE(ctx->provider, Reason::output_buffer_too_small);
        return 0;
    }
    Writer writer(out);
    write_header(writer, Context::kStateAlgorithm, kStateBytes<Context>);
    ctx->save_state(writer);
    *outl = kStateBytes<Context>;
    return 1;
}

// Validates the whole blob on a copy before the context changes: a refused blob (with its
// reason) leaves the context as it was. The context keeps its own kernel.
template <SerializableContext Context>
int deserialize(Context* ctx, const unsigned char* in, size_t inl) noexcept {
    Reason failure = Reason::state_truncated;
    if (in == nullptr ||
        !check_header(in, inl, Context::kStateAlgorithm, kStateBytes<Context>, failure)) {
        B2_RAISE(ctx->provider, failure);
        return 0;
    }
    Context loaded = *ctx;
    Reader reader(in + kHeaderBytes);
    const bool valid = loaded.load_state(reader);
    if (valid) {
        std::memcpy(static_cast<void*>(ctx), &loaded, sizeof loaded);
    } else {
        B2_RAISE(ctx->provider, Reason::state_field_out_of_range);
    }
    cleanse(&loaded, sizeof loaded);
    return valid ? 1 : 0;
}

}  // namespace blake2simd::state_blob

namespace blake2simd {

// The digest callbacks with serialize and deserialize: every digest's callback type derives
// from this.
template <state_blob::SerializableContext Context>
struct SerializableDigest : DigestCallbacks<Context> {
    static int serialize(void* vctx, unsigned char* out, size_t* outl) noexcept {
        return state_blob::serialize(static_cast<const Context*>(vctx), out, outl);
    }
    static int deserialize(void* vctx, const unsigned char* in, size_t inl) noexcept {
        return state_blob::deserialize(static_cast<Context*>(vctx), in, inl);
    }
};

}  // namespace blake2simd
