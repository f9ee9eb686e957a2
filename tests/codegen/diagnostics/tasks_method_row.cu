// R10 for ptxw/tasks.h's method table (ptxw/tasks/method_table.h): a task pool's method is a tag
// with a PTXW_TASK_METHOD row. A method given its protocol but no row is refused at the user's
// lines -- the kernel's pool and the host's pool_host -- and nothing else is said; with its row (and
// nothing else) added, the same file compiles.
// REQUIRES: target-sm_90a
// RUN: %nvcc -ptx -o /dev/null -DWITH_ROW %s
// RUN: not %nvcc -ptx -o /dev/null %s 2>&1 | FileCheck %s
// -DAG checks: nvcc reports template instantiation errors at the end of the translation unit, out
// of source order; the total is the number of refusals (the last line).

#include <ptxw/tasks.h>
#include <ptxw/tasks/host/pool_host.h>

struct node
{
  unsigned id;
};

struct unlisted // a method: its tag, and its protocol below
{};

PTXW_NAMESPACE_BEGIN
namespace detail::tasks {
// Never has a task: enough of a protocol for the whole API to compile.
template <class T>
struct backend<T, ::unlisted> : shared_queue_steps<::ptxw::tasks::pool<T, ::unlisted>>
{
  using pool_t = ::ptxw::tasks::pool<T, ::unlisted>;
  using room   = typename shared_queue_steps<pool_t>::room;
  using local  = typename shared_queue_steps<pool_t>::local;
  using cell   = entry<T>;
  using memory = shared_queue_memory<cell>;
  using fill   = entry_fill;
  __device__ static taken take(const pool_t&, local&, entry<T>&, ::ptxw::tasks::counters&)
  {
    return taken::finished;
  }
  __device__ static bool push(const pool_t& p, const room&, ::cuda::std::uint32_t, const T&)
  {
    return full_push(p.state_, 1);
  }
};
#if defined(WITH_ROW)
PTXW_TASK_METHOD(::unlisted, one_queue, "tasks", cooperative, false);
#endif
} // namespace detail::tasks
PTXW_NAMESPACE_END

// CHECK-DAG: {{.*}}/include/ptxw/{{.*}}: error: static assertion failed with "ptxw: R10 qualifiers: a task pool's method is a tag with a PTXW_TASK_METHOD row (ptxw/tasks/method_table.h; the library's methods: ptxw/tasks/methods.h)"
// CHECK-DAG: at line [[#@LINE+3]] of
// (the kernel's body: where its parameter's type is completed)
__global__ void kernel(ptxw::tasks::pool<node, unlisted> p)
{
  __shared__ ptxw::tasks::worker_slot<node, unlisted> slot;
  auto w = p.join(slot);
  while (auto t = w.next())
  {
    w.retire(std::move(t));
  }
}

void host()
{
  // CHECK-DAG: {{.*}}/include/ptxw/{{.*}}: error: static assertion failed with "ptxw: R10 qualifiers: a task pool's method is a tag with a PTXW_TASK_METHOD row
  // CHECK-DAG: at line [[#@LINE+1]] of
  ptxw::tasks::pool_host<node, unlisted> pool(16);
  pool.launch(kernel, 64, 0, 0);
}

// CHECK: 2 errors detected in the compilation of
