// The qualifier set of one RUN line, spelled as PTX spells it: -DSEM=relaxed -DSCOPE=cluster make
// SEM_TAG ptx::sem_relaxed and SCOPE_TAG ptx::scope_cluster, and the same -D gives the checks
// [[SEM]] and [[SCOPE]] (FileCheck -D). BARRIER is the ptxw type, cta_barrier or cluster_barrier.
#pragma once

#include <ptxw/mbarrier.h>

namespace ptx = cuda::ptx;

#define PTXW_TEST_CAT(a, b) a##b
#define PTXW_TEST_TAG(kind, name) PTXW_TEST_CAT(kind, name)
#define SEM_TAG PTXW_TEST_TAG(ptx::sem_, SEM)
#define SCOPE_TAG PTXW_TEST_TAG(ptx::scope_, SCOPE)
