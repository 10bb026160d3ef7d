// Values computed once per process, on first use, thread-safely, without the C++ runtime and
// without holding anything a fork() could leave locked.
// SPDX-License-Identifier: Apache-2.0
//
// Function-local statics need __cxa_guard_* from libstdc++, and a module that needs libstdc++
// makes every process that loads it (with a system-wide openssl.cnf: every process using
// OpenSSL) map and relocate libstdc++ too: about 0.6 ms per process here. Baseline code only:
// no ISA file includes this.
//
// Why not pthread_once or a mutex held while computing: a thread that fork()s while another
// thread is inside the computation gives a child in which that other thread no longer exists;
// a child waiting for it hangs forever (glibc's pthread_once happens to restart in a child,
// other C libraries do not, and a mutex never does). So the value is computed with no lock
// held (racing first users may each compute it; it is a pure function of the process), and
// only the copy into place is claimed, tagged with the claiming process's pid: a child that
// finds a claim made by another process knows its owner was left behind and takes it over.
#pragma once

#include <sched.h>
#include <unistd.h>

#include <atomic>

namespace blake2simd {

// Holds at most one published T; every reader sees the first value published.
// T must be trivially copyable and default-constructible (no dynamic initialisation).
template <class T>
class Published final {
  public:
    constexpr Published() noexcept = default;

    // The published value, or nullptr.
    const T* get() const noexcept {
        return m_state.load(std::memory_order_acquire) == kPublished ? &m_value : nullptr;
    }

    // Publishes `value` unless a value is published already; returns the published one.
    const T& publish(const T& value) noexcept {
        for (;;) {
            int state = m_state.load(std::memory_order_acquire);
            if (state == kPublished) {
                return m_value;
            }
            const int self = static_cast<int>(getpid());
            if (state == self) {
                // Another thread of this process is copying its value in: a few nanoseconds.
                sched_yield();
                continue;
            }
            // Unclaimed, or claimed by a process this one was forked from (that thread is gone).
            if (m_state.compare_exchange_weak(state, self, std::memory_order_acquire)) {
                m_value = value;
                m_state.store(kPublished, std::memory_order_release);
                return m_value;
            }
        }
    }

  private:
    static constexpr int kUnclaimed = 0;
    static constexpr int kPublished = -1;

    // kUnclaimed, kPublished, or the pid of the process whose thread is copying a value in.
    std::atomic<int> m_state{kUnclaimed};
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

  private:
    static constinit inline Published<T> s_published{};
};

}  // namespace blake2simd
