// ptxw/algorithms.h: the device-scope algorithms, in CUB's conventions (two-phase temporary storage,
// an environment overload, per-architecture policies from a replaceable selector). Their namespace is
// ptxw::device, as CUB's cub::DeviceFor and cub::DeviceReduce: called on the host, over device-wide data.
#pragma once

#include <ptxw/algorithms/drain.h>
#include <ptxw/algorithms/for_each_canceled.h>
#include <ptxw/algorithms/for_each_with_state.h>
#include <ptxw/algorithms/reduce.h>
