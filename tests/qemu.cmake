# Runs tests under qemu-x86_64 CPU models, so every kernel level (and every "CPU lacks it"
# fallback) is exercised on one host. Label "qemu". Needs qemu-user (Debian: qemu-user).
#
# b2_add_qemu_tests(NAME_PREFIX TARGET [arg ...] [ARGS arg ...] [ENVIRONMENT VAR=value ...])
#   registers NAME_PREFIX.qemu.<model> for every model below, running TARGET with the args and
#   environment given (qemu passes the environment through to the program). Program args go
#   before the keywords or after ARGS; everything after ENVIRONMENT is environment. In args,
#   @EXPECTED_FEATURES@ becomes the features that model must expose (see kernels_info).
#   Tests get SKIP_RETURN_CODE 77 and BLAKE2SIMD_TEST_EMULATED=1.
#   Without qemu-x86_64 (or on a non-x86-64 host) the function registers nothing.
#
# b2_add_qemu_kernel_tests(NAME_PREFIX TARGET [arg ...])
#   for the EVP programs (those honouring B2_EXPECT_KERNEL / B2_ALLOWED_KERNELS, see
#   tests/support/b2test/evp.hpp): registers NAME_PREFIX.<request>.qemu.<model>, running TARGET
#   with the args under BLAKE2SIMD_KERNEL=<request>, for "auto" and every built kernel (the
#   build's list, global property B2_KERNELS). A model's runnable kernels are the baseline ones
#   (ref and those of ISA class baseline) and the features it exposes (the feature names are
#   the kernel names): the kernel served must be one of them (B2_ALLOWED_KERNELS), a request
#   among them must be served as asked (B2_EXPECT_KERNEL), and nothing may die of SIGILL. Under
#   emulation timing means nothing, so "auto" asserts only that the model can run what is
#   served. A baseline kernel runs the same code under every model, so its request runs under
#   the first model only; the others are requested under every model, which runs them or
#   must fall back. Same properties as b2_add_qemu_tests.
#
# Model, then the exact usable features kernels_info must detect under it (checked by the
# kernels.info.qemu.* tests, which is how we know each model has and lacks what we assume).
# Feature syntax is qemu's "-cpu MODEL,-feature"; "-xsave" clears XSAVE and OSXSAVE, so AVX
# is present in CPUID but unusable, like a kernel booted with noxsave. qemu 7.2 TCG emulates
# AVX2 but no AVX-512, so the avx512 kernel is covered on real hardware only.
set(B2_QEMU_MODELS
  "qemu64" "none"
  "core2duo" "ssse3"
  "Nehalem" "ssse3"
  "SandyBridge" "ssse3,avx"
  "Haswell" "ssse3,avx,avx2"
  "Haswell,-xsave" "ssse3"
)

if(CMAKE_HOST_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$"
   AND CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
  find_program(B2_QEMU_X86_64 NAMES qemu-x86_64 qemu-x86_64-static)
endif()
if(NOT B2_QEMU_X86_64)
  message(STATUS "blake2simd: qemu-x86_64 not found (or not an x86-64 build): "
                 "CPU-model tests (label qemu) are not registered")
endif()

# "Haswell,-xsave" -> "Haswell-noxsave": test names without commas.
function(b2_qemu_model_id out_var model)
  string(REPLACE ",-" "-no" model_id "${model}")
  string(REPLACE ",+" "-with" model_id "${model_id}")
  set(${out_var} ${model_id} PARENT_SCOPE)
endfunction()

function(b2_add_qemu_test test_name model target program_args environment)
  add_test(NAME ${test_name}
           COMMAND ${B2_QEMU_X86_64} -cpu ${model} $<TARGET_FILE:${target}> ${program_args})
  set_tests_properties(${test_name} PROPERTIES
    LABELS "qemu"
    SKIP_RETURN_CODE 77
    TIMEOUT 300
    ENVIRONMENT "BLAKE2SIMD_TEST_EMULATED=1;${environment}")
endfunction()

function(b2_add_qemu_tests name_prefix target)
  if(NOT B2_QEMU_X86_64)
    return()
  endif()
  cmake_parse_arguments(PARSE_ARGV 2 b2q "" "" "ENVIRONMENT;ARGS")
  set(program_args ${b2q_ARGS} ${b2q_UNPARSED_ARGUMENTS})
  set(models ${B2_QEMU_MODELS})
  while(models)
    list(POP_FRONT models model expected_features)
    b2_qemu_model_id(model_id "${model}")
    string(REPLACE "@EXPECTED_FEATURES@" "${expected_features}" model_args "${program_args}")
    b2_add_qemu_test(${name_prefix}.qemu.${model_id} "${model}" ${target} "${model_args}"
                     "${b2q_ENVIRONMENT}")
  endwhile()
endfunction()

# The built kernels every x86-64 CPU runs (ISA class baseline, kernels/CMakeLists.txt).
function(b2_baseline_kernels out_var)
  get_property(classes GLOBAL PROPERTY B2_KERNEL_ISA_CLASSES)
  set(baseline ref)
  foreach(entry IN LISTS classes)
    if(entry MATCHES "^(.*)=baseline$")
      list(APPEND baseline ${CMAKE_MATCH_1})
    endif()
  endforeach()
  set(${out_var} ${baseline} PARENT_SCOPE)
endfunction()

function(b2_add_qemu_kernel_tests name_prefix target)
  if(NOT B2_QEMU_X86_64)
    return()
  endif()
  set(program_args ${ARGN})
  get_property(built GLOBAL PROPERTY B2_KERNELS)
  b2_baseline_kernels(baseline)
  set(models ${B2_QEMU_MODELS})
  list(GET models 0 first_model)
  while(models)
    list(POP_FRONT models model expected_features)
    b2_qemu_model_id(model_id "${model}")
    set(runnable ${baseline})
    if(NOT expected_features STREQUAL "none")
      string(REPLACE "," ";" feature_list "${expected_features}")
      list(APPEND runnable ${feature_list})
    endif()
    string(REPLACE ";" "," allowed "${runnable}")
    foreach(request auto ${built})
      if(request IN_LIST baseline AND NOT model STREQUAL first_model)
        continue()
      endif()
      # A list separator inside one ENVIRONMENT entry would split it: commas only.
      set(environment "BLAKE2SIMD_KERNEL=${request};B2_ALLOWED_KERNELS=${allowed}")
      if(request IN_LIST runnable)
        string(APPEND environment ";B2_EXPECT_KERNEL=${request}")
      endif()
      b2_add_qemu_test(${name_prefix}.${request}.qemu.${model_id} "${model}" ${target}
                       "${program_args}" "${environment}")
    endforeach()
  endwhile()
endfunction()

# The kernel-level programs come from kernels.cmake (included before this file).
if(TARGET test_kernels)
  b2_add_qemu_tests(kernels.compare_with_ref test_kernels 1000)
  b2_add_qemu_tests(kernels.guard_pages test_kernel_guards)
  b2_add_qemu_tests(kernels.dispatch test_dispatch)
  b2_add_qemu_tests(kernels.info kernels_info "--expect=@EXPECTED_FEATURES@")
endif()
