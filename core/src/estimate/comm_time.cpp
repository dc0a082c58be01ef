// The time of one collective on the tier it crosses (comm_time.h): time = latency + factor ×
// bytes / busbw, with the nccl-tests factors: all-reduce 2(n−1)/n, all-gather / reduce-scatter /
// all-to-all (n−1)/n, send/recv and broadcast 1 (NVIDIA/nccl-tests PERFORMANCE.md). The latency of
// a ring collective (all-reduce, all-gather, reduce-scatter, broadcast: NCCL's broadcast is a
// pipelined chain along the ring) is NCCL's own model, which grows with the ring (nccl_ring);
// send/recv and all-to-all pay the tier's alpha.
#include "estimate/comm_time.h"

#include <algorithm>
#include <cmath>
#include <string_view>

#include "estimate/estimate_parts.h"
#include "estimate/placement.h"

namespace llmc::detail {

double ring_factor(std::string_view collective, double n) {
  if (n <= 1) return 0;
  if (collective == "all_reduce") return 2 * (n - 1) / n;
  if (collective == "send_recv" || collective == "broadcast") return 1;
  return (n - 1) / n;
}

namespace {

AlphaBeta tier_ab(const Resolved& r, bool intra) {
  const HardwareProfile& prof = *r.s.hardware.profile;
  AlphaBeta ab = intra ? prof.intra_node : prof.inter_node;
  const std::optional<double>& user =
      intra ? r.s.hardware.intra_node_bandwidth_gbps : r.s.hardware.inter_node_bandwidth_gbps;
  if (user) ab.busbw_gbps = intra ? intra_node_busbw_gbps(*user) : inter_node_busbw_gbps(*user);
  return ab;
}

// A measured collective of this op and group size on this tier, if the profile has one.
const AlphaBeta* measured(const Resolved& r, const char* collective, int64_t group, bool intra) {
  if (r.s.hardware.intra_node_bandwidth_gbps || r.s.hardware.inter_node_bandwidth_gbps)
    return nullptr;  // the user's bandwidth wins
  for (const CollectiveTable& c : r.s.hardware.profile->collectives)
    if (c.op == collective && c.group == group && (c.tier == "intra_node") == intra) return &c.fit;
  return nullptr;
}

// Bandwidth time of one tier's part (no latency); raises *alpha to this tier's alpha (a measured
// table's, at this group size, or the profile's tier fit), which the ring model never undercuts.
double one_tier(const Resolved& r, const char* collective, int64_t group, bool intra, double bytes, double* alpha) {
  if (group <= 1) return 0;
  const AlphaBeta* m = measured(r, collective, group, intra);
  const AlphaBeta ab = m ? *m : tier_ab(r, intra);
  const double bw = ab.busbw_gbps * 1e9;
  *alpha = std::max(*alpha, ab.alpha_s);
  return bw > 0 ? ring_factor(collective, double(group)) * bytes / bw : 0;
}

// NCCL's own latency model for a ring collective over `ranks` GPUs on `nodes` nodes
// (NVIDIA/nccl src/graph/tuning.cc, ncclTopoTuneModel @ b647562): a base latency per protocol
// plus one hop latency per ring step, NVLink (PCIe) inside a node and the network between nodes;
// all-gather, reduce-scatter and broadcast take ranks − 1 steps (nodes − 1 of them across the network),
// all-reduce 2·(ranks − 1) (2·nodes). NCCL runs the protocol with the least latency + bytes /
// bandwidth: LL (a quarter of the bandwidth; a third for all-gather and reduce-scatter on one
// node), LL128 (0.92 of it, 0.7 with one rank per node; NVLink nodes only) or Simple. Left out:
// the host's network post overhead (1-2 µs per in-node hop of a multi-node ring, ×3 for Simple,
// depending on the CPU vendor), the ×1.4 (A100/H100) "plateau" of multi-node ring all-reduce,
// and the tree, PAT, NVLS and CollNet algorithms. `bw_s` is the Simple-protocol bandwidth time.

RingTime nccl_ring(const char* collective, int64_t ranks, int64_t nodes, bool nvlink, double bw_s,
                   double alpha_floor_s) {
  const std::string_view c = collective;
  const double steps = c == "all_reduce" ? 2.0 * double(ranks - 1) : double(ranks - 1);
  const double inter = nodes > 1 ? (c == "all_reduce" ? 2.0 * double(nodes) : double(nodes - 1)) : 0;
  const double intra = std::max(0.0, steps - inter);
  struct Proto {
    double base_us, nvlink_us, pci_us, net_us, bw_share;
  };
  const double ll_share = nodes > 1 || c == "all_reduce" ? 1.0 / 4.0 : 1.0 / 3.0;
  const double ll128_share = double(ranks) / double(nodes) < 2 ? 0.7 : 0.92;
  const Proto protos[] = {{6.6, 0.6, 1.0, 2.7, ll_share},
                          {14.0, 1.9, 2.5, 4.0, ll128_share},
                          {8.4, 3.4, 5.7, 14.0, 1.0}};  // LL, LL128, Simple
  RingTime best;
  for (int i = 0; i < 3; ++i) {
    if (i == 1 && !nvlink) continue;  // NCCL enables LL128 only over NVLink
    const Proto& p = protos[i];
    const double lat =
        std::max(alpha_floor_s, 1e-6 * (p.base_us + intra * (nvlink ? p.nvlink_us : p.pci_us) + inter * p.net_us));
    const double t = lat + bw_s / p.bw_share;
    if (i == 0 || t < best.seconds) best = {t, lat};
  }
  return best;
}

}  // namespace

// One collective over `group` ranks placed `stride` apart (Megatron order: tp innermost). Inside
// a node it runs on NVLink. Across nodes with k > 1 ranks per node it is hierarchical, as NCCL's
// multi-NIC rings are in effect: the intra-node part on NVLink, then the inter-node part over
// group/k nodes on bytes/k per GPU, each GPU through its own NIC (all-reduce = reduce-scatter
// in-node, all-reduce across, all-gather in-node).
RingTime collective_seconds(const Resolved& r, const char* collective, int64_t group, int64_t stride, double bytes,
                            const char** tier) {
  if (group <= 1) return {};
  const int64_t k = std::min(group, ranks_per_node(r, stride));
  const std::string_view c = collective;
  const bool ring = c == "all_reduce" || c == "all_gather" || c == "reduce_scatter" || c == "broadcast";
  // NVLink-class links inside the node unless their bus bandwidth is no more than PCIe 5 x16's
  // 64 GB/s.
  const bool nvlink = tier_ab(r, true).busbw_gbps > 64;
  double alpha = 0, bw_s = 0;
  int64_t nodes = 1;
  if (group <= k && group * stride <= r.gpus_per_node) {
    *tier = "intra_node";
    bw_s = one_tier(r, collective, group, true, bytes, &alpha);
    if (measured(r, collective, group, true)) return {alpha + bw_s, alpha};  // measured at this size: its own fit
  } else {
    *tier = "inter_node";
    if (c == "all_to_all" && k > 1 && !measured(r, collective, group, false)) {
      // A rank sends 1/group of its bytes to each peer: (k − 1)/group to the peers on its node
      // over NVLink and (group − k)/group through its NIC, both at once; the slower part sets
      // the time. (group − 1)/group × bytes' = (group − k)/group × bytes on the network.
      const double net = one_tier(r, collective, group, false, bytes * double(group - k) / double(group - 1), &alpha);
      const double nvl = one_tier(r, collective, k, true, bytes * double(k) / double(group), &alpha);
      return {alpha + std::max(net, nvl), alpha};
    }
    if (k <= 1 || !ring) {
      nodes = group;
      bw_s = one_tier(r, collective, group, false, bytes, &alpha);
      if (!ring || measured(r, collective, group, false)) return {alpha + bw_s, alpha};
    } else {
      nodes = (group + k - 1) / k;
      if (c == "all_reduce")
        bw_s = one_tier(r, "reduce_scatter", k, true, bytes, &alpha) +
               one_tier(r, "all_reduce", nodes, false, bytes / double(k), &alpha) +
               one_tier(r, "all_gather", k, true, bytes, &alpha);
      else
        bw_s = one_tier(r, collective, k, true, bytes, &alpha) +
               one_tier(r, collective, nodes, false, bytes / double(k), &alpha);
    }
  }
  if (!ring) return {alpha + bw_s, alpha};
  return nccl_ring(collective, group, nodes, nvlink, bw_s, alpha);
}

// One node: each token goes once to every other rank holding one of its experts, an all-to-all
// of tokens × ranks reached (nccl-tests' size: (n − 1)/n of it leaves the rank). Across nodes:
// once over the network to each remote node reached (to the rank of the same local index), and
// over NVLink from there to each rank reached that did not receive it directly; both run at once
// and the slower sets the time (DeepEP README: normal kernels, NVLink and RDMA forwarding), each
// at its tier's point-to-point rate (a measured send/recv table of the profile, else the fit).
RingTime deepep_seconds(const Resolved& r, int64_t group, int64_t stride, double tokens, double token_bytes,
                        const MoeFanout& fanout, const char** tier) {
  if (group <= 1) return {};
  const int64_t per_node = std::min(group, ranks_per_node(r, stride));
  double alpha = 0;
  if (group <= per_node) {
    *tier = "intra_node";
    const double t = one_tier(r, "all_to_all", group, true, tokens * fanout.ranks * token_bytes, &alpha);
    return {alpha + t, alpha};
  }
  *tier = "inter_node";
  const double nodes = double((group + per_node - 1) / per_node);
  const double net_bytes = tokens * fanout.nodes * (nodes - 1) / nodes * token_bytes;
  const double nvl_bytes = tokens * fanout.ranks * double(per_node - 1) / double(per_node) * token_bytes;
  const double net = one_tier(r, "send_recv", 2, false, net_bytes, &alpha);
  const double nvl = one_tier(r, "send_recv", 2, true, nvl_bytes, &alpha);
  return {alpha + std::max(net, nvl), alpha};
}

double collective_time_s(const Resolved& r, const char* collective, int64_t group, double bytes) {
  const char* tier = "intra_node";
  return collective_seconds(r, collective, group, 1, bytes, &tier).seconds;
}

}  // namespace llmc::detail
