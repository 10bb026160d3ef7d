// -c: verifying the files named in checksum files, with b2sum's messages and exit status.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "evp_hash.hpp"
#include "options.hpp"
#include "run_common.hpp"

namespace b2sum {

Run check_files(const Options& options, const ProviderSession& session, const Key& key);

}  // namespace b2sum
