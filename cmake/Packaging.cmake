# Install rules (module, openssl.cnf snippet, docs) and the CPack Debian package.
# SPDX-License-Identifier: Apache-2.0
#
# Included once, at the end of the top-level CMakeLists.txt, after the `blake2simd` target exists.
# Nothing here edits openssl.cnf: the snippet only defines [blake2simd_sect], and its comments tell
# the administrator which lines to add. The package ships no maintainer scripts.
include_guard(GLOBAL)
include(GNUInstallDirs)
include(${CMAKE_CURRENT_LIST_DIR}/OpenSSLModulesDir.cmake)

# Only named in the snippet's comments, as the usual place of the file to edit. Debian's OPENSSLDIR
# is /usr/lib/ssl, whose openssl.cnf is a symlink to /etc/ssl/openssl.cnf: name the real file.
set(B2_SYSTEM_OPENSSL_CNF "/etc/ssl/openssl.cnf")
find_program(B2_OPENSSL_EXECUTABLE openssl)
if(B2_OPENSSL_EXECUTABLE)
  execute_process(COMMAND "${B2_OPENSSL_EXECUTABLE}" version -d OUTPUT_VARIABLE _b2_openssldir
                  RESULT_VARIABLE _b2_rc ERROR_QUIET)
  if(_b2_rc EQUAL 0 AND _b2_openssldir MATCHES "OPENSSLDIR: \"([^\"]+)\"")
    get_filename_component(B2_SYSTEM_OPENSSL_CNF "${CMAKE_MATCH_1}/openssl.cnf" REALPATH)
  endif()
endif()

configure_file(${PROJECT_SOURCE_DIR}/dist/blake2simd.cnf.in
               ${PROJECT_BINARY_DIR}/dist/blake2simd.cnf @ONLY)

# --- Install rules ----------------------------------------------------------------------------

if(TARGET blake2simd)
  install(TARGETS blake2simd LIBRARY DESTINATION "${B2_MODULESDIR_FULL}")
else()
  message(WARNING "blake2simd: Packaging.cmake included before the blake2simd target exists; "
                  "the module will not be installed")
endif()
install(FILES ${PROJECT_BINARY_DIR}/dist/blake2simd.cnf DESTINATION "${B2_SNIPPET_DIR}")
foreach(_b2_doc README.md LICENSE)
  if(EXISTS ${PROJECT_SOURCE_DIR}/${_b2_doc})
    install(FILES ${PROJECT_SOURCE_DIR}/${_b2_doc} DESTINATION ${CMAKE_INSTALL_DOCDIR})
  endif()
endforeach()

# --- Debian package ---------------------------------------------------------------------------

set(CPACK_PACKAGE_NAME blake2simd)
set(CPACK_PACKAGE_VENDOR "blake2simd")
set(CPACK_PACKAGE_CONTACT "blake2simd maintainers <blake2simd@localhost>"
    CACHE STRING "Maintainer field of the Debian package")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_GENERATOR DEB)
set(CPACK_STRIP_FILES ON)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
string(CONCAT CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "BLAKE2B-512 digest and BLAKE2BMAC for OpenSSL 3.0 and later, plus the 4-way\n"
    "parallel BLAKE2BP-512 and BLAKE2BPMAC, computed by the fastest kernel the CPU\n"
    "supports. To activate it, include ${B2_SNIPPET_INSTALL_PATH}\n"
    "from openssl.cnf as the comments in that file describe.")
# libcrypto lives in libssl3 on Debian 12. dpkg-shlibdeps derives libc6 and libssl3 with their
# minimum versions; without it the list is spelled out as it computes them on Debian 12 (the
# module's pthread_once is versioned GLIBC_2.34). The module needs no C++ runtime
# (provider/CMakeLists.txt), so libstdc++6 is not a dependency.
find_program(B2_DPKG_SHLIBDEPS dpkg-shlibdeps)
if(B2_DPKG_SHLIBDEPS)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
else()
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "libssl3 (>= 3.0.0), libc6 (>= 2.34)")
endif()

# The snippet is a conffile: dpkg keeps an administrator's edits (e.g. `kernel =`) on upgrade.
file(WRITE ${PROJECT_BINARY_DIR}/dist/deb/conffiles "${B2_SNIPPET_INSTALL_PATH}\n")
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${PROJECT_BINARY_DIR}/dist/deb/conffiles)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)

# A .deb must follow Debian's layout. Relative destinations land under /usr anyway, but the module
# and snippet paths were fixed at configure time from CMAKE_INSTALL_PREFIX, so refuse other prefixes
# at cpack time (the file below is read by cpack, once per generator).
set(CPACK_PROJECT_CONFIG_FILE ${PROJECT_BINARY_DIR}/dist/CPackProjectConfig.cmake)
if(CMAKE_INSTALL_PREFIX STREQUAL "/usr")
  file(WRITE ${CPACK_PROJECT_CONFIG_FILE} "# The prefix is /usr: nothing to check.\n")
else()
  file(WRITE ${CPACK_PROJECT_CONFIG_FILE}
       "if(CPACK_GENERATOR STREQUAL \"DEB\")\n"
       "  message(FATAL_ERROR \"blake2simd: this tree is configured with CMAKE_INSTALL_PREFIX="
       "${CMAKE_INSTALL_PREFIX}; a Debian package needs -DCMAKE_INSTALL_PREFIX=/usr\")\n"
       "endif()\n")
endif()

include(CPack)
