# CTest script: the GEMM kernel built for sm_100a (sm100a_build.cu) takes its tiles from the
# hardware's cluster launch control (try_cancel, and its multicast form in 2 x 1 clusters, with the
# response decoded by query_cancel), keeps the sm_90a kernel's TMA copies and pipeline barriers, and
# has no local memory; it has no wgmma (CuTe's sm_90a atoms are compiled out there).
#   cmake -DCUOBJDUMP=... -DOBJECT=... -P sm100a_build.cmake
execute_process(COMMAND ${CUOBJDUMP} -ptx ${OBJECT} OUTPUT_VARIABLE ptx RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cuobjdump -ptx ${OBJECT} failed (${rc})")
endif()
execute_process(COMMAND ${CUOBJDUMP} -sass ${OBJECT} OUTPUT_VARIABLE sass RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cuobjdump -sass ${OBJECT} failed (${rc})")
endif()
if(NOT ptx MATCHES "\\.target sm_100a")
  message(FATAL_ERROR "${OBJECT}: no sm_100a PTX")
endif()
foreach(expected
    "clusterlaunchcontrol\\.try_cancel\\.async\\.shared::cta\\.mbarrier::complete_tx::bytes\\.b128"
    "clusterlaunchcontrol\\.try_cancel\\.async\\.shared::cta\\.mbarrier::complete_tx::bytes\\.multicast::cluster::all\\.b128"
    "clusterlaunchcontrol\\.query_cancel\\.is_canceled\\.pred\\.b128"
    "mbarrier\\.arrive\\.relaxed\\.cluster\\.shared::cluster\\.b64")
  if(NOT ptx MATCHES "${expected}")
    message(FATAL_ERROR "${OBJECT}: no ${expected} in its PTX")
  endif()
endforeach()
if(ptx MATCHES "wgmma")
  message(FATAL_ERROR "${OBJECT}: wgmma in sm_100a PTX")
endif()
foreach(expected "UTMALDG\\.3D\\.MULTICAST" "UTMASTG\\.2D" "SYNCS\\.ARRIVE\\.TRANS64\\.RED" "SYNCS\\.PHASECHK\\.TRANS64\\.TRYWAIT")
  if(NOT sass MATCHES "${expected}")
    message(FATAL_ERROR "${OBJECT}: no ${expected} in its SASS")
  endif()
endforeach()
if(sass MATCHES "[ \t](LDL|STL)[ .]")
  string(REGEX MATCH "[^\n]*[ \t](LDL|STL)[ .][^\n]*" line "${sass}")
  message(FATAL_ERROR "${OBJECT}: local memory: ${line}")
endif()
message(STATUS "sm_100a: hardware cluster launch control (CTA and multicast forms), TMA, pipeline barriers, no LDL/STL")
