# Install ptxw from its build tree into a scratch prefix, then configure and build the consumer
# project against that prefix only, and run its ptxw_add_codegen_test tests: `arrive/*` must pass,
# `must_fail_*` must fail with FileCheck's message. Fails if any step does not go that way.
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

execute_process(COMMAND ${CMAKE_CTEST_COMMAND} --test-dir ${WORK_DIR}/build -R "^must_fail_" --output-on-failure
                --no-tests=error RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
message("${out}")
if(rc EQUAL 0)
  message(FATAL_ERROR "package test: must_fail_wrong_scope passed; its check should have failed")
endif()
if(NOT out MATCHES "expected string not found in input" OR NOT out MATCHES "PTX checks failed for sm_90a")
  message(FATAL_ERROR "package test: must_fail_wrong_scope failed, but not with FileCheck's message")
endif()
message("package test: must_fail_wrong_scope failed as it must (FileCheck rejected the wrong scope)")
