# ARGON2I / ARGON2D / ARGON2ID (label "argon2"): RFC 9106's vectors, libargon2 (the reference
# implementation) over generated params and libsodium's crypto_pwhash, once per built kernel,
# all at small memcost (the 64 MiB and larger rows are the benchmark's).
# SPDX-License-Identifier: Apache-2.0
find_library(B2_LIBARGON2 argon2)
find_library(B2_LIBSODIUM sodium)
find_path(B2_ARGON2_INCLUDE argon2.h)
find_path(B2_SODIUM_INCLUDE sodium.h)
if(NOT B2_LIBARGON2 OR NOT B2_LIBSODIUM OR NOT B2_ARGON2_INCLUDE OR NOT B2_SODIUM_INCLUDE)
  message(STATUS "blake2simd: libargon2-dev or libsodium-dev missing: the argon2 tests are not "
                 "registered (tools/quickstart.sh installs them)")
  return()
endif()

b2_add_evp_executable(test_argon2 ${CMAKE_CURRENT_LIST_DIR}/test_argon2.cpp)
target_include_directories(test_argon2 PRIVATE ${B2_ARGON2_INCLUDE} ${B2_SODIUM_INCLUDE})
# The kernel library for the registry's rows (which have a BlaMka form), not to derive.
target_link_libraries(test_argon2 PRIVATE ${B2_LIBARGON2} ${B2_LIBSODIUM} Threads::Threads
                                          blake2simd_kernels)

b2_add_evp_test(NAME argon2.vectors TARGET test_argon2 ARGS --section vectors LABELS argon2)
b2_add_evp_test(NAME argon2.sodium TARGET test_argon2 ARGS --section sodium LABELS argon2)
b2_add_evp_test(NAME argon2.semantics TARGET test_argon2 ARGS --section semantics
                LABELS argon2 provider)
# The openssl program's kdf command (Debian 12's 3.0 has no Argon2 of its own); not where a
# sanitizer's runtime would have to be preloaded into it (tests/system.cmake says why).
# Not in a cross build either: the host's openssl cannot load the target's module.
find_program(B2_OPENSSL_PROGRAM openssl)
if(B2_OPENSSL_PROGRAM AND NOT CMAKE_CROSSCOMPILING
   AND NOT "${CMAKE_C_FLAGS} ${CMAKE_CXX_FLAGS}" MATCHES "-fsanitize=")
  b2_add_evp_test(NAME argon2.openssl_kdf TARGET test_argon2
                  ARGS --section cli --openssl openssl LABELS argon2 cli)
endif()
# A real client, pyca/cryptography's Argon2id on its own OpenSSL (3.2+), served by our module.
if(NOT CMAKE_CROSSCOMPILING)
  set(b2_pyca_sanitized "")
  if("${CMAKE_C_FLAGS} ${CMAKE_CXX_FLAGS}" MATCHES "-fsanitize=")
    set(b2_pyca_sanitized --sanitized-module)
  endif()
  add_test(NAME argon2.pyca
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/argon2_pyca.py
                   $<TARGET_FILE:blake2simd> ${CMAKE_CURRENT_BINARY_DIR}/argon2-pyca
                   ${b2_pyca_sanitized})
  set_tests_properties(argon2.pyca PROPERTIES LABELS "argon2;system" SKIP_RETURN_CODE 77
                                   ENVIRONMENT PYTHONPATH=${CMAKE_CURRENT_LIST_DIR} TIMEOUT 120)
endif()
# Label threads: tools/ci-hardening.sh runs them under TSan too.
b2_add_evp_test(NAME argon2.threads TARGET test_argon2 ARGS --section threads
                LABELS argon2 threads)
# Not under qemu-user (a cross build): its fork of a process with running threads trips qemu's
# own assertions (in its CPU loop), whatever the program does.
if(NOT CMAKE_CROSSCOMPILING)
  b2_add_evp_test(NAME argon2.fork TARGET test_argon2 ARGS --section fork LABELS argon2 threads)
endif()
# Every pthread_create failing (a preloaded stand-in): the right answers on the caller's thread.
# Not under a sanitizer, whose runtime must come first in the preload list, nor under an
# emulator (qemu-user would be handed the target's library first).
if(NOT CMAKE_CROSSCOMPILING AND NOT "${CMAKE_C_FLAGS} ${CMAKE_CXX_FLAGS}" MATCHES "-fsanitize=")
  add_library(b2_fail_pthread_create SHARED ${B2_TEST_SUPPORT_DIR}/fail_pthread_create.c)
  b2_add_evp_test(NAME argon2.threads_fail_to_start TARGET test_argon2 ARGS --section threads
                  LABELS argon2
                  ENVIRONMENT LD_PRELOAD=$<TARGET_FILE:b2_fail_pthread_create>
                              B2_EXPECT_THREAD_FAILURE=1)
endif()
# Every built kernel serves the differential run (the BlaMka form follows BLAKE2SIMD_KERNEL); one
# that has no BlaMka form (x64, avx) or that this CPU cannot run is skipped (exit 77).
# Under an emulator (a cross build's tests) fewer cases: the same paths, within the budget.
set(b2_argon2_cases 40)
if(CMAKE_CROSSCOMPILING_EMULATOR)
  set(b2_argon2_cases 12)
endif()
get_property(b2_built_kernels GLOBAL PROPERTY B2_KERNELS)
foreach(b2_request auto ${b2_built_kernels})
  set(b2_environment BLAKE2SIMD_KERNEL=${b2_request})
  if(NOT b2_request STREQUAL "auto")
    list(APPEND b2_environment B2_SKIP_UNLESS_KERNEL=${b2_request})
  endif()
  b2_add_evp_test(NAME argon2.differential.${b2_request} TARGET test_argon2
                  ARGS --section differential --cases ${b2_argon2_cases} LABELS argon2
                  ENVIRONMENT ${b2_environment} TIMEOUT 300)
endforeach()

# Under every emulated CPU model, each kernel requested (helpers.cmake): the BlaMka kernel that
# serves must run on the model and reproduce libargon2.
b2_add_qemu_kernel_tests(argon2.differential test_argon2 --section differential --cases 6)
