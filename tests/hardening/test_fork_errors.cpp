// fork() while other threads raise errors through the provider, or load and unload it, must
// leave the child able to raise errors: nothing the child inherits may wait for a thread that
// did not survive the fork (issue 23.5: the error registry's mutex, held across the core's error
// upcalls, hung 75 of 200 such children). The error is the one raised without a provider
// context: a digest's get_params given a param of the wrong type, as EVP_MD_get_params passes
// it through. Each phase keeps threads busy in that path (and, in the last, loading and unloading
// blake2simd in library contexts of their own) while the main thread forks children at spread
// moments; each child, under an alarm (a deadlock detector: it needs microseconds), raises the
// error once and must find our reason on its error queue. The children allocate nothing (the
// main thread's error state exists before the first fork), so an allocator lock a parent thread
// held cannot stop them. The same phase run with the default provider's SHA2-256 is the control:
// what libcrypto alone does.
// SPDX-License-Identifier: Apache-2.0
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/provider.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "b2test.hpp"

namespace {

constexpr int kChildrenPerPhase = 60;
constexpr unsigned kChildAlarmSeconds = 5;
constexpr long kMaxGapMicroseconds = 400;

enum Outcome : int { kOk = 0, kNoError = 1, kWrongReason = 2, kHung = 3, kFailed = 4 };

// The reason of the error a wrong-type get_params raises, or 0 when it raised none.
unsigned long raise_wrong_type_error(const EVP_MD* md) noexcept {
    return static_cast<unsigned long>(ERR_GET_REASON(b2test::wrong_type_get_params_error(md)));
}

void sleep_microseconds(long microseconds) {
    timespec pause{0, microseconds * 1000};
    nanosleep(&pause, nullptr);
}

// In the child: one error, judged against the parent's; no allocation, no stdio.
[[noreturn]] void raise_in_child(const EVP_MD* md, unsigned long expected_reason) {
    alarm(kChildAlarmSeconds);
    const unsigned long reason = raise_wrong_type_error(md);
    _exit(reason == expected_reason ? kOk : reason == 0 ? kNoError : kWrongReason);
}

Outcome outcome_of(int status) {
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) {
        return kHung;
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) > kWrongReason) {
        return kFailed;
    }
    return static_cast<Outcome>(WEXITSTATUS(status));
}

struct Tally {
    int counts[kFailed + 1] = {};
};

// Forks the children while the phase's threads run, then waits for all of them (their alarms run
// at once, so a phase whose children hang takes one alarm period, not one per child).
Tally fork_children(const EVP_MD* md, unsigned long expected_reason) {
    std::vector<pid_t> children;
    unsigned seed = 12345;
    for (int i = 0; i < kChildrenPerPhase; ++i) {
        seed = seed * 1103515245u + 12345u;
        sleep_microseconds(static_cast<long>(seed >> 16) % kMaxGapMicroseconds);
        const pid_t child = fork();
        if (child == 0) {
            raise_in_child(md, expected_reason);
        }
        if (child > 0) {
            children.push_back(child);
        }
    }
    Tally tally;
    tally.counts[kFailed] = kChildrenPerPhase - static_cast<int>(children.size());
    for (const pid_t child : children) {
        int status = 0;
        ++tally.counts[waitpid(child, &status, 0) == child ? outcome_of(status) : kFailed];
    }
    return tally;
}

// Loads and unloads blake2simd in fresh library contexts until `stop` (each load enrols an
// instance in the error registry, each unload withdraws it).
void load_and_unload(const std::atomic<bool>& stop) {
    const std::string directory = b2test::module_dir();
    while (!stop.load()) {
        OSSL_LIB_CTX* libctx = OSSL_LIB_CTX_new();
        OSSL_PROVIDER_set_default_search_path(libctx, directory.c_str());
        OSSL_PROVIDER* provider = OSSL_PROVIDER_load(libctx, b2test::kOurProvider);
        if (provider != nullptr) {
            OSSL_PROVIDER_unload(provider);
        }
        OSSL_LIB_CTX_free(libctx);
    }
}

struct Phase {
    const char* what;
    const char* digest;
    const char* propq;
    int error_threads;
    bool load_unload;
    bool asserted;  // false: the control, printed only
};

Tally run_phase(const b2test::ProviderSession& session, const Phase& phase,
                b2test::Report& report) {
    b2test::MdPtr md = session.fetch_md(phase.digest, phase.propq);
    B2_REQUIRE(md != nullptr, std::string("fetch ") + phase.digest);
    // The reason to expect, and this thread's error state made before any fork.
    const unsigned long expected_reason = raise_wrong_type_error(md.get());
    B2_REQUIRE(expected_reason != 0, std::string(phase.digest) + ": no error raised at all");
    std::atomic<bool> stop{false};
    std::vector<std::thread> threads;
    for (int i = 0; i < phase.error_threads; ++i) {
        threads.emplace_back([&] {
            while (!stop.load()) {
                raise_wrong_type_error(md.get());
            }
        });
    }
    if (phase.load_unload) {
        threads.emplace_back([&] { load_and_unload(stop); });
    }
    const Tally tally = fork_children(md.get(), expected_reason);
    stop.store(true);
    for (std::thread& thread : threads) {
        thread.join();
    }
    std::printf(
        "%s: %d children: %d raised the error, %d hung, %d raised none, %d raised another, "
        "%d failed\n",
        phase.what, kChildrenPerPhase, tally.counts[kOk], tally.counts[kHung],
        tally.counts[kNoError], tally.counts[kWrongReason], tally.counts[kFailed]);
    if (phase.asserted) {
        B2_CHECK(report, tally.counts[kOk] == kChildrenPerPhase,
                 std::string(phase.what) + ": " +
                     std::to_string(kChildrenPerPhase - tally.counts[kOk]) +
                     " children could not raise the error (hung: " +
                     std::to_string(tally.counts[kHung]) + ")");
    }
    return tally;
}

bool module_mapped() {
    std::ifstream maps("/proc/self/maps");
    std::string line;
    while (std::getline(maps, line)) {
        if (line.find("blake2simd.so") != std::string::npos) {
            return true;
        }
    }
    return false;
}

// The module registers a fork handler on first use (kernels/once.hpp); once the module is
// unloaded, a fork must not call into the unmapped code.
void check_fork_after_unload(b2test::Report& report) {
    {
        b2test::ProviderSession session(b2test::ProviderSession::Default::exclude);
        b2test::MdPtr md = session.fetch_md("BLAKE2B-512", b2test::kOurPropq);
        B2_REQUIRE(md != nullptr && raise_wrong_type_error(md.get()) != 0,
                   "an error raised through BLAKE2B-512");
    }
    B2_CHECK(report, !module_mapped(), "blake2simd.so still mapped after its last unload");
    std::fflush(stdout);
    const pid_t child = fork();
    if (child == 0) {
        _exit(0);
    }
    int status = 0;
    B2_CHECK(report,
             child > 0 && waitpid(child, &status, 0) == child && WIFEXITED(status) &&
                 WEXITSTATUS(status) == 0,
             "a fork after the module was unloaded: child status " + std::to_string(status));
}

}  // namespace

int main() {
    if (b2test::multithreaded_fork_unsupported()) {
        return b2test::kSkipExitCode;
    }
    b2test::Report report("test_fork_errors");
    check_fork_after_unload(report);
    b2test::ProviderSession session(b2test::ProviderSession::Default::include);
    const Phase phases[] = {
        {"errors raised by 2 threads (default provider's SHA2-256, the control)", "SHA2-256",
         b2test::kDefaultPropq, 2, false, false},
        {"errors raised by 2 threads (blake2simd BLAKE2B-512)", "BLAKE2B-512", b2test::kOurPropq, 2,
         false, true},
        {"errors raised by 2 threads (blake2simd BLAKE2S-256)", "BLAKE2S-256", b2test::kOurPropq, 2,
         false, true},
        {"errors raised by 1 thread, blake2simd loaded and unloaded by another (BLAKE2B-512)",
         "BLAKE2B-512", b2test::kOurPropq, 1, true, true},
    };
    std::fflush(stdout);
    for (const Phase& phase : phases) {
        run_phase(session, phase, report);
        std::fflush(stdout);
    }
    return report.finish();
}
