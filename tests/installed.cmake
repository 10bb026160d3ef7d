# The tests tools/test-installed.sh runs against an installed module (label "installed"): the
# known answers, the EVP behaviour (parameters, errors, life cycle, differential against the
# default provider and hashlib) and the CLI tests (openssl dgst/mac, blake2simd-sum), none of
# them needing root or the network. Run that way, they take the module directory from
# B2_MODULE_DIR and blake2simd-sum from B2_SUM in the environment (tests/support/b2test/evp.hpp,
# tests/b2check.py) instead of the build tree's; run plainly they test the build tree's.
# SPDX-License-Identifier: Apache-2.0
#
# Included last: it labels tests the other files registered. The CPU-model variants (qemu) are
# left out: they test the kernels of this build under emulation, not what was installed.
set(_b2_installed_pattern
    "^(evp\\.(kat|differential|hashlib_params|blake2x)|provider\\.semantics|blake2bp\\.(evp|cli)|cli\\.|sum\\.(differential|extras|check_hint))")
get_property(_b2_tests DIRECTORY PROPERTY TESTS)
foreach(_b2_test IN LISTS _b2_tests)
  if(_b2_test MATCHES "${_b2_installed_pattern}" AND NOT _b2_test MATCHES "\\.qemu\\.")
    set_property(TEST ${_b2_test} APPEND PROPERTY LABELS installed)
  endif()
endforeach()
