// ptxw/clc/backend_table.h: the backend table -- who answers cluster launch control requests, where each
// runs and what its launch needs. Every layer asks here and nowhere else: the handle and the loop
// (clc/handle.h, clc/for_each.h), the host's launch (clc/launch.h) and the device-scope policies
// (algorithms/policy.h). Adding a backend is its own file (a tag and a clc::detail::backend<>
// specialisation, as clc/counter.h) and one PTXW_CLC_BACKEND row; tests/runtime/clc_backend_table_test.cu
// adds one that way and runs it through every path.
//
// Host and device decide from the same fact: the architecture the running code was compiled for,
// __CUDA_ARCH__ on the device and cudaFuncAttributes::ptxVersion on the host (CUB's PtxVersion).
// binaryVersion is not that fact: under PTX JIT (compute_90 PTX run on an sm_100 GPU) it names the
// GPU, 100, while the code was compiled with __CUDA_ARCH__ 900 and runs counter_t. Checked mode
// reports a context prepared for another backend than the one that runs (R14).
#pragma once

#include <ptxw/core/target.h>

PTXW_NAMESPACE_BEGIN
namespace clc {
// Who answers requests (one file each in ptxw/clc/):
//   hardware_t  the GPU: clusterlaunchcontrol.try_cancel (sm_100 and newer);
//   emulated_t  the faithful emulation: a response delivered through the async proxy, as the
//               hardware does, with fault injection (sm_90 and newer);
//   counter_t   Hopper's fast backend: one global counter, no async proxy (sm_90 and newer);
//   automatic_t the hardware where the code was compiled for it, counter_t below.
struct hardware_t
{};
struct emulated_t
{};
struct counter_t
{};
struct automatic_t
{};

// A backend by value, where a constexpr value has to name one (a device-scope policy). Values
// beyond the enumerators name backends added by a PTXW_CLC_BACKEND row elsewhere.
enum class backend_id : int
{
  automatic,
  hardware,
  emulated,
  counter
};

namespace detail {
// One row of the table.
struct backend_row
{
  backend_id id;
  int first_sm; // R9: the first architecture it runs on (as target::sm: 90 for sm_90a)
  int ptx_isa; // R9: the PTX ISA its instructions need (as target::ptx_isa)
  bool resident_prefix; // launched as the prefix of the grid the GPU holds at once: the units
                        // beyond it are the canceled ones, never launched; else the whole grid
  bool claims_per_unit; // keeps a claim and a response per unit of the grid, in device memory the
                        // host provides (ptxw::clc::scheduler's emulation capacity)
  bool own_loop; // has a for_each of its own, faster than the protocol's loop, which
                 // for_each_canceled_block runs instead (clc/for_each.h)
};

template <class Backend>
struct row_of; // a backend has a row; anything else is not one
template <backend_id Id>
struct tag_of;

template <class Backend, class = void>
inline constexpr bool has_row = false;
template <class Backend>
inline constexpr bool has_row<Backend, decltype(void(row_of<Backend>::value()))> = true;
} // namespace detail

// One row: the backend's tag, its id, and the columns of detail::backend_row. Used in namespace
// ptxw::clc::detail (PTXW_NAMESPACE_BEGIN namespace clc::detail { ... } PTXW_NAMESPACE_END).
#define PTXW_CLC_BACKEND(Tag, Id, FirstSm, PtxIsa, ResidentPrefix, ClaimsPerUnit, OwnLoop)                  \
  template <>                                                                                               \
  struct row_of<Tag>                                                                                        \
  {                                                                                                         \
    __host__ __device__ static constexpr backend_row value()                                              \
    {                                                                                                       \
      return {Id, FirstSm, PtxIsa, ResidentPrefix, ClaimsPerUnit, OwnLoop};                                 \
    }                                                                                                       \
  };                                                                                                        \
  template <>                                                                                               \
  struct tag_of<Id>                                                                                         \
  {                                                                                                         \
    using type = Tag;                                                                                       \
  }

namespace detail {
//               tag          id                    first sm  PTX ISA  resident prefix  claims per unit  own loop
PTXW_CLC_BACKEND(hardware_t, backend_id::hardware, 100,      860,     false,           false,           false);
PTXW_CLC_BACKEND(emulated_t, backend_id::emulated, 90,       800,     false,           true,            false);
PTXW_CLC_BACKEND(counter_t,  backend_id::counter,  90,       800,     true,            false,           true);

// automatic_t is a choice, not a backend: the hardware where the code was compiled for it, else
// counter_t. Its context carries counter_t's state (the hardware's is empty).
template <>
struct tag_of<backend_id::automatic>
{
  using type = automatic_t;
};

__host__ __device__ constexpr backend_id automatic_choice(int sm)
{
  return sm >= row_of<hardware_t>::value().first_sm ? backend_id::hardware : backend_id::counter;
}

template <class Backend>
inline constexpr backend_id id_of = row_of<Backend>::value().id;
template <>
inline constexpr backend_id id_of<automatic_t> = backend_id::automatic;

template <class Backend>
inline constexpr bool is_backend = has_row<Backend> || ::ptxw::detail::is_same_v<Backend, automatic_t>;

// The backend that runs Backend's requests in this compilation (the host pass, which runs none:
// counter_t for automatic_t, whose state it prepares).
template <class Backend>
struct resolve
{
  using type = Backend;
};
template <>
struct resolve<automatic_t>
{
  using type = typename tag_of<automatic_choice(target::device_pass ? target::sm : 0)>::type;
};
template <class Backend>
using resolve_t = typename resolve<Backend>::type;

// The backend whose state a context of Backend carries.
template <class Backend>
using state_backend_t = typename ::ptxw::detail::conditional<::ptxw::detail::is_same_v<Backend, automatic_t>,
                                                             counter_t, Backend>::type;

// R9, the table's part: Backend's requests compile for this target (a backend may gate finer).
template <class Backend, class Deferred = void>
inline constexpr bool runs_here =
  ::ptxw::detail::supports<row_of<Backend>::value().first_sm, row_of<Backend>::value().ptx_isa, Deferred>;

// What runs Backend's requests in code compiled for `sm` (the host's ptxVersion), and whether that
// depends on sm at all (the host asks the driver only then).
template <class Backend>
inline constexpr bool chosen_by_sm = ::ptxw::detail::is_same_v<Backend, automatic_t>;

template <class Backend>
__host__ __device__ constexpr backend_row row_for(int sm)
{
  if constexpr (chosen_by_sm<Backend>)
  {
    return automatic_choice(sm) == backend_id::hardware ? row_of<hardware_t>::value() : row_of<counter_t>::value();
  }
  else
  {
    (void) sm;
    return row_of<Backend>::value();
  }
}

// The first architecture any backend of `id` runs on: for automatic_t, its lowest choice.
template <backend_id Id>
__host__ __device__ constexpr int first_sm()
{
  using tag = typename tag_of<Id>::type;
  return row_for<tag>(0).first_sm;
}
} // namespace detail
} // namespace clc
PTXW_NAMESPACE_END
