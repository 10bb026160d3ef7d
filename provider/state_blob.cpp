// The serialized state's fixed fields and the parts every digest's body is made of.
// SPDX-License-Identifier: Apache-2.0
#include "state_blob.hpp"
#include "baseline_guard.hpp"

namespace blake2simd::state_blob {

void write_header(Writer& out, uint16_t algorithm, uint32_t length) noexcept {
    out.bytes(kMagic, sizeof kMagic);
    out.word(kFormatVersion);
    out.word(algorithm);
    out.word(length);
}

// Checked in the order the fields come, each refused with its own reason; the length last, so a
// blob of another algorithm or version is named as such whatever its length.
bool check_header(const uint8_t* in, size_t inl, uint16_t algorithm, size_t expected,
                  Reason& failure) noexcept {
    if (inl < kHeaderBytes) {
        failure = Reason::state_truncated;
        return false;
    }
    Reader reader(in + sizeof kMagic);
    const auto version = reader.word<uint16_t>();
    const auto blob_algorithm = reader.word<uint16_t>();
    const auto length = reader.word<uint32_t>();
    if (std::memcmp(in, kMagic, sizeof kMagic) != 0) {
        failure = Reason::state_not_recognised;
    } else if (version != kFormatVersion) {
        failure = Reason::state_other_version;
    } else if (blob_algorithm != algorithm) {
        failure = Reason::state_other_algorithm;
    } else if (length != expected || inl != expected) {
        failure = Reason::state_truncated;
    } else {
        return true;
    }
    return false;
}

// h = IV xor the parameter block, word by word (blake2_engine.hpp): the block's words are the
// initial chaining value xor the IV, and its bytes their little-endian encoding.
template <class Family>
void write_parameter_block(Writer& out, const ParameterBlock<Family>& parameter_block) noexcept {
    typename Family::Word h[8];
    initial_chaining_value(parameter_block, h);
    for (size_t i = 0; i < 8; ++i) {
        out.word(h[i] ^ Family::kIV[i]);
    }
}

namespace {

template <class Word>
Word load(const uint8_t* bytes, size_t count) noexcept {
    Word value = 0;
    for (size_t i = 0; i < count; ++i) {
        value |= static_cast<Word>(Word{bytes[i]} << (8 * i));
    }
    return value;
}

// Where RFC 7693 section 2.8 puts the fields after the first eight bytes (BLAKE2b has 14
// reserved bytes after inner_length; BLAKE2s's node offset is 6 bytes).
struct Layout {
    size_t node_offset_bytes, node_depth_at, salt_at, personal_at;
};
constexpr Layout kBlake2bLayout{8, 16, 32, 48};
constexpr Layout kBlake2sLayout{6, 14, 16, 24};

template <class Family>
void decode(const uint8_t* b, ParameterBlock<Family>& p) noexcept {
    constexpr Layout layout = Family::kMember == Member::blake2b ? kBlake2bLayout : kBlake2sLayout;
    p.leaf_length = load<uint32_t>(b + 4, 4);
    p.node_offset = load<uint64_t>(b + 8, layout.node_offset_bytes);
    p.node_depth = b[layout.node_depth_at];
    p.inner_length = b[layout.node_depth_at + 1];
    std::memcpy(p.salt, b + layout.salt_at, sizeof p.salt);
    std::memcpy(p.personal, b + layout.personal_at, sizeof p.personal);
}

}  // namespace

// Decoded, then encoded again: bytes the block has no field for (reserved) must be zero.
template <class Family>
bool read_parameter_block(Reader& in, ParameterBlock<Family>& parameter_block) noexcept {
    uint8_t bytes[kParameterBlockBytes<Family>];
    in.bytes(bytes, sizeof bytes);
    parameter_block.digest_length = bytes[0];
    parameter_block.key_length = bytes[1];
    parameter_block.fanout = bytes[2];
    parameter_block.depth = bytes[3];
    decode(bytes, parameter_block);
    uint8_t again[sizeof bytes];
    Writer writer(again);
    write_parameter_block(writer, parameter_block);
    return std::memcmp(bytes, again, sizeof bytes) == 0;
}

template <class Family>
bool same_parameter_block(const ParameterBlock<Family>& a,
                          const ParameterBlock<Family>& b) noexcept {
    uint8_t bytes_a[kParameterBlockBytes<Family>];
    uint8_t bytes_b[kParameterBlockBytes<Family>];
    Writer writer_a(bytes_a);
    Writer writer_b(bytes_b);
    write_parameter_block(writer_a, a);
    write_parameter_block(writer_b, b);
    return std::memcmp(bytes_a, bytes_b, sizeof bytes_a) == 0;
}

template <class Family>
void write_engine(Writer& out, const typename Blake2Engine<Family>::Snapshot& snapshot) noexcept {
    for (auto word : snapshot.h) {
        out.word(word);
    }
    out.word(snapshot.t[0]);
    out.word(snapshot.t[1]);
    out.bytes(snapshot.buffer, sizeof snapshot.buffer);
    out.word(snapshot.buffered);
    out.word(snapshot.digest_length);
}

template <class Family>
bool read_engine(Reader& in, typename Blake2Engine<Family>::Snapshot& snapshot) noexcept {
    using Word = typename Family::Word;
    for (Word& word : snapshot.h) {
        word = in.word<Word>();
    }
    snapshot.t[0] = in.word<Word>();
    snapshot.t[1] = in.word<Word>();
    in.bytes(snapshot.buffer, sizeof snapshot.buffer);
    snapshot.buffered = in.word<uint32_t>();
    snapshot.digest_length = in.word<uint8_t>();
    snapshot.last_node = false;  // not in the engine's bytes: the context's flags byte holds it
    return Blake2Engine<Family>::is_consistent(snapshot);
}

template <class Family>
void write_tree_engine(Writer& out,
                       const typename TreeEngine<Family>::Snapshot& snapshot) noexcept {
    for (size_t leaf = 0; leaf < Family::kLanes; ++leaf) {
        for (auto word : snapshot.h[leaf]) {
            out.word(word);
        }
        out.word(snapshot.t[leaf][0]);
        out.word(snapshot.t[leaf][1]);
    }
    out.bytes(snapshot.pending, sizeof snapshot.pending);
    out.word(snapshot.pending_length);
    out.word(snapshot.digest_length);
}

template <class Family>
bool read_tree_engine(Reader& in, typename TreeEngine<Family>::Snapshot& snapshot) noexcept {
    using Word = typename Family::Word;
    for (size_t leaf = 0; leaf < Family::kLanes; ++leaf) {
        for (Word& word : snapshot.h[leaf]) {
            word = in.word<Word>();
        }
        snapshot.t[leaf][0] = in.word<Word>();
        snapshot.t[leaf][1] = in.word<Word>();
    }
    in.bytes(snapshot.pending, sizeof snapshot.pending);
    snapshot.pending_length = in.word<uint32_t>();
    snapshot.digest_length = in.word<uint8_t>();
    return TreeEngine<Family>::is_consistent(snapshot);
}

#define B2_STATE_BLOB_FAMILY(Family)                                                             \
    template void write_parameter_block(Writer&, const ParameterBlock<Family>&) noexcept;        \
    template bool read_parameter_block(Reader&, ParameterBlock<Family>&) noexcept;               \
    template bool same_parameter_block(const ParameterBlock<Family>&,                            \
                                       const ParameterBlock<Family>&) noexcept;                  \
    template void write_engine<Family>(Writer&, const Blake2Engine<Family>::Snapshot&) noexcept; \
    template bool read_engine<Family>(Reader&, Blake2Engine<Family>::Snapshot&) noexcept;        \
    template void write_tree_engine<Family>(Writer&,                                             \
                                            const TreeEngine<Family>::Snapshot&) noexcept;       \
    template bool read_tree_engine<Family>(Reader&, TreeEngine<Family>::Snapshot&) noexcept;
B2_STATE_BLOB_FAMILY(Blake2bFamily)
B2_STATE_BLOB_FAMILY(Blake2sFamily)
#undef B2_STATE_BLOB_FAMILY

}  // namespace blake2simd::state_blob
