# Install rules (module, blake2simd-config, man pages, docs) and the CPack Debian package;
# blake2simd-sum installs itself (cli/CMakeLists.txt) and its man page is here.
# SPDX-License-Identifier: Apache-2.0
#
# Included once, at the end of the top-level CMakeLists.txt, after the `blake2simd` target exists.
# Nothing here edits openssl.cnf: `blake2simd-config enable` does, when the administrator runs it.
# The package ships no maintainer scripts and no conffile; removing it leaves an enabled
# openssl.cnf pointing at a missing module, which OpenSSL skips (default then serves).
include_guard(GLOBAL)
include(GNUInstallDirs)
include(${CMAKE_CURRENT_LIST_DIR}/OpenSSLModulesDir.cmake)

# --- blake2simd-config: the script with this build's module path filled in ----------------------

set(B2_CONFIG_TOOL ${PROJECT_BINARY_DIR}/dist/blake2simd-config)
configure_file(${PROJECT_SOURCE_DIR}/tools/blake2simd-config.py ${B2_CONFIG_TOOL} @ONLY)

# --- Man pages: POD -> troff by pod2man (Debian's perl package), gzipped as Debian wants ----------

set(B2_REQUIRE_MAN_PAGES OFF CACHE BOOL "Fail when pod2man is missing (the .deb build sets it)")
find_program(B2_POD2MAN pod2man)
find_program(B2_GZIP gzip)
set(B2_MAN_PAGES "")
set(_b2_pages blake2simd.7 blake2simd-config.8)
if(TARGET blake2simd-sum)
  list(APPEND _b2_pages blake2simd-sum.1)
endif()
if(B2_POD2MAN AND B2_GZIP)
  foreach(_b2_page IN LISTS _b2_pages)
    string(REGEX MATCH "[0-9]$" _b2_section "${_b2_page}")
    string(REGEX REPLACE "\\.[0-9]$" "" _b2_name "${_b2_page}")
    set(_b2_out ${PROJECT_BINARY_DIR}/man/${_b2_page})
    add_custom_command(
      OUTPUT ${_b2_out}.gz
      COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/man
      COMMAND ${B2_POD2MAN} --errors=die --section=${_b2_section} --name=${_b2_name}
              --center=blake2simd "--release=blake2simd ${PROJECT_VERSION}"
              ${PROJECT_SOURCE_DIR}/docs/man/${_b2_page}.pod ${_b2_out}
      COMMAND ${B2_GZIP} -9nf ${_b2_out}
      DEPENDS ${PROJECT_SOURCE_DIR}/docs/man/${_b2_page}.pod
      COMMENT "pod2man ${_b2_page}" VERBATIM)
    install(FILES ${_b2_out}.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man${_b2_section})
    list(APPEND B2_MAN_PAGES ${_b2_out}.gz)
  endforeach()
  add_custom_target(b2_man_pages ALL DEPENDS ${B2_MAN_PAGES})
elseif(B2_REQUIRE_MAN_PAGES)
  message(FATAL_ERROR "blake2simd: pod2man (Debian package perl) and gzip are needed for the "
                      "man pages: apt-get install perl")
else()
  message(STATUS "blake2simd: pod2man not found (Debian package perl); no man pages")
endif()

# --- Install rules ------------------------------------------------------------------------------

# Directories an install creates are 0755 whatever the builder's umask: under umask 000 or 002 a
# staged tree, and the .deb made from it, would hand dpkg world- or group-writable directories
# (/usr/share/doc/blake2simd among them). CPack's own install step takes the same.
set(_b2_dir_mode OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ
                 WORLD_EXECUTE)
set(CMAKE_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS ${_b2_dir_mode})
set(CPACK_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS ${_b2_dir_mode})

if(TARGET blake2simd)
  install(TARGETS blake2simd LIBRARY DESTINATION "${B2_MODULESDIR_FULL}")
else()
  message(WARNING "blake2simd: Packaging.cmake included before the blake2simd target exists; "
                  "the module will not be installed")
endif()
install(PROGRAMS ${B2_CONFIG_TOOL} DESTINATION ${CMAKE_INSTALL_SBINDIR})
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/docs/deploying.md
        DESTINATION ${CMAKE_INSTALL_DOCDIR})
# The project has no mail address of its own yet: the default names it, at a reserved domain
# that never resolves (RFC 2606 .invalid). Whoever distributes a package sets their own.
set(CPACK_PACKAGE_CONTACT "blake2simd developers <developers@blake2simd.invalid>"
    CACHE STRING "Maintainer field of the Debian package and its changelog")
# Debian's place for the licence is the copyright file (lintian: no-copyright-file), which points
# at the system's copy of the Apache licence; a native package's history is changelog.gz.
if(CMAKE_INSTALL_PREFIX STREQUAL "/usr")
  set(_b2_changelog ${PROJECT_BINARY_DIR}/dist/changelog)
  configure_file(${PROJECT_SOURCE_DIR}/dist/changelog.in ${_b2_changelog} @ONLY)
  add_custom_command(OUTPUT ${_b2_changelog}.gz
                     COMMAND gzip -9nkf ${_b2_changelog}
                     DEPENDS ${_b2_changelog} VERBATIM)
  add_custom_target(b2_deb_changelog ALL DEPENDS ${_b2_changelog}.gz)
  install(FILES ${PROJECT_SOURCE_DIR}/dist/copyright ${_b2_changelog}.gz
          DESTINATION ${CMAKE_INSTALL_DOCDIR})
else()
  install(FILES ${PROJECT_SOURCE_DIR}/LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR})
endif()

# --- Debian package -----------------------------------------------------------------------------

set(CPACK_PACKAGE_NAME blake2simd)
set(CPACK_PACKAGE_VENDOR "blake2simd")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "fast BLAKE2 provider for OpenSSL 3 (BLAKE2b, BLAKE2s, BLAKE2bp, BLAKE2sp)")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_GENERATOR DEB)
set(CPACK_STRIP_FILES ON)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
string(CONCAT CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "The BLAKE2B-512 and BLAKE2S-256 digests and the BLAKE2BMAC and BLAKE2SMAC MACs\n"
    "for OpenSSL 3.0 and later, plus the parallel tree modes BLAKE2BP-512 and\n"
    "BLAKE2BPMAC (4-way) and BLAKE2SP-256 and BLAKE2SPMAC (8-way), computed by the\n"
    "fastest kernel the CPU supports. Installing changes nothing: `blake2simd-config\n"
    "enable` activates it for every program that reads the system openssl.cnf,\n"
    "`blake2simd-config status` shows who serves each algorithm, and removal is safe\n"
    "before or after `disable`. blake2simd-sum is a drop-in b2sum (coreutils'\n"
    "output, checksum files and messages) on the provider, with BLAKE2s, BLAKE2bp,\n"
    "BLAKE2sp and keyed hashing.")

# The package ships no conffile and no maintainer scripts (see the top of this file).
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)

# Depends is computed when cpack runs, from the built module (see the file for why).
set(B2_DEB_REQUIRES_MAN_PAGES "${B2_MAN_PAGES}")
configure_file(${PROJECT_SOURCE_DIR}/dist/CPackProjectConfig.cmake.in
               ${PROJECT_BINARY_DIR}/dist/CPackProjectConfig.cmake.in @ONLY)
file(GENERATE OUTPUT ${PROJECT_BINARY_DIR}/dist/CPackProjectConfig.cmake
     INPUT ${PROJECT_BINARY_DIR}/dist/CPackProjectConfig.cmake.in)
set(CPACK_PROJECT_CONFIG_FILE ${PROJECT_BINARY_DIR}/dist/CPackProjectConfig.cmake)

# --- Source tarball (cpack --config build/CPackSourceConfig.cmake): blake2simd-VERSION.tar.gz
# with one top folder of that name, as dist/blake2simd.spec's Source0 and %autosetup expect;
# no build trees (any build*/ folder, RPM's build-rpm/ and redhat-linux-build/), git data or caches.
set(CPACK_SOURCE_GENERATOR TGZ)
set(CPACK_SOURCE_PACKAGE_FILE_NAME "${CPACK_PACKAGE_NAME}-${PROJECT_VERSION}")
# The patterns match absolute paths: anchored at the source folder, whatever folder holds it.
# CPack writes them into a CMake file it reads again, so each regex backslash is doubled here.
string(REGEX REPLACE "([][+.*()^$?|\\])" "\\\\\\\\\\1" _b2_top "${PROJECT_SOURCE_DIR}")
set(CPACK_SOURCE_IGNORE_FILES "^${_b2_top}/\\\\.git(/|$)" "^${_b2_top}/build[^/]*/"
    "^${_b2_top}/redhat-linux-build/" "^${_b2_top}/out/" "/__pycache__/" "\\\\.pyc$"
    "^${_b2_top}/build-[^/]*\\\\.log$")

include(CPack)
