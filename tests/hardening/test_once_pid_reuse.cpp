// A claim left by another process that happens to have this process's pid must not be taken
// for one of this process's own (kernels/once.hpp; issue 23.7). Pids repeat: a grandparent that
// claimed and exited can share its pid with a grandchild, and each new pid namespace numbers
// from 1. The namespaces make it deterministic: a process B, pid 1 in a namespace of its own,
// has a thread copy a large value into a Published<T> (the claim is held for milliseconds) and,
// while the claim is held, forks C into a further namespace, where C is pid 1 too. C must take the
// stale claim over and publish its own value; a claim tagged with the pid alone looked like C's own
// thread, and C waited forever. Needs pid namespaces (root, or an unprivileged user namespace):
// else 77. SPDX-License-Identifier: Apache-2.0
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <thread>
#include <type_traits>

#include "b2test/check.hpp"
#include "once.hpp"

namespace {

// Large enough that copying it into place (page faults included) takes milliseconds.
struct Big {
    unsigned char bytes[16u << 20];
};

constinit blake2simd::Published<Big> g_published;
Big g_from_parent;
Big g_from_child;

// Published's claim word, its first member (a standard-layout class): 0 unclaimed, all ones
// published, anything else a claim in progress. Read to fork only while a claim is held, and
// to make sure the child inherited one.
static_assert(std::is_standard_layout_v<blake2simd::Published<Big>>);
bool claim_in_progress() {
    const uint64_t word = reinterpret_cast<const std::atomic<uint64_t>*>(&g_published)
                              ->load(std::memory_order_acquire);
    return word != 0 && word != ~uint64_t{0};
}

constexpr int kAttempts = 8;
constexpr int kChildSeconds = 5;

enum Outcome : int { kTookOver = 0, kWrongValue = 1, kHung = 2, kTooLate = 3, kSetup = 4 };

void sleep_milliseconds(long milliseconds) {
    timespec pause{0, milliseconds * 1000000};
    nanosleep(&pause, nullptr);
}

// In C (pid 1 of its namespace): publish its own value over the claim B's thread left.
[[noreturn]] void publish_in_child() {
    if (getpid() != 1) {
        _exit(kSetup);
    }
    if (!claim_in_progress()) {
        _exit(kTooLate);  // B's thread was not inside its claim at the fork
    }
    const Big& value = g_published.publish(g_from_child);
    _exit(value.bytes[0] == 0xCD && value.bytes[sizeof value.bytes - 1] == 0xCD ? kTookOver
                                                                                : kWrongValue);
}

// Waits for C; C is a namespace's init, which ignores its own alarm, so B kills it on time.
int wait_with_deadline(pid_t child) {
    for (int waited = 0; waited < kChildSeconds * 100; ++waited) {
        int status = 0;
        if (waitpid(child, &status, WNOHANG) == child) {
            return WIFEXITED(status) ? WEXITSTATUS(status) : kSetup;
        }
        sleep_milliseconds(10);
    }
    kill(child, SIGKILL);
    waitpid(child, nullptr, 0);
    return kHung;
}

// In B (pid 1 of its namespace): a thread claims and copies; C is forked meanwhile.
[[noreturn]] void claim_and_fork() {
    if (getpid() != 1) {
        _exit(kSetup);
    }
    // The thread first: once B has unshared, its threads would belong to no namespace.
    std::thread publisher([] { g_published.publish(g_from_parent); });
    if (unshare(CLONE_NEWPID) != 0) {
        _exit(kSetup);
    }
    while (!claim_in_progress() && g_published.get() == nullptr) {
        sched_yield();
    }
    const pid_t child = fork();
    if (child == 0) {
        publish_in_child();
    }
    publisher.join();
    _exit(child > 0 ? wait_with_deadline(child) : kSetup);
}

// One attempt in a fresh process, so that B is its namespace's first process (pid 1).
int attempt(int namespace_flags) {
    std::fflush(stdout);
    const pid_t helper = fork();
    if (helper == 0) {
        if (unshare(namespace_flags) != 0) {
            _exit(kSetup);
        }
        const pid_t b = fork();
        if (b == 0) {
            claim_and_fork();
        }
        int status = 0;
        _exit(b > 0 && waitpid(b, &status, 0) == b && WIFEXITED(status) ? WEXITSTATUS(status)
                                                                        : kSetup);
    }
    int status = 0;
    return helper > 0 && waitpid(helper, &status, 0) == helper && WIFEXITED(status)
               ? WEXITSTATUS(status)
               : kSetup;
}

}  // namespace

int main() {
    std::memset(&g_from_parent, 0xAB, sizeof g_from_parent);
    std::memset(&g_from_child, 0xCD, sizeof g_from_child);
    // Root creates pid namespaces directly; others may through a user namespace.
    int flags = CLONE_NEWPID;
    int outcome = attempt(flags);
    if (outcome == kSetup) {
        flags = CLONE_NEWUSER | CLONE_NEWPID;
        outcome = attempt(flags);
    }
    if (outcome == kSetup) {
        std::printf("SKIP: cannot create nested pid namespaces here (unshare CLONE_NEWPID)\n");
        return b2test::kSkipExitCode;
    }
    int tries = 1;
    for (; outcome == kTooLate && tries < kAttempts; ++tries) {
        outcome = attempt(flags);
    }
    if (outcome == kTooLate) {
        std::printf("SKIP: in %d tries no fork landed inside the claim (no verdict)\n", tries);
        return b2test::kSkipExitCode;
    }
    static const char* const kWhat[] = {"took the stale claim over", "published a wrong value",
                                        "HUNG on the stale claim", "never forked inside the claim",
                                        "setup failed"};
    std::printf("test_once_pid_reuse: pid 1 forked from pid 1 mid-claim (%d tries): %s\n", tries,
                kWhat[outcome]);
    b2test::Report report("test_once_pid_reuse");
    report.check(outcome == kTookOver, std::string("child ") + kWhat[outcome]);
    return report.finish();
}
