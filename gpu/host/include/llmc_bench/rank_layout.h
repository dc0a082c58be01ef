// Where the processes of an MPI run of llmcalc-bench sit (plain C++, so it is tested without
// MPI or a GPU): which GPU each rank drives and which NCCL tier its collectives measure.
#pragma once
#include <string>
#include <vector>

namespace llmc::bench {

struct RankLayout {
  std::vector<int> local_rank;  // per rank: its index among the ranks on the same host, in rank order
  int nodes = 0;                // distinct hosts
  int max_ranks_per_node = 0;
  // "intra_node" when every rank is on one host (NVLink / the scale-up domain), else
  // "inter_node": a collective is as slow as its slowest link, the network.
  std::string tier;
};

// `hostnames[r]` is MPI_Get_processor_name of rank r. Empty input gives an empty layout.
RankLayout rank_layout(const std::vector<std::string>& hostnames);

}  // namespace llmc::bench
