# The tree's own text: its C++ layout, and the names its docs and comments use.
# SPDX-License-Identifier: Apache-2.0
# .clang-format is the style: every C++ source follows it (clang-format 14, as pinned there).
find_program(B2_CLANG_FORMAT NAMES clang-format-14 clang-format)
if(B2_CLANG_FORMAT)
  file(GLOB_RECURSE b2_formatted_sources CONFIGURE_DEPENDS
       ${PROJECT_SOURCE_DIR}/provider/*.cpp ${PROJECT_SOURCE_DIR}/provider/*.hpp
       ${PROJECT_SOURCE_DIR}/kernels/*.cpp ${PROJECT_SOURCE_DIR}/kernels/*.hpp
       ${PROJECT_SOURCE_DIR}/kernels/*.inc ${PROJECT_SOURCE_DIR}/tests/*.cpp
       ${PROJECT_SOURCE_DIR}/tests/*.hpp ${PROJECT_SOURCE_DIR}/tests/*.c
       ${PROJECT_SOURCE_DIR}/bench/*.cpp ${PROJECT_SOURCE_DIR}/bench/*.hpp
       ${PROJECT_SOURCE_DIR}/cli/*.cpp ${PROJECT_SOURCE_DIR}/cli/*.hpp)
  execute_process(COMMAND ${B2_CLANG_FORMAT} --version OUTPUT_VARIABLE b2_clang_format_version)
  string(REGEX MATCH "version ([0-9]+)" b2_clang_format_version "${b2_clang_format_version}")
  if(CMAKE_MATCH_1 STREQUAL "14")
    add_test(NAME style.clang_format COMMAND ${B2_CLANG_FORMAT} --dry-run -Werror ${b2_formatted_sources})
  else()
    # Other releases lay some constructs out differently (clang-format 19 on Debian 13).
    add_test(NAME style.clang_format
             COMMAND ${Python3_EXECUTABLE} -c "import sys; print('style.clang_format: ${B2_CLANG_FORMAT} \
is clang-format ${CMAKE_MATCH_1}; the style is pinned to clang-format 14: skipped'); sys.exit(77)")
  endif()
  set_tests_properties(style.clang_format PROPERTIES LABELS provider SKIP_RETURN_CODE 77)
endif()

# Docs and comments that stay true: every repository path, CMake function and C++ symbol named in
# README.md, docs/, the folder READMEs and the comments exists; kernel names are spelled only in
# kernels/registry.hpp and kernels/CMakeLists.txt (tests/check_references.py says what counts);
# the control proves both checks can fail.
add_test(NAME style.references
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/check_references.py ${PROJECT_SOURCE_DIR})
add_test(NAME style.references_control
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/check_references.py --control)
set_tests_properties(style.references style.references_control PROPERTIES LABELS style TIMEOUT 60)
