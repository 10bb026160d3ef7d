// Error reasons and their reporting through the core's error upcalls.
// SPDX-License-Identifier: Apache-2.0
#include "errors.hpp"
#include "baseline_guard.hpp"

#include <sched.h>

#include <atomic>
#include <cstdarg>
#include <cstdint>

#include "once.hpp"
#include "provider_context.hpp"

namespace blake2simd {
namespace {

#define B2_REASON(reason, text) \
    { static_cast<unsigned int>(Reason::reason), const_cast<char*>(text) }

const OSSL_ITEM kReasonStrings[] = {
    B2_REASON(invalid_key_length, "invalid key length (must be 1..64 bytes)"),
    B2_REASON(no_key_set, "no key set"),
    B2_REASON(invalid_salt_length, "invalid salt length (must be at most 16 bytes)"),
    B2_REASON(invalid_custom_length, "invalid custom length (must be at most 16 bytes)"),
    B2_REASON(invalid_output_size, "invalid output size (must be 1..64 bytes)"),
    B2_REASON(wrong_param_type, "parameter has the wrong data type"),
    B2_REASON(not_initialized, "context not initialized"),
    B2_REASON(update_after_final, "update after final"),
    B2_REASON(already_finalized, "final already called"),
    B2_REASON(output_buffer_too_small, "output buffer too small"),
    B2_REASON(allocation_failed, "memory allocation failed"),
    B2_REASON(blake2bp_output_size, "invalid output size (BLAKE2bp: must be 1..64 bytes)"),
    B2_REASON(blake2bp_salt, "salt is not supported by BLAKE2bp"),
    B2_REASON(blake2bp_custom, "custom (personalization) is not supported by BLAKE2bp"),
    B2_REASON(no_kernel_available, "no BLAKE2 kernel passed its self-test"),
    B2_REASON(blake2s_invalid_key_length, "invalid key length (BLAKE2s: must be 1..32 bytes)"),
    B2_REASON(blake2s_invalid_salt_length,
              "invalid salt length (BLAKE2s: must be at most 8 bytes)"),
    B2_REASON(blake2s_invalid_custom_length,
              "invalid custom length (BLAKE2s: must be at most 8 bytes)"),
    B2_REASON(blake2s_invalid_output_size, "invalid output size (BLAKE2s: must be 1..32 bytes)"),
    B2_REASON(blake2sp_output_size, "invalid output size (BLAKE2sp: must be 1..32 bytes)"),
    B2_REASON(blake2sp_salt, "salt is not supported by BLAKE2sp"),
    B2_REASON(blake2sp_custom, "custom (personalization) is not supported by BLAKE2sp"),
    B2_REASON(size_fixed_by_name,
              "invalid output size (this digest's name fixes its size, e.g. BLAKE2B-256 is 32 "
              "bytes; BLAKE2B-512 and BLAKE2S-256 take any size)"),
    B2_REASON(xof_invalid_length,
              "invalid XOF length (BLAKE2Xb: 1..4294967294 bytes, BLAKE2Xs: 1..65534; none at "
              "init for the unknown-length mode)"),
    B2_REASON(xof_length_mismatch,
              "XOF output length differs from the length given at init (BLAKE2X hashes it into "
              "the root)"),
    B2_REASON(xof_length_unknown,
              "no XOF output length: give one at init, or use EVP_DigestFinalXOF or squeeze "
              "(openssl dgst: -xoflen N)"),
    B2_REASON(xof_output_too_long, "XOF output longer than this BLAKE2X context can produce"),
    B2_REASON(xof_squeeze_after_final, "squeeze after final"),
    B2_REASON(xof_final_after_squeeze, "final after squeeze (squeeze on for more output)"),
    B2_REASON(xof_switch_after_update,
              "xof changes the BLAKE2X root: set it at init or before the first update"),
    B2_REASON(state_truncated, "serialized state: not the length this algorithm's state has"),
    B2_REASON(state_not_recognised, "serialized state: not a blake2simd state (magic)"),
    B2_REASON(state_other_version, "serialized state: another format version"),
    B2_REASON(state_other_algorithm, "serialized state: of another algorithm"),
    B2_REASON(state_field_out_of_range,
              "serialized state: a length, counter or parameter out of range"),
    B2_REASON(self_test_failed, "the provider failed its self-test and serves nothing"),
    B2_REASON(argon2_output_size, "invalid Argon2 size (must be 4..4294967295 bytes)"),
    B2_REASON(argon2_salt_length, "invalid Argon2 salt length (must be at least 8 bytes)"),
    B2_REASON(argon2_iterations, "invalid Argon2 iter (must be 1..4294967295 passes)"),
    B2_REASON(argon2_memcost, "invalid Argon2 memcost (must be 8..4294967295 KiB blocks)"),
    B2_REASON(argon2_lanes, "invalid Argon2 lanes (must be 1..16777215)"),
    B2_REASON(argon2_threads, "invalid Argon2 threads (must be 1..16777215)"),
    B2_REASON(argon2_version, "invalid Argon2 version (must be 0x10 or 0x13, i.e. 16 or 19)"),
    B2_REASON(argon2_flag, "invalid Argon2 early_clean (must be an unsigned 32-bit integer)"),
    B2_REASON(argon2_properties, "invalid Argon2 properties (must be a UTF-8 string)"),
    B2_REASON(argon2_missing_salt, "missing Argon2 salt (set salt, at least 8 bytes)"),
    B2_REASON(argon2_memcost_below_lanes, "Argon2 memcost must be at least 8 times lanes"),
    B2_REASON(argon2_threads_above_lanes, "Argon2 threads must not exceed lanes"),
    B2_REASON(argon2_size_mismatch,
              "Argon2 size given at derive differs from the derive length (output buffer too "
              "small)"),
    B2_REASON(argon2_memory,
              "cannot map Argon2's memory (memcost KiB blocks; the system refused that much)"),
    B2_REASON(argon2_input_too_long, "Argon2 input too long (pass, salt, secret, ad: < 4 GiB)"),
    B2_REASON(invalid_param_value, "invalid parameter value"),
    B2_REASON(param_fixed_by_algorithm, "parameter fixed by the algorithm's definition"),
    {0, nullptr},
};

#undef B2_REASON

// core_vset_error takes a va_list; this gives it one.
void set_error(const ProviderContext* provider, unsigned int reason, const char* format,
               ...) noexcept {
    va_list args;
    va_start(args, format);
    provider->core_vset_error(provider->handle, reason, format, args);
    va_end(args);
}

// The live instances (one per library context that loads us), linked through their contexts,
// so any number can enrol without allocating. The lock is held only to enrol, withdraw, or
// raise one error, so teardown cannot free the reporter an error is being raised through.
//
// Not a mutex: a child forked while another thread holds one (raising an error, loading or
// unloading us) would wait forever for a thread that no longer exists. The lock word holds the
// holder's process tag (once.hpp); a thread that finds the tag of another process, one this
// process was forked from, takes it over. The list is consistent at every store made under it
// (a link is published by a single store), so the child finds it whole.
class ReportersLock final {
  public:
    void lock() noexcept {
        const uint64_t self = process_tag();
        for (;;) {
            uint64_t holder = m_holder.load(std::memory_order_relaxed);
            if (holder == self) {
                // Another thread of this process is inside: one core upcall at most.
                sched_yield();
                continue;
            }
            if (m_holder.compare_exchange_weak(holder, self, std::memory_order_acquire)) {
                return;
            }
        }
    }
    void unlock() noexcept { m_holder.store(kFree, std::memory_order_release); }

  private:
    static constexpr uint64_t kFree = 0;
    std::atomic<uint64_t> m_holder{kFree};
};

constinit ReportersLock g_reporters_lock;
// Release stores: a link is written before anything points at it.
constinit std::atomic<ProviderContext*> g_first_reporter{nullptr};

}  // namespace

const OSSL_ITEM* reason_strings() noexcept {
    return kReasonStrings;
}

void raise_error(const ProviderContext* provider, Refusal refusal, const char* file, int line,
                 const char* function) noexcept {
    if (provider == nullptr || provider->core_new_error == nullptr ||
        provider->core_set_error_debug == nullptr || provider->core_vset_error == nullptr) {
        return;
    }
    provider->core_new_error(provider->handle);
    provider->core_set_error_debug(provider->handle, file, line, function);
    const auto reason = static_cast<unsigned int>(refusal.reason);
    if (refusal.detail != nullptr) {
        set_error(provider, reason, "%s", refusal.detail);
    } else {
        set_error(provider, reason, nullptr);
    }
}

// Appended: errors go through the oldest instance, the one least likely to be still loading
// (libcrypto registers an instance's reason strings only after its init returns).
void enrol_error_reporter(ProviderContext* provider) noexcept {
    g_reporters_lock.lock();
    std::atomic<ProviderContext*>* link = &g_first_reporter;
    while (ProviderContext* next = link->load(std::memory_order_relaxed)) {
        link = &next->next_reporter;
    }
    provider->next_reporter.store(nullptr, std::memory_order_relaxed);
    link->store(provider, std::memory_order_release);
    g_reporters_lock.unlock();
}

void withdraw_error_reporter(const ProviderContext* provider) noexcept {
    g_reporters_lock.lock();
    for (std::atomic<ProviderContext*>* link = &g_first_reporter;
         ProviderContext* next = link->load(std::memory_order_relaxed);
         link = &next->next_reporter) {
        if (next == provider) {
            link->store(next->next_reporter.load(std::memory_order_relaxed),
                        std::memory_order_release);
            break;
        }
    }
    g_reporters_lock.unlock();
}

void raise_error_without_context(Refusal refusal, const char* file, int line,
                                 const char* function) noexcept {
    g_reporters_lock.lock();
    if (const ProviderContext* reporter = g_first_reporter.load(std::memory_order_relaxed)) {
        raise_error(reporter, refusal, file, line, function);
    }
    g_reporters_lock.unlock();
}

}  // namespace blake2simd
