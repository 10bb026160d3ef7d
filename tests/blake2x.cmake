# BLAKE2X below EVP (label "blake2x"): squeeze through the module's dispatch table, which every
# OpenSSL version can run (EVP_DigestSqueeze exists only from 3.3).
# SPDX-License-Identifier: Apache-2.0
b2_add_direct_test(blake2x.squeeze test_xof_squeeze)
set_tests_properties(blake2x.squeeze PROPERTIES LABELS "provider;blake2x")
