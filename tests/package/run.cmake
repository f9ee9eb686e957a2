# Install ptxw from its build tree into a scratch prefix, then configure and build the consumer
# project against that prefix only, and run its ptxw_add_codegen_test and ptxw_add_sass_baseline_test
# tests: `arrive/*` must pass, `must_fail_wrong_scope` must fail with FileCheck's message, and
# `must_fail_planted` with sass-diff's, until its _update_sass_baseline target accepts the change.
file(REMOVE_RECURSE ${WORK_DIR})
function(step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    string(JOIN " " cmd ${ARGN})
    message(FATAL_ERROR "package test: step failed (${rc}): ${cmd}")
  endif()
endfunction()
step(${CMAKE_COMMAND} --install ${PTXW_BINARY_DIR} --prefix ${WORK_DIR}/prefix)
step(${CMAKE_COMMAND} -S ${CONSUMER_DIR} -B ${WORK_DIR}/build -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix
     -DPTXW_DEPS_DIR=${PTXW_DEPS_DIR})
step(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
step(${CMAKE_CTEST_COMMAND} --test-dir ${WORK_DIR}/build -R "^arrive/" --output-on-failure --no-tests=error)

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
must_fail(must_fail_planted "^must_fail_planted/" "codegen/arrive.cu +sm_90a +signal_ready +SASS" "2 changed")
step(${CMAKE_COMMAND} --build ${WORK_DIR}/build --target must_fail_planted_update_sass_baseline)
step(${CMAKE_CTEST_COMMAND} --test-dir ${WORK_DIR}/build -R "^must_fail_planted/" --output-on-failure --no-tests=error)
message("package test: must_fail_planted failed as it must (sass-diff showed the change), and passes once its "
        "baseline is updated")
