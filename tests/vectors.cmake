# Known-answer vectors (label "vectors"): the committed files are the official ones and fresh,
# and the case files the EVP tests read (evp.cmake) are generated, as fixtures.
# SPDX-License-Identifier: Apache-2.0

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
# gen_blake2x.py's cases for evp.blake2x (about 17 MB of JSON with outputs up to 2^20 bytes, so
# generated here, never committed; some 15 s of CPU in pure Python).
set(b2_blake2x_cases ${CMAKE_CURRENT_BINARY_DIR}/blake2x-cases.json)
add_test(NAME vectors.blake2x_cases_generate
         COMMAND ${b2_gen_blake2x} --cases ${b2_blake2x_cases})
set_tests_properties(vectors.blake2x_cases_generate PROPERTIES
                     LABELS "vectors;blake2x" FIXTURES_SETUP b2_blake2x_cases TIMEOUT 300)

# Random size/salt/custom cases from hashlib for evp.hashlib_params (OpenSSL 3.0's default digest
# ignores them, so it cannot be the oracle). Fresh cases each run; B2_SEED=<n> in the environment
# of `ctest` reproduces a run (the seed is printed in the setup test's output).
set(b2_random_cases ${CMAKE_CURRENT_BINARY_DIR}/random-param-cases.json)
add_test(NAME vectors.random_cases_generate
         COMMAND ${Python3_EXECUTABLE} ${B2_VECTORS_DIR}/gen_vectors.py --random 3000
                 --output ${b2_random_cases})
set_tests_properties(vectors.random_cases_generate PROPERTIES
                     LABELS "vectors;differential" FIXTURES_SETUP b2_random_param_cases)
# The same for BLAKE2s (vectors/gen_blake2s.py --random), for evp.hashlib_params_blake2s.
set(b2_blake2s_random_cases ${CMAKE_CURRENT_BINARY_DIR}/random-param-cases-blake2s.json)
add_test(NAME vectors.blake2s_random_cases_generate
         COMMAND ${Python3_EXECUTABLE} ${B2_VECTORS_DIR}/gen_blake2s.py --random 3000
                 --output ${b2_blake2s_random_cases})
set_tests_properties(vectors.blake2s_random_cases_generate PROPERTIES
                     LABELS "vectors;differential;blake2s"
                     FIXTURES_SETUP b2_blake2s_random_param_cases)

# The whole parameter block (tree fields, keys, salt, personalization) against hashlib, and trees
# built of such nodes (vectors/gen_tree_params.py), for evp.hashlib_tree_params*: fresh cases each
# run (B2_SEED reproduces), a smaller file for the runs under the qemu CPU models.
foreach(b2_family blake2b blake2s)
  foreach(b2_size full quick)
    if(b2_size STREQUAL full)
      set(b2_counts --random 1500 --trees 60)
    else()
      set(b2_counts --random 200 --trees 10)
    endif()
    set(b2_tree_cases_${b2_family}_${b2_size}
        ${CMAKE_CURRENT_BINARY_DIR}/tree-param-cases-${b2_family}-${b2_size}.json)
    add_test(NAME vectors.tree_params_${b2_family}_${b2_size}_generate
             COMMAND ${Python3_EXECUTABLE} ${B2_VECTORS_DIR}/gen_tree_params.py ${b2_counts}
                     --family ${b2_family} --output ${b2_tree_cases_${b2_family}_${b2_size}})
    set_tests_properties(vectors.tree_params_${b2_family}_${b2_size}_generate PROPERTIES
                         LABELS "vectors;differential"
                         FIXTURES_SETUP b2_tree_params_${b2_family}_${b2_size})
  endforeach()
endforeach()
