# Finds the directory the OpenSSL we build against searches for provider modules (B2_MODULESDIR).
# SPDX-License-Identifier: Apache-2.0
#
# Order: pkg-config's `modulesdir` of libcrypto (what distributions declare; pkcs11-provider
# PR #380), then `openssl version -m`, then ${CMAKE_INSTALL_FULL_LIBDIR}/ossl-modules. A source is
# trusted only when it describes the libcrypto that find_package(OpenSSL) found: on machines with
# several OpenSSL installations (oqs-provider#665) the module would otherwise land where the *other*
# library looks.
# `-DB2_MODULESDIR=...` always wins; left empty, the detection runs on every configure. Safe to
# include more than once (Packaging.cmake, tests/system.cmake).
include(GNUInstallDirs)

if(NOT OPENSSL_FOUND)
  find_package(OpenSSL 3.0 REQUIRED COMPONENTS Crypto)
endif()

function(_b2_real_dir path out_var)
  get_filename_component(dir "${path}" DIRECTORY)
  get_filename_component(dir "${dir}" REALPATH)
  set(${out_var} "${dir}" PARENT_SCOPE)
endfunction()

function(_b2_modulesdir_from_pkgconfig out_var)
  set(${out_var} "" PARENT_SCOPE)
  find_package(PkgConfig QUIET)
  if(NOT PKG_CONFIG_FOUND)
    return()
  endif()
  pkg_get_variable(modulesdir libcrypto modulesdir)
  pkg_get_variable(libdir libcrypto libdir)
  if(modulesdir STREQUAL "" OR libdir STREQUAL "")
    return()
  endif()
  get_filename_component(libdir "${libdir}" REALPATH)
  _b2_real_dir("${OPENSSL_CRYPTO_LIBRARY}" found_libdir)
  if(NOT libdir STREQUAL found_libdir)
    message(STATUS "blake2simd: pkg-config libcrypto (${libdir}) is not the one found "
                   "(${found_libdir}); ignoring its modulesdir")
    return()
  endif()
  set(${out_var} "${modulesdir}" PARENT_SCOPE)
endfunction()

function(_b2_modulesdir_from_openssl_cli out_var)
  set(${out_var} "" PARENT_SCOPE)
  get_filename_component(openssl_prefix "${OPENSSL_INCLUDE_DIR}" DIRECTORY)
  find_program(B2_OPENSSL_EXECUTABLE openssl HINTS "${openssl_prefix}/bin"
               DOC "openssl command line tool matching the OpenSSL headers")
  if(NOT B2_OPENSSL_EXECUTABLE)
    return()
  endif()
  execute_process(COMMAND "${B2_OPENSSL_EXECUTABLE}" version -v -m
                  OUTPUT_VARIABLE report RESULT_VARIABLE rc ERROR_QUIET)
  if(NOT rc EQUAL 0)
    return()
  endif()
  # The binary may belong to another installation; its library version must match the headers'.
  if(NOT report MATCHES "Library: OpenSSL ([0-9]+\\.[0-9]+\\.[0-9]+)"
     AND NOT report MATCHES "^OpenSSL ([0-9]+\\.[0-9]+\\.[0-9]+)")
    return()
  endif()
  set(cli_version "${CMAKE_MATCH_1}")
  if(NOT OPENSSL_VERSION VERSION_EQUAL cli_version)
    message(STATUS "blake2simd: ${B2_OPENSSL_EXECUTABLE} reports OpenSSL ${cli_version}, "
                   "headers are ${OPENSSL_VERSION}; ignoring its MODULESDIR")
    return()
  endif()
  if(report MATCHES "MODULESDIR: \"([^\"]+)\"")
    set(${out_var} "${CMAKE_MATCH_1}" PARENT_SCOPE)
  endif()
endfunction()

set(B2_MODULESDIR "" CACHE PATH
    "Directory blake2simd.so is installed into (empty: OpenSSL's MODULESDIR when it lies under \
CMAKE_INSTALL_PREFIX, else <libdir>/ossl-modules under the prefix)")
if(B2_MODULESDIR STREQUAL "")
  _b2_modulesdir_from_pkgconfig(_b2_detected)
  set(_b2_source "pkg-config libcrypto modulesdir")
  if(_b2_detected STREQUAL "")
    _b2_modulesdir_from_openssl_cli(_b2_detected)
    set(_b2_source "openssl version -m")
  endif()
  # An install under another prefix (the default /usr/local) stays under it, so that removing
  # that prefix's files removes the module too; blake2simd-config names the module by its
  # absolute path, so OpenSSL need not search there.
  if(NOT _b2_detected STREQUAL "" AND NOT _b2_detected MATCHES "^${CMAKE_INSTALL_PREFIX}/")
    message(STATUS "blake2simd: OpenSSL's MODULESDIR ${_b2_detected} is outside the install "
                   "prefix ${CMAKE_INSTALL_PREFIX}; installing the module under the prefix")
    set(_b2_detected "")
  endif()
  if(_b2_detected STREQUAL "")
    set(_b2_detected "${CMAKE_INSTALL_FULL_LIBDIR}/ossl-modules")
    set(_b2_source "\${CMAKE_INSTALL_FULL_LIBDIR}/ossl-modules")
  endif()
  set(_b2_modulesdir "${_b2_detected}")
  message(STATUS "blake2simd: module directory ${_b2_modulesdir} (from ${_b2_source})")
else()
  set(_b2_modulesdir "${B2_MODULESDIR}")
endif()

# --- Install locations derived from it (used by the install rules, the snippet and the tests) ---

# blake2simd-config writes `module =` with an absolute path: a relative directory is under the prefix.
if(IS_ABSOLUTE "${_b2_modulesdir}")
  set(B2_MODULESDIR_FULL "${_b2_modulesdir}")
else()
  set(B2_MODULESDIR_FULL "${CMAKE_INSTALL_PREFIX}/${_b2_modulesdir}")
endif()
set(B2_MODULE_INSTALL_PATH "${B2_MODULESDIR_FULL}/blake2simd${CMAKE_SHARED_MODULE_SUFFIX}")
