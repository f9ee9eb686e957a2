// The consumer project's own header: its lit tests find it through ptxw_add_lit_tests(OPTIONS -I...).
#pragma once
#include <ptxw/mbarrier.h>

__device__ inline void consumer_signal(ptxw::cta_barrier& bar) { bar.arrive(); }
