# blake2simd-sum (cli/): against coreutils' b2sum byte for byte (cli_sum.py), and what b2sum
# lacks (cli_sum_extras.py: -a, -k, --kernel, -v, -j) against hashlib and the vector generators.
# Label "sum", not "cli": these run our own (instrumented) program and Python's standard library,
# never a module loaded by an uninstrumented host, so the ASan/UBSan job runs them too.
# SPDX-License-Identifier: Apache-2.0
if(NOT TARGET blake2simd-sum)
  return()
endif()
# A cross build's program runs under its qemu-user (cmake/debian-cross.cmake). The interpreter
# is named by path: CMake would run an executable target, Python3::Interpreter too, under it.
set(_b2_sum_emulator "")
if(CMAKE_CROSSCOMPILING_EMULATOR)
  set(_b2_sum_emulator --emulator ${CMAKE_CROSSCOMPILING_EMULATOR})
endif()
add_test(NAME sum.differential
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/cli_sum.py
                 --sum $<TARGET_FILE:blake2simd-sum> ${_b2_sum_emulator})
# The free() scanner for the key-scrub cases; a sanitizer's runtime owns free(), and qemu-user
# would preload it into the emulator: left out there.
set(_b2_sum_free_scan "")
if(NOT CMAKE_CROSSCOMPILING
   AND NOT "${CMAKE_C_FLAGS} ${CMAKE_CXX_FLAGS} ${CMAKE_EXE_LINKER_FLAGS}" MATCHES "-fsanitize=")
  add_library(b2_free_scan MODULE ${CMAKE_CURRENT_LIST_DIR}/support/free_scan.c)
  target_link_libraries(b2_free_scan PRIVATE ${CMAKE_DL_LIBS} b2_warnings)
  set(_b2_sum_free_scan --free-scan $<TARGET_FILE:b2_free_scan>)
endif()
# The build's kernels (kernels/CMakeLists.txt), for --kernel.
get_property(_b2_sum_kernels GLOBAL PROPERTY B2_KERNELS)
string(REPLACE ";" "," _b2_sum_kernels "${_b2_sum_kernels}")
add_test(NAME sum.extras
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/cli_sum_extras.py
                 --sum $<TARGET_FILE:blake2simd-sum> --vectors ${B2_VECTORS_DIR}
                 --module-dir ${B2_MODULE_DIR} --kernels "${_b2_sum_kernels}"
                 ${_b2_sum_emulator} ${_b2_sum_free_scan})
set_tests_properties(sum.differential sum.extras PROPERTIES
  LABELS "sum;differential" SKIP_RETURN_CODE 77 TIMEOUT 300)
# -c with the wrong algorithm names the one that reproduces the line.
add_test(NAME sum.check_hint
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/cli_sum_check_hint.py
                 --sum $<TARGET_FILE:blake2simd-sum> --vectors ${B2_VECTORS_DIR} ${_b2_sum_emulator})
set_tests_properties(sum.check_hint PROPERTIES LABELS sum SKIP_RETURN_CODE 77 TIMEOUT 60)

# Which module the program loads: the build's only from the build tree, never one beside an
# installed copy; as root, none that anyone but root could replace. A native build's own
# program only (the loader's trace is read; a cross build's runs under qemu-user).
if(NOT CMAKE_CROSSCOMPILING)
  include(${PROJECT_SOURCE_DIR}/cmake/OpenSSLModulesDir.cmake)  # B2_MODULESDIR_FULL
  set(_b2_sum_module_args --sum $<TARGET_FILE:blake2simd-sum> --module-dir ${B2_MODULE_DIR}
                          --installed-dir ${B2_MODULESDIR_FULL} --work-dir ${CMAKE_CURRENT_BINARY_DIR})
  add_test(NAME sum.module_lookup
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/cli_sum_module.py
                   ${_b2_sum_module_args})
  add_test(NAME sum.module_root_trust
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/cli_sum_module.py
                   ${_b2_sum_module_args} --root)
  set_tests_properties(sum.module_lookup sum.module_root_trust PROPERTIES
    LABELS sum SKIP_RETURN_CODE 77 TIMEOUT 60)
endif()

# Its options declared once (cli/options.cpp): --help, the bash completion and the man page agree.
# A text check of the native build (a cross build's program would need qemu-user to say --help).
if(NOT CMAKE_CROSSCOMPILING)
  add_test(NAME sum.options_agree
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/cli_sum_options.py
                   --sum $<TARGET_FILE:blake2simd-sum> --source-dir ${PROJECT_SOURCE_DIR})
  set_tests_properties(sum.options_agree PROPERTIES LABELS "sum;style" SKIP_RETURN_CODE 77
                       TIMEOUT 120)
endif()
