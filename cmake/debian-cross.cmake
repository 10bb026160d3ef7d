# Cross-compiling with a Debian cross toolchain (crossbuild-essential-<arch>) against the
# multiarch OpenSSL of that architecture (libssl-dev:<arch>); tests run under qemu-user.
# SPDX-License-Identifier: Apache-2.0
#
# Included by the per-architecture toolchain files (toolchain-<arch>.cmake), which set
# B2_CROSS_TRIPLET (GNU triplet, also Debian's multiarch directory), B2_CROSS_PROCESSOR
# (CMAKE_SYSTEM_PROCESSOR) and B2_CROSS_QEMU (qemu-user's name for the architecture).
# docs/building.md explains the setup; tools/ci-cross.sh is the CI job using it.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR ${B2_CROSS_PROCESSOR})
set(CMAKE_C_COMPILER ${B2_CROSS_TRIPLET}-gcc)
set(CMAKE_CXX_COMPILER ${B2_CROSS_TRIPLET}-g++)
# Libraries from /usr/lib/<triplet> (multiarch), never the build machine's.
set(CMAKE_LIBRARY_ARCHITECTURE ${B2_CROSS_TRIPLET})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)

# CTest runs every test executable through qemu-user. Foreign programs find their loader and
# libraries in the multiarch runtime (libc6:<arch>, libstdc++6:<arch>), so no -L is passed.
find_program(B2_CROSS_EMULATOR NAMES qemu-${B2_CROSS_QEMU} qemu-${B2_CROSS_QEMU}-static)
if(B2_CROSS_EMULATOR)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${B2_CROSS_EMULATOR})
endif()
