// Internal: the time of one collective (comm_time.cpp), which the per-step communication
// (comm.cpp) prices each of its items with.
#pragma once
#include <algorithm>
#include <cstdint>

#include "estimate/moe_fanout.h"
#include "llmc/scenario.h"

namespace llmc::detail {

struct RingTime {
  double seconds = 0;  // latency + bandwidth time / the protocol's share
  double latency_s = 0;
};

// Ranks of a group placed `stride` apart that share a node (at least 1).
inline int64_t ranks_per_node(const Resolved& r, int64_t stride) {
  return std::max<int64_t>(1, r.gpus_per_node / std::max<int64_t>(stride, 1));
}

// One collective over `group` ranks `stride` apart: NCCL's ring on NVLink inside a node and the
// NICs across (hierarchical where the group spans nodes); `tier` names the one it crossed.
RingTime collective_seconds(const Resolved& r, const char* collective, int64_t group, int64_t stride, double bytes,
                            const char** tier);

// DeepEP's dispatch (or combine) of `tokens` tokens of `token_bytes` from one rank over an EP
// group of `group` ranks `stride` apart, each token sent once per rank (one node) or once per
// remote node it reaches (`fanout`), the network and NVLink parts at once.
RingTime deepep_seconds(const Resolved& r, int64_t group, int64_t stride, double tokens, double token_bytes,
                        const MoeFanout& fanout, const char** tier);

}  // namespace llmc::detail
