// Values computed once per process, on first use, thread-safely, without the C++ runtime and
// without holding anything a fork() could leave locked.
// SPDX-License-Identifier: Apache-2.0
//
// Function-local statics need __cxa_guard_* from libstdc++, which every process that loads the
// module (with a system-wide openssl.cnf: every process using OpenSSL) would then map and
// relocate: about 0.6 ms per process here. Baseline code only: no ISA file includes this.
//
// No pthread_once or mutex held while computing: a child forked while another thread computes
// would wait forever for a thread it does not have (glibc's pthread_once happens to restart in a
// child, other C libraries do not, a mutex never does). So the value is computed with no lock
// held (racing first users may each compute it: it is a pure function of the process), and only
// the copy into place is claimed, tagged with the claiming process: a child that finds another
// process's claim knows its owner was left behind and takes it over.
#pragma once

#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>

namespace blake2simd {
namespace once_detail {
// Bumped in every child by a pthread_atfork child handler: an atomic add, no allocation.
inline constinit std::atomic<uint32_t> g_fork_epoch{0};
inline constinit std::atomic<bool> g_fork_handler_registered{false};
}  // namespace once_detail

// This process as a claim tag, never 0 or all ones: its pid and its fork epoch. A pid alone can
// match an ancestor's claim (pids are reused; each pid namespace starts at 1), but every fork
// since that claim bumped the epoch. The handler is registered before the first tag is handed
// out (racing first callers may each register one: the epoch then moves by more than one per
// fork, which serves as well); glibc removes it when the module is unloaded. If registration
// fails, the pid alone tags.
inline uint64_t process_tag() noexcept {
    using namespace once_detail;
    if (!g_fork_handler_registered.load(std::memory_order_acquire) &&
        pthread_atfork(nullptr, nullptr, []() noexcept {
            g_fork_epoch.fetch_add(1, std::memory_order_relaxed);
        }) == 0) {
        g_fork_handler_registered.store(true, std::memory_order_release);
    }
    const uint64_t epoch = g_fork_epoch.load(std::memory_order_relaxed);
    return epoch << 32 | static_cast<uint32_t>(getpid());
}

// Holds at most one published T; every reader sees the first value published.
// T must be trivially copyable and default-constructible (no dynamic initialisation).
template <class T>
class Published final {
  public:
    constexpr Published() noexcept = default;

    const T* get() const noexcept {
        return m_state.load(std::memory_order_acquire) == kPublished ? &m_value : nullptr;
    }

    // Publishes `value` unless a value is published already; returns the published one.
    const T& publish(const T& value) noexcept {
        const uint64_t self = process_tag();
        for (uint64_t state = m_state.load(std::memory_order_acquire); state != kPublished;
             state = m_state.load(std::memory_order_acquire)) {
            if (state == self) {
                // Another thread of this process is copying its value in: a few nanoseconds.
                sched_yield();
            } else if (m_state.compare_exchange_weak(state, self, std::memory_order_acquire)) {
                // It was unclaimed, or claimed by a process this one was forked from (whose
                // claiming thread is gone).
                m_value = value;
                m_state.store(kPublished, std::memory_order_release);
            }
        }
        return m_value;
    }

  private:
    static constexpr uint64_t kUnclaimed = 0;
    static constexpr uint64_t kPublished = ~uint64_t{0};
    static_assert(std::atomic<uint64_t>::is_always_lock_free);

    // kUnclaimed, kPublished, or the tag of the process whose thread is copying a value in.
    std::atomic<uint64_t> m_state{kUnclaimed};
    T m_value{};
};

// `compute` runs on first use, perhaps in several threads at once, never under a lock; every
// caller gets the one published result.
template <class T, T (*compute)() noexcept>
class ComputedOnce final {
  public:
    static const T& get() noexcept {
        if (const T* value = s_published.get()) {
            return *value;
        }
        return s_published.publish(compute());
    }
    static bool computed() noexcept { return s_published.get() != nullptr; }

  private:
    static constinit inline Published<T> s_published{};
};

}  // namespace blake2simd
