// ptxw/device.h: the device-scope algorithms, in CUB's conventions (two-phase temporary storage,
// an environment overload, per-architecture policies from a replaceable selector).
#pragma once

#include <ptxw/device/drain.h>
#include <ptxw/device/for_each_canceled.h>
#include <ptxw/device/for_each_with_state.h>
#include <ptxw/device/reduce.h>
