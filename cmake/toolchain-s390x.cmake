# Debian s390x (64-bit big-endian): cmake -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-s390x.cmake
# (see docs/building.md).
# SPDX-License-Identifier: Apache-2.0
set(B2_CROSS_TRIPLET s390x-linux-gnu)
set(B2_CROSS_PROCESSOR s390x)
set(B2_CROSS_QEMU s390x)
include(${CMAKE_CURRENT_LIST_DIR}/debian-cross.cmake)
