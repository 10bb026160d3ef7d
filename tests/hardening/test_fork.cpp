// fork() while another thread makes the first use of the provider (kernel choice: self-tests
// and calibration) must leave the child able to hash: nothing the child inherits may wait for
// a thread that did not survive the fork. Each trial is a fresh process (the first use happens
// once per process): it loads the module through a minimal core (no libcrypto locks involved),
// starts a thread whose digest context triggers the first use, and forks at a moment spread
// over the first-use window; the thread's digest is BLAKE2BP-512 in even trials and
// BLAKE2SP-256 in odd ones (each algorithm's kernel choice is its own first use). The child
// computes BLAKE2B-512, BLAKE2BP-512, BLAKE2S-256, BLAKE2SP-256, BLAKE2XB and BLAKE2XS (known
// length, more than one output block; rfc7693::blake2x) and reports them through a
// pipe, checked against rfc7693.hpp; an alarm of several seconds ends a child that hangs (a
// deadlock detector: the child needs milliseconds, so nothing here measures speed). Neither the
// child nor the first-use thread uses malloc: lookups and buffers are made before the thread
// starts, and the module allocates from the core's lock-free arena, so a hang is ours alone.
// SPDX-License-Identifier: Apache-2.0
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include <openssl/core_names.h>
#include <openssl/params.h>

#include "b2test/check.hpp"
#include "direct_module.hpp"
#include "rfc7693.hpp"

namespace {

using Bytes = std::vector<uint8_t>;

constexpr int kTrials = 60;
constexpr unsigned kChildAlarmSeconds = 8;
// Spread of the fork moments after the first-use thread starts; the first use takes about
// 2 ms here (longer under sanitizers), so later trials also fork after it ended.
constexpr long kSpreadMicroseconds = 4000;

enum Outcome : int { kOk = 0, kWrongDigest = 1, kChildHung = 2, kChildFailed = 3, kSetup = 4 };

Bytes message() {
    Bytes bytes(1000);
    for (size_t i = 0; i < bytes.size(); ++i) {
        bytes[i] = static_cast<uint8_t>(i * 11 + 5);
    }
    return bytes;
}

// The digests the child reports, in this order, with their sizes.
struct Digest {
    const char* name;
    size_t size;
    bool xof = false;  // BLAKE2X: `size` is the length fixed at init (xoflen)
};
constexpr Digest kDigests[] = {{"BLAKE2B-512", 64},     {"BLAKE2BP-512", 64},
                               {"BLAKE2S-256", 32},     {"BLAKE2SP-256", 32},
                               {"BLAKE2XB", 150, true}, {"BLAKE2XS", 70, true}};
constexpr size_t kReportBytes = 64 + 64 + 32 + 32 + 150 + 70;

Bytes expected_report(const Bytes& input) {
    Bytes all = rfc7693::hash(rfc7693::Options{}, input.data(), input.size());
    for (const Bytes& part :
         {rfc7693::blake2bp(nullptr, 0, input.data(), input.size()),
          rfc7693::blake2s::hash(rfc7693::blake2s::Options{}, input.data(), input.size()),
          rfc7693::blake2sp(nullptr, 0, input.data(), input.size()),
          rfc7693::blake2x(rfc7693::Options{}, input.data(), input.size(), 150),
          rfc7693::blake2s::blake2x(rfc7693::blake2s::Options{}, input.data(), input.size(), 70)}) {
        all.insert(all.end(), part.begin(), part.end());
    }
    return all;
}

// One digest through functions looked up before any fork, into `out` (which.size bytes): after
// the fork the child allocates nothing itself, and the module allocates from the core's arena
// (direct_module.hpp), so no allocator lock a parent thread held can stop it.
bool digest(const direct_module::DigestFns& d, void* provctx, const Digest& which,
            const Bytes& input, uint8_t* out) {
    void* ctx = d.newctx(provctx);
    size_t length = 0;
    size_t xof_length = which.size;
    const OSSL_PARAM xof_params[] = {
        OSSL_PARAM_construct_size_t(OSSL_DIGEST_PARAM_XOFLEN, &xof_length),
        OSSL_PARAM_construct_end()};
    const bool ok = ctx != nullptr && d.init(ctx, which.xof ? xof_params : nullptr) == 1 &&
                    d.update(ctx, input.data(), input.size()) == 1 &&
                    d.final(ctx, out, &length, which.size) == 1 && length == which.size;
    if (ctx != nullptr) {
        d.freectx(ctx);
    }
    return ok;
}

struct Lookups {
    direct_module::DigestFns fns[std::size(kDigests)];
    bool complete = true;
};

Lookups look_up(const direct_module::Instance& module) {
    Lookups lookups;
    for (size_t i = 0; i < std::size(kDigests); ++i) {
        lookups.fns[i] = module.digest(kDigests[i].name);
        lookups.complete = lookups.complete && lookups.fns[i].newctx != nullptr;
    }
    return lookups;
}

void sleep_microseconds(long microseconds) {
    timespec pause{microseconds / 1000000, (microseconds % 1000000) * 1000};
    nanosleep(&pause, nullptr);
}

// In the grandchild: the digests into the pipe, then exit.
[[noreturn]] void hash_in_child(const Lookups& lookups, void* provctx, const Bytes& input,
                                uint8_t (&report)[kReportBytes], int out_fd) {
    alarm(kChildAlarmSeconds);
    size_t filled = 0;
    bool ok = true;
    for (size_t i = 0; i < std::size(kDigests); ++i) {
        ok = ok && digest(lookups.fns[i], provctx, kDigests[i], input, report + filled);
        filled += kDigests[i].size;
    }
    const bool written =
        ok && write(out_fd, report, sizeof report) == static_cast<ssize_t>(sizeof report);
    _exit(written ? 0 : 1);
}

// One fresh process: first use of `first` on a thread, fork after `delay` microseconds.
[[noreturn]] void run_trial(long delay, const Digest& first) {
    direct_module::Instance module;
    if (!module.open("", direct_module::kCoreWithArena)) {
        _exit(kSetup);
    }
    const Lookups lookups = look_up(module);
    if (!lookups.complete) {
        _exit(kSetup);
    }
    const Bytes input = message();
    static uint8_t report[kReportBytes];
    const size_t first_index = static_cast<size_t>(&first - kDigests);
    Bytes parent_digest(first.size);
    bool parent_ok = false;
    std::thread first_use([&] {
        parent_ok =
            digest(lookups.fns[first_index], module.provctx(), first, input, parent_digest.data());
    });
    sleep_microseconds(delay);
    int fds[2];
    if (pipe(fds) != 0) {
        _exit(kSetup);
    }
    const pid_t child = fork();
    if (child == 0) {
        close(fds[0]);
        hash_in_child(lookups, module.provctx(), input, report, fds[1]);
    }
    close(fds[1]);
    first_use.join();
    Bytes received(kReportBytes);
    size_t got = 0;
    while (got < received.size()) {
        const ssize_t n = read(fds[0], received.data() + got, received.size() - got);
        if (n <= 0) {
            break;
        }
        got += static_cast<size_t>(n);
    }
    int status = 0;
    waitpid(child, &status, 0);
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) {
        _exit(kChildHung);
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || got != received.size()) {
        _exit(kChildFailed);
    }
    const Bytes expected = expected_report(input);
    const Bytes expected_first = first.size == 64
                                     ? rfc7693::blake2bp(nullptr, 0, input.data(), input.size())
                                     : rfc7693::blake2sp(nullptr, 0, input.data(), input.size());
    const bool right = received == expected && parent_ok && parent_digest == expected_first;
    _exit(right ? kOk : kWrongDigest);
}

}  // namespace

int main() {
    if (b2test::multithreaded_fork_unsupported()) {
        return b2test::kSkipExitCode;
    }
    b2test::Report report("test_fork", std::numeric_limits<int>::max());
    int counts[5] = {};
    for (int trial = 0; trial < kTrials; ++trial) {
        const long delay = trial * kSpreadMicroseconds / kTrials;
        std::fflush(stdout);
        const pid_t pid = fork();
        if (pid == 0) {
            run_trial(delay, kDigests[trial % 2 == 0 ? 1 : 3]);
        }
        int status = 0;
        if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
            WEXITSTATUS(status) > kSetup) {
            std::printf("FAIL trial %d: the trial process itself failed (status %d)\n", trial,
                        status);
            return 1;
        }
        const int outcome = WEXITSTATUS(status);
        ++counts[outcome];
        static const char* const kWhat[] = {"ok", "wrong digest", "HUNG (deadlock)", "failed",
                                            "setup failed"};
        B2_CHECK(report, outcome == kOk,
                 "trial " + std::to_string(trial) + " (fork " + std::to_string(delay) +
                     " us after first use began): child " + kWhat[outcome]);
    }
    std::printf(
        "test_fork: %d trials: %d children hashed right, %d hung, %d wrong, %d failed, %d setup\n",
        kTrials, counts[kOk], counts[kChildHung], counts[kWrongDigest], counts[kChildFailed],
        counts[kSetup]);
    return report.finish();
}
