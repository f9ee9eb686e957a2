// Remote mbarrier operations in clusters of 2 CTAs: remote arrive (with and without a count) and
// remote complete_tx on the peer CTA's ptxw::cluster_barrier (R7, R12).
//
// Every kernel follows the same frame: thread 0 of each CTA initialises its barrier and executes
// ptxw::fence_after_mbarrier_init(); a cluster-wide barrier (barrier.cluster.arrive.release +
// wait.acquire, all threads) publishes the init before any peer touches it; and every CTA ends
// with another cluster-wide barrier, so that no CTA exits while its peer may still operate on
// its shared memory (even when a wait of the test timed out). Every thread executes every
// cluster barrier: no early return, and loops that stop early after a timeout stop in every thread
// of both CTAs at once (cluster_gave_up).
#include <ptxw/ptxw.h>

#include <cuda/ptx> // the kernels also use cuda::ptx directly

#include <cooperative_groups.h>

#include "gpu.h"

namespace cg = cooperative_groups;
using ptxw_test::cluster_gave_up;
using ptxw_test::cluster_sync;

namespace {

constexpr unsigned kClusterSize = 2;
constexpr unsigned kClusters    = 66; // 132 CTAs, about one per SM of an H100; any number works
constexpr unsigned kThreads     = 128;

// The frame of every kernel here (see the top), around body(check, gave_up): thread 0 initialises
// this CTA's barrier for `count` arrivals, fences the init and zeroes cluster_gave_up's flag; a
// cluster barrier publishes both before any peer touches them; a last one keeps the CTA until its
// peer is done with its shared memory. gave_up() is cluster_gave_up on this CTA's flag and the peer's.
template <class Body>
__device__ void cluster_frame(ptxw::cluster_barrier& bar, ptxw::arrivals count, Report* report, Body body)
{
  __shared__ unsigned gave_up;
  Check check(report);
  unsigned* peer_gave_up = cg::this_cluster().map_shared_rank(&gave_up, ptx::get_sreg_cluster_ctarank() ^ 1u);
  if (threadIdx.x == 0)
  {
    gave_up = 0;
    bar.init(count);
    ptxw::fence_after_mbarrier_init();
  }
  cluster_sync();
  body(check, [&] { return cluster_gave_up(check, &gave_up, peer_gave_up); });
  check.finish();
  cluster_sync();
}

// Ping-pong of messages between the two CTAs, one per thread and phase. Thread t "sends" by
// writing a word into slot t of the peer's inbox (distributed shared memory) and then arriving on
// the peer's barrier remotely (mbarrier.arrive.release.cluster.shared::cluster); each barrier needs
// kThreads arrivals per phase, all from the peer. CTA 0 sends message i, then waits for its own
// barrier's phase i and reads the reply; CTA 1 waits for its phase i, reads the message, then
// replies. The waits are acquire.cluster, so each read must see the word the peer's thread wrote
// before its release arrive.
//
// Why the ping-pong: arrivals of phase i + 1 on a barrier must not overtake arrivals of phase i.
// Here every arrival of phase i + 1 on CTA r's barrier is made by a peer thread after a wait that
// needed all of CTA r's arrivals of that round, each made after that CTA r thread saw CTA r's
// phase i complete. (With both CTAs sending first and waiting second, a fast peer thread could
// land its phase i + 1 arrival while a slow one has not landed its phase i arrival.) The same
// chain makes the single inbox safe to overwrite and makes this check race-free: right before
// sending, test_wait on the thread's own barrier is false, because the phase it is on can only
// complete after the peer has seen this thread's message.
__global__ void remote_arrive_kernel(unsigned phases, Report* report)
{
  __shared__ ptxw::cluster_barrier bar;
  __shared__ unsigned inbox[kThreads];
  cluster_frame(bar, ptxw::arrivals{kThreads}, report, [&](Check& check, auto) {
    check.expect(ptx::get_sreg_cluster_nctarank() == kClusterSize, __LINE__);
    const unsigned tid             = threadIdx.x;
    const unsigned rank            = ptx::get_sreg_cluster_ctarank();
    const unsigned peer            = rank ^ 1u;
    ptxw::remote_mbarrier peer_bar = bar.remote(ptxw::cta_rank{peer});
    unsigned* peer_inbox           = cg::this_cluster().map_shared_rank(&inbox[0], peer);
    ptxw::phase ph;
    const auto message = [](unsigned from, unsigned i, unsigned t) {
      return (from << 28) | (i << 8) | t;
    };
    const auto send = [&](unsigned i) {
      check.expect(!bar.test_wait(ph), __LINE__);
      peer_inbox[tid] = message(rank, i, tid);
      peer_bar.arrive();
    };
    const auto receive = [&](unsigned i) {
      if (check.wait(__LINE__, bar, ph))
      {
        check.expect(inbox[tid] == message(peer, i, tid), __LINE__);
      }
    };
    for (unsigned i = 0; i < phases; ++i)
    {
      if (rank == 0)
      {
        send(i);
        receive(i);
      }
      else
      {
        receive(i);
        send(i);
      }
    }
  });
}

// Remote arrivals count exactly what they say, on the peer and not on the local barrier. The two
// barriers need different counts (CTA 0: 5, CTA 1: 7); each CTA's thread 0 arrives on the peer
// with arrivals{count_of_peer - 1}, then, after a cluster barrier, every thread of both CTAs checks
// that its barrier is one arrival short; after another cluster barrier, thread 0 gives the peer
// its last arrival and every thread waits. A remote arrive that landed on the local barrier would
// over-arrive one barrier (completing it early) and leave the other short (a timeout); a count
// dropped to 1 leaves both short. Alternates the release and the relaxed remote overloads.
__global__ void remote_arrive_count_kernel(unsigned phases, Report* report)
{
  __shared__ ptxw::cluster_barrier bar;
  const unsigned rank   = ptx::get_sreg_cluster_ctarank();
  const unsigned mine   = rank == 0 ? 5u : 7u;
  const unsigned theirs = rank == 0 ? 7u : 5u;
  cluster_frame(bar, ptxw::arrivals{mine}, report, [&](Check& check, auto gave_up) {
    const unsigned peer = rank ^ 1u;
    ptxw::phase ph;
    for (unsigned i = 0; i < phases; ++i)
    {
      if (threadIdx.x == 0)
      {
        if (i % 2 == 0)
        {
          bar.remote(ptxw::cta_rank{peer}).arrive(ptxw::arrivals{theirs - 1});
        }
        else
        {
          bar.remote(ptxw::cta_rank{peer}).arrive(ptx::sem_relaxed, ptx::scope_cluster, ptxw::arrivals{theirs - 1});
        }
      }
      check.expect_open(__LINE__, bar, ph, cluster_sync); // mine - 1 of mine
      if (threadIdx.x == 0)
      {
        if (i % 2 == 0)
        {
          bar.remote(ptxw::cta_rank{peer}).arrive();
        }
        else
        {
          bar.remote(ptxw::cta_rank{peer}).arrive(ptx::sem_release, ptx::scope_cluster);
        }
      }
      check.wait(__LINE__, bar, ph);
      // Two cluster barriers: the next phase's arrivals only after every thread of both CTAs saw
      // this one; and stop everywhere once a wait timed out anywhere.
      if (gave_up())
      {
        break;
      }
    }
  });
}

// Remote complete_tx. Each CTA arms its own barrier (init(arrivals{1}); thread 0
// arrive_expect_tx(bytes)); the peer's thread 0 completes those bytes remotely in two parts, with
// cluster barriers in between so that every thread of the armed CTA can check that the phase is
// still open after the arming and after the first part. The byte count differs per CTA and per
// phase, so a complete_tx that hits the wrong barrier or the wrong count leaves a phase open
// (a timeout) or completes one early.
__global__ void remote_complete_tx_kernel(unsigned phases, Report* report)
{
  __shared__ ptxw::cluster_barrier bar;
  cluster_frame(bar, ptxw::arrivals{1}, report, [&](Check& check, auto gave_up) {
    const unsigned rank = ptx::get_sreg_cluster_ctarank();
    const unsigned peer = rank ^ 1u;
    ptxw::phase ph;
    for (unsigned i = 0; i < phases; ++i)
    {
      const unsigned my_bytes   = 64u * (i + 1) + 16u * rank;
      const unsigned peer_bytes = 64u * (i + 1) + 16u * peer;
      const unsigned peer_first = peer_bytes / 2;
      if (threadIdx.x == 0)
      {
        bar.arrive_expect_tx(ptxw::tx_bytes{my_bytes});
      }
      check.expect_open(__LINE__, bar, ph, cluster_sync); // armed, nothing completed
      if (threadIdx.x == 0)
      {
        bar.remote(ptxw::cta_rank{peer}).complete_tx(ptxw::tx_bytes{peer_first});
      }
      check.expect_open(__LINE__, bar, ph, cluster_sync); // part of the bytes still pending
      if (threadIdx.x == 0)
      {
        bar.remote(ptxw::cta_rank{peer}).complete_tx(ptxw::tx_bytes{peer_bytes - peer_first});
      }
      check.wait(__LINE__, bar, ph);
      if (gave_up()) // two cluster barriers
      {
        break;
      }
    }
  });
}

class MbarrierCluster : public Gpu
{
protected:
  void SetUp() override
  {
    Gpu::SetUp();
    if (IsSkipped() || HasFatalFailure())
    {
      return;
    }
    int cluster_launch = 0;
    PTXW_CUDA_OK(cudaDeviceGetAttribute(&cluster_launch, cudaDevAttrClusterLaunch, 0));
    if (cluster_launch == 0)
    {
      GTEST_SKIP() << "the device does not support cluster launch";
    }
  }

  // Launches kClusters clusters of kClusterSize CTAs of kThreads threads.
  template <class... Params, class... Args>
  static cudaError_t launch(void (*kernel)(Params...), Args... args)
  {
    cudaLaunchAttribute attribute[1];
    attribute[0].id               = cudaLaunchAttributeClusterDimension;
    attribute[0].val.clusterDim.x = kClusterSize;
    attribute[0].val.clusterDim.y = 1;
    attribute[0].val.clusterDim.z = 1;
    cudaLaunchConfig_t config{};
    config.gridDim          = dim3(kClusters * kClusterSize);
    config.blockDim         = dim3(kThreads);
    config.dynamicSmemBytes = 0;
    config.stream           = 0;
    config.attrs            = attribute;
    config.numAttrs         = 1;
    return cudaLaunchKernelEx(&config, kernel, args...);
  }

  // kernel(phases, report) launched as above, in which every thread waits once per phase.
  void expect_phases(void (*kernel)(unsigned, Report*), unsigned phases)
  {
    PTXW_NEW_REPORT(report);
    PTXW_CUDA_OK(launch(kernel, phases, report.get()));
    PTXW_LAUNCH_OK();
    PTXW_EXPECT_REPORT(report, static_cast<unsigned long long>(phases) * kThreads * kClusters * kClusterSize);
  }
};

} // namespace

TEST_F(MbarrierCluster, RemoteArrivesPublishPeerWrites)
{
  expect_phases(remote_arrive_kernel, 256);
}

TEST_F(MbarrierCluster, RemoteArriveCountsOnThePeerOnly)
{
  expect_phases(remote_arrive_count_kernel, 32);
}

TEST_F(MbarrierCluster, RemoteCompleteTxCompletesThePeersPhase)
{
  expect_phases(remote_complete_tx_kernel, 32);
}
