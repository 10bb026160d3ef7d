# The provider's own behaviour (label "provider"): parameters, errors and life cycle against
# OpenSSL's default provider, its OSSL_PARAM helpers, a provider with no kernel, its dependencies.
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

add_test(NAME provider.module_dependencies
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/check_module_deps.py
                 $<TARGET_FILE:blake2simd>)
set_tests_properties(provider.module_dependencies PROPERTIES LABELS provider SKIP_RETURN_CODE 77)

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

# The provider's sources linked into a test (the module exports nothing but OSSL_provider_init),
# registered with OSSL_PROVIDER_add_builtin: for tests that reach into a provider instance.
get_target_property(b2_module_sources blake2simd SOURCES)
list(TRANSFORM b2_module_sources PREPEND ${PROJECT_SOURCE_DIR}/provider/)
add_library(b2_provider_for_tests STATIC ${b2_module_sources})
target_include_directories(b2_provider_for_tests PUBLIC ${PROJECT_SOURCE_DIR}/provider)
target_compile_definitions(b2_provider_for_tests PRIVATE B2_VERSION="${PROJECT_VERSION}")
target_link_libraries(b2_provider_for_tests PUBLIC blake2simd_kernels OpenSSL::Crypto
                                            PRIVATE b2_warnings)

# OSSL_PROVIDER_self_test: 1 when every kernel passes; 0, and the instance then serves nothing,
# when one kernel of each form in turn fails its known answer.
add_executable(test_self_test ${CMAKE_CURRENT_LIST_DIR}/test_self_test.cpp)
target_include_directories(test_self_test PRIVATE ${B2_TEST_SUPPORT_DIR})
target_link_libraries(test_self_test PRIVATE b2_provider_for_tests b2_warnings)
add_test(NAME provider.self_test COMMAND test_self_test)
set_tests_properties(provider.self_test PROPERTIES LABELS "provider;blake2s;blake2sp" TIMEOUT 120)

# copyctx through EVP_MD_CTX_copy_ex (no allocation from 3.5) and PBKDF2-HMAC against the default
# provider; the serialized state through EVP_MD_CTX_serialize/deserialize (4.0 cores only, else
# 77): every digest, every kernel, another library context and another process.
b2_add_evp_test(NAME provider.evp_copy TARGET test_digest_state_evp
                SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_digest_state_evp.cpp ARGS --copy
                LABELS provider blake2s blake2sp blake2x)
target_link_libraries(test_digest_state_evp PRIVATE blake2simd_kernels)
b2_add_evp_test(NAME provider.evp_state TARGET test_digest_state_evp ARGS --state
                LABELS provider blake2s blake2sp blake2x)
