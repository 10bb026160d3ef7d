// Per-instance provider state: the core's upcalls and this instance's kernel choice.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <openssl/core.h>
#include <openssl/core_dispatch.h>

#include <array>
#include <atomic>

#include "core_memory.hpp"
#include "forms.hpp"
#include "once.hpp"

namespace blake2simd {

// What serves each form (kernels/forms.hpp), indexed by dispatch::Form: contexts take their
// kernels from here, typed by kernel(), so a new form needs no field of its own.
struct KernelChoice {
    // A form's serving: its kernel's name and entry point (the form's field of `entry`).
    struct Served {
        const char* name;
        Entry entry;
    };

    bool offered;  // every form is served; else nothing is offered
    std::array<Served, dispatch::kFormCount> forms;
    char buildinfo[1472];

    // The served kernel of type `Kernel` (a member's Kernel or LanesKernel): one form has each.
    template <class Kernel>
    Kernel kernel() const noexcept {
        constexpr size_t form = dispatch::kFormWithKernel<Kernel>;
        static_assert(form < dispatch::kFormCount, "no form has kernels of this type");
        return dispatch::form_kernel<form>(forms[form].name, forms[form].entry);
    }
};

static_assert(sizeof KernelChoice{}.buildinfo >=
                  64 + dispatch::kFormCount * (16 + sizeof dispatch::Serving{}.description),
              "buildinfo holds the provider's name and version and every form's description");

struct ProviderContext {
    const OSSL_CORE_HANDLE* handle = nullptr;
    CoreMemory memory;
    OSSL_FUNC_core_new_error_fn* core_new_error = nullptr;
    OSSL_FUNC_core_set_error_debug_fn* core_set_error_debug = nullptr;
    OSSL_FUNC_core_vset_error_fn* core_vset_error = nullptr;

    char kernel_request[32] = {};  // from BLAKE2SIMD_KERNEL, else the config's `kernel`

    // Set when an on-demand self-test (OSSL_PROVIDER_self_test) failed: from then on this
    // instance offers no algorithm, refuses new contexts and reports status 0, until unloaded.
    std::atomic<bool> self_test_failed{false};
    // Tests only (a test linking the provider's sources): the self-test's stand-in entries.
    dispatch::SelfTestSubstitute self_test_substitute = nullptr;

    // The error registry's link to the instance enrolled before this one (errors.cpp).
    std::atomic<ProviderContext*> next_reporter{nullptr};

    // Resolved on first use, not at load: choosing may time the kernels, and every
    // process that loads OpenSSL with a system-wide config loads us.
    const KernelChoice& kernel_choice() noexcept;

    ProviderContext() = default;
    ProviderContext(const ProviderContext&) = delete;
    ProviderContext& operator=(const ProviderContext&) = delete;

  private:
    // Computed with no lock held, from the process-wide facts (kernels/once.hpp), and published
    // once: a child forked while another thread is choosing must not wait for that thread.
    Published<KernelChoice> m_choice;

    KernelChoice make_kernel_choice() const noexcept;
};

}  // namespace blake2simd
