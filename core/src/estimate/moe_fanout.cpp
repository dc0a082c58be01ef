// Distinct nodes and ranks a token's routed copies reach (moe_fanout.h). Experts are placed in
// order, E/units on each of `units` (nodes or ranks) of the EP group (Megatron-core's local
// expert indices). Random routing: a unit holding X of the C experts a token can reach is missed
// by all top_k draws with probability C(C − X, k) / C(C, k) (sampling without replacement). Under
// group-limited routing a token reaches the experts of g of G groups: a unit holding whole groups
// is missed when none of its G/units groups is chosen, C(G − G/units, g) / C(G, g) (each chosen
// group holds at least one of the token's experts: groups are ranked by their best experts,
// DeepSeek-V3 §2.1.2); a group spread over several units leaves k draws from g·E/G experts.
// Contiguous routing: token i takes experts i·k … i·k + k − 1 (mod E), counted exactly over the
// cycle of starting experts.
#include "estimate/moe_fanout.h"

#include <algorithm>
#include <numeric>

namespace llmc::detail {
namespace {

// C(n − x, k) / C(n, k): the chance that k draws without replacement from n miss x given ones.
double miss_all(double n, double x, double k) {
  double p = 1;
  for (double j = 0; j < k; ++j) p *= std::max(0.0, n - x - j) / (n - j);
  return p;
}

double random_units(const ModelSpec& m, int64_t units) {
  const double E = double(m.experts), k = double(m.top_k), U = double(units);
  const int64_t G = m.moe_groups, g = m.moe_group_topk;
  if (G > 1 && g < G) {
    if (G % units == 0) return U * (1 - miss_all(double(G), double(G / units), double(g)));
    if (units % G == 0) {
      const double reach = double(g) * E / double(G), spread = double(g) * U / double(G);
      return spread * (1 - miss_all(reach, E / U, k));
    }
  }
  return U * (1 - miss_all(E, E / U, k));
}

double contiguous_units(const ModelSpec& m, int64_t units) {
  const int64_t E = m.experts, k = m.top_k, per_unit = std::max<int64_t>(1, E / units);
  const int64_t cycle = E / std::gcd(E, k);  // distinct starting experts i·k mod E
  int64_t total = 0;
  for (int64_t i = 0; i < cycle; ++i) {
    const int64_t first = i * k % E, last = first + k - 1;
    const int64_t u0 = first / per_unit;
    const int64_t spanned = last < E ? last / per_unit - u0 + 1 : (units - u0) + ((last - E) / per_unit + 1);
    total += std::min(spanned, units);
  }
  return double(total) / double(cycle);
}

double units_reached(const ModelSpec& m, MoeRouting routing, int64_t units) {
  if (units <= 1) return 1;
  return routing == MoeRouting::contiguous ? contiguous_units(m, units) : random_units(m, units);
}

}  // namespace

MoeFanout moe_fanout(const ModelSpec& m, MoeRouting routing, int64_t ep, int64_t ranks_per_node) {
  const int64_t per_node = std::clamp<int64_t>(ranks_per_node, 1, std::max<int64_t>(ep, 1));
  return {units_reached(m, routing, (ep + per_node - 1) / per_node), units_reached(m, routing, ep)};
}

}  // namespace llmc::detail
