// ptxw/inter_block/host/last_block.h: the host side of ptxw/inter_block/last_block.h -- a ticket's
// memory, initialised.
//
//   ptxw::last_block_ticket_host<> ticket;                 // allocates and initialises (R17)
//   ptxw::last_block_ticket_host<>::check_grid(grid);      // throws if Count cannot count the grid (R18)
//   kernel<<<grid, block>>>(..., ticket.view());           // any number of launches, one at a time
//   kernel<<<grid, block>>>(..., ticket.view(diag.device_sink()));  // checked mode reports to diag
//
// CUDA errors and bad arguments throw std::runtime_error("ptxw: ..."). The constructor and reset()
// synchronise their stream (the ticket is initialised before they return).
#pragma once

#include <ptxw/core/checked_host.h>
#include <ptxw/core/device_array.h>
#include <ptxw/inter_block/last_block.h>

#include <string>

PTXW_NAMESPACE_BEGIN
template <class Count = ::cuda::std::uint32_t>
class last_block_ticket_host
{
  detail::device_array<last_block_ticket_state<Count>> state_;

public:
  explicit last_block_ticket_host(cudaStream_t stream = 0)
      : state_(1, "allocating a last-block ticket")
  {
    reset(stream);
  }

  // The ticket for a launch; with a sink, checked mode reports there instead of trapping.
  last_block_ticket<Count> view(const checked::sink* sink = nullptr) const noexcept
  {
    return last_block_ticket<Count>(typename last_block_ticket<Count>::from_host{}, state_.get(), sink);
  }

  // Initialise again: after a launch that failed or was reported (R16, R17) left it taken.
  void reset(cudaStream_t stream = 0)
  {
    const last_block_ticket_state<Count> fresh{0, detail::ticket_tag, 0u, 0ull};
    detail::cuda_check(cudaMemcpyAsync(state_.get(), &fresh, sizeof fresh, cudaMemcpyHostToDevice, stream),
                       "initialising a last-block ticket");
    detail::cuda_check(cudaStreamSynchronize(stream), "initialising a last-block ticket");
  }

  // The ticket's device memory (its layout: last_block_ticket_state).
  last_block_ticket_state<Count>* state() const noexcept
  {
    return state_.get();
  }

  // R18: a launch of `grid` blocks (in clusters of `cluster`) must not have more units than Count
  // counts; the ticket of the last one is units - 1.
  static void check_grid(dim3 grid, dim3 cluster = dim3(1, 1, 1))
  {
    const unsigned long long per   = static_cast<unsigned long long>(cluster.x) * cluster.y * cluster.z;
    const unsigned long long units = static_cast<unsigned long long>(grid.x) * grid.y * grid.z / (per ? per : 1);
    if (units == 0 || units - 1 > static_cast<unsigned long long>(static_cast<Count>(~Count(0))))
    {
      throw std::runtime_error(PTXW_RULE(R18) "a grid of " + std::to_string(units) + (per > 1 ? " clusters" : " blocks")
                               + " is more than a " + std::to_string(8 * sizeof(Count))
                               + "-bit last-block ticket counts; use last_block_ticket_host<unsigned long long>");
    }
  }
};

PTXW_NAMESPACE_END
