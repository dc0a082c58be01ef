// Internal: how many nodes and ranks of an expert-parallel group one token's routed copies reach
// (training.moe_routing, model.moe_groups), which sets what DeepEP-style dispatch moves
// (parallel.ep_dispatcher = deepep; comm_time.cpp prices it).
#pragma once
#include <cstdint>

#include "llmc/scenario.h"

namespace llmc::detail {

struct MoeFanout {
  double nodes = 1;  // expected distinct nodes holding one of a token's top_k experts
  double ranks = 1;  // expected distinct ranks holding one
};

// Over an EP group of `ep` ranks in order, `ranks_per_node` of them on each node.
MoeFanout moe_fanout(const ModelSpec& m, MoeRouting routing, int64_t ep, int64_t ranks_per_node);

}  // namespace llmc::detail
