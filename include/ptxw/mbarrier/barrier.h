// ptxw/mbarrier/barrier.h: a typed shared-memory mbarrier.
//
//   __shared__ ptxw::cta_barrier bar;       // used by the threads of one CTA
//   __shared__ ptxw::cluster_barrier cbar;  // also targeted by other CTAs of the cluster
//
// Every operation is one PTX instruction (see the PTX line above each), issued through cuda::ptx
// where CCCL has the form and through ptxw/isa otherwise. Arguments follow cuda::ptx:
// qualifiers first, as a (sem, scope) pair of cuda::ptx tags, then the operands. Without the pair
// an operation takes the qualifiers the protocol needs: release arrive, acquire wait, relaxed
// transaction counts, all at the barrier's own scope.
//
// Rules enforced here at compile time (docs/rules.md); a misuse gets one message, for the first
// argument that is wrong. A wrong phase or count in a form without qualifiers is refused at the
// caller's own line (PTXW_ONLY in ptxw/mbarrier/counts.h); qualifiers, targets and the operands of the
// qualified forms, whose qualifiers are checked first, are static_asserts here:
//   R6  waits take a ptxw::phase lvalue, which flips once per completed wait;
//   R9  each form compiles only for the targets and PTX ISA versions that have it;
//   R10 only the sem/scope combinations the PTX ISA defines for the instruction;
//   R11 arrival counts (ptxw::arrivals) and transaction bytes (ptxw::tx_bytes) are not interchangeable;
//   R12 a cluster-scope or remote operation needs a barrier declared ptxw::cluster_barrier.
// In checked mode (ptxw/core/checked.h) also at run time: counts out of the PTX range (R11), a wait
// that does not complete within PTXW_CHECKED_TIMEOUT_NS, a phase used on a second barrier or
// living in shared memory (R6), reported instead of hanging.
#pragma once

#include <ptxw/core/checked.h>
#include <ptxw/core/target.h>
#include <ptxw/isa/mapa.h>
#include <ptxw/isa/mbarrier_local.h>
#include <ptxw/isa/qualifiers.h>
#include <ptxw/mbarrier/counts.h>
#include <ptxw/mbarrier/phase.h>
#include <ptxw/mbarrier/remote.h>

#if PTXW_CCCL_FAMILY_HEADERS
#  include <cuda/__ptx/instructions/mbarrier_arrive.h>
#  include <cuda/__ptx/instructions/mbarrier_expect_tx.h>
#  include <cuda/__ptx/instructions/mbarrier_init.h>
#  include <cuda/__ptx/instructions/mbarrier_wait.h>
#endif

PTXW_NAMESPACE_BEGIN
namespace detail {

template <class Scope>
inline constexpr bool is_mbarrier_scope = is_one_of<Scope, ptx::scope_cta_t, ptx::scope_cluster_t>;

// The gate of an operation on a barrier of this CTA declared at BarrierScope: the form exists (R10,
// ptxw/isa/qualifiers.h), the barrier can take its scope (R12), the target has it (R9). Each
// check static_asserts its rule; the `if constexpr` chain instantiates none after a failing one.
template <class Instruction, class Sem, class OpScope, class BarrierScope>
__host__ __device__ constexpr bool check_local()
{
  if constexpr (is_same_v<Sem, phase>)
  {
    return false; // the phase came first: copying it into `sem` is refused (R6) with the fix, qualifiers first
  }
  else if constexpr (!qualifiers::defined<Instruction, Sem, OpScope, ptx::space_shared_t>())
  {
    return false;
  }
  else if constexpr (is_same_v<OpScope, ptx::scope_cluster_t> && is_same_v<BarrierScope, ptx::scope_cta_t>)
  {
    static_assert(dependent_false<OpScope>, PTXW_RULE(R12) "a .cluster-scope operation needs a "
                                            "ptxw::cluster_barrier; this barrier is a ptxw::cta_barrier");
    return false;
  }
  else
  {
    return qualifiers::on_target<Instruction, Sem, OpScope, ptx::space_shared_t>();
  }
}

} // namespace detail

template <class Scope>
class mbarrier
{
  using none      = detail::qualifiers::none_t;
  using deferred_none = detail::dependent_t<none, Scope>; // none, dependent: the R9 gates of untemplated members wait for use

  static_assert(detail::is_mbarrier_scope<Scope>,
                PTXW_RULE(R12) "an mbarrier is declared for ptx::scope_cta (ptxw::cta_barrier) or "
                "ptx::scope_cluster (ptxw::cluster_barrier)");

  ::cuda::std::uint64_t word_; // no initialiser: lives in __shared__ memory, set by init()

  template <class Sem, class OpScope, class... Hint>
  __device__ bool try_wait_parity(Sem sem, OpScope scope, ::cuda::std::uint32_t parity, Hint... hint)
  {
    return ptx::mbarrier_try_wait_parity(sem, scope, &word_, parity, hint.ns...);
  }

  // One try_wait or test_wait, `probe(parity)`: on success the phase advances. Checked mode checks
  // the phase's barrier (R6) only then, off the spin of a polling loop; a phase of another barrier
  // still gets there, its parity being that of this barrier's preceding phase (success at once) or
  // of its current one.
  template <class Probe>
  __device__ bool probe_phase(phase& ph, Probe probe)
  {
    if (probe(ph.parity()))
    {
      ph.check_use(smem_addr());
      ph.advance();
      return true;
    }
    return false;
  }

  // The parity is read once and the phase advanced once, after the loop: advancing inside the
  // spin (as try_wait does) costs a select and an xor per retry on sm_90a.
  template <class Sem, class OpScope, class... Hint>
  __device__ void wait_phase(Sem sem, OpScope scope, phase& ph, Hint... hint)
  {
    ph.check_use(smem_addr());
    const ::cuda::std::uint32_t parity = ph.parity();
#if PTXW_CHECKED
    // A wait that does not complete in time is reported and then ends as if it had completed (with
    // a sink that does not trap): what it guarded may be incomplete, and the report says so.
    const checked::sink* sink = checked::default_sink<>;
    if (!checked::bounded_spin(sink, [&] { return try_wait_parity(sem, scope, parity, hint...); }))
    {
      checked::report(sink, rule::parity, smem_addr(), ph.count(), 0,
                      " (a wait that did not complete within the sink's timeout, PTXW_CHECKED_TIMEOUT_NS by default)");
    }
#else
    while (!try_wait_parity(sem, scope, parity, hint...))
    {
    }
#endif
    ph.advance();
  }

public:
  using scope_type = Scope;

  // The barrier word, for interop with cuda::ptx.
  __device__ ::cuda::std::uint64_t* native_handle() noexcept
  {
    return &word_;
  }

  // The shared::cta address of the barrier word, for diagnostics and hand-written PTX.
  __device__ ::cuda::std::uint32_t smem_addr() const noexcept
  {
    return detail::isa::smem_addr(&word_);
  }

  // mbarrier.init.shared.b64 [addr], count;  -- one thread, before any other operation (R7).
  __device__ void init(detail::arrivals_arg count)
  {
    if constexpr (detail::qualifiers::check<detail::qualifiers::mbarrier_init, deferred_none, none, ptx::space_shared_t>())
    {
      if (detail::count_in_range(smem_addr(), count.arg.value, 1))
      {
        ptx::mbarrier_init(&word_, count.arg.value);
      }
    }
  }

  // mbarrier.init.layout::v1.shared::cta.b64 [addr], count;  -- init(count), in layout v1 (ptxw::layout_v1).
  __device__ void init(layout_v1_t, detail::arrivals_arg count)
  {
    if constexpr (detail::qualifiers::check<detail::qualifiers::mbarrier_init_layout_v1, deferred_none, none, ptx::space_shared_t>())
    {
      if (detail::count_in_range(smem_addr(), count.arg.value, 1))
      {
        detail::isa::mbarrier_init_layout_v1(smem_addr(), count.arg.value);
      }
    }
  }

  // mbarrier.check_layout.layout::{v0,v1}.shared::cta.b64 p, [addr];  -- whether init made it in this layout.
  template <class Layout, class Form = typename detail::qualifiers::check_layout_form<Layout>::type>
  __device__ bool check_layout(Layout layout) const
  {
    if constexpr (detail::qualifiers::check<Form, none, none, ptx::space_shared_t>())
    {
      return detail::isa::mbarrier_check_layout(layout, smem_addr());
    }
    return false;
  }

  // mbarrier.inval.shared::cta.b64 [addr];  -- before the memory is reused for anything else.
  __device__ void inval()
  {
    if constexpr (detail::qualifiers::check<detail::qualifiers::mbarrier_inval, deferred_none, none, ptx::space_shared_t>())
    {
      detail::isa::mbarrier_inval(smem_addr());
    }
  }

  // mbarrier.arrive.release.<scope>.shared::cta.b64 state, [addr];
  __device__ void arrive()
  {
    arrive(ptx::sem_release, Scope{});
  }

  // mbarrier.arrive.release.<scope>.shared::cta.b64 state, [addr], count;
  __device__ void arrive(detail::arrivals_arg count)
  {
    arrive(ptx::sem_release, Scope{}, count.arg);
  }

  // mbarrier.arrive.{release,relaxed}.{cta,cluster}.shared::cta.b64 state, [addr];
  template <class Sem, class OpScope>
  __device__ void arrive(Sem sem, OpScope scope)
  {
    if constexpr (detail::check_local<detail::qualifiers::mbarrier_arrive, Sem, OpScope, Scope>())
    {
      (void) ptx::mbarrier_arrive(sem, scope, ptx::space_shared, &word_);
    }
  }

  // mbarrier.arrive.{release,relaxed}.{cta,cluster}.shared::cta.b64 state, [addr], count;
  template <class Sem, class OpScope, class Count>
  __device__ void arrive(Sem sem, OpScope scope, Count count)
  {
    if constexpr (detail::check_local<detail::qualifiers::mbarrier_arrive, Sem, OpScope, Scope>())
    {
      const ::cuda::std::uint32_t n = detail::arrivals_arg{count}.arg.value;
      if (detail::count_in_range(smem_addr(), n, 1))
      {
        (void) ptx::mbarrier_arrive(sem, scope, ptx::space_shared, &word_, n);
      }
    }
  }

  // mbarrier.expect_tx.relaxed.<scope>.shared::cta.b64 [addr], txCount;
  __device__ void expect_tx(detail::tx_bytes_arg bytes)
  {
    expect_tx(ptx::sem_relaxed, Scope{}, bytes.arg);
  }

  // mbarrier.expect_tx.relaxed.{cta,cluster}.shared::cta.b64 [addr], txCount;
  template <class Sem, class OpScope, class Bytes>
  __device__ void expect_tx(Sem sem, OpScope scope, Bytes bytes)
  {
    if constexpr (detail::check_local<detail::qualifiers::mbarrier_expect_tx, Sem, OpScope, Scope>())
    {
      const ::cuda::std::uint32_t n = detail::tx_bytes_arg{bytes}.arg.value;
      if (detail::count_in_range(smem_addr(), n, 0))
      {
        ptx::mbarrier_expect_tx(sem, scope, ptx::space_shared, &word_, n);
      }
    }
  }

  // mbarrier.arrive.expect_tx.release.<scope>.shared::cta.b64 state, [addr], txCount;
  __device__ void arrive_expect_tx(detail::tx_bytes_arg bytes)
  {
    arrive_expect_tx(ptx::sem_release, Scope{}, bytes.arg);
  }

  // mbarrier.arrive.expect_tx.{release,relaxed}.{cta,cluster}.shared::cta.b64 state, [addr], txCount;
  template <class Sem, class OpScope, class Bytes>
  __device__ void arrive_expect_tx(Sem sem, OpScope scope, Bytes bytes)
  {
    if constexpr (detail::check_local<detail::qualifiers::mbarrier_arrive_expect_tx, Sem, OpScope, Scope>())
    {
      const ::cuda::std::uint32_t n = detail::tx_bytes_arg{bytes}.arg.value;
      if (detail::count_in_range(smem_addr(), n, 0))
      {
        (void) ptx::mbarrier_arrive_expect_tx(sem, scope, ptx::space_shared, &word_, n);
      }
    }
  }

  // mbarrier.complete_tx.relaxed.<scope>.shared::cta.b64 [addr], txCount;
  __device__ void complete_tx(detail::tx_bytes_arg bytes)
  {
    complete_tx(ptx::sem_relaxed, Scope{}, bytes.arg);
  }

  // mbarrier.complete_tx.relaxed.{cta,cluster}.shared::cta.b64 [addr], txCount;
  template <class Sem, class OpScope, class Bytes>
  __device__ void complete_tx(Sem, OpScope scope, Bytes bytes)
  {
    if constexpr (detail::check_local<detail::qualifiers::mbarrier_complete_tx, Sem, OpScope, Scope>())
    {
      const ::cuda::std::uint32_t n = detail::tx_bytes_arg{bytes}.arg.value;
      if (detail::count_in_range(smem_addr(), n, 0))
      {
        detail::isa::mbarrier_complete_tx(scope, smem_addr(), n);
      }
    }
  }

  // This barrier as the same object in the shared memory of the cluster's CTA `rank`.
  // mapa.shared::cluster.u32 addr, [this], rank;
  __device__ remote_mbarrier remote(detail::cta_rank_arg rank)
  {
    constexpr bool cluster = detail::is_same_v<Scope, ptx::scope_cluster_t>;
    static_assert(cluster, PTXW_RULE(R12) "remote operations target a ptxw::cluster_barrier; this barrier "
                           "is a ptxw::cta_barrier, whose init is not published to the cluster");
    if constexpr (cluster && detail::qualifiers::check<detail::qualifiers::mapa, deferred_none, none, ptx::space_cluster_t>())
    {
      return remote_mbarrier(detail::isa::mapa_shared_cluster(smem_addr(), rank.arg.value));
    }
    return remote_mbarrier(0u);
  }

  // The waits take the phase (R6) and an optional ptxw::suspend_hint (R11) after the (sem, scope)
  // pair; without the pair: acquire at the barrier's scope.

  // mbarrier.try_wait.parity.acquire.<scope>.shared::cta.b64 ok, [addr], ph.parity();
  // On success the phase advances to the next one.
  __device__ bool try_wait(detail::phase_arg ph)
  {
    return try_wait(ptx::sem_acquire, Scope{}, ph.arg);
  }

  // mbarrier.try_wait.parity.acquire.<scope>.shared::cta.b64 ok, [addr], ph.parity(), hint;
  __device__ bool try_wait(detail::phase_arg ph, detail::suspend_hint_arg hint)
  {
    return try_wait(ptx::sem_acquire, Scope{}, ph.arg, hint.arg);
  }

  // mbarrier.try_wait.parity.{acquire,relaxed}.{cta,cluster}.shared::cta.b64 ok, [addr], parity;
  template <class Sem, class OpScope, class Ph>
  __device__ bool try_wait(Sem sem, OpScope scope, Ph&& ph)
  {
    if constexpr (detail::check_local<detail::qualifiers::mbarrier_try_wait, Sem, OpScope, Scope>())
    {
      return probe_phase(detail::phase_arg{static_cast<Ph&&>(ph)}.arg, [&](::cuda::std::uint32_t parity) {
        return try_wait_parity(sem, scope, parity);
      });
    }
    return false;
  }

  // mbarrier.try_wait.parity.{acquire,relaxed}.{cta,cluster}.shared::cta.b64 ok, [addr], parity, hint;
  template <class Sem, class OpScope, class Ph, class Hint>
  __device__ bool try_wait(Sem sem, OpScope scope, Ph&& ph, Hint hint)
  {
    if constexpr (detail::check_local<detail::qualifiers::mbarrier_try_wait, Sem, OpScope, Scope>())
    {
      const suspend_hint h = detail::suspend_hint_arg{hint}.arg;
      return probe_phase(detail::phase_arg{static_cast<Ph&&>(ph)}.arg, [&](::cuda::std::uint32_t parity) {
        return try_wait_parity(sem, scope, parity, h);
      });
    }
    return false;
  }

  // mbarrier.test_wait.parity.acquire.<scope>.shared::cta.b64 ok, [addr], ph.parity();
  // Never suspends. On success the phase advances to the next one.
  __device__ bool test_wait(detail::phase_arg ph)
  {
    return test_wait(ptx::sem_acquire, Scope{}, ph.arg);
  }

  // mbarrier.test_wait.parity.{acquire,relaxed}.{cta,cluster}.shared::cta.b64 ok, [addr], parity;
  template <class Sem, class OpScope, class Ph>
  __device__ bool test_wait(Sem sem, OpScope scope, Ph&& ph)
  {
    if constexpr (detail::check_local<detail::qualifiers::mbarrier_test_wait, Sem, OpScope, Scope>())
    {
      return probe_phase(detail::phase_arg{static_cast<Ph&&>(ph)}.arg, [&](::cuda::std::uint32_t parity) {
        return ptx::mbarrier_test_wait_parity(sem, scope, &word_, parity);
      });
    }
    return false;
  }

  // Blocks until the phase completes, then advances it: a try_wait.parity loop. Same forms as
  // try_wait: (ph), (ph, hint), (sem, scope, ph), (sem, scope, ph, hint).
  __device__ void wait(detail::phase_arg ph)
  {
    wait(ptx::sem_acquire, Scope{}, ph.arg);
  }

  __device__ void wait(detail::phase_arg ph, detail::suspend_hint_arg hint)
  {
    wait(ptx::sem_acquire, Scope{}, ph.arg, hint.arg);
  }

  template <class Sem, class OpScope, class Ph>
  __device__ void wait(Sem sem, OpScope scope, Ph&& ph)
  {
    if constexpr (detail::check_local<detail::qualifiers::mbarrier_try_wait, Sem, OpScope, Scope>())
    {
      wait_phase(sem, scope, detail::phase_arg{static_cast<Ph&&>(ph)}.arg);
    }
  }

  template <class Sem, class OpScope, class Ph, class Hint>
  __device__ void wait(Sem sem, OpScope scope, Ph&& ph, Hint hint)
  {
    if constexpr (detail::check_local<detail::qualifiers::mbarrier_try_wait, Sem, OpScope, Scope>())
    {
      wait_phase(sem, scope, detail::phase_arg{static_cast<Ph&&>(ph)}.arg, detail::suspend_hint_arg{hint}.arg);
    }
  }
};

using cta_barrier     = mbarrier<ptx::scope_cta_t>;
using cluster_barrier = mbarrier<ptx::scope_cluster_t>;

PTXW_NAMESPACE_END
