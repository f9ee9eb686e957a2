"""Every PTX form ptxw wraps, one row each: the one description `tools/ptxw generate-forms` turns into
the qualifier rows every R9/R10 gate reads (include/ptxw/isa/forms.h), the inline-PTX bindings of
the forms cuda::ptx lacks (include/ptxw/isa/) and the skeleton codegen test of a row no test
checks, and from which the conformance grid takes its variants (variants.py). Adding a form is adding
its row here and regenerating (docs/adding-a-form.md).

A row (Form):
  family       the wrapper family: mbarrier, fence, atom, clc
  ptx          the form's line in the PTX ISA, operands named as the ISA's section of the instruction
               names them; it heads the form's row in the generated header
  sm, isa      the first target and PTX ISA (100 x major + 10 x minor) the PTX ISA gives the form
  instruction  the qualifier table's tag of the instruction (PTXW_QUALIFIER_ROW), or None where ptxw's
               gate is not per qualifier set: cluster launch control and its emulation's bulk copy are
               gated per backend (R9 in clc/backend_interface.h)
  sem, scope, space
               the qualifiers as cuda::ptx tags name them, `none` for one the form lacks
  probes       the ways the conformance grid reaches the form (Probe), one variant each
  binding      for a form cuda::ptx lacks, ptxw's inline-PTX function of it (Binding), generated into
               include/ptxw/isa/<file>.h; None where the wrapper calls cuda::ptx or a
               binding written by hand
A Probe:
  id           the variant's id in the grid
  ptx          the instruction alone with operands, as ptxas assembles it in variants.PTX_KERNEL
  ptxw         a statement using ptxw's wrapper (variants.KERNEL declares what it uses)
  cccl         the same through CCCL's cuda::ptx binding, None where CCCL has none
  runtime      gtest name patterns of tests/runtime that run the form on a GPU
A Binding:
  file         the header in include/ptxw/isa/ (BINDING_FILES says what each holds)
  name         the function; forms of one name are its overloads, told apart by `tag` (and written as one
               macro of the qualifier the tags name, which must be all they differ in)
  tag          the C++ type of a first, unnamed parameter that picks the overload (a cuda::ptx tag)
  predicate    the PTX line's first operand is a predicate, which the function returns
The function's other parameters are the PTX line's operands, each a 32-bit register (a shared::cta or
shared::cluster address, a count), and an optional operand `{, x}` gives an overload with it.

The forms of a family that differ only in their qualifiers are rows of a small function of them
(_qualified for the (sem, scope) forms of an mbarrier instruction, _proxy_async, _sync_restrict, a
comprehension over the layouts or axes), which derives the PTX line, the probe's id and PTX and
CCCL's statement from the qualifiers: the row gives the rest, one call a form.

Sources: the PTX ISA's section of each instruction (ISA 8.0 for sm_90's forms, 8.6 for the .relaxed
mbarrier forms and fence.proxy.async::generic, 6.0 for atom and fence with .sem and .scope); for the
.layout forms ptxas itself, which names PTX ISA 9.3 when it refuses them in an older one (as llvm PR
#217252 says; CCCL's generated bindings of them ask for 9.4).
"""

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Probe:
    id: str
    ptx: str
    ptxw: str
    cccl: str = None
    runtime: tuple = field(default=())


@dataclass(frozen=True)
class Binding:
    file: str
    name: str
    tag: str = None
    predicate: bool = False


@dataclass(frozen=True)
class Form:
    family: str
    ptx: str
    sm: int
    isa: int
    probes: tuple
    instruction: str = None
    sem: str = "none"
    scope: str = "none"
    space: str = "none"
    binding: Binding = None

    @property
    def row(self) -> tuple:
        """The qualifier row: (instruction, sem, scope, space, first sm, first PTX ISA)."""
        return self.instruction, self.sem, self.scope, self.space, self.sm, self.isa


def _mbarrier(ptx, sm, isa, instruction, sem, scope, space, *probes, binding=None):
    return Form("mbarrier", ptx, sm, isa, probes, instruction, sem, scope, space, binding)


def _fence(ptx, sm, isa, instruction, sem, scope, space, *probes):
    return Form("fence", ptx, sm, isa, probes, instruction, sem, scope, space)


def _atom(ptx, sem, *probes):
    return Form("atom", ptx, 70, 600, probes, "atom_add", sem, "gpu", "global")


def _clc(ptx, sm, isa, *probes):
    return Form("clc", ptx, sm, isa, probes)


def _remote(statement):
    return statement + " static_cast<uint64_t*>(__cluster_map_shared_rank(&raw, r))"


# The PTX state space of each space qualifier.
_STATE_SPACE = {"global": "global", "shared": "shared::cta", "cluster": "shared::cluster"}


def _qualified(instruction, op, operands, probe_operands, cccl, space="shared"):
    """The rows of one instruction's forms `mbarrier.<op>.<sem>.<scope>.<state space>.b64 <operands>`
    (sm_90): a function of a form's sem and scope and what differs beyond them,

        row(sem, scope, first PTX ISA, probe's ptxw statement, probe's runtime patterns, *more probes, binding=)

    From the qualifiers follow the PTX line, the probe's id (`mbarrier.<op>.<sem>.<scope>`, then
    `.remote` on a shared::cluster address), its PTX (with probe_operands) and its CCCL statement
    (cccl, with the form's {sem} and {scope})."""
    state_space, remote = _STATE_SPACE[space], ".remote" if space == "cluster" else ""

    def row(sem, scope, isa, ptxw, runtime, *more, binding=None):
        name = f"mbarrier.{op}.{sem}.{scope}"
        probe = Probe(name + remote, f"{name}.{state_space}.b64 {probe_operands}", ptxw,
                      cccl.format(sem=sem, scope=scope), runtime)
        return _mbarrier(f"{name}.{state_space}.b64 {operands}", 90, isa, instruction, sem, scope, space, probe, *more,
                         binding=binding)
    return row


_QUALIFIERS = "ptx::sem_{sem}, ptx::scope_{scope}"  # in cccl, CCCL's tags of the form's sem and scope
_arrive = _qualified("mbarrier_arrive", "arrive", "state, [addr]{, count};", "%rd1, [bar];",
                     f"(void) ptx::mbarrier_arrive({_QUALIFIERS}, ptx::space_shared, &raw);")
_expect_tx = _qualified("mbarrier_expect_tx", "expect_tx", "[addr], txCount;", "[bar], 16;",
                        f"ptx::mbarrier_expect_tx({_QUALIFIERS}, ptx::space_shared, &raw, n);")
_arrive_expect_tx = _qualified("mbarrier_arrive_expect_tx", "arrive.expect_tx", "state, [addr], txCount;",
                               "%rd1, [bar], 16;",
                               f"(void) ptx::mbarrier_arrive_expect_tx({_QUALIFIERS}, ptx::space_shared, &raw, n);")
_complete_tx = _qualified("mbarrier_complete_tx", "complete_tx", "[addr], txCount;", "[bar], 16;",
                          f"ptx::mbarrier_complete_tx({_QUALIFIERS}, ptx::space_shared, &raw, n);")
_complete_tx_remote = _qualified("mbarrier_complete_tx", "complete_tx", "[addr], txCount;", "[bar], 16;",
                                 _remote(f"ptx::mbarrier_complete_tx({_QUALIFIERS}, ptx::space_cluster,") + ", n);",
                                 space="cluster")
_try_wait = _qualified("mbarrier_try_wait", "try_wait.parity", "waitComplete, [addr], phaseParity{, suspendTimeHint};",
                       "%p1, [bar], 0;", f"*out = ptx::mbarrier_try_wait_parity({_QUALIFIERS}, &raw, n);")
_test_wait = _qualified("mbarrier_test_wait", "test_wait.parity", "waitComplete, [addr], phaseParity;",
                        "%p1, [bar], 0;", f"*out = ptx::mbarrier_test_wait_parity({_QUALIFIERS}, &raw, n);")


def _proxy_async(space, runtime=()):
    """fence.proxy.async.<state space>, which ptxw::fence_before_async_read(space) emits."""
    ptx = f"fence.proxy.async.{_STATE_SPACE[space]};"
    return _fence(ptx, 90, 800, "fence_proxy_async", "none", "none", space,
                  Probe(ptx.rstrip(";"), ptx, f"ptxw::fence_before_async_read(ptx::space_{space});",
                        f"ptx::fence_proxy_async(ptx::space_{space});", runtime))


def _sync_restrict(sem, space, ptxw):
    """fence.proxy.async::generic.<sem>.sync_restrict::<state space>.cluster, the fence of a slot's
    generic-proxy access against the async proxy's."""
    ptx = f"fence.proxy.async::generic.{sem}.sync_restrict::{_STATE_SPACE[space]}.cluster;"
    return _fence(ptx, 90, 860, "fence_proxy_async_generic", sem, "cluster", space,
                  Probe(f"fence.proxy.async::generic.{sem}.sync_restrict", ptx, ptxw,
                        f"ptx::fence_proxy_async_generic_sync_restrict(ptx::sem_{sem}, ptx::space_{space}, "
                        "ptx::scope_cluster);", ("MbarrierPipeline.*", "ClcCoverage*.*")))


# What each generated binding header holds.
BINDING_FILES = {
    "mbarrier_local": "PTX forms cuda::ptx (CCCL 3.0.1) lacks on a shared::cta mbarrier: complete_tx, inval, and "
                      "the .layout forms of init and check_layout. The callers in ptxw/mbarrier/barrier.h check "
                      "their qualifiers and target (R9, R10).",
    "mbarrier_remote": "PTX forms cuda::ptx (CCCL 3.0.1) lacks: mbarrier operations on a shared::cluster address, "
                       "which they take instead of a generic pointer as mapa.h says. The callers in "
                       "ptxw/mbarrier/remote.h check their qualifiers and target (R9, R10).",
}
_LOCAL, _REMOTE = "mbarrier_local", "mbarrier_remote"
_CTA, _CLUSTER = "::cuda::ptx::scope_cta_t", "::cuda::ptx::scope_cluster_t"
_RELEASE, _RELAXED = "::cuda::ptx::sem_release_t", "::cuda::ptx::sem_relaxed_t"
_ON_CLUSTER_BARRIER = ("MbarrierWaitForms.EveryWaitAndArriveFormOnClusterBarrier",)

_HW = "ptxw::clc::slot<ptxw::clc::{cast}> s; auto h = ptxw::clc::open(s, {ctx}); "
_REQUEST = "h.request(h.elect());"

FORMS = (
    # ---- mbarrier -------------------------------------------------------------------------------
    _mbarrier("mbarrier.init.shared::cta.b64 [addr], count;", 80, 700, "mbarrier_init", "none", "none", "shared",
              Probe("mbarrier.init", "mbarrier.init.shared::cta.b64 [bar], 1;", "bar.init(ptxw::arrivals{n});",
                    "ptx::mbarrier_init(&raw, n);", ("MbarrierPhase.*", "MbarrierCounts.*"))),
    _mbarrier("mbarrier.inval.shared::cta.b64 [addr];", 80, 700, "mbarrier_inval", "none", "none", "shared",
              Probe("mbarrier.inval", "mbarrier.inval.shared::cta.b64 [bar];", "bar.inval();", None,
                    ("MbarrierReinit.*",)),
              binding=Binding(_LOCAL, "mbarrier_inval")),
    # The .layout forms: init of a barrier in layout v1, and the test of a barrier's layout (v0 is the
    # layout every plain init makes), one form a layout. One instruction each, the layout being no
    # sem, scope or space. No runtime test runs them.
    _mbarrier("mbarrier.init.layout::v1.shared::cta.b64 [addr], count;", 90, 930, "mbarrier_init_layout_v1",
              "none", "none", "shared",
              Probe("mbarrier.init.layout::v1", "mbarrier.init.layout::v1.shared::cta.b64 [bar], 1;",
                    "bar.init(ptxw::layout_v1, ptxw::arrivals{n});", "ptx::mbarrier_init(ptx::layout_v1, &raw, n);"),
              binding=Binding(_LOCAL, "mbarrier_init_layout_v1")),
    *(_mbarrier(f"mbarrier.check_layout.layout::{v}.shared::cta.b64 p, [addr];", 90, 930,
                f"mbarrier_check_layout_layout_{v}", "none", "none", "shared",
                Probe(f"mbarrier.check_layout.layout::{v}",
                      f"mbarrier.check_layout.layout::{v}.shared::cta.b64 %p1, [bar];",
                      f"*out = bar.check_layout(ptxw::layout_{v});",
                      f"*out = ptx::mbarrier_check_layout(ptx::layout_{v}, &raw);"),
                binding=Binding(_LOCAL, "mbarrier_check_layout", f"layout_{v}_t", predicate=True))
      for v in ("v0", "v1")),
    # The (sem, scope) forms on a shared::cta barrier, of PTX ISA 8.0 but for the .relaxed arrives and
    # waits, 8.6's (8.0's are .release or .acquire); bar is a cta_barrier, cbar a cluster_barrier.
    _arrive("release", "cta", 800, "bar.arrive(ptx::sem_release, ptx::scope_cta);",
            ("MbarrierWaitForms.*", "MbarrierPhase.*"),
            Probe("mbarrier.arrive.release.cta.count", "mbarrier.arrive.release.cta.shared::cta.b64 %rd1, [bar], 3;",
                  "bar.arrive(ptx::sem_release, ptx::scope_cta, ptxw::arrivals{n});",
                  "(void) ptx::mbarrier_arrive(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &raw, n);",
                  ("MbarrierCounts.ArriveWithCountsAddsUp",))),
    _arrive("release", "cluster", 800, "cbar.arrive(ptx::sem_release, ptx::scope_cluster);", _ON_CLUSTER_BARRIER),
    _arrive("relaxed", "cta", 860, "bar.arrive(ptx::sem_relaxed, ptx::scope_cta);",
            ("MbarrierCounts.RelaxedArrivalsCompleteThePhaseForAnAcquireWait",)),
    _arrive("relaxed", "cluster", 860, "cbar.arrive(ptx::sem_relaxed, ptx::scope_cluster);", _ON_CLUSTER_BARRIER),
    _expect_tx("relaxed", "cta", 800, "bar.expect_tx(ptxw::tx_bytes{n});", ("MbarrierTx.*",)),
    _expect_tx("relaxed", "cluster", 800, "cbar.expect_tx(ptx::sem_relaxed, ptx::scope_cluster, ptxw::tx_bytes{n});",
               ("MbarrierTx.*ClusterBarrier",)),
    _arrive_expect_tx("release", "cta", 800, "bar.arrive_expect_tx(ptxw::tx_bytes{n});",
                      ("MbarrierTx.*ArriveExpectTx*",)),
    _arrive_expect_tx("release", "cluster", 800, "cbar.arrive_expect_tx(ptxw::tx_bytes{n});",
                      ("MbarrierCluster.RemoteCompleteTxCompletesThePeersPhase",)),
    _arrive_expect_tx("relaxed", "cta", 860,
                      "bar.arrive_expect_tx(ptx::sem_relaxed, ptx::scope_cta, ptxw::tx_bytes{n});",
                      ("ClcCoverage*.*Cta*",)),
    _arrive_expect_tx("relaxed", "cluster", 860,
                      "cbar.arrive_expect_tx(ptx::sem_relaxed, ptx::scope_cluster, ptxw::tx_bytes{n});",
                      ("ClcCoverage*.*Cluster*",)),
    _complete_tx("relaxed", "cta", 800, "bar.complete_tx(ptxw::tx_bytes{n});", ("MbarrierCompleteTx.*",),
                 binding=Binding(_LOCAL, "mbarrier_complete_tx", _CTA)),
    _complete_tx("relaxed", "cluster", 800, "cbar.complete_tx(ptxw::tx_bytes{n});",
                 ("MbarrierCompleteTx.LocalCompleteTxOnClusterBarrier",),
                 binding=Binding(_LOCAL, "mbarrier_complete_tx", _CLUSTER)),
    # On a peer's barrier, by its shared::cluster address. The relaxed form's probe gives the optional count.
    _mbarrier("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [addr]{, count};", 90, 800,
              "mbarrier_arrive_remote", "release", "cluster", "cluster",
              Probe("mbarrier.arrive.release.cluster.remote", "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [bar];",
                    "cbar.remote(ptxw::cta_rank{r}).arrive();",
                    _remote("ptx::mbarrier_arrive(ptx::sem_release, ptx::scope_cluster, ptx::space_cluster,") + ");",
                    ("MbarrierCluster.*",)),
              binding=Binding(_REMOTE, "mbarrier_arrive_remote", _RELEASE)),
    _mbarrier("mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _, [addr]{, count};", 90, 860,
              "mbarrier_arrive_remote", "relaxed", "cluster", "cluster",
              Probe("mbarrier.arrive.relaxed.cluster.remote",
                    "mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _, [bar], 1;",
                    "cbar.remote(ptxw::cta_rank{r}).arrive(ptx::sem_relaxed, ptx::scope_cluster, ptxw::arrivals{n});",
                    _remote("ptx::mbarrier_arrive(ptx::sem_relaxed, ptx::scope_cluster, ptx::space_cluster,") + ", n);",
                    ("MbarrierCluster.RemoteArriveCountsOnThePeerOnly",)),
              binding=Binding(_REMOTE, "mbarrier_arrive_remote", _RELAXED)),
    _complete_tx_remote("relaxed", "cluster", 800, "cbar.remote(ptxw::cta_rank{r}).complete_tx(ptxw::tx_bytes{n});",
                        ("MbarrierCluster.RemoteCompleteTxCompletesThePeersPhase",),
                        binding=Binding(_REMOTE, "mbarrier_complete_tx_remote")),
    _mbarrier("mapa.shared::cluster.u32 d, a, b;", 90, 780, "mapa", "none", "none", "cluster",
              Probe("mapa.shared::cluster", "mapa.shared::cluster.u32 %r1, %r2, 1;",
                    "*out = cbar.remote(ptxw::cta_rank{r}).cluster_address();", None, ("MbarrierCluster.*",))),
    _try_wait("acquire", "cta", 800, "*out = bar.try_wait(ph);", ("MbarrierWaitForms.*", "MbarrierPhase.*"),
              Probe("mbarrier.try_wait.parity.acquire.cta.hint",
                    "mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 %p1, [bar], 0, 1000;",
                    "*out = bar.try_wait(ph, ptxw::suspend_hint{n});",
                    "*out = ptx::mbarrier_try_wait_parity(ptx::sem_acquire, ptx::scope_cta, &raw, 0u, n);",
                    ("MbarrierWaitForms.*",))),
    _try_wait("acquire", "cluster", 800, "*out = cbar.try_wait(ptx::sem_acquire, ptx::scope_cluster, ph);",
              _ON_CLUSTER_BARRIER),
    _try_wait("relaxed", "cta", 860, "*out = bar.try_wait(ptx::sem_relaxed, ptx::scope_cta, ph);",
              ("MbarrierWaitForms.*",)),
    _try_wait("relaxed", "cluster", 860, "*out = cbar.try_wait(ptx::sem_relaxed, ptx::scope_cluster, ph);",
              _ON_CLUSTER_BARRIER),
    _test_wait("acquire", "cta", 800, "*out = bar.test_wait(ph);", ("MbarrierWaitForms.*", "MbarrierArrivals.*")),
    _test_wait("acquire", "cluster", 800, "*out = cbar.test_wait(ph);", _ON_CLUSTER_BARRIER),
    _test_wait("relaxed", "cta", 860, "*out = bar.test_wait(ptx::sem_relaxed, ptx::scope_cta, ph);",
               ("MbarrierWaitForms.*",)),
    _test_wait("relaxed", "cluster", 860, "*out = cbar.test_wait(ptx::sem_relaxed, ptx::scope_cluster, ph);",
               _ON_CLUSTER_BARRIER),
    # ---- fences ---------------------------------------------------------------------------------
    _fence("fence.proxy.async;", 90, 800, "fence_proxy_async", "none", "none", "none",
           Probe("fence.proxy.async", "fence.proxy.async;", "ptxw::fence_proxy_async();", "ptx::fence_proxy_async();",
                 ("MbarrierPipeline.*",))),
    _proxy_async("global", ("FenceBulkLoad.*",)),
    _proxy_async("shared", ("FenceBulkStore.*",)),
    _proxy_async("cluster"),
    _sync_restrict("acquire", "cluster", "ptxw::fence_before_slot_write();"),
    _sync_restrict("release", "shared", "ptxw::fence_after_slot_read();"),
    _fence("fence.mbarrier_init.release.cluster;", 90, 800, "fence_mbarrier_init", "release", "cluster", "none",
           Probe("fence.mbarrier_init.release.cluster", "fence.mbarrier_init.release.cluster;",
                 "ptxw::fence_after_mbarrier_init();", "ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);",
                 ("MbarrierCluster.*",))),
    _fence("fence.acq_rel.gpu;", 70, 600, "fence", "acq_rel", "gpu", "none",
           Probe("fence.acq_rel.gpu", "fence.acq_rel.gpu;", "ptxw::detail::isa::fence_acq_rel_gpu();",
                 "ptx::fence(ptx::sem_acq_rel, ptx::scope_gpu);", ("LastBlock.*", "LastBlockChecked.*"))),
    # ---- atomics of the last-block ticket and the work queue's cursor ---------------------------
    _atom("atom.release.gpu.global.add.type d, [a], b;  .type = .u32, .u64", "release",
          Probe("atom.release.gpu.global.add.u32", "atom.release.gpu.global.add.u32 %r1, [%rd2], 1;",
                "*out = ptxw::detail::isa::atom_add_release_gpu(out, n);", None, ("LastBlock.*", "LastBlockChecked.*")),
          Probe("atom.release.gpu.global.add.u64", "atom.release.gpu.global.add.u64 %rd1, [%rd2], 1;",
                "*out = unsigned(ptxw::detail::isa::atom_add_release_gpu(reinterpret_cast<unsigned long long*>(out), 1ull));",
                None, ("LastBlock.*U64*",))),
    _atom("atom.relaxed.gpu.global.add.u64 d, [a], b;", "relaxed",
          Probe("atom.relaxed.gpu.global.add.u64", "atom.relaxed.gpu.global.add.u64 %rd1, [%rd2], 1;",
                "unsigned long long d = 0; ptxw::detail::isa::atom_add_relaxed_gpu_if(n != 0,"
                " reinterpret_cast<unsigned long long*>(out), 1ull, d); *out = unsigned(d);",
                None, ("WorkQueue.*", "WorkQueueChecked.*"))),
    # ---- cluster launch control -----------------------------------------------------------------
    Form("clc", "elect.sync d|p, membermask;", 90, 800,
         (Probe("elect.sync", "elect.sync %r1|%p1, 0xffffffff;", "if (ptxw::elect_one()) *out = 1;",
                "if (ptx::elect_sync(~0u)) *out = 1;", ("ClcCoverage*.*",)),),
         "elect_sync"),
    _clc("clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.b128 [addr], [mbar];", 100, 860,
         Probe("clusterlaunchcontrol.try_cancel",
               "clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.b128 [slot], [bar];",
               _HW.format(cast="cta_t", ctx="hw") + _REQUEST, "ptx::clusterlaunchcontrol_try_cancel(&resp, &raw);")),
    _clc("clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.multicast::cluster::all.b128"
         " [addr], [mbar];", 100, 860,
         Probe("clusterlaunchcontrol.try_cancel.multicast",
               "clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes"
               ".multicast::cluster::all.b128 [slot], [bar];",
               _HW.format(cast="cluster_t", ctx="hw") + _REQUEST,
               "ptx::clusterlaunchcontrol_try_cancel_multicast(&resp, &raw);")),
    _clc("clusterlaunchcontrol.query_cancel.is_canceled.pred.b128 pred, try_cancel_response;", 100, 860,
         Probe("clusterlaunchcontrol.query_cancel.is_canceled",
               "clusterlaunchcontrol.query_cancel.is_canceled.pred.b128 %p1, %rq1;",
               _HW.format(cast="cta_t", ctx="hw") + "*out = h.wait().is_canceled();",
               "*out = ptx::clusterlaunchcontrol_query_cancel_is_canceled(resp);")),
    # get_first_ctaid::x, ::y and ::z: one form an axis.
    *(_clc(f"clusterlaunchcontrol.query_cancel.get_first_ctaid::{axis}.b32.b128 reg, try_cancel_response;", 100, 860,
           Probe(f"clusterlaunchcontrol.query_cancel.get_first_ctaid::{axis}",
                 f"clusterlaunchcontrol.query_cancel.get_first_ctaid::{axis}.b32.b128 %r1, %rq1;",
                 _HW.format(cast="cta_t", ctx="hw") + f"(void) h.wait().decode([&](auto b) {{ *out = b.{axis}(); }});",
                 f"*out = ptx::clusterlaunchcontrol_query_cancel_get_first_ctaid_{axis}<uint32_t>(resp);"))
      for axis in "xyz"),
    # The emulation's own instruction: the bulk copy that delivers a response into a CTA's slot.
    _clc("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [dstMem], [srcMem], size, [mbar];", 90, 800,
         Probe("cp.async.bulk (clc emulation)",
               "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [slot], [%rd2], 16, [bar];",
               _HW.format(cast="cluster_t", ctx="emu") + _REQUEST,
               "ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, &resp, out, 16u, &raw);",
               ("ClcCoverageEmulated.*", "ClcChecked.*"))),
)
