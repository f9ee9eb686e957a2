// ptxw/inter_block.h: the inter-block family -- the last-block guard (inter_block/last_block.h:
// the block that arrives last merges, in one launch) and the block work queue
// (inter_block/work_queue.h: blocks take the next items from one cursor). The host side:
// ptxw/inter_block/host/last_block.h and ptxw/inter_block/host/work_queue.h.
#pragma once

#include <ptxw/inter_block/last_block.h>
#include <ptxw/inter_block/work_queue.h>
