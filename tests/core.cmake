# Provider core: parameters, errors, life cycle (C++ through EVP) and the openssl CLI.
# SPDX-License-Identifier: Apache-2.0
b2_add_evp_test(NAME semantics SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_semantics.cpp LABELS provider)
target_compile_definitions(semantics PRIVATE B2_EXPECTED_VERSION="${PROJECT_VERSION}")

add_test(NAME cli_smoke
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/cli_smoke.py ${B2_MODULE_DIR})
set_tests_properties(cli_smoke PROPERTIES LABELS cli SKIP_RETURN_CODE 77)

add_test(NAME module_dependencies
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/check_module_deps.py
                 $<TARGET_FILE:blake2simd>)
set_tests_properties(module_dependencies PROPERTIES LABELS provider SKIP_RETURN_CODE 77)
