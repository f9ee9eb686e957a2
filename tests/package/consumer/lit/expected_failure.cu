// A check that does not hold yet, marked so: lit counts it as an expected failure (XFAIL), and would
// fail the suite the day it passes.
// XFAIL: *
// RUN: %ptxw-compile %s -o %t
// RUN: %sass-check %s --input-file=%t.sass
extern "C" __global__ void store(int* p) { *p = 1; }

// SASS: MEMBAR.ALL.GPU
