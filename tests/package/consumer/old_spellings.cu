// Every public path a forwarding header keeps for one release. Each compiles and says once, in the host
// pass, where its header is now: run.cmake builds this file (target old_spellings) and counts the messages.
// Nothing else includes a forwarding header.
#include <ptxw/checked.h>
#include <ptxw/clc/backend.h>
#include <ptxw/clc/backends.h>
#include <ptxw/config.h>
#include <ptxw/device.h>
#include <ptxw/device/drain.h>
#include <ptxw/device/env.h>
#include <ptxw/device/for_each_canceled.h>
#include <ptxw/device/for_each_tiles.h>
#include <ptxw/device/for_each_with_state.h>
#include <ptxw/device/policy.h>
#include <ptxw/device/reduce.h>
#include <ptxw/device/shape.h>
#include <ptxw/device/state_op.h>
#include <ptxw/device/state_policy.h>
#include <ptxw/device/temp_storage.h>
#include <ptxw/elect.h>
#include <ptxw/host/checked.h>
#include <ptxw/host/clc.h>
#include <ptxw/host/device_array.h>
#include <ptxw/host/last_block.h>
#include <ptxw/host/round_graph.h>
#include <ptxw/host/tasks.h>
#include <ptxw/host/tile_plan.h>
#include <ptxw/host/tile_scheduler.h>
#include <ptxw/host/work_queue.h>
#include <ptxw/rules.h>
#include <ptxw/target.h>

// The old spellings give what the new ones do: a kernel and a host owner through them.
__global__ void old_spellings_sum(const int* in, long long* partials, long long* out, ptxw::last_block_ticket<> t)
{
  if (threadIdx.x == 0)
    partials[blockIdx.x] = in[blockIdx.x];
  if (ptxw::last_block(t) && threadIdx.x == 0)
    *out = partials[0];
}
void old_spellings_host()
{
  ptxw::clc::scheduler sched;
}
