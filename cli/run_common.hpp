// What generating and checking share: the outcome of a run, hex text, the algorithms fetched.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>
#include <string>

#include "evp_hash.hpp"
#include "hash_file.hpp"
#include "options.hpp"

namespace b2sum {

enum class Run { ok, failed, provider_failed };

inline std::string to_hex(const unsigned char* bytes, size_t length) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string hex(length * 2, '0');
    for (size_t i = 0; i < length; ++i) {
        hex[2 * i] = kDigits[bytes[i] >> 4];
        hex[2 * i + 1] = kDigits[bytes[i] & 15];
    }
    return hex;
}

// --kernel not honoured for this algorithm: reported, and the run ends with status 2.
bool report_wrong_kernel(const Options& options, const Algorithm& algorithm,
                         const FileDigest& digest);

// Each algorithm fetched once, on first use.
class FetchedAlgorithms {
  public:
    FetchedAlgorithms(const ProviderSession& session, bool keyed)
        : session_(session), keyed_(keyed) {}
    // nullptr (after reporting it) when the provider does not offer it.
    const Fetched* get(const Algorithm& algorithm);

  private:
    const ProviderSession& session_;
    bool keyed_;
    std::unique_ptr<Fetched> fetched_[std::size(kAlgorithms)];
};

}  // namespace b2sum
