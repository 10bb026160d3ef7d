// Many provider instances in one process (one per library context that loads blake2simd), each
// must report the errors raised without a provider context (a digest's get_params given a param
// of the wrong type) with our reason, however many others were loaded before it and whichever
// of them were unloaded since (issue 23.7: the error registry had 16 slots, and a 17th instance
// was never enrolled: once the first 16 were gone, its errors went unreported).
// SPDX-License-Identifier: Apache-2.0
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>

#include <memory>
#include <string>
#include <vector>

#include "b2test.hpp"

namespace {

constexpr int kInstances = 40;
constexpr const char* kWrongTypeReason = "parameter has the wrong data type";

// The reason text of the error a wrong-type get_params raises ("" if it raised none).
std::string wrong_type_reason(const EVP_MD* md) {
    const unsigned long code = b2test::wrong_type_get_params_error(md);
    const char* reason = code != 0 ? ERR_reason_error_string(code) : nullptr;
    return reason != nullptr ? reason : "";
}

struct Loaded {
    std::unique_ptr<b2test::ProviderSession> session;
    b2test::MdPtr md;
};

// Every instance still loaded reports the error with our reason.
void check_all(b2test::Report& report, const std::vector<Loaded>& loaded, int first_alive,
               const char* when) {
    for (int i = first_alive; i < kInstances; ++i) {
        const std::string reason = wrong_type_reason(loaded[static_cast<size_t>(i)].md.get());
        B2_CHECK(report, reason == kWrongTypeReason,
                 std::string(when) + ": instance " + std::to_string(i + 1) + " of " +
                     std::to_string(kInstances) + " (first alive: " +
                     std::to_string(first_alive + 1) + ") reported '" + reason + "'");
    }
}

}  // namespace

int main() {
    b2test::Report report("test_many_instances");
    std::vector<Loaded> loaded(kInstances);
    for (Loaded& entry : loaded) {
        entry.session =
            std::make_unique<b2test::ProviderSession>(b2test::ProviderSession::Default::exclude);
        entry.md = entry.session->fetch_md("BLAKE2B-512", b2test::kOurPropq);
        B2_REQUIRE(entry.md != nullptr, "fetch BLAKE2B-512");
    }
    check_all(report, loaded, 0, "all loaded");
    // Unload from the oldest: the instances enrolled first leave first.
    for (int gone = 1; gone < kInstances; ++gone) {
        loaded[static_cast<size_t>(gone - 1)] = Loaded{};
        check_all(report, loaded, gone, "after unloading the oldest");
    }
    return report.finish();
}
