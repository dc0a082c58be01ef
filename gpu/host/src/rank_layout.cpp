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

}  // namespace llmc::bench
