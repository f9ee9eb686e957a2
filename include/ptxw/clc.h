// ptxw/clc.h: the cluster launch control family -- its typed protocol (clc/handle.h: open, request,
// wait, decode) and work stealing on it (clc/for_each.h: for_each_canceled_block and the cluster
// form). The backends that answer requests, one file each, and the table that says which runs
// where: clc/backend_table.h. The host side: ptxw/clc/host/scheduler.h, and the tile scheduler's
// ptxw/clc/host/tile_scheduler.h.
#pragma once

#include <ptxw/clc/for_each.h>
#include <ptxw/clc/handle.h>
#include <ptxw/clc/ring.h>
#include <ptxw/clc/tile_scheduler.h>
