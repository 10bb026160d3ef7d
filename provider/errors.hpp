// Error reasons and their reporting through the core's error upcalls.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <openssl/core.h>

namespace blake2simd {

struct ProviderContext;

enum class Reason : int {
    invalid_key_length = 1,
    no_key_set,
    invalid_salt_length,
    invalid_custom_length,
    invalid_output_size,
    wrong_param_type,
    not_initialized,
    update_after_final,
    already_finalized,
    output_buffer_too_small,
    allocation_failed,
    // 12 was a reason nothing raised; the numbers after it stay as callers have seen them.
    blake2bp_output_size = 13,
    blake2bp_salt,
    blake2bp_custom,
    no_kernel_available,
    // The BLAKE2s family's limits (their texts name them); the rest is shared with BLAKE2b.
    blake2s_invalid_key_length,
    blake2s_invalid_salt_length,
    blake2s_invalid_custom_length,
    blake2s_invalid_output_size,
    blake2sp_output_size,
    blake2sp_salt,
    blake2sp_custom,
    size_fixed_by_name,
    // BLAKE2Xb / BLAKE2Xs.
    xof_invalid_length,
    xof_length_mismatch,
    xof_length_unknown,
    xof_output_too_long,
    xof_squeeze_after_final,
    xof_final_after_squeeze,
    xof_switch_after_update,
    // Serialized states (state_blob.hpp) and the on-demand self-test.
    state_truncated,
    state_not_recognised,
    state_other_version,
    state_other_algorithm,
    state_field_out_of_range,
    self_test_failed,
    // ARGON2I, ARGON2D, ARGON2ID (argon2_params.cpp names which param each refuses).
    argon2_output_size,
    argon2_salt_length,
    argon2_iterations,
    argon2_memcost,
    argon2_lanes,
    argon2_threads,
    argon2_version,
    argon2_flag,
    argon2_properties,
    argon2_missing_salt,
    argon2_memcost_below_lanes,
    argon2_threads_above_lanes,
    argon2_size_mismatch,
    argon2_memory,
    argon2_input_too_long,
    // A param's value outside its range, or a param an algorithm's definition fixes: the row of
    // the param's table says which and why in the error's data (Refusal::detail), so a new
    // param needs no reason of its own.
    invalid_param_value,
    param_fixed_by_algorithm,
};

// Why a call was refused: the reason, and the text of the param table's row that refused it
// (its name and limits, or what fixes it), or nullptr.
struct Refusal {
    Reason reason{};
    const char* detail = nullptr;

    constexpr Refusal() noexcept = default;
    constexpr Refusal(Reason why, const char* text = nullptr) noexcept  // NOLINT: from a Reason
        : reason(why), detail(text) {}
};

// The table handed to libcrypto through OSSL_FUNC_PROVIDER_GET_REASON_STRINGS.
const OSSL_ITEM* reason_strings() noexcept;

// Raises the refusal's reason on the calling thread's error queue, attributed to our provider,
// its detail (if any) as the error's data.
void raise_error(const ProviderContext* provider, Refusal refusal, const char* file, int line,
                 const char* function) noexcept;

// For callbacks OpenSSL calls without a provider context (a digest's get_params): the error is
// raised through the oldest live instance of ours (all name the same reasons). Instances enrol
// at init (any number: the registry links them through ProviderContext::next_reporter) and
// leave at teardown. Safe across fork(): no lock a vanished thread held can stop a child.
void enrol_error_reporter(ProviderContext* provider) noexcept;
void withdraw_error_reporter(const ProviderContext* provider) noexcept;
void raise_error_without_context(Refusal refusal, const char* file, int line,
                                 const char* function) noexcept;

}  // namespace blake2simd

#define B2_RAISE(provider, reason) \
    ::blake2simd::raise_error((provider), (reason), __FILE__, __LINE__, __func__)
#define B2_RAISE_WITHOUT_CONTEXT(reason) \
    ::blake2simd::raise_error_without_context((reason), __FILE__, __LINE__, __func__)
