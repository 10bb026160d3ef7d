# Hardening: bad input, huge input, counter wrap, threads, key material, load/unload,
# direct-dispatch harness (the libFuzzer targets, which link b2_engine_for_tests: fuzz.cmake).
# Labels: "hardening", plus "slow" (> 4 GiB streamed), "threads" (the TSan job), "memory" (the
# valgrind job).
# SPDX-License-Identifier: Apache-2.0
set(b2_hardening_dir ${CMAKE_CURRENT_LIST_DIR}/hardening)

# The streaming engine compiled into a test, with the kernel library, for engine-level tests
# and the fuzzers (the module exports nothing but OSSL_provider_init).
add_library(b2_engine_for_tests STATIC ${PROJECT_SOURCE_DIR}/provider/blake2_engine.cpp
                                       ${PROJECT_SOURCE_DIR}/provider/tree_engine.cpp
                                       ${PROJECT_SOURCE_DIR}/provider/blake2x.cpp)
target_include_directories(b2_engine_for_tests PUBLIC ${PROJECT_SOURCE_DIR}/provider
                                                      ${b2_hardening_dir} ${B2_TEST_SUPPORT_DIR})
target_link_libraries(b2_engine_for_tests PUBLIC blake2simd_kernels OpenSSL::Crypto
                                          PRIVATE b2_warnings)

add_executable(test_engine_counter ${b2_hardening_dir}/test_engine_counter.cpp)
target_link_libraries(test_engine_counter PRIVATE b2_engine_for_tests b2_warnings)
add_test(NAME hardening.engine_counter_2e64 COMMAND test_engine_counter)
set_tests_properties(hardening.engine_counter_2e64 PROPERTIES LABELS hardening
                     SKIP_RETURN_CODE 77 TIMEOUT 120)

add_executable(test_keyed_start ${b2_hardening_dir}/test_keyed_start.cpp)
target_link_libraries(test_keyed_start PRIVATE b2_engine_for_tests b2_warnings)
add_test(NAME hardening.keyed_start COMMAND test_keyed_start)
set_tests_properties(hardening.keyed_start PROPERTIES LABELS hardening TIMEOUT 120)

# BLAKE2X output blocks on every lanes candidate against the RFC 7693 oracle, and the lanes
# form taken for every whole group.
add_executable(test_xof_lanes ${b2_hardening_dir}/test_xof_lanes.cpp)
target_link_libraries(test_xof_lanes PRIVATE b2_engine_for_tests b2_warnings)
add_test(NAME hardening.xof_lanes COMMAND test_xof_lanes)
set_tests_properties(hardening.xof_lanes PROPERTIES LABELS "hardening;blake2x" TIMEOUT 120)

add_executable(test_engine_bounds ${b2_hardening_dir}/test_engine_bounds.cpp)
target_link_libraries(test_engine_bounds PRIVATE b2_engine_for_tests b2_warnings)
add_test(NAME hardening.engine_bounds COMMAND test_engine_bounds)
set_tests_properties(hardening.engine_bounds PROPERTIES LABELS hardening TIMEOUT 120)

# Without arguments (as the valgrind job runs it) every family; CTest runs them apart.
b2_add_evp_test(NAME hardening.bad_input TARGET test_bad_input
                SOURCES ${b2_hardening_dir}/test_bad_input.cpp ARGS --algorithm blake2b
                LABELS hardening provider memory blake2bp)
target_include_directories(test_bad_input PRIVATE ${b2_hardening_dir})
b2_add_evp_test(NAME hardening.bad_input_blake2s TARGET test_bad_input ARGS --algorithm blake2s
                LABELS hardening provider memory blake2s blake2sp)
b2_add_evp_test(NAME hardening.bad_input_argon2 TARGET test_bad_input ARGS --algorithm argon2
                LABELS hardening provider memory argon2)

b2_add_evp_test(NAME hardening.large_input_4gib TARGET test_large_input
                SOURCES ${b2_hardening_dir}/test_large_input.cpp LABELS hardening slow
                TIMEOUT 900)
# BLAKE2s: past 4 GiB its 32-bit low counter word carries into the high one (digest and MAC).
b2_add_evp_test(NAME hardening.large_input_4gib_blake2s TARGET test_large_input
                ARGS --mac --algorithm blake2s LABELS hardening slow blake2s TIMEOUT 900)

add_executable(test_direct_dispatch ${b2_hardening_dir}/test_direct_dispatch.cpp)
target_include_directories(test_direct_dispatch PRIVATE ${b2_hardening_dir} ${B2_TEST_SUPPORT_DIR}
                                                        ${PROJECT_SOURCE_DIR}/provider)
target_compile_definitions(test_direct_dispatch PRIVATE B2_MODULE_DIR="${B2_MODULE_DIR}")
target_link_libraries(test_direct_dispatch PRIVATE OpenSSL::Crypto ${CMAKE_DL_LIBS} b2_warnings)
add_dependencies(test_direct_dispatch blake2simd)
add_test(NAME hardening.direct_dispatch COMMAND test_direct_dispatch)
set_tests_properties(hardening.direct_dispatch PROPERTIES LABELS "hardening;provider;memory"
                     SKIP_RETURN_CODE 77 TIMEOUT 120)

find_package(Threads REQUIRED)
b2_add_evp_test(NAME hardening.threads TARGET test_threads
                SOURCES ${b2_hardening_dir}/test_threads.cpp LABELS hardening threads
                TIMEOUT 300)
target_link_libraries(test_threads PRIVATE Threads::Threads)

# fork() while threads raise errors without a provider context, and while others load and
# unload the provider: every child must still raise its error (issue 23.5).
b2_add_evp_test(NAME hardening.fork_during_errors TARGET test_fork_errors
                SOURCES ${b2_hardening_dir}/test_fork_errors.cpp LABELS hardening provider
                TIMEOUT 300)
target_link_libraries(test_fork_errors PRIVATE Threads::Threads)

# 40 instances in one process (one library context each), unloaded oldest first: each must still
# report the errors raised without a provider context (issue 23.7).
b2_add_evp_test(NAME hardening.many_instances TARGET test_many_instances
                SOURCES ${b2_hardening_dir}/test_many_instances.cpp LABELS hardening provider)

b2_add_evp_test(NAME hardening.key_material TARGET test_key_material
                SOURCES ${b2_hardening_dir}/test_key_material.cpp LABELS hardening provider)
target_include_directories(test_key_material PRIVATE ${b2_hardening_dir})
# Its munmap, which checks Argon2's block memory is wiped, must be what the module's calls reach.
target_link_options(test_key_material PRIVATE "LINKER:--export-dynamic-symbol=munmap")
target_link_libraries(test_key_material PRIVATE ${CMAKE_DL_LIBS})
set_property(TEST hardening.key_material APPEND PROPERTY LABELS argon2)

b2_add_evp_test(NAME hardening.load_unload_1000 TARGET test_load_unload
                SOURCES ${b2_hardening_dir}/test_load_unload.cpp ARGS 1000
                LABELS hardening provider TIMEOUT 600)
target_include_directories(test_load_unload PRIVATE ${b2_hardening_dir})

b2_add_direct_test(hardening.fork_during_first_use test_fork)
# A stale claim whose pid matches (nested pid namespaces: pid 1 forked from pid 1) is taken
# over (kernels/once.hpp's fork epoch; issue 23.7). Without pid namespaces: 77.
add_executable(test_once_pid_reuse ${b2_hardening_dir}/test_once_pid_reuse.cpp)
target_include_directories(test_once_pid_reuse PRIVATE ${B2_TEST_SUPPORT_DIR})
target_link_libraries(test_once_pid_reuse PRIVATE blake2simd_kernels Threads::Threads b2_warnings)
add_test(NAME hardening.once_pid_reuse COMMAND test_once_pid_reuse)
set_tests_properties(hardening.once_pid_reuse PROPERTIES LABELS hardening SKIP_RETURN_CODE 77
                     TIMEOUT 120)
b2_add_direct_test(hardening.kernel_request test_kernel_request)
# copyctx and the serialized state of every digest on every kernel, through the dispatch
# functions (any core: the ids are 3.5's and 4.0's).
b2_add_direct_test(hardening.digest_state test_digest_state)
add_test(NAME hardening.kernel_request_setuid COMMAND test_kernel_request --setuid)
set_tests_properties(hardening.kernel_request_setuid PROPERTIES LABELS "hardening;provider"
                     SKIP_RETURN_CODE 77 TIMEOUT 120)
# x86-64 only: it reads CPUID and the vector registers with x86 assembly.
if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
  b2_add_direct_test(hardening.key_scrub test_key_scrub)
endif()

# The tests above that also cover BLAKE2s and BLAKE2sp (one program for every algorithm).
foreach(b2_test hardening.engine_bounds hardening.direct_dispatch hardening.threads hardening.digest_state
                hardening.key_material hardening.load_unload_1000 hardening.fork_during_first_use)
  set_property(TEST ${b2_test} APPEND PROPERTY LABELS blake2s blake2sp)
endforeach()
foreach(b2_test hardening.engine_counter_2e64 hardening.keyed_start hardening.fork_during_errors)
  set_property(TEST ${b2_test} APPEND PROPERTY LABELS blake2s)
endforeach()
# The tests above with BLAKE2X rows (and the sizes by name in load_unload).
foreach(b2_test hardening.bad_input hardening.bad_input_blake2s hardening.threads
                hardening.load_unload_1000 hardening.fork_during_first_use)
  set_property(TEST ${b2_test} APPEND PROPERTY LABELS blake2x)
endforeach()
# The tests above with Argon2 rows (hardening.key_material has the label where it is registered).
foreach(b2_test hardening.direct_dispatch hardening.load_unload_1000)
  set_property(TEST ${b2_test} APPEND PROPERTY LABELS argon2)
endforeach()
if(TARGET test_key_scrub)
  set_property(TEST hardening.key_scrub APPEND PROPERTY LABELS blake2s blake2sp)
endif()

# BLAKE2X output blocks on every lanes candidate each emulated CPU model runs (native and lane by
# lane; helpers.cmake, qemu.cmake).
b2_add_qemu_tests(hardening.xof_lanes test_xof_lanes)
