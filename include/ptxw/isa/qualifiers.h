// ptxw/isa/qualifiers.h: which qualifier combinations each wrapped instruction has, and from
// which target and PTX ISA version -- one row per PTX form, generated into ptxw/isa/forms.h from the
// form table (tools/ptxwtools/forms/table.py, `tools/ptxw generate-forms`), which the conformance grid
// measures against ptxas too. Every gate of the wrappers (R9 target, R10 qualifiers) comes from these
// rows, and its message names them.
#pragma once

#include <ptxw/core/target.h>

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
} // namespace detail::qualifiers
PTXW_NAMESPACE_END

#include <ptxw/isa/forms.h>

PTXW_NAMESPACE_BEGIN
namespace detail::qualifiers {
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
// of ptxw/isa/forms.h list the forms an instruction has.
template <class Instruction, class Sem, class Scope, class Space>
__host__ __device__ constexpr void refuse_qualifiers()
{
  static_assert(dependent_false<Sem>, PTXW_RULE(R10) "the PTX ISA has no form of this instruction with these "
                                      "qualifiers (the note below names both; ptxw/isa/forms.h lists its "
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
