# libFuzzer targets (the "fuzz" preset: clang, -DB2_FUZZ=ON), label "fuzz". The provider's sources
# are compiled into each target and registered with OSSL_PROVIDER_add_builtin, so the whole path
# is instrumented and no module is loaded by an uninstrumented loader. Included after
# hardening.cmake, whose b2_engine_for_tests they link.
# SPDX-License-Identifier: Apache-2.0
option(B2_FUZZ "Build the libFuzzer targets (clang only)" OFF)
if(B2_FUZZ)
  # b2_provider_for_tests (provider.cmake): built with this preset's instrumentation.
  set(b2_fuzz_dir ${CMAKE_CURRENT_LIST_DIR}/fuzz)
  foreach(b2_target fuzz_differential fuzz_params fuzz_state fuzz_argon2_params)
    add_executable(${b2_target} ${b2_fuzz_dir}/${b2_target}.cpp)
    target_include_directories(${b2_target} PRIVATE ${b2_fuzz_dir} ${B2_TEST_SUPPORT_DIR})
    target_link_libraries(${b2_target} PRIVATE b2_provider_for_tests b2_engine_for_tests
                                               b2_warnings)
    target_link_options(${b2_target} PRIVATE -fsanitize=fuzzer)
    # A short smoke run over the committed corpus; tools/ci-hardening.sh fuzzes for longer.
    add_test(NAME fuzz.${b2_target}.corpus
             COMMAND ${b2_target} -runs=0 ${b2_fuzz_dir}/corpus/${b2_target})
    set_tests_properties(fuzz.${b2_target}.corpus PROPERTIES LABELS fuzz TIMEOUT 300)
  endforeach()
  # blake2simd-sum's -c line parser (cli/), no OpenSSL involved.
  if(TARGET b2sum_parsing)
    add_executable(fuzz_check_line ${b2_fuzz_dir}/fuzz_check_line.cpp)
    target_link_libraries(fuzz_check_line PRIVATE b2sum_parsing b2_warnings)
    target_link_options(fuzz_check_line PRIVATE -fsanitize=fuzzer)
    add_test(NAME fuzz.fuzz_check_line.corpus
             COMMAND fuzz_check_line -runs=0 ${b2_fuzz_dir}/corpus/fuzz_check_line)
    set_tests_properties(fuzz.fuzz_check_line.corpus PROPERTIES LABELS "fuzz;sum" TIMEOUT 300)
  endif()
  foreach(b2_target fuzz_differential fuzz_params fuzz_state)
    set_property(TEST fuzz.${b2_target}.corpus APPEND PROPERTY LABELS blake2s blake2sp)
  endforeach()
endif()
