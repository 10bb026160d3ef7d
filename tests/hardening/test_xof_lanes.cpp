// BLAKE2X output blocks (provider/blake2x.cpp, write_xof_output) on every usable candidate of the
// BLAKE2bp / BLAKE2sp lanes form (native and lane by lane) and on the single-lane kernels alone,
// against the independent RFC 7693 implementation block by block: whole streams, ranges that
// start and end inside a group, pieces that continue one another (a squeeze), the short last
// block of a known length and the far end of the unknown-length stream. A counting wrapper shows
// that the lanes form makes every whole group it can (the path is taken, not just correct).
// SPDX-License-Identifier: Apache-2.0
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "b2test/check.hpp"
#include "blake2x.hpp"
#include "engine_kernels.hpp"
#include "forms.hpp"
#include "rfc7693.hpp"

namespace {

using blake2simd::XofRoot;
using Bytes = std::vector<uint8_t>;
namespace dispatch = blake2simd::dispatch;

template <class Family>
struct Traits;

template <>
struct Traits<blake2simd::Blake2bFamily> {
    using Options = rfc7693::Options;
    static constexpr dispatch::Form kSingle = dispatch::Form::blake2b;
    static constexpr dispatch::Form kLanes = dispatch::Form::blake2bp;
    static constexpr const char* kName = "BLAKE2Xb";
    static Bytes hash(const Options& o, const uint8_t* data, size_t length) {
        auto s = rfc7693::initial_state(o);
        s.h[0] ^= uint64_t{64} << 32;  // leaf length, which Options does not carry
        return rfc7693::finish_from(s, data, length, o.out_len, false);
    }
};

template <>
struct Traits<blake2simd::Blake2sFamily> {
    using Options = rfc7693::blake2s::Options;
    static constexpr dispatch::Form kSingle = dispatch::Form::blake2s;
    static constexpr dispatch::Form kLanes = dispatch::Form::blake2sp;
    static constexpr const char* kName = "BLAKE2Xs";
    static Bytes hash(const Options& o, const uint8_t* data, size_t length) {
        auto s = rfc7693::blake2s::initial_state(o);
        s.h[1] ^= 32;  // leaf length
        return rfc7693::blake2s::finish_from(s, data, length, o.out_len, false);
    }
};

// Bytes [position, position + length) of the stream, one B2(i) at a time by the paper's rule.
template <class Family>
Bytes oracle(const XofRoot<Family>& root, uint64_t position, size_t length) {
    constexpr size_t kOut = Family::kMaxDigestBytes;
    Bytes out;
    for (uint64_t index = position / kOut; out.size() < length + position % kOut; ++index) {
        typename Traits<Family>::Options o;
        o.out_len =
            static_cast<size_t>(std::min<uint64_t>(kOut, root.total_output() - index * kOut));
        o.salt = root.salt;
        o.personal = root.personal;
        o.fanout = 0;
        o.depth = 0;
        o.node_offset = root.xof_length << 32 | index;  // the index below bit 32 in both
        o.inner_length = kOut;
        const Bytes block = Traits<Family>::hash(o, root.h0, kOut);
        out.insert(out.end(), block.begin(), block.end());
    }
    return Bytes(out.begin() + static_cast<long>(position % kOut),
                 out.begin() + static_cast<long>(position % kOut + length));
}

// Forwards to the candidate under test and counts the calls.
template <class Family>
struct Counting {
    static inline typename Family::CompressLanes target = nullptr;
    static inline size_t calls = 0;
    static void compress(typename Family::State* states, const uint8_t* const* blocks,
                         size_t block_count, size_t block_stride,
                         typename Family::Word counter_increment) noexcept {
        ++calls;
        target(states, blocks, block_count, block_stride, counter_increment);
    }
};

template <class Family>
XofRoot<Family> make_root(uint64_t xof_length) {
    XofRoot<Family> root{};
    for (size_t i = 0; i < sizeof root.h0; ++i) {
        root.h0[i] = static_cast<uint8_t>(7 * i + 3);
    }
    for (size_t i = 0; i < sizeof root.salt; ++i) {
        root.salt[i] = static_cast<uint8_t>(0x30 + i);
        root.personal[i] = static_cast<uint8_t>(0x60 + i);
    }
    root.xof_length = xof_length;
    return root;
}

// One stream on one pair of kernels: whole, ranges and continuing pieces.
template <class Family>
void check_stream(b2test::Report& report, const std::string& what, const XofRoot<Family>& root,
                  uint64_t start, size_t length, typename Family::Compress single,
                  typename Family::CompressLanes lanes) {
    constexpr size_t kOut = Family::kMaxDigestBytes;
    const Bytes expected = oracle(root, start, length);
    Bytes whole(length);
    blake2simd::write_xof_output<Family>(single, lanes, root, start, whole.data(), length);
    report.check(whole == expected, what + ": the whole range");
    const size_t pieces[] = {1, kOut - 1, 4 * kOut + 1, 8 * kOut - 1, 7, 9 * kOut, 3};
    Bytes squeezed(length);
    size_t done = 0;
    for (size_t i = 0; done < length; ++i) {
        const size_t piece = std::min(pieces[i % std::size(pieces)], length - done);
        blake2simd::write_xof_output<Family>(single, lanes, root, start + done,
                                             squeezed.data() + done, piece);
        done += piece;
    }
    report.check(squeezed == expected, what + ": pieces continuing one another");
}

template <class Family>
void check_family(b2test::Report& report) {
    using T = Traits<Family>;
    constexpr size_t kGroup = Family::kLanes * Family::kMaxDigestBytes;
    const uint64_t unknown = blake2simd::XofLimits<Family>::kUnknownLength;
    const auto single_ref = dispatch::candidates(T::kSingle)[0].entry.*Family::kSingleEntry;
    size_t candidates = 0;
    for (const size_t i : engine_kernels::usable_indices(T::kLanes)) {
        const dispatch::Candidate& c = dispatch::candidates(T::kLanes)[i];
        const auto single = engine_kernels::single_lane_for<Family>(T::kSingle, c.id);
        const std::string name = std::string(T::kName) + " " +
                                 blake2simd::registry::row_of(c.id).name +
                                 (c.lane_by_lane ? " lane by lane" : "");
        const auto lanes = c.entry.*Family::kLanesEntry;
        Counting<Family>::target = lanes;
        for (const size_t length : {5 * kGroup + 37, 3 * kGroup, kGroup - 1, size_t{1}}) {
            const auto root = make_root<Family>(length);
            Counting<Family>::calls = 0;
            Bytes out(length);
            blake2simd::write_xof_output<Family>(single, &Counting<Family>::compress, root, 0,
                                                 out.data(), length);
            report.check(Counting<Family>::calls == length / kGroup,
                         name + ": " + std::to_string(length) + " bytes took " +
                             std::to_string(Counting<Family>::calls) + " lanes calls");
            check_stream<Family>(report, name + " known " + std::to_string(length), root, 0, length,
                                 single, lanes);
        }
        const auto root = make_root<Family>(unknown);
        check_stream<Family>(report, name + " unknown, at the end", root,
                             root.total_output() - 2 * kGroup - 5, 2 * kGroup + 5, single, lanes);
        ++candidates;
    }
    check_stream<Family>(report, std::string(T::kName) + " single lane only",
                         make_root<Family>(5 * kGroup + 37), 0, 5 * kGroup + 37, single_ref,
                         nullptr);
    std::printf("test_xof_lanes: %s, %zu lanes candidates\n", T::kName, candidates);
    report.check(candidates > 0, std::string(T::kName) + ": no usable lanes candidate");
}

}  // namespace

int main() {
    b2test::Report report("test_xof_lanes");
    check_family<blake2simd::Blake2bFamily>(report);
    check_family<blake2simd::Blake2sFamily>(report);
    return report.finish();
}
