// A provider instance with no working kernel: creating a digest or MAC context fails with a
// reason on the error queue, not silently. No real CPU gets there (the reference kernel passes
// its self-test, and query_operation then offers nothing anyway), so the provider context's
// kernel choice is replaced here by one with no kernel, and new_context is driven directly.
// SPDX-License-Identifier: Apache-2.0
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "b2test/check.hpp"
#include "context.hpp"
#include "errors.hpp"
#include "provider_context.hpp"

namespace blake2simd {

// Stands in for provider.cpp's: no kernel passed its self-test.
const KernelChoice& ProviderContext::kernel_choice() noexcept {
    static const KernelChoice none{};
    return none;
}

}  // namespace blake2simd

namespace {

struct Raised {
    int count = 0;
    uint32_t reason = 0;
};
Raised g_raised;

void new_error(const OSSL_CORE_HANDLE*) noexcept {
    ++g_raised.count;
}
void set_error_debug(const OSSL_CORE_HANDLE*, const char*, int, const char*) noexcept {}
void vset_error(const OSSL_CORE_HANDLE*, uint32_t reason, const char*, va_list) noexcept {
    g_raised.reason = reason;
}
void* allocate(size_t size, const char*, int) noexcept {
    return std::malloc(size);
}
void release(void* memory, const char*, int) noexcept {
    std::free(memory);
}

// The least an algorithm context provides (blake2simd::AlgorithmContext); only newctx runs.
struct UnusedEngine {
    void update(const unsigned char*, size_t) noexcept {}
};

struct Context {
    blake2simd::ProviderContext* provider;
    blake2simd::Blake2bFamily::Kernel kernel;
    blake2simd::Phase phase;
    UnusedEngine engine;

    size_t output_size() const noexcept { return 0; }
    const char* served_by() const noexcept { return kernel.name; }
};
static_assert(blake2simd::AlgorithmContext<Context> && !blake2simd::TreeContext<Context>);

// One member short (no phase): no context, so no template of context.hpp accepts it.
struct WithoutPhase {
    blake2simd::ProviderContext* provider;
    blake2simd::Blake2bFamily::Kernel kernel;
    UnusedEngine engine;

    size_t output_size() const noexcept { return 0; }
    const char* served_by() const noexcept { return kernel.name; }
};
static_assert(!blake2simd::AlgorithmContext<WithoutPhase>);

const char* reason_text(uint32_t reason) {
    for (const OSSL_ITEM* item = blake2simd::reason_strings(); item->id != 0; ++item) {
        if (item->id == reason) {
            return static_cast<const char*>(item->ptr);
        }
    }
    return "(none)";
}

}  // namespace

int main() {
    blake2simd::ProviderContext provider;
    provider.core_new_error = &new_error;
    provider.core_set_error_debug = &set_error_debug;
    provider.core_vset_error = &vset_error;
    provider.memory.allocate = &allocate;
    provider.memory.release = &release;
    Context* ctx = blake2simd::new_context<Context>(&provider);
    b2test::Report report("test_no_kernel");
    B2_CHECK(report, ctx == nullptr, "a context without a kernel was created");
    if (ctx != nullptr) {
        blake2simd::free_context<Context>(ctx);
    }
    const char* text = reason_text(g_raised.reason);
    B2_CHECK(report, g_raised.count == 1 && std::strstr(text, "kernel") != nullptr,
             std::to_string(g_raised.count) + " errors raised, reason '" + text + "'");
    std::printf("reason '%s'\n", text);
    return report.finish();
}
