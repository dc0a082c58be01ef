// Where the processes of an MPI run of llmcalc-bench sit (plain C++, so it is tested without
// MPI or a GPU): which GPU each rank drives and which NCCL tier its collectives measure.
#pragma once
#include <string>
#include <vector>

namespace llmc::bench {

struct RankLayout {
  std::vector<int> local_rank;  // per rank: its index among the ranks on the same host, in rank order
  int nodes = 0;                // distinct hosts
  int max_ranks_per_node = 0;   // the most ranks on one host (each needs its own GPU)
  // "intra_node" when every rank is on one host (NVLink / the scale-up domain), else
  // "inter_node": a collective is as slow as its slowest link, the network.
  std::string tier;
};

// `hostnames[r]` is MPI_Get_processor_name of rank r. Empty input gives an empty layout.
RankLayout rank_layout(const std::vector<std::string>& hostnames);

// Each rank drives GPU local_rank of its host, so a host needs as many visible GPUs as it has
// ranks: "" when it does, else the error to print (two ranks on one GPU would time contention).
std::string gpus_per_host_problem(const RankLayout& layout, int visible_gpus);

}  // namespace llmc::bench
