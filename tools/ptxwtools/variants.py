"""Every instruction form ptxw wraps, as the conformance grid measures it.

A variant is one PTX form (one qualifier combination) and three ways to reach it:
  ptx      the instruction alone, assembled by ptxas for the target (does ptxas accept it, and
           what SASS does it become);
  ptxw     a statement using ptxw's wrapper (does ptxw's arch gate agree with ptxas);
  cccl     a statement using CCCL's cuda::ptx binding, or None where CCCL has none (does CCCL's
           gate agree: CCCL turns a form its target lacks into a call to an undefined
           __cuda_ptx_*_is_not_supported_* function, i.e. a link error, not a compile error);
  runtime  gtest name patterns of tests/runtime that run the form on a GPU (built for sm_90a);
  sm       the first target the PTX ISA gives the form: the row of include/ptxw/detail/qualifiers.h
           says the same (tests/tools/test_qualifiers.py), and the grid measures where ptxas agrees.
  isa      the row's first PTX ISA (100 x major + 10 x minor) where it is newer than CUDA 13.0's 9.0,
           else 0: a toolchain that speaks an older one rejects the form for its version, not the target.

Statements run in KERNEL below (after PRELUDE), which declares what they use. PTX probes run in
PTX_KERNEL.
"""

from dataclasses import dataclass, field

PRELUDE = """#include <ptxw/ptxw.h>
#include <cuda/ptx>
namespace ptx = cuda::ptx;
"""

KERNEL = """extern "C" __global__ void {name}(unsigned n, unsigned r, unsigned* out,
                                   ptxw::clc::context<ptxw::clc::hardware_t> hw,
                                   ptxw::clc::context<ptxw::clc::emulated_t> emu)
{{
  [[maybe_unused]] __shared__ ptxw::cta_barrier bar;
  [[maybe_unused]] __shared__ ptxw::cluster_barrier cbar;
  [[maybe_unused]] __shared__ uint64_t raw;
  [[maybe_unused]] __shared__ alignas(16) uint4 resp;
  ptxw::phase ph;
  (void) n, (void) r, (void) out, (void) hw, (void) emu, (void) ph;
  {statement}
}}
"""

PTX_KERNEL = """.version {isa}
.target {target}
.address_size 64
.visible .entry ptxw_probe_{name}(.param .u64 ptxw_probe_src)
{{
  .reg .b64 %rd<4>;
  .reg .b32 %r<4>;
  .reg .b16 %h<2>;
  .reg .pred %p<4>;
  .reg .b128 %rq<2>;
  .shared .align 16 .b8 slot[16];
  .shared .align 8 .b64 bar;
  ld.param.u64 %rd2, [ptxw_probe_src];
  mov.b128 %rq1, {{%rd2, %rd2}};
  {instruction}
  ret;
}}
"""


@dataclass(frozen=True)
class Variant:
    id: str
    family: str
    ptx: str
    ptxw: str
    cccl: str = None
    runtime: tuple = field(default=())
    sm: int = 90
    isa: int = 0

    @property
    def mnemonic(self) -> str:
        """The PTX text every accepted compile of this variant must contain."""
        return self.ptx.split()[0]


_HW = "ptxw::clc::slot<ptxw::clc::{cast}> s; auto h = ptxw::clc::open(s, {ctx}); "
_REQUEST = "h.request(h.elect());"

VARIANTS = (
    # ---- mbarrier -------------------------------------------------------------------------------
    Variant("mbarrier.init", "mbarrier", "mbarrier.init.shared::cta.b64 [bar], 1;",
            "bar.init(ptxw::arrivals{n});", "ptx::mbarrier_init(&raw, n);",
            ("MbarrierPhase.*", "MbarrierCounts.*"), sm=80),
    Variant("mbarrier.inval", "mbarrier", "mbarrier.inval.shared::cta.b64 [bar];",
            "bar.inval();", None, ("MbarrierReinit.*",), sm=80),
    # The .layout forms of PTX ISA 9.3, which no runtime test runs.
    Variant("mbarrier.init.layout::v1", "mbarrier", "mbarrier.init.layout::v1.shared::cta.b64 [bar], 1;",
            "bar.init(ptxw::layout_v1, ptxw::arrivals{n});", "ptx::mbarrier_init(ptx::layout_v1, &raw, n);", isa=930),
    Variant("mbarrier.check_layout.layout::v0", "mbarrier",
            "mbarrier.check_layout.layout::v0.shared::cta.b64 %p1, [bar];",
            "*out = bar.check_layout(ptxw::layout_v0);", "*out = ptx::mbarrier_check_layout(ptx::layout_v0, &raw);",
            isa=930),
    Variant("mbarrier.check_layout.layout::v1", "mbarrier",
            "mbarrier.check_layout.layout::v1.shared::cta.b64 %p1, [bar];",
            "*out = bar.check_layout(ptxw::layout_v1);", "*out = ptx::mbarrier_check_layout(ptx::layout_v1, &raw);",
            isa=930),
    Variant("mbarrier.arrive.release.cta", "mbarrier", "mbarrier.arrive.release.cta.shared::cta.b64 %rd1, [bar];",
            "bar.arrive(ptx::sem_release, ptx::scope_cta);",
            "(void) ptx::mbarrier_arrive(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &raw);",
            ("MbarrierWaitForms.*", "MbarrierPhase.*")),
    Variant("mbarrier.arrive.release.cluster", "mbarrier",
            "mbarrier.arrive.release.cluster.shared::cta.b64 %rd1, [bar];",
            "cbar.arrive(ptx::sem_release, ptx::scope_cluster);",
            "(void) ptx::mbarrier_arrive(ptx::sem_release, ptx::scope_cluster, ptx::space_shared, &raw);",
            ("MbarrierWaitForms.EveryWaitAndArriveFormOnClusterBarrier",)),
    Variant("mbarrier.arrive.relaxed.cta", "mbarrier", "mbarrier.arrive.relaxed.cta.shared::cta.b64 %rd1, [bar];",
            "bar.arrive(ptx::sem_relaxed, ptx::scope_cta);",
            "(void) ptx::mbarrier_arrive(ptx::sem_relaxed, ptx::scope_cta, ptx::space_shared, &raw);",
            ("MbarrierCounts.RelaxedArrivalsCompleteThePhaseForAnAcquireWait",)),
    Variant("mbarrier.arrive.relaxed.cluster", "mbarrier",
            "mbarrier.arrive.relaxed.cluster.shared::cta.b64 %rd1, [bar];",
            "cbar.arrive(ptx::sem_relaxed, ptx::scope_cluster);",
            "(void) ptx::mbarrier_arrive(ptx::sem_relaxed, ptx::scope_cluster, ptx::space_shared, &raw);",
            ("MbarrierWaitForms.EveryWaitAndArriveFormOnClusterBarrier",)),
    Variant("mbarrier.arrive.release.cta.count", "mbarrier",
            "mbarrier.arrive.release.cta.shared::cta.b64 %rd1, [bar], 3;",
            "bar.arrive(ptx::sem_release, ptx::scope_cta, ptxw::arrivals{n});",
            "(void) ptx::mbarrier_arrive(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &raw, n);",
            ("MbarrierCounts.ArriveWithCountsAddsUp",)),
    Variant("mbarrier.expect_tx.relaxed.cta", "mbarrier", "mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [bar], 16;",
            "bar.expect_tx(ptxw::tx_bytes{n});",
            "ptx::mbarrier_expect_tx(ptx::sem_relaxed, ptx::scope_cta, ptx::space_shared, &raw, n);",
            ("MbarrierTx.*",)),
    Variant("mbarrier.expect_tx.relaxed.cluster", "mbarrier",
            "mbarrier.expect_tx.relaxed.cluster.shared::cta.b64 [bar], 16;",
            "cbar.expect_tx(ptx::sem_relaxed, ptx::scope_cluster, ptxw::tx_bytes{n});",
            "ptx::mbarrier_expect_tx(ptx::sem_relaxed, ptx::scope_cluster, ptx::space_shared, &raw, n);",
            ("MbarrierTx.*ClusterBarrier",)),
    Variant("mbarrier.arrive.expect_tx.release.cta", "mbarrier",
            "mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 %rd1, [bar], 16;",
            "bar.arrive_expect_tx(ptxw::tx_bytes{n});",
            "(void) ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &raw, n);",
            ("MbarrierTx.*ArriveExpectTx*",)),
    Variant("mbarrier.arrive.expect_tx.release.cluster", "mbarrier",
            "mbarrier.arrive.expect_tx.release.cluster.shared::cta.b64 %rd1, [bar], 16;",
            "cbar.arrive_expect_tx(ptxw::tx_bytes{n});",
            "(void) ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cluster, ptx::space_shared, &raw, n);",
            ("MbarrierCluster.RemoteCompleteTxCompletesThePeersPhase",)),
    Variant("mbarrier.arrive.expect_tx.relaxed.cta", "mbarrier",
            "mbarrier.arrive.expect_tx.relaxed.cta.shared::cta.b64 %rd1, [bar], 16;",
            "bar.arrive_expect_tx(ptx::sem_relaxed, ptx::scope_cta, ptxw::tx_bytes{n});",
            "(void) ptx::mbarrier_arrive_expect_tx(ptx::sem_relaxed, ptx::scope_cta, ptx::space_shared, &raw, n);",
            ("ClcCoverage*.*Cta*",)),
    Variant("mbarrier.arrive.expect_tx.relaxed.cluster", "mbarrier",
            "mbarrier.arrive.expect_tx.relaxed.cluster.shared::cta.b64 %rd1, [bar], 16;",
            "cbar.arrive_expect_tx(ptx::sem_relaxed, ptx::scope_cluster, ptxw::tx_bytes{n});",
            "(void) ptx::mbarrier_arrive_expect_tx(ptx::sem_relaxed, ptx::scope_cluster, ptx::space_shared, &raw, n);",
            ("ClcCoverage*.*Cluster*",)),
    Variant("mbarrier.complete_tx.relaxed.cta", "mbarrier",
            "mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [bar], 16;",
            "bar.complete_tx(ptxw::tx_bytes{n});",
            "ptx::mbarrier_complete_tx(ptx::sem_relaxed, ptx::scope_cta, ptx::space_shared, &raw, n);",
            ("MbarrierCompleteTx.*",)),
    Variant("mbarrier.complete_tx.relaxed.cluster", "mbarrier",
            "mbarrier.complete_tx.relaxed.cluster.shared::cta.b64 [bar], 16;",
            "cbar.complete_tx(ptxw::tx_bytes{n});",
            "ptx::mbarrier_complete_tx(ptx::sem_relaxed, ptx::scope_cluster, ptx::space_shared, &raw, n);",
            ("MbarrierCompleteTx.LocalCompleteTxOnClusterBarrier",)),
    Variant("mbarrier.arrive.release.cluster.remote", "mbarrier",
            "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [bar];",
            "cbar.remote(ptxw::cta_rank{r}).arrive();",
            "ptx::mbarrier_arrive(ptx::sem_release, ptx::scope_cluster, ptx::space_cluster,"
            " static_cast<uint64_t*>(__cluster_map_shared_rank(&raw, r)));",
            ("MbarrierCluster.*",)),
    Variant("mbarrier.arrive.relaxed.cluster.remote", "mbarrier",
            "mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _, [bar], 1;",
            "cbar.remote(ptxw::cta_rank{r}).arrive(ptx::sem_relaxed, ptx::scope_cluster, ptxw::arrivals{n});",
            "ptx::mbarrier_arrive(ptx::sem_relaxed, ptx::scope_cluster, ptx::space_cluster,"
            " static_cast<uint64_t*>(__cluster_map_shared_rank(&raw, r)), n);",
            ("MbarrierCluster.RemoteArriveCountsOnThePeerOnly",)),
    Variant("mbarrier.complete_tx.relaxed.cluster.remote", "mbarrier",
            "mbarrier.complete_tx.relaxed.cluster.shared::cluster.b64 [bar], 16;",
            "cbar.remote(ptxw::cta_rank{r}).complete_tx(ptxw::tx_bytes{n});",
            "ptx::mbarrier_complete_tx(ptx::sem_relaxed, ptx::scope_cluster, ptx::space_cluster,"
            " static_cast<uint64_t*>(__cluster_map_shared_rank(&raw, r)), n);",
            ("MbarrierCluster.RemoteCompleteTxCompletesThePeersPhase",)),
    Variant("mapa.shared::cluster", "mbarrier", "mapa.shared::cluster.u32 %r1, %r2, 1;",
            "*out = cbar.remote(ptxw::cta_rank{r}).cluster_address();", None, ("MbarrierCluster.*",)),
    Variant("mbarrier.try_wait.parity.acquire.cta", "mbarrier",
            "mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 %p1, [bar], 0;",
            "*out = bar.try_wait(ph);",
            "*out = ptx::mbarrier_try_wait_parity(ptx::sem_acquire, ptx::scope_cta, &raw, n);",
            ("MbarrierWaitForms.*", "MbarrierPhase.*")),
    Variant("mbarrier.try_wait.parity.acquire.cluster", "mbarrier",
            "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 %p1, [bar], 0;",
            "*out = cbar.try_wait(ptx::sem_acquire, ptx::scope_cluster, ph);",
            "*out = ptx::mbarrier_try_wait_parity(ptx::sem_acquire, ptx::scope_cluster, &raw, n);",
            ("MbarrierWaitForms.EveryWaitAndArriveFormOnClusterBarrier",)),
    Variant("mbarrier.try_wait.parity.relaxed.cta", "mbarrier",
            "mbarrier.try_wait.parity.relaxed.cta.shared::cta.b64 %p1, [bar], 0;",
            "*out = bar.try_wait(ptx::sem_relaxed, ptx::scope_cta, ph);",
            "*out = ptx::mbarrier_try_wait_parity(ptx::sem_relaxed, ptx::scope_cta, &raw, n);",
            ("MbarrierWaitForms.*",)),
    Variant("mbarrier.try_wait.parity.relaxed.cluster", "mbarrier",
            "mbarrier.try_wait.parity.relaxed.cluster.shared::cta.b64 %p1, [bar], 0;",
            "*out = cbar.try_wait(ptx::sem_relaxed, ptx::scope_cluster, ph);",
            "*out = ptx::mbarrier_try_wait_parity(ptx::sem_relaxed, ptx::scope_cluster, &raw, n);",
            ("MbarrierWaitForms.EveryWaitAndArriveFormOnClusterBarrier",)),
    Variant("mbarrier.try_wait.parity.acquire.cta.hint", "mbarrier",
            "mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 %p1, [bar], 0, 1000;",
            "*out = bar.try_wait(ph, ptxw::suspend_hint{n});",
            "*out = ptx::mbarrier_try_wait_parity(ptx::sem_acquire, ptx::scope_cta, &raw, 0u, n);",
            ("MbarrierWaitForms.*",)),
    Variant("mbarrier.test_wait.parity.acquire.cta", "mbarrier",
            "mbarrier.test_wait.parity.acquire.cta.shared::cta.b64 %p1, [bar], 0;",
            "*out = bar.test_wait(ph);",
            "*out = ptx::mbarrier_test_wait_parity(ptx::sem_acquire, ptx::scope_cta, &raw, n);",
            ("MbarrierWaitForms.*", "MbarrierArrivals.*")),
    Variant("mbarrier.test_wait.parity.acquire.cluster", "mbarrier",
            "mbarrier.test_wait.parity.acquire.cluster.shared::cta.b64 %p1, [bar], 0;",
            "*out = cbar.test_wait(ph);",
            "*out = ptx::mbarrier_test_wait_parity(ptx::sem_acquire, ptx::scope_cluster, &raw, n);",
            ("MbarrierWaitForms.EveryWaitAndArriveFormOnClusterBarrier",)),
    Variant("mbarrier.test_wait.parity.relaxed.cta", "mbarrier",
            "mbarrier.test_wait.parity.relaxed.cta.shared::cta.b64 %p1, [bar], 0;",
            "*out = bar.test_wait(ptx::sem_relaxed, ptx::scope_cta, ph);",
            "*out = ptx::mbarrier_test_wait_parity(ptx::sem_relaxed, ptx::scope_cta, &raw, n);",
            ("MbarrierWaitForms.*",)),
    Variant("mbarrier.test_wait.parity.relaxed.cluster", "mbarrier",
            "mbarrier.test_wait.parity.relaxed.cluster.shared::cta.b64 %p1, [bar], 0;",
            "*out = cbar.test_wait(ptx::sem_relaxed, ptx::scope_cluster, ph);",
            "*out = ptx::mbarrier_test_wait_parity(ptx::sem_relaxed, ptx::scope_cluster, &raw, n);",
            ("MbarrierWaitForms.EveryWaitAndArriveFormOnClusterBarrier",)),
    # ---- fences ---------------------------------------------------------------------------------
    Variant("fence.proxy.async", "fence", "fence.proxy.async;", "ptxw::fence_proxy_async();",
            "ptx::fence_proxy_async();", ("MbarrierPipeline.*",)),
    Variant("fence.proxy.async.global", "fence", "fence.proxy.async.global;",
            "ptxw::fence_before_async_read(ptx::space_global);", "ptx::fence_proxy_async(ptx::space_global);",
            ("FenceBulkLoad.*",)),
    Variant("fence.proxy.async.shared::cta", "fence", "fence.proxy.async.shared::cta;",
            "ptxw::fence_before_async_read(ptx::space_shared);", "ptx::fence_proxy_async(ptx::space_shared);",
            ("FenceBulkStore.*",)),
    Variant("fence.proxy.async.shared::cluster", "fence", "fence.proxy.async.shared::cluster;",
            "ptxw::fence_before_async_read(ptx::space_cluster);", "ptx::fence_proxy_async(ptx::space_cluster);"),
    Variant("fence.proxy.async::generic.acquire.sync_restrict", "fence",
            "fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster;",
            "ptxw::fence_before_slot_write();",
            "ptx::fence_proxy_async_generic_sync_restrict(ptx::sem_acquire, ptx::space_cluster, ptx::scope_cluster);",
            ("MbarrierPipeline.*", "ClcCoverage*.*")),
    Variant("fence.proxy.async::generic.release.sync_restrict", "fence",
            "fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster;",
            "ptxw::fence_after_slot_read();",
            "ptx::fence_proxy_async_generic_sync_restrict(ptx::sem_release, ptx::space_shared, ptx::scope_cluster);",
            ("MbarrierPipeline.*", "ClcCoverage*.*")),
    Variant("fence.mbarrier_init.release.cluster", "fence", "fence.mbarrier_init.release.cluster;",
            "ptxw::fence_after_mbarrier_init();", "ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);",
            ("MbarrierCluster.*",)),
    Variant("fence.acq_rel.gpu", "fence", "fence.acq_rel.gpu;", "ptxw::detail::isa::fence_acq_rel_gpu();",
            "ptx::fence(ptx::sem_acq_rel, ptx::scope_gpu);", ("LastBlock.*", "LastBlockChecked.*"), sm=70),
    # ---- atomics of the last-block ticket and the work queue's cursor ---------------------------
    Variant("atom.release.gpu.global.add.u32", "atom", "atom.release.gpu.global.add.u32 %r1, [%rd2], 1;",
            "*out = ptxw::detail::isa::atom_add_release_gpu(out, n);", None, ("LastBlock.*", "LastBlockChecked.*"), sm=70),
    Variant("atom.release.gpu.global.add.u64", "atom", "atom.release.gpu.global.add.u64 %rd1, [%rd2], 1;",
            "*out = unsigned(ptxw::detail::isa::atom_add_release_gpu(reinterpret_cast<unsigned long long*>(out), 1ull));",
            None, ("LastBlock.*U64*",), sm=70),
    Variant("atom.relaxed.gpu.global.add.u64", "atom", "atom.relaxed.gpu.global.add.u64 %rd1, [%rd2], 1;",
            "unsigned long long d = 0; ptxw::detail::isa::atom_add_relaxed_gpu_if(n != 0,"
            " reinterpret_cast<unsigned long long*>(out), 1ull, d); *out = unsigned(d);",
            None, ("WorkQueue.*", "WorkQueueChecked.*"), sm=70),
    # ---- cluster launch control -----------------------------------------------------------------
    Variant("elect.sync", "clc", "elect.sync %r1|%p1, 0xffffffff;",
            "if (ptxw::elect_one()) *out = 1;", "if (ptx::elect_sync(~0u)) *out = 1;", ("ClcCoverage*.*",)),
    Variant("clusterlaunchcontrol.try_cancel", "clc",
            "clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.b128 [slot], [bar];",
            _HW.format(cast="cta_t", ctx="hw") + _REQUEST, "ptx::clusterlaunchcontrol_try_cancel(&resp, &raw);"),
    Variant("clusterlaunchcontrol.try_cancel.multicast", "clc",
            "clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes"
            ".multicast::cluster::all.b128 [slot], [bar];",
            _HW.format(cast="cluster_t", ctx="hw") + _REQUEST,
            "ptx::clusterlaunchcontrol_try_cancel_multicast(&resp, &raw);"),
    Variant("clusterlaunchcontrol.query_cancel.is_canceled", "clc",
            "clusterlaunchcontrol.query_cancel.is_canceled.pred.b128 %p1, %rq1;",
            _HW.format(cast="cta_t", ctx="hw") + "*out = h.wait().is_canceled();",
            "*out = ptx::clusterlaunchcontrol_query_cancel_is_canceled(resp);"),
    # get_first_ctaid::x, ::y and ::z: one variant an axis.
    *(Variant(f"clusterlaunchcontrol.query_cancel.get_first_ctaid::{axis}", "clc",
              f"clusterlaunchcontrol.query_cancel.get_first_ctaid::{axis}.b32.b128 %r1, %rq1;",
              _HW.format(cast="cta_t", ctx="hw") + f"(void) h.wait().decode([&](auto b) {{ *out = b.{axis}(); }});",
              f"*out = ptx::clusterlaunchcontrol_query_cancel_get_first_ctaid_{axis}<uint32_t>(resp);")
      for axis in "xyz"),
    # The emulation's own instruction: the bulk copy that delivers a response into a CTA's slot.
    Variant("cp.async.bulk (clc emulation)", "clc",
            "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [slot], [%rd2], 16, [bar];",
            _HW.format(cast="cluster_t", ctx="emu") + _REQUEST,
            "ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, &resp, out, 16u, &raw);",
            ("ClcCoverageEmulated.*", "ClcChecked.*")),
)

BY_ID = {v.id: v for v in VARIANTS}
