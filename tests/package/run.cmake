# Install ptxw from its build tree into a scratch prefix, then configure and build a copy of the consumer
# project against that prefix only, and run its ptxw_add_codegen_test, ptxw_add_sass_baseline_test and
# ptxw_add_lit_tests tests: `arrive/*` must pass, `must_fail_wrong_scope` must fail with FileCheck's message,
# and `must_fail_planted` with sass-diff's diff and the target that accepts it, until that target does; `lit/*`
# must pass (a test unsupported on sm_90a, one expected to fail), fail once a check breaks, and pass again
# after lit_update_checks rewrote a generated block that was deleted. The installed forwarding headers at the
# public paths that moved compile, each saying once where its header is (old_spellings.cu).
file(REMOVE_RECURSE ${WORK_DIR})
file(COPY ${CONSUMER_DIR}/ DESTINATION ${WORK_DIR}/consumer)
set(CONSUMER_DIR ${WORK_DIR}/consumer)
function(step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    string(JOIN " " cmd ${ARGN})
    message(FATAL_ERROR "package test: step failed (${rc}): ${cmd}")
  endif()
endfunction()
step(${CMAKE_COMMAND} --install ${PTXW_BINARY_DIR} --prefix ${WORK_DIR}/prefix)

# A project that uses only the headers configures where CMake finds no Python; a codegen function it calls
# says that it needs one.
foreach(codegen OFF ON)
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${CMAKE_CURRENT_LIST_DIR}/header_only -B ${WORK_DIR}/header_only_${codegen}
                          -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix -DCMAKE_DISABLE_FIND_PACKAGE_Python3=ON
                          -DCALL_CODEGEN=${codegen}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(codegen AND (rc EQUAL 0 OR NOT out MATCHES "ptxw_add_codegen_test:.*need Python 3.8"))
    message(FATAL_ERROR "package test: ptxw_add_codegen_test without Python should fail saying why:\n${out}")
  elseif(NOT codegen AND NOT rc EQUAL 0)
    message(FATAL_ERROR "package test: find_package(ptxw) failed without Python in a header-only project:\n${out}")
  endif()
endforeach()
message("package test: a header-only project configures without Python; ptxw_add_codegen_test asks for it")
step(${CMAKE_COMMAND} -S ${CONSUMER_DIR} -B ${WORK_DIR}/build -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix
     -DPTXW_DEPS_DIR=${PTXW_DEPS_DIR} -DCMAKE_CUDA_COMPILER=${CMAKE_CUDA_COMPILER})
step(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
step(${CMAKE_CTEST_COMMAND} --test-dir ${WORK_DIR}/build -R "^arrive/" --output-on-failure --no-tests=error)

# The old spellings (consumer/old_spellings.cu): each forwarding header compiles and says where its header is,
# once a translation unit (the host pass, not again in the device pass).
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK_DIR}/build --target old_spellings
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
file(STRINGS ${CONSUMER_DIR}/old_spellings.cu old_paths REGEX "^#include <ptxw/")
if(NOT rc EQUAL 0 OR NOT old_paths)
  message(FATAL_ERROR "package test: the old spellings did not compile:\n${out}")
endif()
foreach(line IN LISTS old_paths)
  string(REGEX REPLACE "^#include <(.*)>.*" "\\1" path "${line}")
  string(REPLACE "." "\\." path_regex "${path}")
  string(REGEX MATCHALL "pragma message: \"?ptxw: ${path_regex} moved to ptxw/[a-z_/]+\\.h" # not to the `;`: a list separator
         said "${out}")
  list(LENGTH said times)
  if(NOT times EQUAL 1)
    message(FATAL_ERROR "package test: <${path}> said where its header is ${times} times, not once:\n${out}")
  endif()
endforeach()
list(LENGTH old_paths n)
message("package test: the ${n} old spellings compile, each saying once where its header is")

# Runs the tests matching `regex`, which must fail, with output matching every one of the patterns after it.
function(must_fail name regex)
  execute_process(COMMAND ${CMAKE_CTEST_COMMAND} --test-dir ${WORK_DIR}/build -R "${regex}" --output-on-failure
                  --no-tests=error RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  message("${out}")
  if(rc EQUAL 0)
    message(FATAL_ERROR "package test: ${name} passed; it should have failed")
  endif()
  foreach(pattern IN LISTS ARGN)
    if(NOT out MATCHES "${pattern}")
      message(FATAL_ERROR "package test: ${name} failed, but its output lacks '${pattern}'")
    endif()
  endforeach()
endfunction()

must_fail(must_fail_wrong_scope "^must_fail_wrong" "expected string not found in input" "PTX checks failed for sm_90a")
message("package test: must_fail_wrong_scope failed as it must (FileCheck rejected the wrong scope)")
must_fail(must_fail_planted "^must_fail_planted/" "codegen/arrive.cu +sm_90a +signal_ready +SASS" "2 changed"
          "-SYNCS.ARRIVE.TRANS64.RED" "to accept these changes: cmake --build [^ ]+ --target must_fail_planted_update_sass_baseline")
step(${CMAKE_COMMAND} --build ${WORK_DIR}/build --target must_fail_planted_update_sass_baseline)
step(${CMAKE_CTEST_COMMAND} --test-dir ${WORK_DIR}/build -R "^must_fail_planted/" --output-on-failure --no-tests=error)
message("package test: must_fail_planted failed as it must (sass-diff showed the change), and passes once its "
        "baseline is updated")

# The lit suite: sm_90a runs arrive, generated and the expected failure and skips multicast; sm_100a runs all four.
execute_process(COMMAND ${CMAKE_CTEST_COMMAND} --test-dir ${WORK_DIR}/build -R "^lit/" -V --no-tests=error
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0 OR NOT out MATCHES "sm_90a +3 +1 +0" OR NOT out MATCHES "sm_100a +4 +0 +0")
  message(FATAL_ERROR "package test: lit/* should pass with 3 passed, 1 unsupported on sm_90a and 4 passed on sm_100a:\n${out}")
endif()
file(READ ${CONSUMER_DIR}/lit/expected_failure.cu text)
string(REPLACE "// XFAIL: *" "" broken "${text}")
file(WRITE ${CONSUMER_DIR}/lit/expected_failure.cu "${broken}")
must_fail(lit_broken_check "^lit/sm_90a" "expected string not found in input" "sm_90a +2 +1 +1")
file(WRITE ${CONSUMER_DIR}/lit/expected_failure.cu "${text}")
message("package test: lit/sm_90a failed as it must once a check broke")
file(READ ${CONSUMER_DIR}/lit/generated.cu generated)
string(REGEX REPLACE "\n// generated: .*" "\n" stripped "${generated}")
file(WRITE ${CONSUMER_DIR}/lit/generated.cu "${stripped}")
step(${CMAKE_COMMAND} --build ${WORK_DIR}/build --target lit_update_checks)
file(READ ${CONSUMER_DIR}/lit/generated.cu regenerated)
if(NOT regenerated STREQUAL generated)
  message(FATAL_ERROR "package test: lit_update_checks wrote\n${regenerated}\ninstead of\n${generated}")
endif()
step(${CMAKE_CTEST_COMMAND} --test-dir ${WORK_DIR}/build -R "^lit/" --output-on-failure --no-tests=error)
message("package test: lit_update_checks regenerated the deleted checks, and lit/* passes")
