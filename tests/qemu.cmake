# The qemu-x86_64 CPU models the tests run under (label "qemu"), so every kernel level and every
# "CPU lacks it" fallback is exercised on one host. helpers.cmake holds the functions that
# register tests under them (b2_add_qemu_tests, b2_add_qemu_kernel_tests).
# SPDX-License-Identifier: Apache-2.0
#
# Model, then the exact usable CPU features kernels_info must detect under it (checked by the
# kernels.info.qemu.* tests, which is how we know each model has and lacks what we assume). The
# names are the fields of kernels/cpu_features.hpp's CpuFeatures, as kernels_info prints them; a
# kernel runs under a model that has every feature it needs (B2_KERNEL_CPU_FEATURES, exported by
# kernels/CMakeLists.txt), so no kernel is named here.
# Feature syntax is qemu's "-cpu MODEL,-feature"; "-xsave" clears XSAVE and OSXSAVE, so AVX
# is present in CPUID but unusable, like a kernel booted with noxsave. qemu 7.2 TCG emulates
# AVX2 but no AVX-512, so AVX-512 code is covered on real hardware only.
set(B2_QEMU_MODELS
  "qemu64" "none"
  "core2duo" "ssse3"
  "Nehalem" "ssse3"
  "SandyBridge" "ssse3,avx"
  "Haswell" "ssse3,avx,avx2"
  "Haswell,-xsave" "ssse3"
)
