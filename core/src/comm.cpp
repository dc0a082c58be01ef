// Communication per training step, alpha-beta per collective on the tier it crosses.
// time = alpha + factor × bytes / busbw, with the nccl-tests factors: all-reduce 2(n−1)/n,
// all-gather / reduce-scatter / all-to-all (n−1)/n, send/recv 1 (NVIDIA/nccl-tests PERFORMANCE.md).
// Rank order is Megatron's: tp innermost, then cp, then dp, then pp.
#include <algorithm>

#include "formulas.h"

namespace llmc::detail {
namespace {

double ring_factor(const std::string& collective, double n) {
  if (n <= 1) return 0;
  if (collective == "all_reduce") return 2 * (n - 1) / n;
  if (collective == "send_recv") return 1;
  return (n - 1) / n;
}

struct Tier {
  const char* name;
  AlphaBeta ab;
};

// A group whose ranks are `stride` apart and `size` wide stays in one node if it spans ≤ a node.
Tier tier_for(const Resolved& r, int64_t size, int64_t stride) {
  const HardwareProfile& prof = r.s.hardware.profile;
  AlphaBeta intra = prof.intra_node, inter = prof.inter_node;
  if (r.s.hardware.intra_node_bandwidth_gbps) intra.busbw_gbps = intra_node_busbw_gbps(*r.s.hardware.intra_node_bandwidth_gbps);
  if (r.s.hardware.inter_node_bandwidth_gbps) inter.busbw_gbps = inter_node_busbw_gbps(*r.s.hardware.inter_node_bandwidth_gbps);
  if (size * stride <= r.gpus_per_node) return {"intra_node", intra};
  return {"inter_node", inter};
}

CommItem make(const Resolved& r, const char* name, const char* collective, int64_t group, int64_t stride, double bytes, double count) {
  CommItem c;
  c.name = name;
  c.collective = collective;
  c.group = group;
  const Tier tier = tier_for(r, group, stride);
  c.tier = tier.name;
  c.bytes_per_step = bytes * count;
  const double bw = tier.ab.busbw_gbps * 1e9;
  c.time_s = count * (tier.ab.alpha_s + (bw > 0 ? ring_factor(collective, double(group)) * bytes / bw : 0));
  return c;
}

}  // namespace

double compute_efficiency(const Resolved& r) {
  const HardwareSpec& hw = r.s.hardware;
  return hw.compute_efficiency > 0 ? hw.compute_efficiency : hw.profile.compute_efficiency;
}

double compute_seconds(const Resolved& r, const FlopCounts& f) {
  const HardwareSpec& hw = r.s.hardware;
  const double eff = compute_efficiency(r);
  const double peak = hw.gpu.peak_tflops(r.compute_dtype) * 1e12;
  const double flops_per_gpu = f.hardware_per_token * r.s.training.global_batch_tokens / double(r.gpu_count);
  return flops_per_gpu / (peak * eff);
}

std::vector<CommItem> comm_per_step(const Resolved& r, const ParamCounts& p, const FlopCounts& f, Trace* t) {
  std::vector<CommItem> out;
  const ParallelSpec& par = r.s.parallel;
  const TrainingSpec& ts = r.s.training;
  const ModelSpec& m = r.m;
  const double e = ts.precision == Precision::fp32 ? 4.0 : 2.0;
  const double compute = compute_seconds(r, f);
  const double mb = double(r.micro_batches);
  const double per_micro = compute / mb;
  const double tokens_micro = double(ts.micro_batch) * double(ts.seq_len) / double(par.cp);
  const double L = double(r.layers_per_stage);
  const double fwd_passes = ts.recompute == Recompute::full ? 2 : 1;

  if (par.tp > 1 && m.has_shape()) {
    // Two all-reduces per layer forward (after attention and MLP) and two in backward; with SP
    // each becomes all-gather + reduce-scatter with the same bus volume (Korthikanti 2022 §4.2.2).
    const double bytes = e * tokens_micro * double(m.hidden);
    CommItem c = make(r, "tp", "all_reduce", par.tp, 1, bytes, L * mb * (2 * fwd_passes + 2));
    c.overlapped = par.tp_overlap;
    c.exposed_s = c.overlapped ? std::max(0.0, c.time_s - compute) : c.time_s;
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
      // reduce-scatter gradients; prefetch overlaps them with compute (Zhao et al. 2023).
      CommItem ag = make(r, "fsdp", "all_gather", dpg, par.tp, weight_bytes, 2 * mb);
      ag.overlapped = true;
      ag.exposed_s = std::max(0.0, ag.time_s - compute);
      out.push_back(ag);
      CommItem rs = make(r, "dp", "reduce_scatter", dpg, par.tp, grad_bytes, 1);
      rs.overlapped = par.dp_overlap;
      rs.exposed_s = rs.overlapped ? std::max(0.0, rs.time_s - per_micro * 2.0 / 3.0) : rs.time_s;
      out.push_back(rs);
    } else {
      // DDP / ZeRO-1/2: the gradient reduction overlaps the last micro-batch's backward (2/3 of it).
      const bool sharded = ts.zero_stage >= 1;
      CommItem g = make(r, "dp", sharded ? "reduce_scatter" : "all_reduce", dpg, par.tp, grad_bytes, 1);
      g.overlapped = par.dp_overlap;
      g.exposed_s = g.overlapped ? std::max(0.0, g.time_s - per_micro * 2.0 / 3.0) : g.time_s;
      out.push_back(g);
      if (sharded) {
        CommItem ag = make(r, "dp", "all_gather", dpg, par.tp, weight_bytes, 1);  // updated params back to every rank
        ag.overlapped = par.dp_overlap;
        ag.exposed_s = ag.overlapped ? std::max(0.0, ag.time_s - per_micro / 3.0) : ag.time_s;
        out.push_back(ag);
      }
    }
  }
  if (par.pp > 1 && m.has_shape()) {
    // One activation forward and one gradient backward per micro-batch per chunk boundary; on
    // the critical path (m·v + p − 1) times each way.
    const double rep = ts.sequence_parallel ? double(par.tp) : 1.0;
    const double bytes = e * tokens_micro * double(m.hidden) / rep;
    const double count = 2 * (mb * double(par.virtual_stages) + double(par.pp) - 1);
    CommItem c = make(r, "pp", "send_recv", 2, par.tp * par.cp * par.dp, bytes, count);
    c.exposed_s = c.time_s;
    out.push_back(c);
  }
  if (par.cp > 1 && m.has_shape()) {
    // Ring attention: each layer passes this rank's K,V chunk cp−1 times forward, and K,V plus
    // dK,dV backward (Liu et al. 2023; Megatron CP); overlapped with the attention blocks.
    const double kv_bytes = 2 * e * tokens_micro * double(m.kv_heads) * double(m.head_dim) / double(par.tp);
    CommItem c = make(r, "cp", "send_recv", par.cp, par.tp, kv_bytes, L * mb * double(par.cp - 1) * (fwd_passes + 2));
    c.overlapped = par.cp_overlap;
    const double attn_share = f.hardware_per_token > 0 ? f.attention_per_token / f.model_per_token : 0;
    c.exposed_s = c.overlapped ? std::max(0.0, c.time_s - compute * attn_share) : c.time_s;
    out.push_back(c);
  }
  if (par.ep > 1 && m.is_moe()) {
    // Token dispatch and combine all-to-all per MoE layer, forward and backward (GShard).
    const double moe_share = double(p.moe_layers) / double(m.layers);
    const double bytes = e * tokens_micro * double(m.top_k) * double(m.hidden);
    CommItem c = make(r, "ep", "all_to_all", par.ep, par.tp * par.cp, bytes, L * moe_share * mb * 2 * (fwd_passes + 1));
    c.exposed_s = c.time_s;
    out.push_back(c);
  }
  if (t) {
    for (const CommItem& c : out) {
      const char* key = c.name == "tp"     ? "comm.tp_s"
                        : c.name == "pp"   ? "comm.pp_s"
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
