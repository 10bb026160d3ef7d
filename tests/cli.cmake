# The openssl command line with our provider (label "cli").
# SPDX-License-Identifier: Apache-2.0
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
