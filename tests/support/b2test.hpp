// Umbrella header of the header-only EVP test support library (tests/support/b2test/).
// SPDX-License-Identifier: Apache-2.0
//
// Typical test (build it with b2_add_evp_test() from tests/helpers.cmake):
//
//   b2test::Report report("test_semantics");
//   const b2test::ProviderSession session(b2test::ProviderSession::Default::include);
//   auto md = session.fetch_md(b2test::kDigestName, b2test::kOurPropq);
//   B2_REQUIRE(md, "fetch");                                // fatal: prints, exits 1
//   b2test::MdCtxPtr ctx(EVP_MD_CTX_new());
//   const auto out = b2test::run_digest(ctx.get(), md.get(), nullptr, message);
//   B2_CHECK(report, out == expected, "context, built only on failure");
//   return report.finish();                                 // "N passed, N failed", 0 or 1
//
// check.hpp    Report, B2_CHECK, B2_REQUIRE, contains, kSkipExitCode (77); no OpenSSL
// openssl_errors.hpp  drain_openssl_errors, last_reason; the queue in every failure message
// evp.hpp      ProviderSession, RAII pointers, provider_name, served_kernel, KernelPolicy
//              (B2_EXPECT_KERNEL / B2_ALLOWED_KERNELS / B2_SKIP_UNLESS_KERNEL),
//              Blake2bParams, run_digest / run_mac with update pieces
// hex.hpp      to_hex, from_hex
// json.hpp     reader for arrays of flat objects (string and integer values)
// vectors.hpp  Blake2bVector, load_official_kat, load_extended, vectors_path, pattern_mod251
#pragma once

#include "b2test/check.hpp"
#include "b2test/evp.hpp"
#include "b2test/hex.hpp"
#include "b2test/json.hpp"
#include "b2test/openssl_errors.hpp"
#include "b2test/vectors.hpp"
