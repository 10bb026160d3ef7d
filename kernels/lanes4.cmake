# BLAKE2bp's 4-lane kernels (lanes4.hpp). Included from kernels/CMakeLists.txt after the
# single-lane ISA kernels, whose toolchain checks (B2_TOOLCHAIN_HAS_<ISA>) it reuses.
# SPDX-License-Identifier: Apache-2.0
#
# lanes4.cpp is baseline code (lane-by-lane adapters, self-test, choice); only the AVX2 and
# AVX-512 files get ISA flags, on those files alone.
target_sources(blake2simd_kernels PRIVATE ${CMAKE_CURRENT_LIST_DIR}/lanes4.cpp)

if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
  if(B2_TOOLCHAIN_HAS_AVX2)
    target_sources(blake2simd_kernels PRIVATE ${CMAKE_CURRENT_LIST_DIR}/compress_avx2_lanes4.cpp)
    set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/compress_avx2_lanes4.cpp
                                PROPERTIES COMPILE_OPTIONS "-mavx2")
    target_compile_definitions(blake2simd_kernels PRIVATE B2_HAVE_LANES4_AVX2=1)
  endif()
  if(B2_TOOLCHAIN_HAS_AVX512)
    target_sources(blake2simd_kernels PRIVATE ${CMAKE_CURRENT_LIST_DIR}/compress_avx512_lanes4.cpp)
    set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/compress_avx512_lanes4.cpp
                                PROPERTIES COMPILE_OPTIONS "${B2_AVX512_FLAGS}")
    target_compile_definitions(blake2simd_kernels PRIVATE B2_HAVE_LANES4_AVX512=1)
  endif()
  # Textually included by the two files above (listed for IDEs and the dependency view).
  target_sources(blake2simd_kernels PRIVATE ${CMAKE_CURRENT_LIST_DIR}/lanes4_256.inc)
  set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/lanes4_256.inc
                              PROPERTIES HEADER_FILE_ONLY ON)
endif()
