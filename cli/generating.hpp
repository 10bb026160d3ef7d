// Printing checksums of files: b2sum's untagged and --tag lines, in the order given, with
// -j hashing several files at once.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "evp_hash.hpp"
#include "options.hpp"
#include "run_common.hpp"

namespace b2sum {

Run generate_sums(const Options& options, const ProviderSession& session, const Key& key);

}  // namespace b2sum
