#include "llmc_bench/rank_layout.h"

#include <algorithm>
#include <map>

namespace llmc::bench {

RankLayout rank_layout(const std::vector<std::string>& hostnames) {
  RankLayout out;
  std::map<std::string, int> seen;  // host → ranks on it so far
  for (const std::string& h : hostnames) {
    const int local = seen[h]++;
    out.local_rank.push_back(local);
    out.max_ranks_per_node = std::max(out.max_ranks_per_node, local + 1);
  }
  out.nodes = int(seen.size());
  if (!hostnames.empty()) out.tier = out.nodes == 1 ? "intra_node" : "inter_node";
  return out;
}

std::string gpus_per_host_problem(const RankLayout& layout, int visible_gpus) {
  if (layout.max_ranks_per_node <= visible_gpus) return "";
  return std::to_string(layout.max_ranks_per_node) + " ranks on one host, but only " + std::to_string(visible_gpus) +
         " GPU(s) visible there; start one rank per GPU (mpirun --map-by ppr:" + std::to_string(visible_gpus) +
         ":node)";
}

}  // namespace llmc::bench
