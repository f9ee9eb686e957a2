// The qualifier set of one RUN line, spelled as PTX spells it: -DSEM=relaxed -DSCOPE=cluster make
// SEM_TAG ptx::sem_relaxed and SCOPE_TAG ptx::scope_cluster, and the same -D gives the checks
// [[SEM]] and [[SCOPE]] (FileCheck -D). BARRIER is the ptxw type, cta_barrier or cluster_barrier.
// SEM_PTX and SCOPE_PTX are the same qualifiers as strings, for a ref's inline PTX.
#pragma once

#include <ptxw/mbarrier.h>

namespace ptx = cuda::ptx;

#define PTXW_TEST_CAT(a, b) a##b
#define PTXW_TEST_TAG(kind, name) PTXW_TEST_CAT(kind, name)
#define SEM_TAG PTXW_TEST_TAG(ptx::sem_, SEM)
#define SCOPE_TAG PTXW_TEST_TAG(ptx::scope_, SCOPE)
#define PTXW_TEST_STR_(x) #x
#define PTXW_TEST_STR(x) PTXW_TEST_STR_(x)
#define SEM_PTX PTXW_TEST_STR(SEM)
#define SCOPE_PTX PTXW_TEST_STR(SCOPE)
