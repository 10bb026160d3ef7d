# Through EVP with our provider (label "provider"): known answers, the differential tests
# against OpenSSL's default provider and hashlib, BLAKE2X; the case files come from the
# fixtures of vectors.cmake.
# SPDX-License-Identifier: Apache-2.0

# Known answers (BLAKE2b, BLAKE2s, BLAKE2sp), and random cases against the default provider.
b2_add_evp_test(NAME evp.kat TARGET test_kat SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_kat.cpp
                LABELS vectors provider blake2s blake2sp)
# Under an emulator (a cross build's tests) a fifth of the random cases: the same paths, in a
# minute instead of three.
set(b2_differential_args "")
if(CMAKE_CROSSCOMPILING_EMULATOR)
  set(b2_differential_args --cases 20000)
endif()
b2_add_evp_test(NAME evp.differential TARGET test_differential
                SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_differential.cpp
                ARGS ${b2_differential_args} LABELS vectors provider differential TIMEOUT 300)
# Parameterised digests and MACs against hashlib (vectors.random_cases_generate's cases).
b2_add_evp_test(NAME evp.hashlib_params TARGET test_differential
                ARGS --hashlib-cases ${b2_random_cases}
                LABELS vectors provider differential FIXTURES_REQUIRED b2_random_param_cases)

# BLAKE2S-256 / BLAKE2SMAC: the same two with --algorithm blake2s (the hashlib cases from
# vectors.blake2s_random_cases_generate; 3.0's default digest ignores params).
b2_add_evp_test(NAME evp.differential_blake2s TARGET test_differential
                ARGS --algorithm blake2s ${b2_differential_args}
                LABELS vectors provider differential blake2s TIMEOUT 300)
b2_add_evp_test(NAME evp.hashlib_params_blake2s TARGET test_differential
                ARGS --algorithm blake2s --hashlib-cases ${b2_blake2s_random_cases}
                LABELS vectors provider differential blake2s
                FIXTURES_REQUIRED b2_blake2s_random_param_cases)

# The whole parameter block (fanout ... last-node, keys, salt, custom) and trees of such nodes
# against hashlib (gen_tree_params.py), with random update splits and a dup mid-message: on the
# automatic kernel, each kernel of this build, and under every qemu CPU model (fewer cases).
get_property(b2_built_kernels GLOBAL PROPERTY B2_KERNELS)
foreach(b2_family blake2b blake2s)
  set(b2_tree_args --algorithm ${b2_family} --hashlib-cases ${b2_tree_cases_${b2_family}_full})
  b2_add_evp_test(NAME evp.hashlib_tree_params_${b2_family} TARGET test_differential
                  ARGS ${b2_tree_args} LABELS vectors provider differential
                  FIXTURES_REQUIRED b2_tree_params_${b2_family}_full)
  foreach(b2_kernel IN LISTS b2_built_kernels)
    b2_add_evp_test(NAME evp.hashlib_tree_params_${b2_family}_${b2_kernel} TARGET test_differential
                    ARGS ${b2_tree_args} LABELS vectors provider differential
                    ENVIRONMENT BLAKE2SIMD_KERNEL=${b2_kernel} B2_SKIP_UNLESS_KERNEL=${b2_kernel}
                    FIXTURES_REQUIRED b2_tree_params_${b2_family}_full)
  endforeach()
  b2_add_qemu_kernel_tests(evp.hashlib_tree_params_${b2_family} test_differential
                           --algorithm ${b2_family} --hashlib-cases
                           ${b2_tree_cases_${b2_family}_quick})
endforeach()
# The qemu runs read the quick files.
get_directory_property(b2_registered_tests TESTS)
foreach(b2_test IN LISTS b2_registered_tests)
  if(b2_test MATCHES "^evp\\.hashlib_tree_params_(blake2[bs])\\..*\\.qemu\\.")
    set_tests_properties(${b2_test} PROPERTIES
                         FIXTURES_REQUIRED b2_tree_params_${CMAKE_MATCH_1}_quick)
  endif()
endforeach()

# BLAKE2XB/BLAKE2XS and their MACs: the official entries and gen_blake2x.py's cases.
b2_add_evp_test(NAME evp.blake2x TARGET test_blake2x
                SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_blake2x.cpp ARGS ${b2_blake2x_cases}
                LABELS vectors provider blake2x FIXTURES_REQUIRED b2_blake2x_cases)
# The same on each kernel this build has (BLAKE2Xs falls back to auto where a kernel has no
# BLAKE2s form).
get_property(b2_built_kernels GLOBAL PROPERTY B2_KERNELS)
foreach(b2_kernel IN LISTS b2_built_kernels)
  b2_add_evp_test(NAME evp.blake2x_${b2_kernel} TARGET test_blake2x ARGS ${b2_blake2x_cases}
                  ENVIRONMENT BLAKE2SIMD_KERNEL=${b2_kernel} B2_SKIP_UNLESS_KERNEL=${b2_kernel}
                  LABELS vectors provider blake2x FIXTURES_REQUIRED b2_blake2x_cases)
endforeach()

# Under every emulated CPU model (helpers.cmake, qemu.cmake): the known answers with each kernel
# requested in turn and auto.
b2_add_qemu_kernel_tests(evp.kat test_kat --quick)
b2_add_qemu_kernel_tests(evp.blake2x test_blake2x --quick)
