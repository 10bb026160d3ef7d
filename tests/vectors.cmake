# Known-answer vectors (label "vectors") and the EVP known-answer and differential tests.
# SPDX-License-Identifier: Apache-2.0
#
# Included from tests/CMakeLists.txt after helpers.cmake.

find_package(Python3 3.8 REQUIRED COMPONENTS Interpreter)

# --- vector files: provenance and freshness (Python, standard library only)
set(b2_check_vectors ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/check_vectors.py
    --source-dir ${PROJECT_SOURCE_DIR})
add_test(NAME vectors.kat_txt_sha256 COMMAND ${b2_check_vectors} sha256)
add_test(NAME vectors.up_to_date
         COMMAND ${Python3_EXECUTABLE} ${B2_VECTORS_DIR}/gen_vectors.py --check)
# Skips (77) where ../shared/vectors/official is absent, e.g. in a release tarball.
add_test(NAME vectors.official_json COMMAND ${b2_check_vectors} official-json)
set_tests_properties(vectors.kat_txt_sha256 vectors.up_to_date vectors.official_json
                     PROPERTIES LABELS vectors SKIP_RETURN_CODE 77 TIMEOUT 60)
# The same three for BLAKE2s and BLAKE2sp (generators vectors/gen_blake2s.py, gen_blake2sp.py).
foreach(b2_hash blake2s blake2sp)
  add_test(NAME vectors.${b2_hash}_kat_txt_sha256
           COMMAND ${b2_check_vectors} --hash ${b2_hash} sha256)
  add_test(NAME vectors.${b2_hash}_up_to_date
           COMMAND ${Python3_EXECUTABLE} ${B2_VECTORS_DIR}/gen_${b2_hash}.py --check)
  add_test(NAME vectors.${b2_hash}_official_json
           COMMAND ${b2_check_vectors} --hash ${b2_hash} official-json)
  set_tests_properties(vectors.${b2_hash}_kat_txt_sha256 vectors.${b2_hash}_up_to_date
                       vectors.${b2_hash}_official_json
                       PROPERTIES LABELS "vectors;${b2_hash}" SKIP_RETURN_CODE 77 TIMEOUT 60)
endforeach()

# BLAKE2Xb/BLAKE2Xs (vectors/gen_blake2x.py: hashlib H0, pure-Python output blocks): the committed
# files are fresh, and all 1024 official entries are reproduced (skips where ../shared is absent).
set(b2_gen_blake2x ${Python3_EXECUTABLE} ${B2_VECTORS_DIR}/gen_blake2x.py)
add_test(NAME vectors.blake2x_up_to_date COMMAND ${b2_gen_blake2x} --check)
add_test(NAME vectors.blake2x_official_json
         COMMAND ${b2_gen_blake2x} --verify-official ${PROJECT_SOURCE_DIR}/../shared/vectors/official)
# The evp_test stanzas for our own names (tools/ci/evp-test.sh runs them on the 4.0 tree):
# regenerated from hashlib and blake2x.py, equal to the committed file.
add_test(NAME vectors.evp_blake2_names_up_to_date
         COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tests/evp_test/gen_blake2_names.py --check)
set_tests_properties(vectors.blake2x_up_to_date vectors.blake2x_official_json
                     vectors.evp_blake2_names_up_to_date
                     PROPERTIES LABELS "vectors;blake2x" SKIP_RETURN_CODE 77 TIMEOUT 60)
# BLAKE2XB/BLAKE2XS and their MACs through EVP: the official entries and gen_blake2x.py's cases
# (about 17 MB of JSON with outputs up to 2^20 bytes, so generated here, never committed; some
# 15 s of CPU in pure Python).
set(b2_blake2x_cases ${CMAKE_CURRENT_BINARY_DIR}/blake2x-cases.json)
add_test(NAME vectors.blake2x_cases_generate
         COMMAND ${b2_gen_blake2x} --cases ${b2_blake2x_cases})
set_tests_properties(vectors.blake2x_cases_generate PROPERTIES
                     LABELS "vectors;blake2x" FIXTURES_SETUP b2_blake2x_cases TIMEOUT 300)
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
# Squeeze through the module's dispatch table (EVP_DigestSqueeze exists only from 3.3).
b2_add_direct_test(blake2x.squeeze test_xof_squeeze)
set_tests_properties(blake2x.squeeze PROPERTIES LABELS "provider;blake2x")

# --- EVP known answers (BLAKE2b, BLAKE2s, BLAKE2sp) and differential tests against our provider
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

# Digest/MAC with random size/salt/custom against hashlib (OpenSSL 3.0's default digest ignores
# them, so it cannot be the oracle). Fresh cases each run; B2_SEED=<n> in the environment of
# `ctest` reproduces a run (the seed is printed in the setup test's output).
set(b2_random_cases ${CMAKE_CURRENT_BINARY_DIR}/random-param-cases.json)
add_test(NAME vectors.random_cases_generate
         COMMAND ${Python3_EXECUTABLE} ${B2_VECTORS_DIR}/gen_vectors.py --random 3000
                 --output ${b2_random_cases})
set_tests_properties(vectors.random_cases_generate PROPERTIES
                     LABELS "vectors;differential" FIXTURES_SETUP b2_random_param_cases)
b2_add_evp_test(NAME evp.hashlib_params TARGET test_differential
                ARGS --hashlib-cases ${b2_random_cases}
                LABELS vectors provider differential FIXTURES_REQUIRED b2_random_param_cases)
