// Build check: this translation unit must be compiled for the baseline ISA only.
// SPDX-License-Identifier: Apache-2.0
//
// Files that run before the CPU has been asked what it supports (CPU detection, dispatch,
// self-test, the provider) must not be compiled with ISA flags: the compiler could then use
// AVX anywhere in them and crash older CPUs with SIGILL before any check runs. Including
// this header makes a leaked -mavx/-mssse3/-march=native a compile error instead.
#pragma once

#if defined(__SSSE3__) || defined(__AVX__) || defined(__AVX2__) || defined(__AVX512F__)
#error \
    "ISA flags leaked into a baseline translation unit; only kernels/compress_<isa>.cpp may use them"
#endif
