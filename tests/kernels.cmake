# Kernel-level tests: no OpenSSL, they link the kernel library directly. Label "kernels".
set(b2_kernel_test_dir ${CMAKE_CURRENT_LIST_DIR})

foreach(b2_program test_kernels test_kernel_guards test_cpu_features test_dispatch kernels_info
                   test_stack_reach)
  add_executable(${b2_program} ${b2_kernel_test_dir}/${b2_program}.cpp)
  target_link_libraries(${b2_program} PRIVATE blake2simd_kernels b2_warnings)
endforeach()

add_test(NAME kernels.compare_with_ref COMMAND test_kernels)
# One test per built kernel too (its BLAKE2b and BLAKE2s forms), so a kernel this CPU cannot run
# shows as skipped (exit 77) instead of hiding inside the test above.
get_property(b2_built_kernels GLOBAL PROPERTY B2_KERNELS)
set(b2_per_kernel_tests)
foreach(b2_kernel IN LISTS b2_built_kernels)
  add_test(NAME kernels.compare_with_ref.${b2_kernel} COMMAND test_kernels 3000 ${b2_kernel})
  list(APPEND b2_per_kernel_tests kernels.compare_with_ref.${b2_kernel})
endforeach()
add_test(NAME kernels.guard_pages COMMAND test_kernel_guards)
add_test(NAME kernels.cpu_features COMMAND test_cpu_features)
add_test(NAME kernels.dispatch COMMAND test_dispatch)
add_test(NAME kernels.info COMMAND kernels_info)
add_test(NAME kernels.stack_reach COMMAND test_stack_reach)
# Same program, but the first selection happens from several threads at once (the timing and
# ordering checks then run on the already-made choice).
add_test(NAME kernels.dispatch_concurrent_first_use COMMAND test_dispatch)
set_tests_properties(kernels.dispatch_concurrent_first_use PROPERTIES
  ENVIRONMENT BLAKE2SIMD_TEST_CONCURRENT_FIRST_USE=1)
set_tests_properties(kernels.compare_with_ref ${b2_per_kernel_tests} kernels.guard_pages kernels.cpu_features
                     kernels.dispatch kernels.info kernels.stack_reach
                     kernels.dispatch_concurrent_first_use
  PROPERTIES LABELS "kernels" SKIP_RETURN_CODE 77 TIMEOUT 120)

# Instruction encodings per object, per kernel as kernels/CMakeLists.txt classes it: no ISA leak into baseline code, no SSE4.1 in the SSSE3
# kernel, VEX only in the AVX kernels (see check_isa_objects.sh).
get_property(b2_isa_classes GLOBAL PROPERTY B2_KERNEL_ISA_CLASSES)
if(CMAKE_OBJDUMP AND CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
  add_test(NAME kernels.isa_objects
           COMMAND sh ${b2_kernel_test_dir}/check_isa_objects.sh ${CMAKE_OBJDUMP}
                   $<TARGET_FILE:blake2simd_kernels> "${CMAKE_NM}" ${b2_isa_classes})
  set_tests_properties(kernels.isa_objects PROPERTIES LABELS "kernels" TIMEOUT 60)
endif()
# The check above must fail on a planted weak symbol in a 4-lane ISA object (negative control).
if(CMAKE_OBJDUMP AND CMAKE_NM AND CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
  add_test(NAME kernels.isa_objects_control
           COMMAND sh ${b2_kernel_test_dir}/check_isa_objects_control.sh
                   ${b2_kernel_test_dir}/check_isa_objects.sh ${CMAKE_CXX_COMPILER} ${CMAKE_AR}
                   ${CMAKE_OBJDUMP} ${CMAKE_NM} ${b2_isa_classes})
  set_tests_properties(kernels.isa_objects_control PROPERTIES LABELS "kernels" TIMEOUT 60)
endif()

# BLAKE2sp's native 8-lane forms against eight single-lane runs. The second exits 77 (skipped)
# where this CPU cannot run some built form, so the unchecked form shows in the summary.
add_executable(test_kernels_lanes8 ${b2_kernel_test_dir}/test_kernels_lanes8.cpp)
target_link_libraries(test_kernels_lanes8 PRIVATE blake2simd_kernels b2_warnings)
add_test(NAME kernels.lanes8 COMMAND test_kernels_lanes8)
add_test(NAME kernels.lanes8_all_forms COMMAND test_kernels_lanes8 300 --require-all)
set_tests_properties(kernels.lanes8 kernels.lanes8_all_forms
  PROPERTIES LABELS "kernels" SKIP_RETURN_CODE 77 TIMEOUT 120)

# x86-64 assembly kernel: generated file up to date, agreement with the reference kernel, and a
# module whose stack stays non-executable once the assembly object is linked in.

if(Python3_Interpreter_FOUND)
  # Checked on every platform: the committed .S must be what the generator writes.
  add_test(NAME kernels.x64_generated_up_to_date
           COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/kernels/gen_compress_blake2_x64.py
                   --check ${PROJECT_SOURCE_DIR}/kernels/compress_blake2_x64.S)
  set_tests_properties(kernels.x64_generated_up_to_date PROPERTIES LABELS "kernels" TIMEOUT 60)
endif()

if(x64 IN_LIST b2_built_kernels)
  add_executable(test_x64_kernel ${CMAKE_CURRENT_LIST_DIR}/test_x64_kernel.cpp)
  target_link_libraries(test_x64_kernel PRIVATE blake2simd_kernels b2_warnings)
  add_test(NAME kernels.x64_vs_ref COMMAND test_x64_kernel)
  set_tests_properties(kernels.x64_vs_ref PROPERTIES LABELS "kernels" TIMEOUT 120)

  if(Python3_Interpreter_FOUND AND TARGET blake2simd)
    add_test(NAME kernels.x64_module_stack_not_executable
             COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/check_execstack.py
                     $<TARGET_FILE:blake2simd>)
    set_tests_properties(kernels.x64_module_stack_not_executable
                         PROPERTIES LABELS "kernels" SKIP_RETURN_CODE 77 TIMEOUT 60)
  endif()
endif()

# Under every emulated CPU model (helpers.cmake, qemu.cmake): the kernel-level programs.
b2_add_qemu_tests(kernels.compare_with_ref test_kernels 1000)
b2_add_qemu_tests(kernels.guard_pages test_kernel_guards)
b2_add_qemu_tests(kernels.dispatch test_dispatch)
b2_add_qemu_tests(kernels.info kernels_info "--expect=@EXPECTED_FEATURES@")
