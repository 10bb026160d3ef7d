# Known-answer vectors (label "vectors") and b2_add_evp_test(), the helper for EVP-level tests.
# SPDX-License-Identifier: Apache-2.0
#
# Included from tests/CMakeLists.txt. Needs the module target `blake2simd` and b2_warnings.

find_package(Python3 3.8 REQUIRED COMPONENTS Interpreter)

if(NOT DEFINED B2_MODULE_DIR)
  set(B2_MODULE_DIR ${PROJECT_BINARY_DIR}/ossl-modules)
endif()
set(B2_VECTORS_DIR ${PROJECT_SOURCE_DIR}/vectors)
set(B2_TEST_SUPPORT_DIR ${CMAKE_CURRENT_LIST_DIR}/support)

# b2_add_evp_executable(<target> <sources>...)
# An executable using the header-only support library (tests/support/b2test.hpp): links
# OpenSSL::Crypto, defines B2_MODULE_DIR (where blake2simd.so is built) and B2_VECTORS_DIR,
# and builds after the module so a fresh `ctest` never runs against a stale one.
function(b2_add_evp_executable target)
  add_executable(${target} ${ARGN})
  target_include_directories(${target} PRIVATE ${B2_TEST_SUPPORT_DIR})
  target_compile_definitions(${target} PRIVATE B2_MODULE_DIR="${B2_MODULE_DIR}"
                                               B2_VECTORS_DIR="${B2_VECTORS_DIR}")
  target_link_libraries(${target} PRIVATE OpenSSL::Crypto b2_warnings)
  if(TARGET blake2simd)
    add_dependencies(${target} blake2simd)
  endif()
endfunction()

# b2_add_evp_test(NAME <test> [TARGET <executable>] [SOURCES <files>...] [ARGS <args>...]
#                 [LABELS <labels>...] [ENVIRONMENT <VAR=value>...] [TIMEOUT <seconds>]
#                 [FIXTURES_REQUIRED <fixtures>...])
# With SOURCES, creates the executable (named TARGET, default NAME) first; without, reuses an
# existing TARGET, so one executable can back several tests (other args, env, emulator).
# Every test gets SKIP_RETURN_CODE 77.
function(b2_add_evp_test)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "NAME;TARGET;TIMEOUT"
                        "SOURCES;ARGS;LABELS;ENVIRONMENT;FIXTURES_REQUIRED")
  if(NOT arg_NAME)
    message(FATAL_ERROR "b2_add_evp_test: NAME is required")
  endif()
  if(NOT arg_TARGET)
    set(arg_TARGET ${arg_NAME})
  endif()
  if(arg_SOURCES)
    b2_add_evp_executable(${arg_TARGET} ${arg_SOURCES})
  elseif(NOT TARGET ${arg_TARGET})
    message(FATAL_ERROR "b2_add_evp_test(${arg_NAME}): no SOURCES and no target ${arg_TARGET}")
  endif()
  if(NOT arg_TIMEOUT)
    set(arg_TIMEOUT 120)
  endif()
  add_test(NAME ${arg_NAME} COMMAND ${arg_TARGET} ${arg_ARGS})
  set_tests_properties(${arg_NAME} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT ${arg_TIMEOUT})
  if(arg_LABELS)
    set_tests_properties(${arg_NAME} PROPERTIES LABELS "${arg_LABELS}")
  endif()
  if(arg_ENVIRONMENT)
    set_tests_properties(${arg_NAME} PROPERTIES ENVIRONMENT "${arg_ENVIRONMENT}")
  endif()
  if(arg_FIXTURES_REQUIRED)
    set_tests_properties(${arg_NAME} PROPERTIES FIXTURES_REQUIRED "${arg_FIXTURES_REQUIRED}")
  endif()
endfunction()

# --- vector files: provenance and freshness (Python, standard library only)
set(b2_check_vectors ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/check_vectors.py
    --source-dir ${PROJECT_SOURCE_DIR})
add_test(NAME vectors_kat_txt_sha256 COMMAND ${b2_check_vectors} sha256)
add_test(NAME vectors_up_to_date
         COMMAND ${Python3_EXECUTABLE} ${B2_VECTORS_DIR}/gen_vectors.py --check)
# Skips (77) where ../shared/vectors/official is absent, e.g. in a release tarball.
add_test(NAME vectors_official_json COMMAND ${b2_check_vectors} official-json)
set_tests_properties(vectors_kat_txt_sha256 vectors_up_to_date vectors_official_json
                     PROPERTIES LABELS vectors SKIP_RETURN_CODE 77 TIMEOUT 60)
# The same three for BLAKE2s and BLAKE2sp (generators vectors/gen_blake2s.py, gen_blake2sp.py).
foreach(b2_hash blake2s blake2sp)
  add_test(NAME vectors_${b2_hash}_kat_txt_sha256
           COMMAND ${b2_check_vectors} --hash ${b2_hash} sha256)
  add_test(NAME vectors_${b2_hash}_up_to_date
           COMMAND ${Python3_EXECUTABLE} ${B2_VECTORS_DIR}/gen_${b2_hash}.py --check)
  add_test(NAME vectors_${b2_hash}_official_json
           COMMAND ${b2_check_vectors} --hash ${b2_hash} official-json)
  set_tests_properties(vectors_${b2_hash}_kat_txt_sha256 vectors_${b2_hash}_up_to_date
                       vectors_${b2_hash}_official_json
                       PROPERTIES LABELS "vectors;${b2_hash}" SKIP_RETURN_CODE 77 TIMEOUT 60)
endforeach()

# --- EVP known answers and differential tests against our provider
b2_add_evp_test(NAME evp_kat TARGET test_kat SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_kat.cpp
                LABELS vectors provider)
# Under an emulator (a cross build's tests) a fifth of the random cases: the same paths, in a
# minute instead of three.
set(b2_differential_args "")
if(CMAKE_CROSSCOMPILING_EMULATOR)
  set(b2_differential_args --cases 20000)
endif()
b2_add_evp_test(NAME evp_differential TARGET test_differential
                SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_differential.cpp
                ARGS ${b2_differential_args} LABELS vectors provider differential TIMEOUT 300)

# Digest/MAC with random size/salt/custom against hashlib (OpenSSL 3.0's default digest ignores
# them, so it cannot be the oracle). Fresh cases each run; B2_SEED=<n> in the environment of
# `ctest` reproduces a run (the seed is printed in the setup test's output).
set(b2_random_cases ${CMAKE_CURRENT_BINARY_DIR}/random-param-cases.json)
add_test(NAME vectors_random_cases_generate
         COMMAND ${Python3_EXECUTABLE} ${B2_VECTORS_DIR}/gen_vectors.py --random 3000
                 --output ${b2_random_cases})
set_tests_properties(vectors_random_cases_generate PROPERTIES
                     LABELS "vectors;differential" FIXTURES_SETUP b2_random_param_cases)
b2_add_evp_test(NAME evp_hashlib_params TARGET test_differential
                ARGS --hashlib-cases ${b2_random_cases}
                LABELS vectors provider differential FIXTURES_REQUIRED b2_random_param_cases)
