# The functions every tests/<area>.cmake registers its tests with, the qemu CPU-model ones
# included (their model list is the data file qemu.cmake).
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

# Tests that drive the module through a minimal core of their own (direct_module.hpp). They see
# the build's kernel registry (kernels/registry.hpp), so they iterate the kernels by its rows.
function(b2_add_direct_test name target)
  add_executable(${target} ${B2_TESTS_DIR}/hardening/${target}.cpp)
  # The provider's directory for digest_ids.hpp (the slot ids newer than the 3.0 headers).
  target_include_directories(${target} PRIVATE ${B2_TESTS_DIR}/hardening ${B2_TEST_SUPPORT_DIR}
                                               ${PROJECT_SOURCE_DIR}/provider)
  target_compile_definitions(${target} PRIVATE B2_MODULE_DIR="${B2_MODULE_DIR}")
  target_link_libraries(${target} PRIVATE OpenSSL::Crypto Threads::Threads ${CMAKE_DL_LIBS}
                                          blake2simd_kernels b2_warnings)
  add_dependencies(${target} blake2simd)
  add_test(NAME ${name} COMMAND ${target})
  set_tests_properties(${name} PROPERTIES LABELS "hardening;provider" SKIP_RETURN_CODE 77
                                          TIMEOUT 300)
endfunction()

# --- under the qemu-x86_64 CPU models (B2_QEMU_MODELS, qemu.cmake). Label "qemu"; needs qemu-user
# (Debian: qemu-user). Without qemu-x86_64 (or on a non-x86-64 host) they register nothing.
#
# b2_add_qemu_tests(NAME_PREFIX TARGET [arg ...] [ARGS arg ...] [ENVIRONMENT VAR=value ...])
#   registers NAME_PREFIX.qemu.<model> for every model, running TARGET with the args and
#   environment given (qemu passes the environment through to the program). Program args go
#   before the keywords or after ARGS; everything after ENVIRONMENT is environment. In args,
#   @EXPECTED_FEATURES@ becomes the features that model must expose (see kernels_info).
#   Tests get SKIP_RETURN_CODE 77 and BLAKE2SIMD_TEST_EMULATED=1.
#
# b2_add_qemu_kernel_tests(NAME_PREFIX TARGET [arg ...])
#   for the EVP programs (those honouring B2_EXPECT_KERNEL / B2_ALLOWED_KERNELS, see
#   tests/support/b2test/evp.hpp): registers NAME_PREFIX.<request>.qemu.<model>, running TARGET
#   with the args under BLAKE2SIMD_KERNEL=<request>, for "auto" and every built kernel (the
#   build's list, global property B2_KERNELS). A model runs the kernels whose CPU features it
#   has (b2_kernels_runnable_with): the kernel served must be one of them (B2_ALLOWED_KERNELS),
#   a request among them must be served as asked (B2_EXPECT_KERNEL), and nothing may die of
#   SIGILL. Under emulation timing means nothing, so "auto" asserts only that the model can run
#   what is served. A kernel needing no feature runs the same code under every model, so its
#   request runs under the first model only; the others are requested under every model, which
#   runs them or must fall back. Same properties as b2_add_qemu_tests.
include(${CMAKE_CURRENT_LIST_DIR}/qemu.cmake)

if(CMAKE_HOST_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$"
   AND CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
  find_program(B2_QEMU_X86_64 NAMES qemu-x86_64 qemu-x86_64-static)
endif()
if(NOT B2_QEMU_X86_64)
  message(STATUS "blake2simd: qemu-x86_64 not found (or not an x86-64 build): "
                 "CPU-model tests (label qemu) are not registered")
endif()

# "Haswell,-xsave" -> "Haswell-noxsave": test names without commas.
function(b2_qemu_model_id out_var model)
  string(REPLACE ",-" "-no" model_id "${model}")
  string(REPLACE ",+" "-with" model_id "${model_id}")
  set(${out_var} ${model_id} PARENT_SCOPE)
endfunction()

function(b2_add_qemu_test test_name model target program_args environment)
  add_test(NAME ${test_name}
           COMMAND ${B2_QEMU_X86_64} -cpu ${model} $<TARGET_FILE:${target}> ${program_args})
  set_tests_properties(${test_name} PROPERTIES
    LABELS "qemu"
    SKIP_RETURN_CODE 77
    TIMEOUT 300
    ENVIRONMENT "BLAKE2SIMD_TEST_EMULATED=1;${environment}")
endfunction()

function(b2_add_qemu_tests name_prefix target)
  if(NOT B2_QEMU_X86_64)
    return()
  endif()
  cmake_parse_arguments(PARSE_ARGV 2 b2q "" "" "ENVIRONMENT;ARGS")
  set(program_args ${b2q_ARGS} ${b2q_UNPARSED_ARGUMENTS})
  set(models ${B2_QEMU_MODELS})
  while(models)
    list(POP_FRONT models model expected_features)
    b2_qemu_model_id(model_id "${model}")
    string(REPLACE "@EXPECTED_FEATURES@" "${expected_features}" model_args "${program_args}")
    b2_add_qemu_test(${name_prefix}.qemu.${model_id} "${model}" ${target} "${model_args}"
                     "${b2q_ENVIRONMENT}")
  endwhile()
endfunction()

# The built kernels (B2_KERNELS) a CPU with `features` (comma-separated, or "none") runs: each
# whose every needed feature (B2_KERNEL_CPU_FEATURES; none for ref, x64) it has.
function(b2_kernels_runnable_with out_var features)
  string(REPLACE "," ";" available "${features}")
  get_property(built GLOBAL PROPERTY B2_KERNELS)
  get_property(needs GLOBAL PROPERTY B2_KERNEL_CPU_FEATURES)
  set(runnable "")
  foreach(kernel IN LISTS built)
    set(needed "")
    foreach(entry IN LISTS needs)
      if(entry MATCHES "^${kernel}=(.*)$")
        string(REPLACE "," ";" needed "${CMAKE_MATCH_1}")
      endif()
    endforeach()
    set(runs TRUE)
    foreach(feature IN LISTS needed)
      if(NOT feature IN_LIST available)
        set(runs FALSE)
      endif()
    endforeach()
    if(runs)
      list(APPEND runnable ${kernel})
    endif()
  endforeach()
  set(${out_var} ${runnable} PARENT_SCOPE)
endfunction()

function(b2_add_qemu_kernel_tests name_prefix target)
  if(NOT B2_QEMU_X86_64)
    return()
  endif()
  set(program_args ${ARGN})
  get_property(built GLOBAL PROPERTY B2_KERNELS)
  b2_kernels_runnable_with(baseline none)
  set(models ${B2_QEMU_MODELS})
  list(GET models 0 first_model)
  while(models)
    list(POP_FRONT models model features)
    b2_qemu_model_id(model_id "${model}")
    b2_kernels_runnable_with(runnable "${features}")
    string(REPLACE ";" "," allowed "${runnable}")
    foreach(request auto ${built})
      if(request IN_LIST baseline AND NOT model STREQUAL first_model)
        continue()
      endif()
      # A list separator inside one ENVIRONMENT entry would split it: commas only.
      set(environment "BLAKE2SIMD_KERNEL=${request};B2_ALLOWED_KERNELS=${allowed}")
      if(request IN_LIST runnable)
        string(APPEND environment ";B2_EXPECT_KERNEL=${request}")
      endif()
      b2_add_qemu_test(${name_prefix}.${request}.qemu.${model_id} "${model}" ${target}
                       "${program_args}" "${environment}")
    endforeach()
  endwhile()
endfunction()
