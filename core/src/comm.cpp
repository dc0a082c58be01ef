// Communication per training step, alpha-beta per collective on the tier it crosses.
// time = alpha + factor × bytes / busbw, with the nccl-tests factors: all-reduce 2(n−1)/n,
// all-gather / reduce-scatter / all-to-all (n−1)/n, send/recv 1 (NVIDIA/nccl-tests PERFORMANCE.md).
// Rank order is Megatron's: tp innermost, then cp, then dp, then pp.
#include <algorithm>

#include "formulas.h"
#include "step_ops.h"

namespace llmc::detail {
namespace {

double ring_factor(const std::string& collective, double n) {
  if (n <= 1) return 0;
  if (collective == "all_reduce") return 2 * (n - 1) / n;
  if (collective == "send_recv") return 1;
  return (n - 1) / n;
}

AlphaBeta tier_ab(const Resolved& r, bool intra) {
  const HardwareProfile& prof = *r.s.hardware.profile;
  AlphaBeta ab = intra ? prof.intra_node : prof.inter_node;
  const std::optional<double>& user = intra ? r.s.hardware.intra_node_bandwidth_gbps : r.s.hardware.inter_node_bandwidth_gbps;
  if (user) ab.busbw_gbps = intra ? intra_node_busbw_gbps(*user) : inter_node_busbw_gbps(*user);
  return ab;
}

// A measured collective of this op and group size on this tier, if the profile has one.
const AlphaBeta* measured(const Resolved& r, const char* collective, int64_t group, bool intra) {
  if (r.s.hardware.intra_node_bandwidth_gbps || r.s.hardware.inter_node_bandwidth_gbps) return nullptr;  // the user's bandwidth wins
  for (const CollectiveTable& c : r.s.hardware.profile->collectives)
    if (c.op == collective && c.group == group && (c.tier == "intra_node") == intra) return &c.fit;
  return nullptr;
}

double one_tier(const Resolved& r, const char* collective, int64_t group, bool intra, double bytes) {
  if (group <= 1) return 0;
  const AlphaBeta* m = measured(r, collective, group, intra);
  const AlphaBeta ab = m ? *m : tier_ab(r, intra);
  const double bw = ab.busbw_gbps * 1e9;
  return ab.alpha_s + (bw > 0 ? ring_factor(collective, double(group)) * bytes / bw : 0);
}

// One collective over `group` ranks placed `stride` apart (Megatron order: tp innermost). Inside
// a node it runs on NVLink. Across nodes with k > 1 ranks per node it is hierarchical, as NCCL's
// multi-NIC rings are in effect: the intra-node part on NVLink, then the inter-node part over
// group/k nodes on bytes/k per GPU, each GPU through its own NIC (all-reduce = reduce-scatter
// in-node, all-reduce across, all-gather in-node).
double collective_seconds(const Resolved& r, const char* collective, int64_t group, int64_t stride, double bytes, const char** tier) {
  const int64_t per_node = std::max<int64_t>(1, r.gpus_per_node / std::max<int64_t>(stride, 1));
  const int64_t k = std::min(group, per_node);
  if (group <= k && group * stride <= r.gpus_per_node) {
    *tier = "intra_node";
    return one_tier(r, collective, group, true, bytes);
  }
  *tier = "inter_node";
  const std::string c = collective;
  if (k <= 1 || c == "send_recv" || c == "all_to_all") return one_tier(r, collective, group, false, bytes);
  const int64_t nodes = (group + k - 1) / k;
  if (c == "all_reduce")
    return one_tier(r, "reduce_scatter", k, true, bytes) + one_tier(r, "all_reduce", nodes, false, bytes / double(k)) +
           one_tier(r, "all_gather", k, true, bytes);
  return one_tier(r, collective, k, true, bytes) + one_tier(r, collective, nodes, false, bytes / double(k));
}

CommItem make(const Resolved& r, const char* name, const char* collective, int64_t group, int64_t stride, double bytes, double count) {
  CommItem c;
  c.name = name;
  c.collective = collective;
  c.group = group;
  const char* tier = "intra_node";
  const double once = collective_seconds(r, collective, group, stride, bytes, &tier);
  c.tier = tier;
  c.bytes_per_step = bytes * count;
  c.time_s = count * once;
  return c;
}

}  // namespace

double compute_efficiency(const Resolved& r) {
  const HardwareSpec& hw = r.s.hardware;
  return hw.compute_efficiency > 0 ? hw.compute_efficiency : hw.profile->compute_efficiency;
}

double compute_seconds(const Resolved& r, const FlopCounts& f) {
  const HardwareSpec& hw = r.s.hardware;
  const double eff = compute_efficiency(r);
  const double peak = hw.gpu.peak_tflops(r.compute_dtype) * 1e12;
  const double flops_per_gpu = f.hardware_per_token * r.s.training.global_batch_tokens / double(r.gpu_count);
  return flops_per_gpu / (peak * eff);
}

std::vector<CommItem> comm_per_step(const Resolved& r, const ParamCounts& p, const FlopCounts& f, Trace* t) {
  return comm_per_step(r, p, f, compute_times(r, p), t);
}

std::vector<CommItem> comm_per_step(const Resolved& r, const ParamCounts& p, const FlopCounts& f, const ComputeTimes& ct, Trace* t) {
  std::vector<CommItem> out;
  const ParallelSpec& par = r.s.parallel;
  const TrainingSpec& ts = r.s.training;
  const ModelSpec& m = r.m;
  const double e = ts.precision == Precision::fp32 ? 4.0 : 2.0;
  // Overlap windows come from the kernel times of the slowest stage (step_ops.cpp); with the
  // flat-efficiency basis, from its compute time.
  const double mb = double(r.micro_batches);
  const bool flat = r.s.hardware.compute_efficiency > 0;
  const double per_micro = flat ? compute_seconds(r, f) / mb : ct.micro_batch_s();
  const double compute = per_micro * mb;
  const double bwd_micro = flat ? per_micro * 2.0 / 3.0 : ct.stage_bwd.total();
  const double fwd_micro = flat ? per_micro / 3.0 : ct.stage_fwd.total();
  const double attention_step = flat ? compute * (f.model_per_token > 0 ? f.attention_per_token / f.model_per_token : 0)
                                     : (ct.stage_fwd.attention_s + ct.stage_bwd.attention_s) * mb;
  const double tokens_micro = double(ts.micro_batch) * double(ts.seq_len) / double(par.cp);
  const double L = double(r.layers_per_stage);
  const double fwd_passes = ts.recompute == Recompute::full ? 2 : 1;

  if (par.tp > 1 && m.has_shape()) {
    // Two all-reduces per layer forward (after attention and MLP) and two in backward; with SP
    // each becomes all-gather + reduce-scatter with the same bus volume (Korthikanti 2022 §4.2.2),
    // timed as those two collectives: on NVSwitch they run as rings, while a large all-reduce can
    // use NVLink SHARP (8×H100: ring gather/scatter ~362 GB/s busbw, NVLS all-reduce ~479).
    const double bytes = e * tokens_micro * double(m.hidden);
    const double count = L * mb * (2 * fwd_passes + 2);
    CommItem c = make(r, "tp", ts.sequence_parallel ? "all_gather" : "all_reduce", par.tp, 1, bytes, count);
    if (ts.sequence_parallel) {
      const CommItem rs = make(r, "tp", "reduce_scatter", par.tp, 1, bytes, count);
      c.collective = "all_gather+reduce_scatter";
      c.time_s += rs.time_s;
    }
    c.overlapped = par.tp_overlap;
    c.exposed_s = c.overlapped ? std::max(0.0, c.time_s - compute) : c.time_s;
    c.in_micro_batch = true;
    out.push_back(c);
  }
  const int64_t dpg = par.dp * par.cp;
  if (dpg > 1) {
    // Parameters of the most loaded GPU (after tp, pp and ep); LoRA reduces only the adapters.
    double local_params = p.per_gpu;
    if (ts.finetune == Finetune::lora) local_params = p.trainable / double(par.tp * par.pp);
    const double grad_bytes = local_params * bytes_of(r.grad_dtype);
    const double weight_bytes = local_params * bytes_of(r.weight_dtype);
    if (ts.zero_stage >= 3) {
      // FSDP: all-gather parameters before each forward and backward of every micro-batch,
      // reduce-scatter gradients; prefetch overlaps them with compute (Zhao et al. 2023). The
      // forward gathers can hide only behind forward passes, the backward ones behind backward
      // passes, and the reduce-scatter behind what the last backward's gathers leave free.
      CommItem ag = make(r, "fsdp", "all_gather", dpg, par.tp, weight_bytes, 2 * mb);
      ag.overlapped = true;
      const double half = ag.time_s / 2;
      ag.exposed_s = std::max(0.0, half - fwd_micro * mb) + std::max(0.0, half - bwd_micro * mb);
      out.push_back(ag);
      CommItem rs = make(r, "dp", "reduce_scatter", dpg, par.tp, grad_bytes, 1);
      rs.overlapped = par.dp_overlap;
      const double rs_window = std::max(0.0, bwd_micro - half / mb);
      rs.exposed_s = rs.overlapped ? std::max(0.0, rs.time_s - rs_window) : rs.time_s;
      out.push_back(rs);
    } else {
      // DDP / ZeRO-1/2: the gradient reduction overlaps the last micro-batch's backward (2/3 of it).
      const bool sharded = ts.zero_stage >= 1;
      CommItem g = make(r, "dp", sharded ? "reduce_scatter" : "all_reduce", dpg, par.tp, grad_bytes, 1);
      g.overlapped = par.dp_overlap;
      g.exposed_s = g.overlapped ? std::max(0.0, g.time_s - bwd_micro) : g.time_s;
      out.push_back(g);
      if (sharded) {
        CommItem ag = make(r, "dp", "all_gather", dpg, par.tp, weight_bytes, 1);  // updated params back to every rank
        ag.overlapped = par.dp_overlap;
        ag.exposed_s = ag.overlapped ? std::max(0.0, ag.time_s - fwd_micro) : ag.time_s;
        out.push_back(ag);
      }
    }
  }
  if (par.pp > 1 && m.has_shape()) {
    // One activation forward and one gradient backward per micro-batch per chunk boundary; on
    // the critical path (m·v + p − 1) times each way. Megatron's scatter/gather (Narayanan et al.
    // 2021 §4.1): each tp rank sends 1/tp of the boundary tensor through its own NIC (with
    // sequence parallelism the tensor is already split that way); without sequence parallelism
    // the receiving ranks then all-gather the pieces over NVLink.
    const double tensor_bytes = e * tokens_micro * double(m.hidden);
    const double count = 2 * (mb * double(par.virtual_stages) + double(par.pp) - 1);
    CommItem c = make(r, "pp", "send_recv", 2, par.tp * par.cp * par.dp, tensor_bytes / double(par.tp), count);
    c.exposed_s = c.time_s;
    out.push_back(c);
    if (par.tp > 1 && !ts.sequence_parallel) {
      CommItem g = make(r, "pp", "all_gather", par.tp, 1, tensor_bytes, count);
      g.exposed_s = g.time_s;
      out.push_back(g);
    }
  }
  if (par.cp > 1 && m.has_shape()) {
    // Ring attention: each layer passes this rank's K,V chunk cp−1 times forward, and K,V plus
    // dK,dV backward (Liu et al. 2023; Megatron CP); overlapped with the attention blocks.
    const double kv_bytes = 2 * e * tokens_micro * double(m.kv_heads) * double(m.head_dim) / double(par.tp);
    CommItem c = make(r, "cp", "send_recv", par.cp, par.tp, kv_bytes, L * mb * double(par.cp - 1) * (fwd_passes + 2));
    c.overlapped = par.cp_overlap;
    c.exposed_s = c.overlapped ? std::max(0.0, c.time_s - attention_step) : c.time_s;
    c.in_micro_batch = true;
    out.push_back(c);
  }
  if (par.ep > 1 && m.is_moe()) {
    // Token dispatch and combine all-to-all per MoE layer, forward and backward (GShard); hidden
    // behind another micro-batch's compute when the schedule pairs them (DualPipe).
    const double moe_share = double(p.moe_layers) / double(m.layers);
    const double bytes = e * tokens_micro * double(m.top_k) * double(m.hidden);
    CommItem c = make(r, "ep", "all_to_all", par.ep, par.tp * par.cp, bytes, L * moe_share * mb * 2 * (fwd_passes + 1));
    c.overlapped = par.ep_overlap;
    c.exposed_s = c.overlapped ? std::max(0.0, c.time_s - compute) : c.time_s;
    c.in_micro_batch = true;
    out.push_back(c);
  }
  if (t) {
    for (const CommItem& c : out) {
      const char* key = c.name == "tp"     ? "comm.tp_s"
                        : c.name == "pp"   ? (c.collective == "all_gather" ? "comm.pp_gather_s" : "comm.pp_s")
                        : c.name == "cp"   ? "comm.cp_s"
                        : c.name == "ep"   ? "comm.ep_s"
                        : c.name == "fsdp" ? "comm.fsdp_param_gather_s"
                        : c.collective == "all_gather" ? "comm.dp_param_gather_s"
                                                       : "comm.dp_grad_reduce_s";
      t->add(key, "count × (alpha + factor × bytes / busbw); factor 2(n−1)/n all-reduce, (n−1)/n gather/scatter/all-to-all, 1 send/recv", "s",
             "alpha-beta model; busbw factors from NVIDIA nccl-tests PERFORMANCE.md", c.time_s,
             {{"group", double(c.group)}, {"bytes_per_step", c.bytes_per_step}, {"exposed_s", c.exposed_s}});
    }
  }
  return out;
}

}  // namespace llmc::detail
