// ptxw/detail/qualifiers.h: which qualifier combinations each wrapped instruction has, and from
// which target and PTX ISA version -- written once, here, as one row per PTX form. Every gate of
// the wrappers (R9 target, R10 qualifiers) comes from these rows, and its message names them;
// tests/tools/test_qualifiers.py checks them against the conformance grid's forms
// (tools/ptxwtools/variants.py), which measures what ptxas really accepts.
//
// A row: X(instruction, sem, scope, space, first sm, first PTX ISA), `none` where the form has no
// such qualifier (the mbarrier operations' four local forms are one PTXW_MBARRIER_LOCAL_FORMS each,
// expect_tx's and complete_tx's two local forms one PTXW_MBARRIER_TX_FORMS each). Sources: the PTX
// ISA's tables of each instruction (ISA 8.0 for sm_90's forms, 8.6 for the .relaxed mbarrier forms
// and fence.proxy.async::generic, 6.0 for atom and fence with .sem and .scope); for the .layout forms,
// ptxas itself, which names PTX ISA 9.3 when it refuses them in an older one (as llvm PR #217252 says;
// CCCL's generated bindings of them ask for 9.4).
#pragma once

#include <ptxw/target.h>

// clang-format off
#define PTXW_FORMS_mbarrier_init(X) X(mbarrier_init, none, none, shared, 80, 700)
#define PTXW_FORMS_mbarrier_inval(X) X(mbarrier_inval, none, none, shared, 80, 700)
// The .layout forms: init of a barrier in layout v1, and the test of a barrier's layout (v0 is the
// layout every plain init makes). One instruction each, the layout being no sem, scope or space.
#define PTXW_FORMS_mbarrier_init_layout_v1(X) X(mbarrier_init_layout_v1, none, none, shared, 90, 930)
#define PTXW_FORMS_mbarrier_check_layout_layout_v0(X) X(mbarrier_check_layout_layout_v0, none, none, shared, 90, 930)
#define PTXW_FORMS_mbarrier_check_layout_layout_v1(X) X(mbarrier_check_layout_layout_v1, none, none, shared, 90, 930)
// The four local forms of an mbarrier operation with .sem and .scope: .sem = `first` (PTX ISA 8.0) or
// .relaxed (8.6), .scope = .cta or .cluster, on shared::cta.
#define PTXW_MBARRIER_LOCAL_FORMS(X, instruction, first)                                                            \
  X(instruction, first,   cta,     shared, 90, 800)                                                                 \
  X(instruction, first,   cluster, shared, 90, 800)                                                                 \
  X(instruction, relaxed, cta,     shared, 90, 860)                                                                 \
  X(instruction, relaxed, cluster, shared, 90, 860)
#define PTXW_FORMS_mbarrier_arrive(X) PTXW_MBARRIER_LOCAL_FORMS(X, mbarrier_arrive, release)
#define PTXW_FORMS_mbarrier_arrive_expect_tx(X) PTXW_MBARRIER_LOCAL_FORMS(X, mbarrier_arrive_expect_tx, release)
#define PTXW_FORMS_mbarrier_try_wait(X) PTXW_MBARRIER_LOCAL_FORMS(X, mbarrier_try_wait, acquire)
#define PTXW_FORMS_mbarrier_test_wait(X) PTXW_MBARRIER_LOCAL_FORMS(X, mbarrier_test_wait, acquire)
// The two local forms of an mbarrier tx-count operation: .relaxed, .scope = .cta or .cluster, on shared::cta.
#define PTXW_MBARRIER_TX_FORMS(X, instruction)                                                                      \
  X(instruction, relaxed, cta,     shared, 90, 800)                                                                 \
  X(instruction, relaxed, cluster, shared, 90, 800)
#define PTXW_FORMS_mbarrier_expect_tx(X) PTXW_MBARRIER_TX_FORMS(X, mbarrier_expect_tx)
#define PTXW_FORMS_mbarrier_complete_tx(X)                                                                          \
  PTXW_MBARRIER_TX_FORMS(X, mbarrier_complete_tx)                                                                   \
  X(mbarrier_complete_tx, relaxed, cluster, cluster, 90, 800)
#define PTXW_FORMS_mbarrier_arrive_remote(X)                                                                        \
  X(mbarrier_arrive_remote, release, cluster, cluster, 90, 800)                                                     \
  X(mbarrier_arrive_remote, relaxed, cluster, cluster, 90, 860)
#define PTXW_FORMS_mapa(X) X(mapa, none, none, cluster, 90, 780)
#define PTXW_FORMS_elect_sync(X) X(elect_sync, none, none, none, 90, 800)
#define PTXW_FORMS_fence_proxy_async(X)                                                                             \
  X(fence_proxy_async, none, none, none,    90, 800)                                                                \
  X(fence_proxy_async, none, none, global,  90, 800)                                                                \
  X(fence_proxy_async, none, none, shared,  90, 800)                                                                \
  X(fence_proxy_async, none, none, cluster, 90, 800)
#define PTXW_FORMS_fence_proxy_async_generic(X)                                                                     \
  X(fence_proxy_async_generic, acquire, cluster, cluster, 90, 860)                                                  \
  X(fence_proxy_async_generic, release, cluster, shared,  90, 860)
#define PTXW_FORMS_fence_mbarrier_init(X) X(fence_mbarrier_init, release, cluster, none, 90, 800)
#define PTXW_FORMS_atom_add(X)                                                                                      \
  X(atom_add, release, gpu, global, 70, 600)                                                                        \
  X(atom_add, relaxed, gpu, global, 70, 600)
#define PTXW_FORMS_fence(X) X(fence, acq_rel, gpu, none, 70, 600)
// clang-format on

// The cuda::ptx tag of each qualifier a row names.
#define PTXW_QUALIFIER_SEM_none ::ptxw::detail::qualifiers::none_t
#define PTXW_QUALIFIER_SEM_release ::cuda::ptx::sem_release_t
#define PTXW_QUALIFIER_SEM_relaxed ::cuda::ptx::sem_relaxed_t
#define PTXW_QUALIFIER_SEM_acquire ::cuda::ptx::sem_acquire_t
#define PTXW_QUALIFIER_SEM_acq_rel ::cuda::ptx::sem_acq_rel_t
#define PTXW_QUALIFIER_SCOPE_none ::ptxw::detail::qualifiers::none_t
#define PTXW_QUALIFIER_SCOPE_cta ::cuda::ptx::scope_cta_t
#define PTXW_QUALIFIER_SCOPE_cluster ::cuda::ptx::scope_cluster_t
#define PTXW_QUALIFIER_SCOPE_gpu ::cuda::ptx::scope_gpu_t
#define PTXW_QUALIFIER_SPACE_none ::ptxw::detail::qualifiers::none_t
#define PTXW_QUALIFIER_SPACE_global ::cuda::ptx::space_global_t
#define PTXW_QUALIFIER_SPACE_shared ::cuda::ptx::space_shared_t
#define PTXW_QUALIFIER_SPACE_cluster ::cuda::ptx::space_cluster_t

// What a row makes: the form's entry.
#define PTXW_QUALIFIER_ROW(instruction, sem, scope, space, sm_, isa_)                                               \
  template <>                                                                                                       \
  struct form<instruction, PTXW_QUALIFIER_SEM_##sem, PTXW_QUALIFIER_SCOPE_##scope, PTXW_QUALIFIER_SPACE_##space>    \
  {                                                                                                                 \
    static constexpr bool defined = true;                                                                           \
    static constexpr int sm       = sm_;                                                                            \
    static constexpr int isa      = isa_;                                                                           \
  };

// An instruction: its tag and its forms.
#define PTXW_INSTRUCTION(instruction)                                                                               \
  struct instruction                                                                                                \
  {};                                                                                                               \
  PTXW_FORMS_##instruction(PTXW_QUALIFIER_ROW)

PTXW_NAMESPACE_BEGIN
// The .layout qualifier of mbarrier.init and mbarrier.check_layout. Layout v1 extends v0, the layout of
// every init without one, with operations that can fail (CCCL issue #9857); a barrier is used only with
// operations its layout supports (llvm PR #217252, NVPTXUsage). The tags are cuda::ptx's where CCCL
// has them, so that ptxw::layout_v1 and ptx::layout_v1 are one type; CCCL 3.0.1 has none.
#if __has_include(<cuda/__ptx/instructions/mbarrier_check_layout.h>)
using layout_v0_t = ::cuda::ptx::layout_t<::cuda::ptx::dot_layout::v0>;
using layout_v1_t = ::cuda::ptx::layout_t<::cuda::ptx::dot_layout::v1>;
#else
struct layout_v0_t
{};
struct layout_v1_t
{};
#endif
inline constexpr layout_v0_t layout_v0{};
inline constexpr layout_v1_t layout_v1{};

namespace detail::qualifiers {
// A qualifier the form does not have.
struct none_t
{};

template <class Instruction, class Sem, class Scope, class Space>
struct form
{
  static constexpr bool defined = false;
};

PTXW_INSTRUCTION(mbarrier_init)
PTXW_INSTRUCTION(mbarrier_inval)
PTXW_INSTRUCTION(mbarrier_init_layout_v1)
PTXW_INSTRUCTION(mbarrier_check_layout_layout_v0)
PTXW_INSTRUCTION(mbarrier_check_layout_layout_v1)
PTXW_INSTRUCTION(mbarrier_arrive)
PTXW_INSTRUCTION(mbarrier_arrive_expect_tx)
PTXW_INSTRUCTION(mbarrier_expect_tx)
PTXW_INSTRUCTION(mbarrier_complete_tx)
PTXW_INSTRUCTION(mbarrier_try_wait)
PTXW_INSTRUCTION(mbarrier_test_wait)
PTXW_INSTRUCTION(mbarrier_arrive_remote)
PTXW_INSTRUCTION(mapa)
PTXW_INSTRUCTION(elect_sync)
PTXW_INSTRUCTION(fence_proxy_async)
PTXW_INSTRUCTION(fence_proxy_async_generic)
PTXW_INSTRUCTION(fence_mbarrier_init)
PTXW_INSTRUCTION(atom_add)
PTXW_INSTRUCTION(fence)

// The check_layout instruction of each layout tag; none for any other argument.
template <class Layout>
struct check_layout_form
{};
template <>
struct check_layout_form<layout_v0_t>
{
  using type = mbarrier_check_layout_layout_v0;
};
template <>
struct check_layout_form<layout_v1_t>
{
  using type = mbarrier_check_layout_layout_v1;
};

// The refusals. Their messages are the same for every instruction; the note below each names the
// instruction and the qualifiers given (and for R9 the form's first sm and PTX ISA), and the rows
// above list the forms an instruction has.
template <class Instruction, class Sem, class Scope, class Space>
__host__ __device__ constexpr void refuse_qualifiers()
{
  static_assert(dependent_false<Sem>, PTXW_RULE(R10) "the PTX ISA has no form of this instruction with these "
                                      "qualifiers (the note below names both; ptxw/detail/qualifiers.h lists its "
                                      "forms); qualifiers are cuda::ptx tags, the (sem, scope) pair first");
}

// A static_assert message is a literal, so the first sm is spelled once per value the rows use.
template <class Instruction, class Sem, class Scope, class Space, int Sm, int Isa>
__host__ __device__ constexpr void refuse_target()
{
  static_assert(Sm == 90 || Sm == 80 || Sm == 70, "ptxw: internal: a row's first sm has no message below");
  constexpr bool sm_ok = !target::device_pass || target::sm >= Sm;
  static_assert(sm_ok || Sm != 90 || dependent_false<Sem>,
                PTXW_RULE(R9) "this form needs sm_90 or newer (the note below names the form)");
  static_assert(sm_ok || Sm != 80 || dependent_false<Sem>,
                PTXW_RULE(R9) "this form needs sm_80 or newer (the note below names the form)");
  static_assert(sm_ok || Sm != 70 || dependent_false<Sem>,
                PTXW_RULE(R9) "this form needs sm_70 or newer (the note below names the form)");
  static_assert(!sm_ok || dependent_false<Sem>,
                PTXW_RULE(R9) "this form needs a newer PTX ISA than this nvcc emits (the note below names "
                              "the form and its first ISA, Isa=860 is PTX ISA 8.6)");
}

// R10: the form exists.
template <class Instruction, class Sem, class Scope, class Space = none_t>
__host__ __device__ constexpr bool defined()
{
  constexpr bool ok = form<Instruction, Sem, Scope, Space>::defined;
  if constexpr (!ok)
  {
    refuse_qualifiers<Instruction, Sem, Scope, Space>();
  }
  return ok;
}

// R9, for a form that exists: the target and PTX ISA have it.
template <class Instruction, class Sem, class Scope, class Space = none_t>
__host__ __device__ constexpr bool on_target()
{
  using f           = form<Instruction, Sem, Scope, Space>;
  constexpr bool ok = supports<f::sm, f::isa, Sem>;
  if constexpr (!ok)
  {
    refuse_target<Instruction, Sem, Scope, Space, f::sm, f::isa>();
  }
  return ok;
}

// Both, R10 first: the gate of a wrapper with no other rule to check between them.
template <class Instruction, class Sem, class Scope, class Space = none_t>
__host__ __device__ constexpr bool check()
{
  if constexpr (defined<Instruction, Sem, Scope, Space>())
  {
    return on_target<Instruction, Sem, Scope, Space>();
  }
  return false;
}
} // namespace detail::qualifiers
PTXW_NAMESPACE_END
