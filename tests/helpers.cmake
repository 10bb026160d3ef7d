# The functions every tests/<area>.cmake registers its tests with (the qemu ones are in
# qemu.cmake, next to the CPU-model list they iterate).
# SPDX-License-Identifier: Apache-2.0
#
# Included first from tests/CMakeLists.txt. Needs the module target `blake2simd` and b2_warnings.

find_package(Python3 3.8 REQUIRED COMPONENTS Interpreter)
find_package(Threads REQUIRED)

set(B2_TESTS_DIR ${CMAKE_CURRENT_LIST_DIR})
set(B2_MODULE_DIR ${PROJECT_BINARY_DIR}/ossl-modules)
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

# Tests that drive the module through a minimal core of their own (direct_module.hpp).
function(b2_add_direct_test name target)
  add_executable(${target} ${B2_TESTS_DIR}/hardening/${target}.cpp)
  target_include_directories(${target} PRIVATE ${B2_TESTS_DIR}/hardening ${B2_TEST_SUPPORT_DIR})
  target_compile_definitions(${target} PRIVATE B2_MODULE_DIR="${B2_MODULE_DIR}")
  target_link_libraries(${target} PRIVATE OpenSSL::Crypto Threads::Threads ${CMAKE_DL_LIBS}
                                          b2_warnings)
  add_dependencies(${target} blake2simd)
  add_test(NAME ${name} COMMAND ${target})
  set_tests_properties(${name} PROPERTIES LABELS "hardening;provider" SKIP_RETURN_CODE 77
                                          TIMEOUT 300)
endfunction()
