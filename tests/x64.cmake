# x86-64 assembly kernel: generated file up to date, agreement with the reference kernel, and a
# module whose stack stays non-executable once the assembly object is linked in.
# SPDX-License-Identifier: Apache-2.0
find_package(Python3 COMPONENTS Interpreter)
get_property(b2_built_kernels GLOBAL PROPERTY B2_KERNELS)

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
