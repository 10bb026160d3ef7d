// The compression contracts every kernel implements, one per form (a member of the family, one
// state or its tree mode's lanes at once), each member's traits, and the kernels' declarations.
// SPDX-License-Identifier: Apache-2.0
//
// Restricted header (see blake2b_state.hpp): types, constants and declarations only, no STL, so
// the ISA-flagged kernels can include it. Choosing among the kernels is forms.hpp's business.
#pragma once

#include "blake2b_state.hpp"
#include "blake2s_state.hpp"

namespace blake2simd {

// Compresses `block_count` consecutive blocks starting at `blocks` (any alignment). Before each
// block the counter state->t grows by `counter_increment`; the flags in state->f apply to every
// block. Full blocks pass the block size; the final block passes the number of message bytes it
// carries (0..block size) with state->f[0] already set by the caller. Keeping the block loop
// inside the kernel lets a kernel hold the state in registers across blocks.
// (The function types declare the kernels below; the *Fn types point at one.)
template <class State, class Word>
using SingleCompress = void(State* state, const uint8_t* blocks, size_t block_count,
                            Word counter_increment) noexcept;

// The same for the lanes of a tree mode at once (8-byte alignment is enough for the states).
// Lane i's k-th block starts at blocks[i] + k * block_stride, any alignment; lanes may share
// blocks (stride 0 repeats one block). Per state the semantics are the single-state contract's:
// its counter grows by `counter_increment` before each block and its own flags apply. The tree
// modes pass blocks = {p, p + block, p + 2 * block, ...} and stride lanes * block: block j of
// the message belongs to leaf j % lanes.
template <class State, class Word>
using LanesCompress = void(State* states, const uint8_t* const* blocks, size_t block_count,
                           size_t block_stride, Word counter_increment) noexcept;

using CompressFunction = SingleCompress<Blake2bState, uint64_t>;  // 128-byte blocks, 12 rounds
using Compress4Function = LanesCompress<Blake2bState, uint64_t>;  // BLAKE2bp's four lanes
using Blake2sCompressFunction = SingleCompress<Blake2sState, uint32_t>;  // 64-byte, 10 rounds
using Blake2sCompress8Function = LanesCompress<Blake2sState, uint32_t>;  // BLAKE2sp's eight
using CompressFn = CompressFunction*;
using Compress4Fn = Compress4Function*;
using Blake2sCompressFn = Blake2sCompressFunction*;
using Blake2sCompress8Fn = Blake2sCompress8Function*;

inline constexpr size_t kBlake2bpLanes = 4;
inline constexpr size_t kBlake2spLanes = 8;

// Argon2's compression G over 1 KiB blocks (RFC 9106 section 3.5): R = previous ^ reference,
// Q = P applied to R's eight rows of 16 words, then Z = P applied to Q's eight columns (word
// pairs 2i, 2i+1 of every row); `next` = Z ^ R, or `next` ^= Z ^ R when `xor_into_next` (version
// 0x13's passes after the first). P is BLAKE2b's round without a message, its additions each with
// twice the product of the low halves (BlaMka). Blocks are 128 little-endian words already
// loaded; `next` may be neither input. The form's kernels run only the block: the Argon2
// algorithm (H0, H', indexing, passes, lanes) is the provider's (provider/argon2.cpp).
inline constexpr size_t kArgon2BlockWords = 128;
using FillBlockFunction = void(uint64_t* next, const uint64_t* previous, const uint64_t* reference,
                               bool xor_into_next) noexcept;
using FillBlockFn = FillBlockFunction*;

// BLAKE2b, BLAKE2s, and BlaMka: BLAKE2b's round with multiplications, Argon2's block compression.
enum class Member : uint8_t { blake2b, blake2s, blamka };

// A kernel as a context holds it: the registry row's name and the entry point serving it.
template <class Fn>
struct NamedKernel {
    const char* name;
    Fn compress;
};

// A candidate's entry point: the field of its form's signature is set, the others are nullptr.
struct Entry {
    CompressFn blake2b = nullptr;
    Compress4Fn blake2b_lanes = nullptr;
    Blake2sCompressFn blake2s = nullptr;
    Blake2sCompress8Fn blake2s_lanes = nullptr;
    FillBlockFn blamka = nullptr;
};

// What a member's traits are made of: its state and word, its compression contracts (single
// state and its tree mode's lanes), the kernel types contexts hold, its tree mode's lanes, IV and
// Entry fields. The sizes follow from the word, as RFC 7693 (section 2.1) counts them: a block of
// 16 words, the longest digest and key 8 words, salt and personalization 2 words each.
template <Member member, class StateType, class WordType, class Single, class Lanes, size_t lanes,
          const WordType* iv, Single Entry::*single_field, Lanes Entry::*lanes_field>
struct MemberTraits {
    static constexpr Member kMember = member;
    using State = StateType;
    using Word = WordType;
    using Compress = Single;
    using CompressLanes = Lanes;
    using Kernel = NamedKernel<Single>;
    using LanesKernel = NamedKernel<Lanes>;
    static constexpr size_t kBlockBytes = 16 * sizeof(Word);
    static constexpr size_t kMaxDigestBytes = 8 * sizeof(Word);
    static constexpr size_t kMaxKeyBytes = 8 * sizeof(Word);
    static constexpr size_t kSaltBytes = 2 * sizeof(Word);
    static constexpr size_t kPersonalBytes = 2 * sizeof(Word);
    static constexpr size_t kLanes = lanes;
    static constexpr const Word* kIV = iv;
    static constexpr Single Entry::*kSingleEntry = single_field;
    static constexpr Lanes Entry::*kLanesEntry = lanes_field;
};

// The one traits type of each member, which the kernels, the selection, the provider's engines,
// params and contexts, and the tests are all templated on. Plain facts only: the provider keys
// what is its own (the reasons a limit is refused with, BLAKE2X's length field) on these types.
// Structs rather than aliases, so that symbols name the member (Digest<Blake2sFamily, 0>); each
// adds its name, as diagnostics spell it.
struct Blake2bFamily
    : MemberTraits<Member::blake2b, Blake2bState, uint64_t, CompressFn, Compress4Fn, kBlake2bpLanes,
                   kBlake2bIV, &Entry::blake2b, &Entry::blake2b_lanes> {
    static constexpr const char* kName = "BLAKE2b";
};
struct Blake2sFamily
    : MemberTraits<Member::blake2s, Blake2sState, uint32_t, Blake2sCompressFn, Blake2sCompress8Fn,
                   kBlake2spLanes, kBlake2sIV, &Entry::blake2s, &Entry::blake2s_lanes> {
    static constexpr const char* kName = "BLAKE2s";
};
// The state headers' named sizes, which the kernels use, agree with the traits.
static_assert(Blake2bFamily::kBlockBytes == kBlake2bBlockBytes &&
              Blake2bFamily::kMaxDigestBytes == kBlake2bMaxDigestBytes &&
              Blake2bFamily::kMaxKeyBytes == kBlake2bMaxKeyBytes &&
              Blake2bFamily::kSaltBytes == kBlake2bSaltBytes &&
              Blake2bFamily::kPersonalBytes == kBlake2bPersonalBytes);
static_assert(Blake2sFamily::kBlockBytes == kBlake2sBlockBytes &&
              Blake2sFamily::kMaxDigestBytes == kBlake2sMaxDigestBytes &&
              Blake2sFamily::kMaxKeyBytes == kBlake2sMaxKeyBytes &&
              Blake2sFamily::kSaltBytes == kBlake2sSaltBytes &&
              Blake2sFamily::kPersonalBytes == kBlake2sPersonalBytes);

// BlaMka's traits, what the selection reads of a member: one form (no lanes), 1 KiB blocks.
struct BlamkaFamily {
    static constexpr Member kMember = Member::blamka;
    using Compress = FillBlockFn;
    using CompressLanes = FillBlockFn;  // no multi-lane form: never used
    using Kernel = NamedKernel<FillBlockFn>;
    using LanesKernel = Kernel;
    static constexpr size_t kBlockBytes = kArgon2BlockWords * 8;
    static constexpr size_t kLanes = 1;
    static constexpr FillBlockFn Entry::*kSingleEntry = &Entry::blamka;
    static constexpr FillBlockFn Entry::*kLanesEntry = &Entry::blamka;
    static constexpr const char* kName = "BlaMka";
};
using BlamkaKernel = BlamkaFamily::Kernel;

// The traits type of a member named by value (a form's row names its member).
template <Member member>
struct MemberFamily;
template <>
struct MemberFamily<Member::blake2b> {
    using Family = Blake2bFamily;
};
template <>
struct MemberFamily<Member::blake2s> {
    using Family = Blake2sFamily;
};
template <>
struct MemberFamily<Member::blamka> {
    using Family = BlamkaFamily;
};
template <Member member>
using FamilyOf = typename MemberFamily<member>::Family;

// One per row of the registry (registry.hpp), which gives each its name and CPU need.
enum class KernelId : uint8_t { ref, x64, ssse3, avx, avx2, avx512 };

namespace kernels {
// Portable C++; the fallback on every CPU and the oracle the other kernels are tested against.
CompressFunction blake2b_compress_ref;
Blake2sCompressFunction blake2s_compress_ref;
FillBlockFunction fill_block_ref;

#if defined(__x86_64__) || defined(_M_X64)
// Each is built with its registry row's ISA flags and runs only where the selection found it
// usable. The multi-lane ones hold one word of each lane per YMM lane.
CompressFunction blake2b_compress_ssse3, blake2b_compress_avx, blake2b_compress_avx2,
    blake2b_compress_avx512;
Compress4Function blake2b_compress4_avx2, blake2b_compress4_avx512;
Blake2sCompressFunction blake2s_compress_x64, blake2s_compress_ssse3, blake2s_compress_avx,
    blake2s_compress_avx512;
Blake2sCompress8Function blake2s_compress8_avx2, blake2s_compress8_avx512;
FillBlockFunction fill_block_ssse3, fill_block_avx2, fill_block_avx512;

// Zero every vector register of their ISA (scrub.hpp chooses): vzeroall, and for AVX-512 also
// ymm16-31, which vzeroall leaves alone.
void scrub_avx() noexcept;
void scrub_avx512() noexcept;
#endif
}  // namespace kernels

}  // namespace blake2simd
