# ptxw_add_codegen_test(NAME <name> SOURCES <kernel.cu>... TARGETS <sm_XX>... CHECKS <file>
#                       [REQUIRES <feature>...] [OPTIONS <nvcc flag>...])
#
# One CTest test per target, <name>/<target>: compiles SOURCES for the target to PTX and SASS and
# FileChecks both against CHECKS, with the prefixes and lit features of ptxw's own codegen suite
# (PTX, PTX-SM10X, PTX-SM100A; SASS, ...; REQUIRES clc, clc-multicast, mbarrier-tx, ...). A target
# the toolchain's ptxas lacks, or a REQUIRES feature it rejects, makes the test skipped, with why.
# The driver is `ptxw check` (tools/ptxwtools/codegen/check.py), run with:
#   PTXW_CUDA_ROOT  toolchain (default: the one CMAKE_CUDA_COMPILER belongs to, else /usr/local/cuda)
#   PTXW_DEPS_DIR   where `tools/ptxw setup` put cuobjdump/nvdisasm, if the toolchain lacks them
#   PTXW_FILECHECK  FileCheck (default: PATH, then /usr/lib/llvm-*/bin)
# ptxw_add_sass_baseline_test() (below) diffs a project's kernels against a recorded SASS baseline, and
# ptxw_add_lit_tests() runs a folder of lit tests (// RUN: and // CHECK: lines in the .cu files).
# The tools are Python 3: each function looks for it when called, so a project that uses only the
# headers configures without it.
include_guard(GLOBAL)

set(PTXW_CUDA_ROOT "" CACHE PATH "CUDA toolchain for ptxw_add_codegen_test")
set(PTXW_DEPS_DIR "" CACHE PATH "Folder with ptxw's set-up tools (cuobjdump, nvdisasm) for ptxw_add_codegen_test")
set(PTXW_FILECHECK "" CACHE FILEPATH "FileCheck for ptxw_add_codegen_test")

function(_ptxw_env out)
  set(env "")
  foreach(var PTXW_DEPS_DIR PTXW_FILECHECK)
    if(${var})
      list(APPEND env "${var}=${${var}}")
    endif()
  endforeach()
  set(${out} "${env}" PARENT_SCOPE)
endfunction()

function(_ptxw_check_targets name)
  foreach(target IN LISTS ARGN)
    if(NOT target MATCHES "^sm_[0-9][0-9][0-9]?[af]?$")
      message(FATAL_ERROR "ptxw: ${name}: unknown target '${target}' "
                          "(expected sm_<NN>, sm_<NN>a or sm_<NN>f, e.g. sm_90a, sm_100f)")
    endif()
  endforeach()
endfunction()

function(_ptxw_toolchain_root out)
  set(root "${PTXW_CUDA_ROOT}")
  if(NOT root AND CMAKE_CUDA_COMPILER)
    get_filename_component(root "${CMAKE_CUDA_COMPILER}" DIRECTORY)
    get_filename_component(root "${root}" DIRECTORY)
  endif()
  set(${out} "${root}" PARENT_SCOPE)
endfunction()

function(_ptxw_absolute_sources out)
  set(sources "")
  foreach(src IN LISTS ARGN)
    cmake_path(ABSOLUTE_PATH src BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}" NORMALIZE OUTPUT_VARIABLE src)
    list(APPEND sources "${src}")
  endforeach()
  set(${out} "${sources}" PARENT_SCOPE)
endfunction()

# What the functions start with: Python 3 found, the arguments checked (what is required, nothing unknown,
# target names), then root (the toolchain), env (for the tools), sources (absolute) and includes (ptxw's).
macro(_ptxw_prologue fn)
  find_package(Python3 3.8 COMPONENTS Interpreter)
  if(NOT Python3_Interpreter_FOUND)
    message(FATAL_ERROR "${fn}: the ptxw tools it runs need Python 3.8 or newer, which CMake did not find "
                        "(-DPython3_EXECUTABLE=<python3> names one)")
  endif()
  foreach(required ${ARGN})
    if(NOT arg_${required})
      message(FATAL_ERROR "${fn}: ${required} is required")
    endif()
  endforeach()
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "${fn}(${arg_NAME}): unknown arguments ${arg_UNPARSED_ARGUMENTS}")
  endif()
  _ptxw_check_targets(${arg_NAME} ${arg_TARGETS})
  _ptxw_toolchain_root(root)
  _ptxw_env(env)
  _ptxw_absolute_sources(sources ${arg_SOURCES})
  set(includes "$<TARGET_PROPERTY:ptxw::ptxw,INTERFACE_INCLUDE_DIRECTORIES>")
endmacro()

function(ptxw_add_codegen_test)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "NAME;CHECKS" "SOURCES;TARGETS;REQUIRES;OPTIONS")
  _ptxw_prologue(ptxw_add_codegen_test NAME SOURCES TARGETS CHECKS)
  cmake_path(ABSOLUTE_PATH arg_CHECKS BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}" NORMALIZE OUTPUT_VARIABLE checks)

  foreach(target IN LISTS arg_TARGETS)
    set(cmd "${Python3_EXECUTABLE}" "${PTXW_TOOL}" check --target ${target} --checks "${checks}"
            --out "${CMAKE_CURRENT_BINARY_DIR}/ptxw_codegen/${arg_NAME}/${target}")
    if(root)
      list(APPEND cmd --cuda-root "${root}")
    endif()
    foreach(feature IN LISTS arg_REQUIRES)
      list(APPEND cmd --requires ${feature})
    endforeach()
    list(APPEND cmd ${sources} -- "-I$<JOIN:${includes},$<SEMICOLON>-I>" ${arg_OPTIONS})
    add_test(NAME ${arg_NAME}/${target} COMMAND ${cmd} COMMAND_EXPAND_LISTS)
    set_tests_properties(${arg_NAME}/${target} PROPERTIES SKIP_RETURN_CODE 77 ENVIRONMENT "${env}")
  endforeach()
endfunction()

# ptxw_add_sass_baseline_test(NAME <name> SOURCES <kernel.cu|.ptx>... TARGETS <sm_XX>... BASELINE <file.json>
#                             [OPTIONS <nvcc flag>...] [ADVISORY])
#
# One CTest test, <name>/sass-baseline: compiles SOURCES for every target and compares each kernel's
# normalised SASS and resources (registers, spills, shared memory) with the checked-in BASELINE, through
# `ptxw sass-diff --baseline` (tools/ptxwtools/sass_diff/). Any change fails the test and prints the
# diff (and the target that accepts it), so a pull request that changes SASS shows it; with ADVISORY the
# test prints it and passes.
# Reports (Markdown, HTML, JSON) go to <binary dir>/ptxw_sass/<name>/sass-diff/. To accept a change, or
# to record the first baseline:  cmake --build <build dir> --target <name>_update_sass_baseline
function(ptxw_add_sass_baseline_test)
  cmake_parse_arguments(PARSE_ARGV 0 arg "ADVISORY" "NAME;BASELINE" "SOURCES;TARGETS;OPTIONS")
  _ptxw_prologue(ptxw_add_sass_baseline_test NAME SOURCES TARGETS BASELINE)
  cmake_path(ABSOLUTE_PATH arg_BASELINE BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}" NORMALIZE OUTPUT_VARIABLE baseline)
  set(cmd "${Python3_EXECUTABLE}" "${PTXW_TOOL}" sass-diff ${sources} --targets ${arg_TARGETS} --baseline "${baseline}"
          --root "${CMAKE_CURRENT_SOURCE_DIR}" --build-dir "${CMAKE_CURRENT_BINARY_DIR}/ptxw_sass/${arg_NAME}")
  if(root)
    list(APPEND cmd --toolchain "${root}")
  endif()
  set(flags -- "-I$<JOIN:${includes},$<SEMICOLON>-I>" ${arg_OPTIONS})
  set(check ${cmd} --show-diff --accept-with "cmake --build ${CMAKE_BINARY_DIR} --target ${arg_NAME}_update_sass_baseline")
  if(NOT arg_ADVISORY)
    list(APPEND check --fail-on-change)
  endif()
  add_test(NAME ${arg_NAME}/sass-baseline COMMAND ${check} ${flags} COMMAND_EXPAND_LISTS)
  set_tests_properties(${arg_NAME}/sass-baseline PROPERTIES ENVIRONMENT "${env}")
  add_custom_target(${arg_NAME}_update_sass_baseline COMMAND ${CMAKE_COMMAND} -E env ${env} ${cmd} --update-baseline
                    ${flags} COMMAND_EXPAND_LISTS VERBATIM COMMENT "ptxw: recording ${baseline}")
endfunction()

# ptxw_add_lit_tests(NAME <name> DIRECTORY <dir> TARGETS <sm_XX>... [OPTIONS <nvcc flag>...])
#
# One CTest test per target, <name>/<target>: lit runs the .cu tests under DIRECTORY (not its Inputs/)
# with the configuration of ptxw's own codegen suite: their // RUN: lines use its substitutions
# (%ptxw-compile, %ptx-check, %sass-check, %ptx-generated=NAMES, %sass-generated=NAMES, %ptxw-sass-equal,
# %nvcc, %cuobjdump), FileCheck prefixes (PTX, PTX-SM10X, PTX-SM100A; SASS, ...) and features (REQUIRES:
# clc, mbarrier-tx, target-sm_100a, ptxas-13.0, ...), and lit's UNSUPPORTED: and XFAIL:. Every compile gets
# ptxw's include folder and OPTIONS before a test's own flags. The test passes where every lit test passed,
# was unsupported or failed as XFAIL expects; a target ptxas lacks makes every test unsupported.
# cmake --build <build dir> --target <name>_update_checks rewrites the generated checks of the tests
# (the blocks of their %ptx-generated / %sass-generated RUN lines) from what the toolchain emits now.
# lit comes from `ptxw setup` (PTXW_DEPS_DIR).
function(ptxw_add_lit_tests)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "NAME;DIRECTORY" "TARGETS;OPTIONS")
  _ptxw_prologue(ptxw_add_lit_tests NAME DIRECTORY TARGETS)
  cmake_path(ABSOLUTE_PATH arg_DIRECTORY BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}" NORMALIZE OUTPUT_VARIABLE dir)
  cmake_path(GET PTXW_TOOL PARENT_PATH tools)
  set(suite "${CMAKE_CURRENT_BINARY_DIR}/ptxw_lit/${arg_NAME}")
  set(flags "-I$<JOIN:${includes},$<SEMICOLON>-I>" ${arg_OPTIONS})
  set(py_flags "\"$<JOIN:${flags},\", \">\"")
  file(GENERATE OUTPUT "${suite}/lit.site.cfg.py" CONTENT
"# Generated by ptxw_add_lit_tests(NAME ${arg_NAME}): the lit configuration of the codegen tests in ${dir}.
import sys
sys.path.insert(0, \"${tools}\")
from ptxwtools.codegen import lit_suite
lit_suite.configure(config, lit_config, \"${arg_NAME}\", \"${dir}\", \"${suite}\", [${py_flags}])
")
  foreach(target IN LISTS arg_TARGETS)
    set(cmd "${Python3_EXECUTABLE}" "${PTXW_TOOL}" codegen "${suite}" --no-setup --targets ${target}
            --build-dir "${CMAKE_CURRENT_BINARY_DIR}/ptxw_lit")
    if(root)
      list(APPEND cmd --cuda-root "${root}")
    endif()
    add_test(NAME ${arg_NAME}/${target} COMMAND ${cmd})
    set_tests_properties(${arg_NAME}/${target} PROPERTIES ENVIRONMENT "${env}")
  endforeach()
  set(update "${Python3_EXECUTABLE}" "${PTXW_TOOL}" update-checks "${dir}" --targets ${arg_TARGETS}
             --build-dir "${CMAKE_CURRENT_BINARY_DIR}/ptxw_lit")
  if(root)
    list(APPEND update --cuda-root "${root}")
  endif()
  add_custom_target(${arg_NAME}_update_checks COMMAND ${CMAKE_COMMAND} -E env ${env} ${update} -- ${flags}
                    COMMAND_EXPAND_LISTS VERBATIM COMMENT "ptxw: regenerating the generated checks under ${dir}")
endfunction()
