// R17, R18, R19 for ptxw/inter_block.h: a queue exists only as the view of an initialised
// work_queue_host (a default-made one does not compile); a batch takes 1 to 32 items; items are
// trivially copyable; and an item is fetch()'s return value -- the slot's hand-over buffer, where the
// hand-written queue returned a reference (and raced with the next fetch), cannot be read.
// REQUIRES: target-sm_90a
// RUN: %nvcc -ptx -o /dev/null %s
// RUN: not %nvcc -ptx -o /dev/null -DCASE_DEFAULT_QUEUE -DCASE_BATCH_ZERO -DCASE_BATCH_TOO_LARGE \
// RUN:  -DCASE_NOT_TRIVIAL -DCASE_SLOT_ITEM %s 2>&1 \
// RUN:   | FileCheck %s \
// RUN:  --check-prefixes=DEFAULT_QUEUE,BATCH_ZERO,BATCH_TOO_LARGE,NOT_TRIVIAL,SLOT_ITEM,CASES
// The cases compile together, once: each is one error at its line (-DAG checks: nvcc reports
// template instantiation errors at the end of the translation unit, out of source order), and
// the total is the number of cases (the last line).
//
// Without a CASE the file compiles: fetch with batches of 1 and 32, for_each_item.

#include <ptxw/inter_block.h>

struct job
{
  unsigned first, count;
};

struct owning // not trivially copyable
{
  unsigned* p = nullptr;
  owning()    = default;
  __host__ __device__ owning(const owning& o)
      : p(o.p)
  {}
};

__global__ void work_queue_rules(unsigned* out, ptxw::work_queue<job> q)
{
  __shared__ ptxw::queue_slot slot;
  auto c = ptxw::open_queue<32>(slot, q);
  while (auto it = c.fetch())
  {
    out[it->first] = it->count;
  }
  ptxw::for_each_item(q, [&](const job& j) { out[j.first] = j.count; });

#if defined(CASE_DEFAULT_QUEUE)
  // DEFAULT_QUEUE-DAG: {{.*}}/include/ptxw/{{.*}}: error: static assertion failed with "ptxw: R17 initialised: a work_queue comes only from work_queue_host::view()
  // DEFAULT_QUEUE-DAG: at line [[#@LINE+1]] of
  ptxw::work_queue<job> uninitialised;
  ptxw::for_each_item(uninitialised, [&](const job& j) { out[j.first] = j.count; });
#endif

#if defined(CASE_BATCH_ZERO)
  // BATCH_ZERO-DAG: {{.*}}/include/ptxw/{{.*}}: error: static assertion failed with "ptxw: R18 in range: a batch takes 1 to 32 items per atomic
  // BATCH_ZERO-DAG: at line [[#@LINE+1]] of
  auto none = ptxw::open_queue<0>(slot, q);
  (void) none.fetch();
#endif

#if defined(CASE_BATCH_TOO_LARGE)
  // BATCH_TOO_LARGE-DAG: {{.*}}/include/ptxw/{{.*}}: error: static assertion failed with "ptxw: R18 in range: a batch takes 1 to 32 items per atomic
  // BATCH_TOO_LARGE-DAG: at line [[#@LINE+1]] of
  ptxw::for_each_item<64>(q, [&](const job& j) { out[j.first] = j.count; });
#endif

#if defined(CASE_NOT_TRIVIAL)
  // NOT_TRIVIAL-DAG: {{.*}}/include/ptxw/{{.*}}: error: static assertion failed with "ptxw: R18 in range: a queue's items are copied by cudaMemcpy and returned by value: T must be trivially copyable and default-constructible"
  // NOT_TRIVIAL-DAG: at line [[#@LINE+1]] of
  ptxw::for_each_item(*reinterpret_cast<const ptxw::work_queue<owning>*>(&q), [&](const owning& o) { out[0] = *o.p; });
#endif

#if defined(CASE_SLOT_ITEM)
  // SLOT_ITEM-DAG: {{.*}}/include/ptxw/{{.*}}: error: static assertion failed with "ptxw: R19 one item at a time: an item is fetch()'s return value
  // SLOT_ITEM-DAG: at line [[#@LINE+1]] of
  const job& current = slot.item; // a hand-written queue's `return item; // reference to smem`
  out[0]             = current.count;
#endif
}

// CASES: 5 errors detected in the compilation of
