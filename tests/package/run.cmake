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

execute_process(COMMAND ${CMAKE_CTEST_COMMAND} --test-dir ${WORK_DIR}/build -R "^must_fail_wrong" --output-on-failure
                --no-tests=error RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
message("${out}")
if(rc EQUAL 0)
  message(FATAL_ERROR "package test: must_fail_wrong_scope passed; its check should have failed")
endif()
if(NOT out MATCHES "expected string not found in input" OR NOT out MATCHES "PTX checks failed for sm_90a")
  message(FATAL_ERROR "package test: must_fail_wrong_scope failed, but not with FileCheck's message")
endif()
message("package test: must_fail_wrong_scope failed as it must (FileCheck rejected the wrong scope)")

execute_process(COMMAND ${CMAKE_CTEST_COMMAND} --test-dir ${WORK_DIR}/build -R "^must_fail_planted/" --output-on-failure
                --no-tests=error RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
message("${out}")
if(rc EQUAL 0)
  message(FATAL_ERROR "package test: must_fail_planted passed; the planted baseline should differ")
endif()
if(NOT out MATCHES "codegen/arrive.cu +sm_90a +signal_ready +SASS" OR NOT out MATCHES "2 changed")
  message(FATAL_ERROR "package test: must_fail_planted failed, but not with sass-diff's report of the change")
endif()
step(${CMAKE_COMMAND} --build ${WORK_DIR}/build --target must_fail_planted_update_sass_baseline)
step(${CMAKE_CTEST_COMMAND} --test-dir ${WORK_DIR}/build -R "^must_fail_planted/" --output-on-failure --no-tests=error)
message("package test: must_fail_planted failed as it must, and passes once its baseline is updated")
