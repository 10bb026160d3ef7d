// The one selection process behind every form, self-tests included (forms.hpp says what it does).
// SPDX-License-Identifier: Apache-2.0
#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <utility>

#include "baseline_guard.hpp"
#include "digest_bytes.hpp"
#include "forms.hpp"
#include "lanes_by_lane.hpp"
#include "once.hpp"

namespace blake2simd::dispatch {
namespace {

// What is typed per form, once per row: {make(0), make(1), ...}, each form's index a constant.
template <class Make>
constexpr auto per_form(Make make) noexcept {
    const auto each = [make]<size_t... form>(std::index_sequence<form...>) {
        return std::array{make(std::integral_constant<size_t, form>{})...};
    };
    return each(std::make_index_sequence<kFormCount>{});
}

constexpr size_t kMaxCandidates = 2 * registry::kKnownKernelCount;

struct CandidateList {
    Candidate items[kMaxCandidates]{};
    size_t count = 0;
    constexpr void add(const Candidate& candidate) noexcept { items[count++] = candidate; }
    constexpr std::span<const Candidate> span() const noexcept { return {items, count}; }
};

template <class Fn>
constexpr Entry entry_of(Fn Entry::*field, Fn compress) noexcept {
    Entry entry{};
    entry.*field = compress;
    return entry;
}

// The built rows with a single-lane (or, `lanes`, a native multi-lane) kernel of the member.
template <class Family, bool lanes>
constexpr CandidateList natives() noexcept {
    CandidateList list{};
    for (const registry::KernelRow& row : registry::kKernelRows) {
        const auto& entries = row.entries<Family>();
        if (row.built && (lanes ? entries.has_lanes : entries.has_single)) {
            list.add({row.id, false,
                      lanes ? entry_of(Family::kLanesEntry, entries.lanes)
                            : entry_of(Family::kSingleEntry, entries.single)});
        }
    }
    return list;
}

// A multi-lane form's candidates: the single-lane form's each lane by lane (so candidate i is
// its candidate i), then the native multi-lane kernels.
template <class Family, size_t kLanes, size_t... single>
constexpr CandidateList by_lane_then_natives(std::index_sequence<single...>) noexcept {
    constexpr CandidateList kSingles = natives<Family, false>();
    CandidateList all{};
    (all.add({kSingles.items[single].id, true,
              entry_of(Family::kLanesEntry,
                       &compress_by_lane<Family, kSingles.items[single].entry.*Family::kSingleEntry,
                                         kLanes>)}),
     ...);
    // Named, so that the list outlives the loop (a temporary's span would dangle).
    constexpr CandidateList kNatives = natives<Family, true>();
    for (const Candidate& native : kNatives.span()) {
        all.add(native);
    }
    return all;
}

// A single-lane form's candidates are the member's single-lane kernels, the reference first.
constexpr auto kCandidates = per_form([](auto form) {
    using Family = FamilyOf<kForms[form].member>;
    if constexpr (kForms[form].lanes == 1) {
        return natives<Family, false>();
    } else {
        return by_lane_then_natives<Family, kForms[form].lanes>(
            std::make_index_sequence<natives<Family, false>().count>{});
    }
});

// --- the self-tests, which a kernel passes before it may serve anyone
constexpr size_t kKnownAnswerBytes = 300;

// The digests of bytes i % 251 for i in 0..299, by Python's hashlib.blake2b and blake2s.
constexpr uint8_t kKnownBlake2b[kBlake2bMaxDigestBytes] = {
    0x3a, 0x48, 0x2b, 0x77, 0x48, 0xb0, 0xbd, 0xc4, 0x3c, 0x3d, 0x00, 0xc0, 0x80, 0x89, 0x0c, 0x10,
    0xe5, 0x7a, 0x9a, 0xa5, 0x61, 0x8f, 0x78, 0xb8, 0x60, 0x67, 0xeb, 0x7e, 0xaa, 0xe4, 0x94, 0x2a,
    0xcd, 0x96, 0xd8, 0x27, 0xac, 0xcb, 0xc1, 0x69, 0x58, 0x36, 0x4a, 0xe5, 0xb0, 0xdf, 0x61, 0x05,
    0xbb, 0xd3, 0xb1, 0x54, 0x45, 0x09, 0x2e, 0xba, 0x11, 0x37, 0xb5, 0xf6, 0x9c, 0x10, 0x70, 0xf1,
};
constexpr uint8_t kKnownBlake2s[kBlake2sMaxDigestBytes] = {
    0x20, 0x3d, 0x64, 0x41, 0x34, 0x92, 0x13, 0xc6, 0xb2, 0xb7, 0x27, 0xd0, 0xac, 0x6b, 0xeb, 0x36,
    0x5f, 0x32, 0x93, 0x8c, 0xef, 0x2c, 0xd0, 0x67, 0x7f, 0x2a, 0x6b, 0x7f, 0x8c, 0xb0, 0x2d, 0xd7,
};

template <class Family>
bool passes_known_answer(typename Family::Compress compress) noexcept {
    const uint8_t* expected = Family::kMember == Member::blake2b ? kKnownBlake2b : kKnownBlake2s;
    using Word = typename Family::Word;
    constexpr size_t kBlock = Family::kBlockBytes;
    constexpr size_t kFullBlocks = (kKnownAnswerBytes - 1) / kBlock;
    uint8_t message[(kFullBlocks + 1) * kBlock] = {};  // the last block zero-padded
    for (size_t i = 0; i < kKnownAnswerBytes; ++i) {
        message[i] = static_cast<uint8_t>(i % 251);
    }
    typename Family::State state{};
    std::memcpy(state.h, Family::kIV, sizeof state.h);
    state.h[0] ^= static_cast<Word>(0x01010000U | Family::kMaxDigestBytes);  // depth 1, fanout 1
    compress(&state, message, kFullBlocks, static_cast<Word>(kBlock));
    state.f[0] = static_cast<Word>(~Word{0});
    compress(&state, message + kFullBlocks * kBlock, 1,
             static_cast<Word>(kKnownAnswerBytes - kFullBlocks * kBlock));
    uint8_t digest[Family::kMaxDigestBytes];
    write_digest(state, digest, sizeof digest);
    return std::memcmp(digest, expected, sizeof digest) == 0;
}

constexpr size_t kTestSteps = 3;

template <class Family, size_t kLanes>
void initial_test_states(typename Family::State* states) noexcept {
    using Word = typename Family::Word;
    constexpr Word kMax = static_cast<Word>(~Word{0});
    constexpr Word kHigh = static_cast<Word>(Word{1} << (sizeof(Word) * 8 - 24));
    // Distinct chaining values; lanes 1 and 3 (mod 4) carry out of t[0] during the test;
    // every combination of the two flags occurs.
    constexpr Word kCounters[4] = {0, kMax - 200, kHigh, kMax - 127};
    for (size_t lane = 0; lane < kLanes; ++lane) {
        for (size_t i = 0; i < 8; ++i) {
            states[lane].h[i] =
                Family::kIV[i] ^ static_cast<Word>(0x0123456789abcdefULL * (lane * 8 + i + 1));
        }
        states[lane].t[0] = static_cast<Word>(kCounters[lane % 4] - lane / 4);
        states[lane].t[1] = static_cast<Word>(lane * 0x1000000001ULL);
        states[lane].f[0] = (lane & 1) != 0 ? kMax : 0;
        states[lane].f[1] = (lane & 2) != 0 ? kMax : 0;
    }
}

template <class Family, size_t kLanes>
void run_test_calls(typename Family::CompressLanes compress, typename Family::State* states,
                    const uint8_t* area) noexcept {
    constexpr auto kBlock = static_cast<typename Family::Word>(Family::kBlockBytes);
    // The tree mode's layout from an odd address; one block shared by all lanes (a key block);
    // contiguous runs in arbitrary order.
    const uint8_t* tree[kLanes];
    const uint8_t* shared[kLanes];
    const uint8_t* runs[kLanes];
    for (size_t lane = 0; lane < kLanes; ++lane) {
        tree[lane] = area + 1 + lane * kBlock;
        shared[lane] = area + 7;
        runs[lane] = area + ((lane * 5 + 3) % kLanes) * kBlock + (lane * 7) % 11;
    }
    compress(states, tree, kTestSteps, kLanes * kBlock, kBlock);
    compress(states, shared, 1, 0, kBlock / 2 + 13);  // a partial-block increment
    compress(states, runs, 2, kBlock, kBlock);
    compress(states, runs, 0, kBlock, kBlock);  // zero blocks must change nothing
}

// `compress` against the reference kernel (the registry's first row) lane by lane.
template <class Family, size_t kLanes>
bool lanes_pass_self_test(typename Family::CompressLanes compress) noexcept {
    constexpr auto kReference =
        &compress_by_lane<Family, registry::kKernelRows[0].entries<Family>().single, kLanes>;
    constexpr size_t kAreaBytes = 16 + kTestSteps * kLanes * Family::kBlockBytes;
    uint8_t area[kAreaBytes];
    for (size_t i = 0; i < kAreaBytes; ++i) {
        area[i] = static_cast<uint8_t>((i * 167 + 13) ^ (i >> 8));
    }
    typename Family::State expected[kLanes];
    typename Family::State actual[kLanes];
    initial_test_states<Family, kLanes>(expected);
    initial_test_states<Family, kLanes>(actual);
    run_test_calls<Family, kLanes>(kReference, expected, area);
    run_test_calls<Family, kLanes>(compress, actual, area);
    return std::memcmp(expected, actual, sizeof expected) == 0;
}

// BlaMka: G(previous, reference) into a fresh block, then XORed into a second one (version 0x13's
// later passes), from fixed patterns; the reference kernel's outputs fold to a known answer (made
// by it, whose Argon2 reproduces RFC 9106's vectors and libargon2: tests/test_argon2.cpp), every
// other kernel's outputs must be the reference's bit for bit.
using BlamkaBlocks = uint64_t[2][kArgon2BlockWords];

void blamka_outputs(FillBlockFn fill_block, BlamkaBlocks& out) noexcept {
    uint64_t previous[kArgon2BlockWords];
    uint64_t reference[kArgon2BlockWords];
    for (size_t i = 0; i < kArgon2BlockWords; ++i) {
        previous[i] = (i + 1) * 0x9e3779b97f4a7c15ULL ^ (uint64_t{i} << 40);
        reference[i] = ~(i * 0xc2b2ae3d27d4eb4fULL);
        out[1][i] = i * 0x0101010101010101ULL;
    }
    fill_block(out[0], previous, reference, false);
    fill_block(out[1], out[0], previous, true);
}

constexpr uint64_t kKnownBlamkaFold = 0x5c83fbe8b7100d38ULL;

uint64_t fold(const BlamkaBlocks& blocks) noexcept {
    uint64_t folded = 0;
    for (const auto& block : blocks) {
        for (const uint64_t word : block) {
            folded = ((folded << 7) | (folded >> 57)) ^ word;
            folded *= 0x100000001b3ULL;
        }
    }
    return folded;
}

bool blamka_passes_self_test(FillBlockFn fill_block) noexcept {
    BlamkaBlocks expected;
    BlamkaBlocks actual;
    blamka_outputs(registry::kKernelRows[0].blamka.single, expected);
    blamka_outputs(fill_block, actual);
    return fold(expected) == kKnownBlamkaFold &&
           std::memcmp(expected, actual, sizeof expected) == 0;
}

template <size_t form>
bool form_passes(const Entry& entry) noexcept {
    using Family = FamilyOf<kForms[form].member>;
    constexpr size_t kLanes = kForms[form].lanes;
    if constexpr (kForms[form].member == Member::blamka) {
        return blamka_passes_self_test(entry.blamka);
    } else if constexpr (kLanes == 1) {
        return passes_known_answer<Family>(entry.*Family::kSingleEntry);
    } else {
        return lanes_pass_self_test<Family, kLanes>(entry.*Family::kLanesEntry);
    }
}

using Facts = std::array<Measurement, kMaxCandidates>;  // usable only, no speeds

struct Calibrated {
    Measurement measurements[kFormCount][kMaxCandidates];
    double microseconds[kFormCount];
};

template <size_t form>
Facts check_candidates() noexcept {
    // A multi-lane form follows its member's single-lane one (forms_are_sound()).
    constexpr Form kSingleForm = kForms[form - (kForms[form].lanes == 1 ? 0 : 1)].form;
    const cpu::CpuFeatures& features = cpu::detected_features();
    Facts checked{};
    for (size_t i = 0; i < kCandidates[form].count; ++i) {
        const Candidate& candidate = kCandidates[form].items[i];
        const bool runnable = candidate.lane_by_lane ? facts(kSingleForm)[i].usable
                                                     : cpu_can_run(candidate.id, features);
        // Short-circuit: a kernel the CPU lacks is never called, not even by the self-test.
        checked[i].usable = runnable && passes_self_test(kForms[form].form, candidate.entry);
    }
    return checked;
}

// Per form, so a process that only asks whether we work runs the single-lane self-tests only.
constexpr auto kFacts =
    per_form([](auto form) { return &ComputedOnce<Facts, &check_candidates<form>>::get; });

constexpr size_t kMessageBytes = 16 * 1024;

// BlaMka's: calibration_units compressions, each into the block the last one made.
template <size_t form>
double time_blamka(const Entry& entry, const uint8_t* message) noexcept {
    uint64_t blocks[3][kArgon2BlockWords];
    std::memcpy(blocks, message, sizeof blocks);
    const double start = monotonic_nanoseconds();
    for (size_t unit = 0; unit < kForms[form].calibration_units; ++unit) {
        entry.blamka(blocks[2], blocks[0], blocks[1], true);
    }
    const double stop = monotonic_nanoseconds();
    volatile uint64_t sink = blocks[2][0];
    (void)sink;
    return stop - start;
}

// A BLAKE2 form's: one call over calibration_units blocks into each lane of `message`.
template <size_t form>
double time_blake2_call(const Entry& entry, const uint8_t* message) noexcept {
    using Family = FamilyOf<kForms[form].member>;
    constexpr size_t kLanes = kForms[form].lanes;
    constexpr size_t kUnits = kForms[form].calibration_units;
    constexpr auto kBlock = static_cast<typename Family::Word>(Family::kBlockBytes);
    static_assert(kUnits * kLanes * kBlock <= kMessageBytes);
    typename Family::State states[kLanes]{};
    const uint8_t* blocks[kLanes];
    for (size_t lane = 0; lane < kLanes; ++lane) {
        std::memcpy(states[lane].h, Family::kIV, sizeof states[lane].h);
        blocks[lane] = message + lane * kBlock;
    }
    const double start = monotonic_nanoseconds();
    if constexpr (kLanes == 1) {
        (entry.*Family::kSingleEntry)(states, message, kUnits, kBlock);
    } else {
        (entry.*Family::kLanesEntry)(states, blocks, kUnits, kLanes * kBlock, kBlock);
    }
    const double stop = monotonic_nanoseconds();
    // Keeps the result observable so the call cannot be dropped.
    volatile auto sink = states[0].h[0] ^ states[kLanes - 1].h[7];
    (void)sink;
    return stop - start;
}

// The time of one call of `entry` over calibration_units blocks into each lane of `message`.
template <size_t form>
double time_one_call(const Entry& entry, const uint8_t* message) noexcept {
    if constexpr (kForms[form].member == Member::blamka) {
        return time_blamka<form>(entry, message);
    } else {
        return time_blake2_call<form>(entry, message);
    }
}

constexpr auto kTimeOneCall = per_form([](auto form) { return &time_one_call<form>; });

// Best of rounds per candidate, each form within its budget. Only automatic choices and
// diagnostics reach it, never the provider's load.
Calibrated calibrate() noexcept {
    uint8_t message[kMessageBytes];
    for (size_t i = 0; i < sizeof message; ++i) {
        message[i] = static_cast<uint8_t>(i * 131 + 7);
    }
    Calibrated calibrated{};
    for (size_t f = 0; f < kFormCount; ++f) {
        const Facts& checked = kFacts[f]();  // before the clock starts: self-tests are not timing
        const CandidateList& candidates = kCandidates[f];
        const double start = monotonic_nanoseconds();
        double best[kMaxCandidates] = {};
        time_best_of_rounds(
            candidates.count, kForms[f].calibration_rounds, kForms[f].budget_microseconds,
            [&checked](size_t i) { return checked[i].usable; },
            [&](size_t i) { return kTimeOneCall[f](candidates.items[i].entry, message); }, best);
        for (size_t i = 0; i < candidates.count; ++i) {
            calibrated.measurements[f][i] = {
                checked[i].usable, best[i] / static_cast<double>(kForms[f].calibration_units)};
        }
        calibrated.microseconds[f] = (monotonic_nanoseconds() - start) / 1e3;
    }
    return calibrated;
}

using ProcessCalibration = ComputedOnce<Calibrated, &calibrate>;

bool names_match(std::string_view request, std::string_view name) noexcept {
    return std::equal(request.begin(), request.end(), name.begin(), name.end(), [](char r, char n) {
        return (r >= 'A' && r <= 'Z' ? static_cast<char>(r - 'A' + 'a') : r) == n;
    });
}

constexpr size_t kNone = ~size_t{0};

struct View {
    const FormRow& form;
    const cpu::CpuFeatures& features;
    std::span<const Candidate> candidates;
    std::span<const Measurement> measurements;

    bool usable(size_t i) const noexcept {
        return i < measurements.size() && measurements[i].usable &&
               cpu_can_run(candidates[i].id, features);
    }
    double mb_per_second(size_t i) const noexcept {
        const size_t block = form.member == Member::blake2b   ? Blake2bFamily::kBlockBytes
                             : form.member == Member::blake2s ? Blake2sFamily::kBlockBytes
                                                              : BlamkaFamily::kBlockBytes;
        const double ns = measurements[i].nanoseconds_per_unit;
        return ns > 0 ? static_cast<double>(form.lanes * block) * 1000.0 / ns : 0.0;
    }
    const char* name(size_t i) const noexcept { return registry::row_of(candidates[i].id).name; }
    const char* form_of(size_t i) const noexcept {
        return candidates[i].lane_by_lane ? "lane by lane" : form.native;
    }

    // The fastest usable candidate that `keep` keeps (strictly faster only: on a tie the earlier
    // one stays), or kNone; `count` gets how many were usable.
    template <class Keep>
    size_t fastest(Keep keep, size_t* count) const noexcept {
        size_t chosen = kNone;
        for (size_t i = 0; i < candidates.size(); ++i) {
            if (usable(i) && keep(candidates[i])) {
                ++*count;
                const double ns = measurements[i].nanoseconds_per_unit;
                chosen =
                    chosen == kNone || ns < measurements[chosen].nanoseconds_per_unit ? i : chosen;
            }
        }
        return chosen;
    }
    // Row `id`'s usable candidate (a row has at most one of each kind), native first, or kNone.
    size_t of_row(KernelId id) const noexcept {
        size_t found = kNone;
        for (size_t i = 0; i < candidates.size(); ++i) {
            if (candidates[i].id == id && usable(i) &&
                (found == kNone || !candidates[i].lane_by_lane)) {
                found = i;
            }
        }
        return found;
    }
};

// The one describer: "<kernel> (" and `why`, a printf format for the rest of the parenthesis.
__attribute__((format(printf, 4, 5))) Serving describe_serving(const View& view, size_t chosen,
                                                               bool automatic, const char* why,
                                                               ...) noexcept {
    Serving serving{true, automatic, view.candidates[chosen], {}};
    const int written =
        std::snprintf(serving.description, sizeof serving.description, "%s (", serving.name());
    const size_t used = written > 0 ? static_cast<size_t>(written) : 0;
    va_list args;
    va_start(args, why);
    if (used < sizeof serving.description) {
        std::vsnprintf(serving.description + used, sizeof serving.description - used, why, args);
    }
    va_end(args);
    return serving;
}

// Why the automatic choice serves: the request's refusal, in the one place that words it.
void write_lead(const View& view, const KernelRequest& request, char* out, size_t size) noexcept {
    using Kind = KernelRequest::Kind;
    if (request.kind == Kind::automatic || request.kind == Kind::not_a_name) {
        std::snprintf(out, size, "auto%s",
                      request.kind == Kind::automatic
                          ? ""
                          : "; the request is not a kernel name: letters, digits, '-' and '_', "
                            "at most 24, not shown");
        return;
    }
    const bool has_form = std::any_of(view.candidates.begin(), view.candidates.end(),
                                      [&](const Candidate& c) { return c.id == request.id; });
    const char* reason = request.kind == Kind::absent             ? "is unknown or not built in"
                         : !has_form                              ? "has no "
                         : cpu_can_run(request.id, view.features) ? "failed its self-test"
                                                                  : "is not supported by this CPU";
    std::snprintf(out, size, "auto; requested '%s' %s%s%s", request.shown, reason,
                  has_form ? "" : view.form.title, has_form ? "" : " form");
}

Serving choose_automatic(const View& view, const char* lead) noexcept {
    size_t count = 0;
    const size_t chosen = view.fastest([](const Candidate&) { return true; }, &count);
    if (view.form.lanes == 1) {
        return describe_serving(
            view, chosen, true, "%s: fastest of %zu runnable, %.0f MB/s; %s %.0f MB/s)", lead,
            count, view.mb_per_second(chosen), view.name(0), view.mb_per_second(0));
    }
    const bool by_lane = view.candidates[chosen].lane_by_lane;
    size_t rivals = 0;
    const size_t rival =
        view.fastest([by_lane](const Candidate& c) { return c.lane_by_lane != by_lane; }, &rivals);
    char rival_text[96] = "";
    if (rival != kNone) {
        std::snprintf(rival_text, sizeof rival_text, "; best %s: %s %.0f MB/s", view.form_of(rival),
                      view.name(rival), view.mb_per_second(rival));
    }
    return describe_serving(
        view, chosen, true, "%s: fastest of %zu %zu-lane candidates, %s, %.0f MB/s%s)", lead, count,
        view.form.lanes, view.form_of(chosen), view.mb_per_second(chosen), rival_text);
}

}  // namespace

KernelRequest parse_request(std::string_view text) noexcept {
    using Kind = KernelRequest::Kind;
    constexpr std::string_view kNameCharacters =
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-";
    KernelRequest request{Kind::automatic, KernelId::ref, {}};
    if (text.empty() || names_match(text, registry::kAutomaticRequest)) {
        return request;
    }
    if (text.size() >= sizeof request.shown ||
        text.find_first_not_of(kNameCharacters) != std::string_view::npos) {
        request.kind = Kind::not_a_name;
        return request;
    }
    std::memcpy(request.shown, text.data(), text.size());
    request.kind = Kind::absent;
    for (const registry::KernelRow& row : registry::kKernelRows) {
        if (row.built && names_match(text, row.name)) {
            request.kind = Kind::named;
            request.id = row.id;
        }
    }
    return request;
}

Serving choose(Form form, const KernelRequest& request, const cpu::CpuFeatures& features,
               std::span<const Candidate> candidates,
               std::span<const Measurement> measurements) noexcept {
    const View view{kForms[index_of(form)], features, candidates, measurements};
    if (candidates.empty() || candidates[0].id != KernelId::ref || !view.usable(0)) {
        return {false, false, {}, "none (the reference kernel failed its self-test)"};
    }
    const size_t named =
        request.kind == KernelRequest::Kind::named ? view.of_row(request.id) : kNone;
    if (named != kNone) {
        return view.form.lanes == 1 ? describe_serving(view, named, false, "requested)")
                                    : describe_serving(view, named, false, "as the kernel, %s)",
                                                       view.form_of(named));
    }
    char lead[128];
    write_lead(view, request, lead, sizeof lead);
    return choose_automatic(view, lead);
}

std::span<const Candidate> candidates(Form form) noexcept {
    return kCandidates[index_of(form)].span();
}

std::span<const Measurement> facts(Form form) noexcept {
    return {kFacts[index_of(form)]().data(), kCandidates[index_of(form)].count};
}

std::span<const Measurement> measurements(Form form) noexcept {
    return {ProcessCalibration::get().measurements[index_of(form)],
            kCandidates[index_of(form)].count};
}

double calibration_microseconds(Form form) noexcept {
    return ProcessCalibration::get().microseconds[index_of(form)];
}

bool calibration_has_run() noexcept {
    return ProcessCalibration::computed();
}

bool passes_self_test(Form form, const Entry& entry) noexcept {
    static constexpr auto kSelfTests = per_form([](auto f) { return &form_passes<f>; });
    return kSelfTests[index_of(form)](entry);
}

bool reference_kernel_works() noexcept {
    // A multi-lane form's reference is the single-lane one lane by lane.
    for (size_t f = 0; f < kFormCount; ++f) {
        if (kForms[f].lanes == 1 && !kFacts[f]()[0].usable) {
            return false;
        }
    }
    return true;
}

bool runnable_candidates_pass(SelfTestSubstitute substitute) noexcept {
    const cpu::CpuFeatures& features = cpu::detected_features();
    bool passed = true;
    for (const FormRow& row : kForms) {
        for (const Candidate& candidate : candidates(row.form)) {
            if (cpu_can_run(candidate.id, features)) {
                const Entry entry =
                    substitute != nullptr ? substitute(row.form, candidate) : candidate.entry;
                passed = passes_self_test(row.form, entry) && passed;
            }
        }
    }
    return passed;
}

Servings serve(const KernelRequest& request) noexcept {
    const cpu::CpuFeatures& features = cpu::detected_features();
    Servings servings{};
    for (size_t f = 0; f < kFormCount; ++f) {
        const Form form = kForms[f].form;
        // A row served by name must not pay for timing; only the automatic choice calibrates.
        servings[f] = choose(form, request, features, candidates(form), facts(form));
        if (servings[f].automatic) {
            servings[f] = choose(form, request, features, candidates(form), measurements(form));
        }
    }
    return servings;
}

void describe(const Servings& servings, char* out, size_t size) noexcept {
    size_t used = 0;
    for (size_t f = 0; f < kFormCount && used < size; ++f) {
        const int written = std::snprintf(out + used, size - used, "%s%s %s", f == 0 ? "" : "; ",
                                          kForms[f].label, servings[f].description);
        used += written > 0 ? static_cast<size_t>(written) : 0;
    }
}

}  // namespace blake2simd::dispatch
