# Debian arm64: cmake -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-arm64.cmake (see docs/building.md).
# SPDX-License-Identifier: Apache-2.0
set(B2_CROSS_TRIPLET aarch64-linux-gnu)
set(B2_CROSS_PROCESSOR aarch64)
set(B2_CROSS_QEMU aarch64)
include(${CMAKE_CURRENT_LIST_DIR}/debian-cross.cmake)
