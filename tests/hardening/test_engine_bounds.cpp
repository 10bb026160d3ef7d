// A caller that passes a length near SIZE_MAX (a negative int converted, (size_t)-1 as "unknown")
// must get an over-read of its own input, never a write past the engine's buffers: for the four
// streaming engines (BLAKE2b, BLAKE2bp, BLAKE2s, BLAKE2sp), with the engine alone on a page
// between two guard pages and the input
// between guard pages too, the first fault must be a read of a guard page around the input.
// Each case runs in a child process, which a SIGSEGV handler ends with the fault's class.
// Then, in this process: the engines stream messages that end at (or start right after) a
// guard page, with the engine itself between guard pages, on every usable kernel and 4- or
// 8-lane candidate; any stray access would end the test with SIGSEGV, and every digest must equal
// the independent rfc7693.hpp result.
// SPDX-License-Identifier: Apache-2.0
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <new>
#include <string>
#include <vector>

#include "b2test/check.hpp"
#include "blake2_engine.hpp"
#include "engine_kernels.hpp"
#include "forms.hpp"
#include "rfc7693.hpp"

namespace {

using blake2simd::Blake2bEngine;
using blake2simd::Blake2bpEngine;
using blake2simd::Blake2sEngine;
using blake2simd::Blake2spEngine;

constexpr int kReadOfInputGuard = 10;  // the expected outcome
constexpr int kFaultAtEngineGuard = 11;
constexpr int kFaultElsewhere = 12;
constexpr int kReturned = 13;
constexpr int kSetupFailed = 14;

// A region of `pages` usable pages between two PROT_NONE pages.
struct Guarded {
    uint8_t* usable = nullptr;
    size_t bytes = 0;
    size_t page = 0;

    bool map(size_t pages) {
        page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
        bytes = pages * page;
        void* mapping = mmap(nullptr, bytes + 2 * page, PROT_READ | PROT_WRITE,
                             MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (mapping == MAP_FAILED) {
            return false;
        }
        auto* base = static_cast<uint8_t*>(mapping);
        usable = base + page;
        return mprotect(base, page, PROT_NONE) == 0 &&
               mprotect(usable + bytes, page, PROT_NONE) == 0;
    }
    bool in_guard(uintptr_t address) const {
        const auto start = reinterpret_cast<uintptr_t>(usable);
        return (address >= start - page && address < start) ||
               (address >= start + bytes && address < start + bytes + page);
    }
};

Guarded g_engine_area;
Guarded g_input_area;

void on_fault(int, siginfo_t* info, void*) {
    const auto address = reinterpret_cast<uintptr_t>(info->si_addr);
    if (g_input_area.in_guard(address)) {
        _exit(kReadOfInputGuard);
    }
    _exit(g_engine_area.in_guard(address) ? kFaultAtEngineGuard : kFaultElsewhere);
}

// The input starts in the middle of 64 KiB, so a copy or read running either way meets the
// input's guard only after far more bytes than the engine's page holds around its buffers: a
// bound that wraps turns into a write that reaches an engine guard first.
const uint8_t* prepare_input() {
    for (size_t i = 0; i < g_input_area.bytes; ++i) {
        g_input_area.usable[i] = static_cast<uint8_t>(i * 7 + 1);
    }
    return g_input_area.usable + g_input_area.bytes / 2;
}

template <class Engine, class Start>
[[noreturn]] void run_child(Start start, size_t already_buffered) {
    struct sigaction action {};
    action.sa_sigaction = on_fault;
    action.sa_flags = SA_SIGINFO;
    sigemptyset(&action.sa_mask);
    if (!g_engine_area.map(1) || !g_input_area.map(16) ||
        sigaction(SIGSEGV, &action, nullptr) != 0 || sigaction(SIGBUS, &action, nullptr) != 0) {
        _exit(kSetupFailed);
    }
    const uint8_t* input = prepare_input();
    // At the start of its page: a write running backwards meets the guard just before it.
    static_assert(sizeof(Engine) < 4096);
    auto* engine = new (g_engine_area.usable) Engine;
    start(*engine);
    engine->update(input, already_buffered);
    const size_t huge = SIZE_MAX - 40;
    engine->update(input + already_buffered, huge);
    _exit(kReturned);
}

const char* describe(int status) {
    if (!WIFEXITED(status)) {
        return "killed by a signal (sanitizer report or unexpected crash)";
    }
    switch (WEXITSTATUS(status)) {
        case kReadOfInputGuard:
            return "first fault: reading past the input (expected)";
        case kFaultAtEngineGuard:
            return "first fault: WRITING PAST THE ENGINE (out-of-bounds write)";
        case kFaultElsewhere:
            return "first fault outside both guarded areas";
        case kReturned:
            return "update returned after a length near SIZE_MAX (it cannot have read that input)";
        case kSetupFailed:
            return "setup failed (mmap/sigaction)";
        default:
            return "unexpected exit status";
    }
}

template <class Fork>
bool check(const char* what, Fork child) {
    std::fflush(stdout);
    const pid_t pid = fork();
    if (pid == 0) {
        child();
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid) {
        std::printf("FAIL %s: fork/wait\n", what);
        return false;
    }
    const bool ok = WIFEXITED(status) && WEXITSTATUS(status) == kReadOfInputGuard;
    std::printf("%s %s: %s\n", ok ? "ok  " : "FAIL", what, describe(status));
    return ok;
}

// --- streams against guard pages

using Bytes = std::vector<uint8_t>;

template <class Engine>
Bytes stream(Engine& engine, const uint8_t* message, size_t length, size_t piece,
             size_t digest_bytes = 64) {
    for (size_t offset = 0; offset < length; offset += piece) {
        engine.update(message + offset, length - offset < piece ? length - offset : piece);
    }
    Bytes out(digest_bytes);
    engine.finish(out.data());
    return out;
}

// The BLAKE2s and BLAKE2sp engines on every runnable BLAKE2s kernel and usable 8-lane
// candidate, for one message placed against a guard page.
void check_blake2s_streams(b2test::Report& report, Guarded& engine_area, const uint8_t* message,
                           size_t length, const uint8_t* key, size_t key_length,
                           const std::string& where) {
    namespace dispatch = blake2simd::dispatch;
    const auto candidates = dispatch::candidates(dispatch::Form::blake2sp);
    const auto measurements = dispatch::facts(dispatch::Form::blake2sp);
    const Bytes expected_sp = rfc7693::blake2sp(key, key_length, message, length);
    for (size_t c = 0; c < candidates.size(); ++c) {
        if (!measurements[c].usable) {
            continue;
        }
        for (const size_t piece : {size_t{4096}, size_t{511}, size_t{100}}) {
            auto* engine = new (engine_area.usable) Blake2spEngine;
            engine->start(blake2s_single_lane_for(candidates[c].id),
                          candidates[c].entry.blake2s_lanes, key, key_length);
            B2_CHECK(report, stream(*engine, message, length, piece, 32) == expected_sp,
                     "BLAKE2sp, candidate " + std::to_string(c) + ", " + where + ", pieces of " +
                         std::to_string(piece));
        }
    }
    rfc7693::blake2s::Options o;
    o.key = key;
    o.key_len = key_length;
    const Bytes expected_s = rfc7693::blake2s::hash(o, message, length);
    for (const blake2simd::Blake2sFamily::Kernel* kernel : runnable_blake2s_kernels()) {
        auto* engine = new (engine_area.usable) Blake2sEngine;
        blake2simd::Blake2sParameterBlock params;
        params.key_length = static_cast<uint8_t>(key_length);
        uint8_t padded[blake2simd::Blake2sFamily::kBlockBytes] = {};
        std::memcpy(padded, key, key_length);
        if (key_length > 0) {
            engine->start_keyed_empty(kernel->compress, params, padded);
        } else {
            engine->start(kernel->compress, params);
        }
        B2_CHECK(report, stream(*engine, message, length, 100, 32) == expected_s,
                 std::string("BLAKE2s, ") + kernel->name + ", " + where);
    }
}

// Every usable BLAKE2bp candidate, fed in pieces of several sizes.
void check_blake2bp_streams(b2test::Report& report, Guarded& engine_area, const uint8_t* message,
                            size_t length, const uint8_t* key, size_t key_length,
                            const std::string& where) {
    namespace dispatch = blake2simd::dispatch;
    const auto candidates = dispatch::candidates(dispatch::Form::blake2bp);
    const auto measurements = dispatch::facts(dispatch::Form::blake2bp);
    const Bytes expected_bp = rfc7693::blake2bp(key, key_length, message, length);
    for (size_t c = 0; c < candidates.size(); ++c) {
        if (!measurements[c].usable) {
            continue;
        }
        for (const size_t piece : {size_t{4096}, size_t{511}, size_t{100}}) {
            auto* engine = new (engine_area.usable) Blake2bpEngine;
            engine->start(single_lane_for(candidates[c].id), candidates[c].entry.blake2b_lanes, key,
                          key_length);
            B2_CHECK(report, stream(*engine, message, length, piece) == expected_bp,
                     "BLAKE2bp, candidate " + std::to_string(c) + ", " + where + ", pieces of " +
                         std::to_string(piece));
        }
    }
}

void check_blake2b_streams(b2test::Report& report, Guarded& engine_area, const uint8_t* message,
                           size_t length, const uint8_t* key, size_t key_length,
                           const std::string& where) {
    rfc7693::Options o;
    o.key = key;
    o.key_len = key_length;
    const Bytes expected_b = rfc7693::hash(o, message, length);
    for (const blake2simd::Blake2bFamily::Kernel* runnable : runnable_kernels()) {
        const blake2simd::Blake2bFamily::Kernel& kernel = *runnable;
        auto* engine = new (engine_area.usable) Blake2bEngine;
        blake2simd::Blake2bParameterBlock params;
        params.key_length = static_cast<uint8_t>(key_length);
        uint8_t padded[blake2simd::Blake2bFamily::kBlockBytes] = {};
        std::memcpy(padded, key, key_length);
        if (key_length > 0) {
            engine->start_keyed_empty(kernel.compress, params, padded);
        } else {
            engine->start(kernel.compress, params);
        }
        B2_CHECK(report, stream(*engine, message, length, 100) == expected_b,
                 std::string("BLAKE2b, ") + kernel.name + ", " + where);
    }
}

// Messages that end at (or start right after) a guard page, through every engine and kernel.
void check_streams_at_guards(b2test::Report& report) {
    Guarded engine_area;
    Guarded input_area;
    if (!engine_area.map(1) || !input_area.map(1)) {
        report.check(false, "cannot map guarded areas");
        return;
    }
    static const uint8_t key[] = "streams against guard pages";
    for (const size_t length :
         {0, 1, 127, 128, 129, 511, 512, 513, 895, 896, 897, 1024, 1500, 2049, 4096}) {
        for (const bool at_end : {true, false}) {
            uint8_t* message =
                at_end ? input_area.usable + input_area.bytes - length : input_area.usable;
            for (size_t i = 0; i < length; ++i) {
                message[i] = static_cast<uint8_t>(i * 13 + length);
            }
            const std::string where = std::to_string(length) + " bytes " +
                                      (at_end ? "ending at" : "starting at") + " a guard";
            for (const size_t key_length : {size_t{0}, sizeof key}) {
                check_blake2bp_streams(report, engine_area, message, length, key, key_length,
                                       where);
                check_blake2s_streams(report, engine_area, message, length, key, key_length, where);
                check_blake2b_streams(report, engine_area, message, length, key, key_length, where);
            }
        }
    }
}

// One child per pending length, each fed an update of SIZE_MAX-40 after `start`.
template <class Engine, class Start>
void check_huge_updates(b2test::Report& report, const char* engine, const char* pending,
                        std::initializer_list<size_t> lengths, Start start) {
    for (const size_t buffered : lengths) {
        char what[96];
        std::snprintf(what, sizeof what, "%s engine, %zu bytes %s, length SIZE_MAX-40", engine,
                      buffered, pending);
        report.check(check(what, [&] { run_child<Engine>(start, buffered); }), what);
    }
}

}  // namespace

int main() {
    namespace dispatch = blake2simd::dispatch;
    const blake2simd::Blake2bFamily::Kernel ref = *runnable_kernels()[0];
    const blake2simd::Compress4Fn ref4 =
        dispatch::candidates(dispatch::Form::blake2bp)[0].entry.blake2b_lanes;
    b2test::Report report("test_engine_bounds", std::numeric_limits<int>::max());
    // Every pending length class of BLAKE2bp: none, part of a group, more than a group.
    check_huge_updates<Blake2bpEngine>(
        report, "BLAKE2bp", "pending", {0, 1, 100, 511, 600, 895, 896},
        [&](Blake2bpEngine& e) { e.start(ref.compress, ref4, nullptr, 0); });
    check_huge_updates<Blake2bEngine>(
        report, "BLAKE2b", "buffered", {0, 1, 127, 128},
        [&](Blake2bEngine& e) { e.start(ref.compress, blake2simd::Blake2bParameterBlock{}); });
    const blake2simd::Blake2sFamily::Kernel ref_s = *runnable_blake2s_kernels()[0];
    const blake2simd::Blake2sCompress8Fn ref8 =
        dispatch::candidates(dispatch::Form::blake2sp)[0].entry.blake2s_lanes;
    // BLAKE2sp: none, part of a group of eight blocks, a group, more than a group.
    check_huge_updates<Blake2spEngine>(
        report, "BLAKE2sp", "pending", {0, 1, 63, 64, 511, 512, 600, 1023},
        [&](Blake2spEngine& e) { e.start(ref_s.compress, ref8, nullptr, 0); });
    check_huge_updates<Blake2sEngine>(
        report, "BLAKE2s", "buffered", {0, 1, 63, 64},
        [&](Blake2sEngine& e) { e.start(ref_s.compress, blake2simd::Blake2sParameterBlock{}); });
    check_streams_at_guards(report);
    return report.finish();
}
