// ptxw/mbarrier.h: the mbarrier family -- a typed shared-memory barrier (mbarrier/barrier.h), the
// same barrier in another CTA of the cluster (mbarrier/remote.h), the phase a thread waits for
// (mbarrier/phase.h) and the counts it takes (mbarrier/counts.h); and the ring of stages built of
// them, ptxw::pipeline (mbarrier/pipeline.h).
#pragma once

#include <ptxw/mbarrier/barrier.h>
#include <ptxw/mbarrier/counts.h>
#include <ptxw/mbarrier/phase.h>
#include <ptxw/mbarrier/pipeline.h>
#include <ptxw/mbarrier/remote.h>
