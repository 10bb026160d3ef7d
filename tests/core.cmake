# Provider core: parameters, errors, life cycle (C++ through EVP) and the openssl CLI.
# SPDX-License-Identifier: Apache-2.0
# Without arguments (as the valgrind job runs it) all four algorithm pairs; CTest runs them apart.
b2_add_evp_test(NAME provider.semantics TARGET test_semantics
                SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_semantics.cpp ARGS --algorithm blake2b
                LABELS provider)
target_compile_definitions(test_semantics PRIVATE B2_EXPECTED_VERSION="${PROJECT_VERSION}")
# The same rows for BLAKE2S-256/BLAKE2SMAC; the tree modes' rows (one size, no salt/custom).
foreach(b2_algorithm blake2s blake2bp blake2sp)
  b2_add_evp_test(NAME provider.semantics_${b2_algorithm} TARGET test_semantics
                  ARGS --algorithm ${b2_algorithm} LABELS provider ${b2_algorithm})
endforeach()

# BLAKE2S-256 / BLAKE2SMAC: the differential tests of vectors.cmake (test_differential, defined
# there) with --algorithm blake2s: random cases against the default provider, and parameterised
# cases against hashlib (vectors/gen_blake2s.py --random; 3.0's default digest ignores params).
b2_add_evp_test(NAME evp.differential_blake2s TARGET test_differential
                ARGS --algorithm blake2s ${b2_differential_args}
                LABELS vectors provider differential blake2s TIMEOUT 300)
set(b2_blake2s_random_cases ${CMAKE_CURRENT_BINARY_DIR}/random-param-cases-blake2s.json)
add_test(NAME vectors.blake2s_random_cases_generate
         COMMAND ${Python3_EXECUTABLE} ${B2_VECTORS_DIR}/gen_blake2s.py --random 3000
                 --output ${b2_blake2s_random_cases})
set_tests_properties(vectors.blake2s_random_cases_generate PROPERTIES
                     LABELS "vectors;differential;blake2s"
                     FIXTURES_SETUP b2_blake2s_random_param_cases)
b2_add_evp_test(NAME evp.hashlib_params_blake2s TARGET test_differential
                ARGS --algorithm blake2s --hashlib-cases ${b2_blake2s_random_cases}
                LABELS vectors provider differential blake2s
                FIXTURES_REQUIRED b2_blake2s_random_param_cases)

add_test(NAME cli.smoke
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/cli_smoke.py ${B2_MODULE_DIR})
set_tests_properties(cli.smoke PROPERTIES LABELS cli SKIP_RETURN_CODE 77)
# The same for BLAKE2S-256 / BLAKE2SMAC, and BLAKE2SP-256 / BLAKE2SPMAC through blake2bp_cli.py
# (blake2bp.cli in blake2bp.cmake is its BLAKE2bp run).
add_test(NAME cli.smoke_blake2s
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/cli_smoke.py ${B2_MODULE_DIR}
                 --family blake2s)
add_test(NAME cli.blake2sp
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/blake2bp_cli.py ${B2_MODULE_DIR}
                 ${PROJECT_SOURCE_DIR}/vectors --family blake2sp)
set_tests_properties(cli.smoke_blake2s PROPERTIES LABELS "cli;blake2s" SKIP_RETURN_CODE 77)
set_tests_properties(cli.blake2sp PROPERTIES LABELS "cli;blake2sp" TIMEOUT 120)

add_test(NAME provider.module_dependencies
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/check_module_deps.py
                 $<TARGET_FILE:blake2simd>)
set_tests_properties(provider.module_dependencies PROPERTIES LABELS provider SKIP_RETURN_CODE 77)

# .clang-format is the style: every C++ source follows it (clang-format 14, as pinned there).
find_program(B2_CLANG_FORMAT NAMES clang-format-14 clang-format)
if(B2_CLANG_FORMAT)
  file(GLOB_RECURSE b2_formatted_sources CONFIGURE_DEPENDS
       ${PROJECT_SOURCE_DIR}/provider/*.cpp ${PROJECT_SOURCE_DIR}/provider/*.hpp
       ${PROJECT_SOURCE_DIR}/kernels/*.cpp ${PROJECT_SOURCE_DIR}/kernels/*.hpp
       ${PROJECT_SOURCE_DIR}/kernels/*.inc ${PROJECT_SOURCE_DIR}/tests/*.cpp
       ${PROJECT_SOURCE_DIR}/tests/*.hpp ${PROJECT_SOURCE_DIR}/tests/*.c
       ${PROJECT_SOURCE_DIR}/bench/*.cpp ${PROJECT_SOURCE_DIR}/bench/*.hpp
       ${PROJECT_SOURCE_DIR}/cli/*.cpp ${PROJECT_SOURCE_DIR}/cli/*.hpp)
  execute_process(COMMAND ${B2_CLANG_FORMAT} --version OUTPUT_VARIABLE b2_clang_format_version)
  string(REGEX MATCH "version ([0-9]+)" b2_clang_format_version "${b2_clang_format_version}")
  if(CMAKE_MATCH_1 STREQUAL "14")
    add_test(NAME style.clang_format COMMAND ${B2_CLANG_FORMAT} --dry-run -Werror ${b2_formatted_sources})
  else()
    # Other releases lay some constructs out differently (clang-format 19 on Debian 13).
    add_test(NAME style.clang_format
             COMMAND ${Python3_EXECUTABLE} -c "import sys; print('style.clang_format: ${B2_CLANG_FORMAT} \
is clang-format ${CMAKE_MATCH_1}; the style is pinned to clang-format 14: skipped'); sys.exit(77)")
  endif()
  set_tests_properties(style.clang_format PROPERTIES LABELS provider SKIP_RETURN_CODE 77)
endif()

# The module's own OSSL_PARAM helpers against libcrypto's (the module itself links no libcrypto).
b2_add_evp_test(NAME provider.ossl_param TARGET test_ossl_param
                SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_ossl_param.cpp
                        ${PROJECT_SOURCE_DIR}/provider/ossl_param.cpp
                LABELS provider memory)
target_include_directories(test_ossl_param PRIVATE ${PROJECT_SOURCE_DIR}/provider
                                                   ${PROJECT_SOURCE_DIR}/kernels)

# new_context on a provider instance whose kernels all failed: refused with a reason.
add_executable(test_no_kernel ${CMAKE_CURRENT_LIST_DIR}/test_no_kernel.cpp
                              ${PROJECT_SOURCE_DIR}/provider/errors.cpp)
target_include_directories(test_no_kernel PRIVATE ${PROJECT_SOURCE_DIR}/provider ${B2_TEST_SUPPORT_DIR})
target_link_libraries(test_no_kernel PRIVATE blake2simd_kernels OpenSSL::Crypto b2_warnings)
add_test(NAME provider.no_kernel_context COMMAND test_no_kernel)
set_tests_properties(provider.no_kernel_context PROPERTIES LABELS provider)

# Docs and comments that stay true: every repository path, CMake function and C++ symbol named in
# README.md, docs/, the folder READMEs and the comments exists; kernel names are spelled only in
# kernels/registry.hpp and kernels/CMakeLists.txt (tests/check_references.py says what counts);
# the control proves both checks can fail.
add_test(NAME style.references
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/check_references.py ${PROJECT_SOURCE_DIR})
add_test(NAME style.references_control
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/check_references.py --control)
set_tests_properties(style.references style.references_control PROPERTIES LABELS style TIMEOUT 60)
