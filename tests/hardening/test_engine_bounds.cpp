// A caller that passes a length near SIZE_MAX (a negative int converted, (size_t)-1 as "unknown")
// must get an over-read of its own input, never a write past the engine's buffers: for both
// streaming engines, with the engine alone on a page between two guard pages and the input
// between guard pages too, the first fault must be a read of a guard page around the input.
// Each case runs in a child process, which a SIGSEGV handler ends with the fault's class.
// SPDX-License-Identifier: Apache-2.0
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <new>

#include "blake2b_engine.hpp"
#include "blake2bp_engine.hpp"
#include "dispatch.hpp"

namespace {

using blake2simd::Blake2bEngine;
using blake2simd::Blake2bpEngine;

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

}  // namespace

int main() {
    const blake2simd::KernelInfo& ref = blake2simd::dispatch::compiled_kernels()[0];
    const blake2simd::Compress4Fn ref4 = blake2simd::dispatch::lanes4_candidates()[0].compress4;
    int failed = 0;
    int tried = 0;
    // Every pending length class of BLAKE2bp: none, part of a group, more than a group.
    for (const size_t buffered :
         {size_t{0}, size_t{1}, size_t{100}, size_t{511}, size_t{600}, size_t{895}, size_t{896}}) {
        char what[96];
        std::snprintf(what, sizeof what, "BLAKE2bp engine, %zu bytes pending, length SIZE_MAX-40",
                      buffered);
        ++tried;
        failed += check(what,
                        [&] {
                            run_child<Blake2bpEngine>(
                                [&](Blake2bpEngine& e) { e.start(ref.compress, ref4, nullptr, 0); },
                                buffered);
                        })
                      ? 0
                      : 1;
    }
    for (const size_t buffered : {size_t{0}, size_t{1}, size_t{127}, size_t{128}}) {
        char what[96];
        std::snprintf(what, sizeof what, "BLAKE2b engine, %zu bytes buffered, length SIZE_MAX-40",
                      buffered);
        ++tried;
        failed += check(what,
                        [&] {
                            run_child<Blake2bEngine>(
                                [&](Blake2bEngine& e) {
                                    e.start(ref.compress, blake2simd::Blake2bParams{});
                                },
                                buffered);
                        })
                      ? 0
                      : 1;
    }
    std::printf("test_engine_bounds: %d cases, %d failed\n", tried, failed);
    return failed == 0 ? 0 : 1;
}
