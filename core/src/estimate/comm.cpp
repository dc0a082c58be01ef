// Communication per training step: each collective a step runs (tp, cp, ep, pp, dp, FSDP), its
// bytes and calls, the tier it crosses and what overlap hides; comm_time.cpp prices each one.
// Rank order is Megatron's: tp innermost, then cp, then dp, then pp.
#include <algorithm>
#include <cmath>
#include <string_view>

#include "estimate/comm_time.h"
#include "estimate/compute_times.h"
#include "inputs/pipeline_split.h"
#include "estimate/placement.h"
#include "estimate/precision.h"
#include "estimate/schedule.h"

namespace llmc::detail {
namespace {

// The data-parallel gradient bucket in MB: the user's, or the framework's default: Megatron-core
// DistributedDataParallel's max(40M, 1M × dp) parameters of the gradient dtype under fused kernels
// (megatron/core/distributed/distributed_data_parallel.py), PyTorch DDP's bucket_cap_mb = 25 under
// eager ones.
double dp_bucket_mb(const Resolved& r) {
  if (r.s.parallel.dp_bucket_mb > 0) return r.s.parallel.dp_bucket_mb;
  if (!r.s.training.fused_elementwise) return 25;
  return std::max(40e6, 1e6 * double(r.s.parallel.dp * r.s.parallel.cp)) * bytes_of(r.grad_dtype) / 1e6;
}

// `count` calls of one collective of `bytes` (per rank) that takes `once` on `tier`.
CommItem item(const char* name, const char* collective, int64_t group, const char* tier, const RingTime& once,
              double bytes, double count) {
  CommItem c;
  c.name = name;
  c.collective = collective;
  c.group = group;
  c.tier = tier;
  c.bytes_per_step = bytes * count;
  c.calls = count;
  c.latency_s = once.latency_s;
  c.time_s = count * once.seconds;
  return c;
}

CommItem make(const Resolved& r, const char* name, const char* collective, int64_t group, int64_t stride, double bytes,
              double count) {
  const char* tier = "intra_node";
  const RingTime once = collective_seconds(r, collective, group, stride, bytes, &tier);
  return item(name, collective, group, tier, once, bytes, count);
}

// Expert-parallel overlap pairs one micro-batch's forward with another's backward on a compute
// and a communication stream (Megatron-core's combined 1F1B, model_chunk_schedule_plan.py
// schedule_layer_1f1b; DeepSeek-V3's DualPipe), and each micro-batch's own chain stays serial: a
// pair lasts at least max(forward + backward, the all-to-alls, forward + its all-to-alls, backward
// + its). A schedule that splits the weight gradients off (zero bubble, DualPipe) runs them, half
// of backward, while its own all-to-all is in flight. The warm-up forwards and cool-down
// backwards have no partner: the micro-batches the first stage runs forward before its first
// backward (schedule.cpp's in_flight: min(m, pp) under 1F1B, p + (p − 1)/v interleaved, all m
// under all-forward-all-backward, which pairs nothing).
struct EpPairing {
  double mb, unpaired, fwd_s, bwd_s, bwd_chain_s, fwd_passes;
  double exposed_s(double step_s) const {
    const double per_mb = step_s / mb;  // a recomputed forward's all-to-alls run in backward
    const double a_fwd = per_mb / (fwd_passes + 1), a_bwd = per_mb - a_fwd;
    const double pair = std::max(std::max(fwd_s + bwd_s, per_mb), std::max(fwd_s + a_fwd, bwd_chain_s + a_bwd));
    return (mb - unpaired) * (pair - fwd_s - bwd_s) + unpaired * per_mb;
  }
};

}  // namespace

std::vector<CommItem> comm_per_step(const Resolved& r, const ParamCounts& p, const StepPlan& plan,
                                    const HeldParams& held, const FlopCounts& f, const ComputeTimes& ct, Trace* t) {
  std::vector<CommItem> out;
  out.reserve(16);  // more than any layout has: one allocation, no regrowth
  const ParallelSpec& par = r.s.parallel;
  const TrainingSpec& ts = r.s.training;
  const ModelSpec& m = r.m;
  const double e = activation_bytes(r);
  // Overlap windows come from the kernel times of the slowest stage (compute_times.cpp); with the
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
  // Layers on the stage the step is timed on: a full one, or with pp = 2 (no middle stage) the
  // larger end stage.
  const double L = par.pp == 2 ? std::max(stage_layers(r, 0), stage_layers(r, 1)) : double(r.layers_per_stage);
  // Forward passes whose collectives run again in backward: full recompute re-runs them all.
  // torchtitan's per-op policy re-runs half of a layer's forward tp traffic: with SP both
  // all-gathers (it saves reduce-scatter outputs), without SP the all-reduce after wo (the one
  // after w2 feeds nothing backward needs); it saves SDPA outputs, so no cp exchange re-runs.
  // With SP that is 6 all-gathers and 4 reduce-scatters per layer, counted as 5 pairs: both
  // collectives move the same bus volume, so the time is the same.
  const double fwd_passes = ts.recompute == Recompute::full ? 2 : 1;
  const double tp_fwd_passes = ts.recompute == Recompute::selective_op ? 1.5 : fwd_passes;

  // MoE layers among this stage's: a routed-only MoE block replaces the MLP's tp collectives with
  // the dispatch below; shared experts are a tensor-parallel MLP of their own (Megatron-core).
  const double moe_share = plan.moe_share;
  if (par.tp > 1 && m.has_shape()) {
    // Two all-reduces per layer forward (after attention and MLP) and two in backward; with SP
    // each becomes all-gather + reduce-scatter with the same bus volume (Korthikanti 2022 §4.2.2),
    // timed as those two collectives: on NVSwitch they run as rings, while a large all-reduce can
    // use NVLink SHARP (8×H100: ring gather/scatter ~362 GB/s busbw, NVLS all-reduce ~479).
    const double bytes = e * tokens_micro * double(m.hidden);
    const double count = L * mb * (tp_fwd_passes + 1) * plan.tp_collectives_per_layer();
    CommItem c = make(r, "tp", ts.sequence_parallel ? "all_gather" : "all_reduce", par.tp, 1, bytes, count);
    if (ts.sequence_parallel) {
      const CommItem rs = make(r, "tp", "reduce_scatter", par.tp, 1, bytes, count);
      c.collective = "all_gather+reduce_scatter";
      c.time_s += rs.time_s;
      c.latency_s += rs.latency_s;  // per call: one all-gather and one reduce-scatter
    }
    // TP overlap (Transformer Engine's userbuffers, Megatron's --tp-comm-overlap; it needs sequence
    // parallelism) splits each all-gather and reduce-scatter into tp chunks exchanged while the
    // GEMM next to it computes on the chunk before (Wang et al. 2022, "Overlap communication with
    // dependent computation via decomposition"): the first chunk cannot hide, and the rest only
    // behind that one GEMM, not behind the rest of the step. Per pair of collectives (pairs per
    // layer from the plan), the window is the pair's two GEMMs (Op::tp_window; the backward's dX
    // GEMMs have the same shapes): exposed = c/k + max(0, c·(k − 1)/k − window). PyTorch's async TP
    // (tp_overlap_method async_tp) fuses no backward reduce-scatter: there its input is the sum of
    // several matmuls' outputs, not one matmul's (pytorch/pytorch#149946), so that half of each
    // backward pair is exposed whole, and only the all-gather half overlaps; with rowwise FP8 it
    // fuses no all-gather either (async_tp_leaves_all_gathers): those halves are exposed whole too.
    c.overlapped = tp_overlap_running(r);
    if (c.overlapped) {
      const double pairs = plan.tp_collectives_per_layer();
      const double window = flat ? fwd_micro / std::max(1.0, L * pairs) : ct.tp_window_s / pairs;
      const double per_pair = c.time_s / count, k = double(par.tp);
      auto exposed = [&](double comm_s) { return comm_s / k + std::max(0.0, comm_s * (k - 1) / k - window); };
      const double bwd_count = L * mb * pairs, fwd_count = count - bwd_count;
      const bool async_tp = async_tp_running(r), gathers_fused = !async_tp_leaves_all_gathers(r);
      const double half = per_pair / 2;
      const double fwd_pair = gathers_fused ? exposed(per_pair) : half + exposed(half);
      const double bwd_pair = !async_tp ? exposed(per_pair) : gathers_fused ? half + exposed(half) : per_pair;
      c.exposed_s = fwd_count * fwd_pair + bwd_count * bwd_pair;
      if (t)
        t->add("comm.tp_exposed_s",
               "fwd_pairs × (AG fused ? e(c) : c/2 + e(c/2)) + bwd_pairs × (async_tp ? (AG fused ? c/2 + e(c/2) : c) : "
               "e(c)); e(x) = x/t + max(0, x(t − 1)/t − W)",
               "s", "Wang et al. 2022; pytorch/pytorch#149946, #149990", c.exposed_s,
               {{"fwd_pairs", fwd_count},
                {"bwd_pairs", bwd_count},
                {"c", per_pair},
                {"t", k},
                {"W", window},
                {"async_tp", async_tp ? 1.0 : 0.0},
                {"all_gathers_fused", gathers_fused ? 1.0 : 0.0}});
    } else {
      c.exposed_s = c.time_s;
    }
    c.in_micro_batch = true;
    out.push_back(std::move(c));
    if (!ts.loss_parallel) {
      // The output layer's vocabulary shards gathered whole on every rank for the loss (forward
      // only: the gradient of a replicated output is sliced back locally), on the last stage.
      const double logits_bytes = e * tokens_micro * double(m.vocab);
      CommItem g = make(r, "tp_logits", "all_gather", par.tp, 1, logits_bytes, mb);
      g.exposed_s = g.time_s;
      g.in_micro_batch = true;
      out.push_back(std::move(g));
    }
  }
  const int64_t dpg = par.dp * par.cp;
  if (dpg > 1) {
    // Parameters of the most loaded GPU (after tp, pp and ep); LoRA reduces only the adapters,
    // and ZeRO-1/2 gather back only what the optimizer updated.
    const bool lora = ts.finetune == Finetune::lora;
    const double trained = lora ? p.trainable / double(par.tp * par.pp) : held.all;
    const double grad_bytes = trained * bytes_of(r.grad_dtype);
    // FP8 parameters (training.fp8_params) are gathered as they are stored: the linear weights in
    // one byte (Megatron's --fp8-param-gather), the rest in weight_dtype.
    const double weight_bytes =
        lora ? trained * bytes_of(r.weight_dtype) : gathered_weight_bytes(r, trained, held.linear);
    // ZeRO-3 shards every weight, LoRA's frozen base too (FSDP wraps the whole model; memory.cpp
    // holds 1/d of it), so its gathers move all of them, the base as stored.
    const double sharded_weight_bytes = gathered_weight_bytes(r, held.all, held.linear);
    // Gradient reductions per step: one per micro-batch, each hiding behind that micro-batch's
    // backward (ZeRO-2/3 keep only their shard, so they cannot wait; DeepSpeed ZeRO-2/3 and FSDP
    // by default), or one after the last (training.grad_reduce; memory.cpp holds whole gradients).
    const double reductions = r.grad_reduce_per_micro_batch ? mb : 1.0;
    // Hybrid sharding (training.zero_shard_group g < dp·cp, HSDP): the ZeRO collectives run
    // inside each group of g consecutive ranks, and each rank's 1/g gradient shard is then
    // all-reduced across the dp·cp/g replicas, ranks g·t apart (PyTorch FSDP HYBRID_SHARD:
    // reduce-scatter in the shard group, all-reduce in the replicate group, both in the
    // post-backward hook, so the all-reduce shares the reduce-scatter's window).
    const int64_t shard = ts.zero_stage >= 1 ? int64_t(zero_shard_groups(r, par.dp).dense) : dpg;
    const int64_t replicas = dpg / shard;
    auto replicate = [&](const CommItem& rs,
                         double window) {  // one all-reduce of 1/shard of each reduce-scatter call's bytes
      CommItem ar = make(r, "hsdp", "all_reduce", replicas, par.tp * shard,
                         rs.bytes_per_step / rs.calls / double(shard), rs.calls);
      ar.overlapped = rs.overlapped;
      ar.exposed_s =
          ar.overlapped
              ? std::max(0.0, reductions * std::max(0.0, (rs.time_s + ar.time_s) / reductions - window) - rs.exposed_s)
              : ar.time_s;
      out.push_back(std::move(ar));
    };
    if (ts.zero_stage >= 3) {
      // FSDP: all-gather parameters before each forward and backward of every micro-batch,
      // reduce-scatter gradients; prefetch overlaps them with compute (Zhao et al. 2023). The
      // forward gathers can hide only behind forward passes, the backward ones behind backward
      // passes, and the reduce-scatter behind what the last backward's gathers leave free. One
      // FSDP unit per transformer layer (the usual wrap policy), so one collective per layer:
      // the same bytes, but each call pays its ring latency (on thousands of GPUs, milliseconds).
      // Without resharding after forward (training.reshard_after_forward = false) a layer's
      // weights stay gathered until its backward: one gather per micro-batch, hidden behind the
      // forwards; with once-per-step gradient reduction they stay for the whole step (PyTorch's
      // pipelining keeps them across micro-batches with the gradient sync: one gather per step).
      const double units = std::max(1.0, L);
      const bool reshard = ts.reshard_after_forward;
      const double rounds = reshard || r.grad_reduce_per_micro_batch ? mb : 1.0;
      CommItem ag = make(r, "fsdp", "all_gather", shard, par.tp, sharded_weight_bytes / units,
                         (reshard ? 2 : 1) * rounds * units);
      ag.overlapped = true;
      const double half = ag.time_s / 2;
      ag.exposed_s = reshard ? std::max(0.0, half - fwd_micro * mb) + std::max(0.0, half - bwd_micro * mb)
                             : std::max(0.0, ag.time_s - fwd_micro * rounds);
      out.push_back(std::move(ag));
      CommItem rs = make(r, "dp", "reduce_scatter", shard, par.tp, grad_bytes / units, units * reductions);
      rs.overlapped = par.dp_overlap;
      const double rs_window = std::max(0.0, bwd_micro - (reshard ? half / mb : 0.0));  // backward gathers first
      rs.exposed_s = rs.overlapped ? reductions * std::max(0.0, rs.time_s / reductions - rs_window) : rs.time_s;
      out.push_back(rs);
      if (replicas > 1) replicate(rs, rs_window);
    } else {
      // DDP / ZeRO-1/2: gradients are reduced in buckets (parallel.dp_bucket_mb) as the backward
      // produces them, each bucket a collective of its own; a bucket can start only when its
      // gradients are ready and the bucket before it is done, and the last one, ready when the
      // backward ends, cannot hide. With n buckets produced evenly over a backward of B, a
      // reduction of t in all is exposed for max(t/n, t − B·(n − 1)/n) (PyTorch DDP, Li et al.
      // 2020, VLDB; Megatron-core's DDP buckets).
      const bool sharded = ts.zero_stage >= 1;
      const double buckets = std::max(1.0, std::ceil(grad_bytes / (dp_bucket_mb(r) * 1e6)));
      CommItem g = make(r, "dp", sharded ? "reduce_scatter" : "all_reduce", shard, par.tp, grad_bytes / buckets,
                        reductions * buckets);
      g.overlapped = par.dp_overlap;
      const double per_reduction = g.time_s / reductions;
      g.exposed_s = g.overlapped ? reductions * std::max(per_reduction / buckets,
                                                         per_reduction - bwd_micro * (buckets - 1) / buckets)
                                 : g.time_s;
      out.push_back(g);
      if (sharded && replicas > 1) replicate(g, bwd_micro);
      if (sharded) {
        // The updated parameters back to every rank of the group: behind the next forward
        // (Megatron's --overlap-param-gather) or waited for after the optimizer step. By broadcasts
        // (parallel.param_gather): each rank's shard from it to all, one call per rank.
        const double calls = par.param_gather == ParamGather::broadcast ? double(shard) : 1.0;
        CommItem ag = make(r, "dp", calls > 1 ? "broadcast" : "all_gather", shard, par.tp, weight_bytes / calls, calls);
        ag.overlapped = par.dp_overlap && par.param_gather_overlap;
        ag.exposed_s = ag.overlapped ? std::max(0.0, ag.time_s - fwd_micro) : ag.time_s;
        if (t)
          t->add("comm.dp_param_gather_exposed_s", "overlapped ? max(0, gather − forward) : gather", "s",
                 "Megatron-core --overlap-param-gather; DeepSpeed ZeRO-1/2", ag.exposed_s,
                 {{"gather", ag.time_s}, {"forward", fwd_micro}, {"overlapped", ag.overlapped ? 1.0 : 0.0}});
        out.push_back(std::move(ag));
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
    const double v = double(par.virtual_stages);
    const double steady = 2 * mb * v, fill_drain = 2 * (double(par.pp) - 1);
    CommItem c = make(r, "pp", "send_recv", 2, par.tp * par.cp * par.dp, tensor_bytes / double(par.tp),
                      steady + fill_drain);
    // Megatron-core's overlap_p2p_comm (interleaved only): in the steady 1F1B phase a chunk's send
    // and the next chunk's receive run beside the chunk computed in between, so each of those
    // transfers hides behind one model chunk's forward (activations) or backward (gradients); the
    // fill and drain transfers have nothing to hide behind (NeMo, "Communication Overlap").
    c.overlapped = par.pp_overlap && par.schedule == Schedule::interleaved && par.virtual_stages > 1;
    auto exposed = [&](const CommItem& x) {
      if (!x.overlapped) return x.time_s;
      const double one = x.time_s / x.calls;
      return fill_drain * one + mb * v * (std::max(0.0, one - fwd_micro / v) + std::max(0.0, one - bwd_micro / v));
    };
    c.exposed_s = exposed(c);
    if (t && c.overlapped)
      t->add("comm.pp_exposed_s", "fill_drain × s + m·v × (max(0, s − forward/v) + max(0, s − backward/v)), s = one send",
             "s", "Megatron-core overlap_p2p_comm; NeMo, \"Communication Overlap\" (fill and drain stay exposed)",
             c.exposed_s,
             {{"fill_drain_sends", fill_drain},
              {"steady_sends", steady},
              {"s", c.time_s / c.calls},
              {"forward_chunk_s", fwd_micro / v},
              {"backward_chunk_s", bwd_micro / v}});
    out.push_back(std::move(c));
    if (par.tp > 1 && !ts.sequence_parallel) {
      CommItem g = make(r, "pp", "all_gather", par.tp, 1, tensor_bytes, steady + fill_drain);
      g.overlapped = out.back().overlapped;
      g.exposed_s = exposed(g);
      out.push_back(std::move(g));
    }
  }
  if (par.cp > 1 && m.has_shape()) {
    // Context parallelism (parallel.cp_method), per layer and pass. p2p: the ring passes this
    // rank's K,V chunk cp − 1 times forward, and K,V plus dK,dV backward (Liu et al. 2023;
    // Megatron CP), each transfer behind one attention block; what a block does not cover is
    // exposed. all_gather: K,V gathered before attention, again for backward, and dK,dV
    // reduce-scattered (Llama 3 §3.3.2), exposed. a2a (Ulysses, Jacobs et al. 2023): Q,K,V in and O
    // out by all-to-all around attention, dO in and dQ,dK,dV out backward, exposed.
    const double kv_bytes = 2 * e * tokens_micro * double(m.kv_heads) * double(m.head_dim) / double(par.tp);
    const double passes = L * mb;
    CommItem c;
    switch (par.cp_method) {
      case CpMethod::p2p: {
        const double steps = double(par.cp - 1);
        c = make(r, "cp", "send_recv", par.cp, par.tp, kv_bytes, passes * steps * (fwd_passes + 2));
        c.overlapped = par.cp_overlap;
        const double one = c.time_s / c.calls;
        const double block_f =
            flat ? attention_step / (2 * passes * double(par.cp)) : ct.attention_fwd_s / double(par.cp);
        const double block_b =
            flat ? attention_step / (2 * passes * double(par.cp)) : ct.attention_bwd_s / double(par.cp);
        c.exposed_s = c.overlapped ? passes * steps *
                                         (fwd_passes * std::max(0.0, one - block_f) + std::max(0.0, 2 * one - block_b))
                                   : c.time_s;
        break;
      }
      case CpMethod::all_gather: {
        c = make(r, "cp", "all_gather", par.cp, par.tp, kv_bytes, passes * (fwd_passes + 1));
        const CommItem rs = make(r, "cp", "reduce_scatter", par.cp, par.tp, kv_bytes, passes);
        c.collective = "all_gather+reduce_scatter";
        c.time_s += rs.time_s;
        c.calls += rs.calls;
        c.bytes_per_step += rs.bytes_per_step;
        c.exposed_s = c.time_s;
        break;
      }
      case CpMethod::a2a: {
        const double a = double(m.heads), kv = double(m.kv_heads), d = double(m.head_dim);
        const double qkv = e * tokens_micro * (a + 2 * kv) * d / double(par.tp),
                     o = e * tokens_micro * a * d / double(par.tp);
        c = make(r, "cp", "all_to_all", par.cp, par.tp, qkv, passes * (fwd_passes + 1));
        const CommItem out_o = make(r, "cp", "all_to_all", par.cp, par.tp, o, passes * (fwd_passes + 1));
        c.time_s += out_o.time_s;
        c.calls += out_o.calls;
        c.bytes_per_step += out_o.bytes_per_step;
        c.exposed_s = c.time_s;
        break;
      }
    }
    c.in_micro_batch = true;
    out.push_back(std::move(c));
  }
  // Each tp rank routes its own 1/tp of the micro-batch's tokens (Megatron-core requires sequence
  // parallelism with MoE and tp; DeepSpeed-MoE splits the tokens over tp ranks before its
  // all-to-all), the same share the layer plan gives the experts, on the busiest expert rank
  // (training.moe_capacity_factor): the collective ends when its largest exchange does.
  const double routed_tokens = ts.moe_capacity_factor * tokens_micro / double(par.tp);
  const double routed_rows = routed_tokens * double(m.top_k);
  const double moe_calls = L * moe_share * mb * (fwd_passes + 1);  // dispatch + combine pairs
  constexpr std::size_t kNone = ~std::size_t(0);
  std::size_t ep_at = kNone, etp_at = kNone;  // the expert items' places in out, if made
  if (par.ep > 1 && m.is_moe()) {
    // Token dispatch and combine all-to-all per MoE layer, forward and backward (GShard); hidden
    // behind another micro-batch's compute when the schedule pairs them (DualPipe). Expert groups
    // put etp innermost, so an ep group's ranks are etp apart (Megatron-core's expert
    // RankGenerator, order tp-cp-ep-dp with cp folded into the expert data-parallel size).
    CommItem c;
    if (par.ep_dispatcher == EpDispatcher::deepep) {
      // Each token once per rank or remote node its copies reach (comm_time.cpp), not once per copy.
      const int64_t per_node = ranks_per_node(r, r.etp);
      const MoeFanout fan = moe_fanout(m, ts.moe_routing, par.ep, per_node);
      const double token_bytes = e * double(m.hidden);
      const char* tier = "intra_node";
      const RingTime once = deepep_seconds(r, par.ep, r.etp, routed_tokens, token_bytes, fan, &tier);
      c = item("ep", "deepep", par.ep, tier, once,
               routed_tokens * (par.ep > per_node ? fan.nodes : fan.ranks) * token_bytes, 2 * moe_calls);
      if (t)
        t->add("comm.ep_reach", "distinct nodes and ranks of the EP group a token's top_k experts are on", "count",
               "random routing: 1 − C(C − X, k)/C(C, k) per unit holding X of the C experts a token can reach; "
               "contiguous: counted over the cycle (docs/formulas.md, \"Expert dispatch\")",
               fan.nodes, {{"ranks", fan.ranks}, {"ep", double(par.ep)}, {"ranks_per_node", double(per_node)}});
    } else {
      c = make(r, "ep", "all_to_all", par.ep, r.etp, e * routed_rows * double(m.hidden), 2 * moe_calls);
    }
    c.exposed_s = c.time_s;
    c.in_micro_batch = true;
    ep_at = out.size();
    out.push_back(std::move(c));
  }
  if (r.etp > 1 && m.is_moe()) {
    // Expert tensor parallelism: the etp ranks of an expert all-gather the tokens before its ffn
    // shards and reduce-scatter the outputs after, forward and backward, on the dispatch's stream
    // (Megatron-core): with ep > 1 the routed copies each received (alltoall dispatcher), with
    // ep = 1 the micro-batch's tokens before they are permuted (allgather dispatcher).
    const double rows = par.ep > 1 ? routed_rows * double(r.etp) : tokens_micro / double(par.tp) * double(r.etp);
    const double bytes = e * rows * double(m.hidden);
    CommItem c = make(r, "etp", "all_gather", r.etp, 1, bytes, moe_calls);
    const CommItem rs = make(r, "etp", "reduce_scatter", r.etp, 1, bytes, moe_calls);
    c.collective = "all_gather+reduce_scatter";
    c.time_s += rs.time_s;
    c.latency_s += rs.latency_s;
    c.exposed_s = c.time_s;
    c.in_micro_batch = true;
    etp_at = out.size();
    out.push_back(std::move(c));
  }
  if (par.ep_overlap && (ep_at != kNone || etp_at != kNone)) {
    // The dispatch and the expert shards' gather/scatter share one communication stream, so they
    // pair with the other micro-batch's compute as one chain; each keeps its share of what shows.
    const EpPairing pair{mb,
                         in_flight(r, r.micro_batches, 0),
                         fwd_micro,
                         bwd_micro,
                         par.schedule == Schedule::zero_bubble ? bwd_micro / 2 : bwd_micro,
                         fwd_passes};
    const double a2a = ep_at != kNone ? out[ep_at].time_s : 0.0;
    const double gather = etp_at != kNone ? out[etp_at].time_s : 0.0;
    const double exposed = pair.exposed_s(a2a + gather);
    for (std::size_t i : {ep_at, etp_at})
      if (i != kNone) {
        out[i].overlapped = true;
        out[i].exposed_s = a2a + gather > 0 ? exposed * out[i].time_s / (a2a + gather) : 0.0;
      }
    if (t)
      t->add("comm.ep_exposed_s",
             "(m − u)·(pair − forward − backward) + u·A, A = (all_to_all + expert_tp) / m; pair = max(forward + "
             "backward, A, forward + A_f, backward_chain + A − A_f), A_f = A / (fwd_passes + 1); u unpaired: the "
             "micro-batches stage 0 runs forward before its first backward",
             "s", "Megatron-core combined 1F1B (schedule_layer_1f1b); DeepSeek-V3 DualPipe", exposed,
             {{"all_to_all", a2a},
              {"expert_tp", gather},
              {"m", mb},
              {"unpaired", pair.unpaired},
              {"forward", fwd_micro},
              {"backward", bwd_micro},
              {"backward_chain", pair.bwd_chain_s},
              {"fwd_passes", fwd_passes}});
  }
  if (t) {
    for (const CommItem& c : out) {
      const bool param_gather = c.collective == "all_gather" || c.collective == "broadcast";
      const char* key = c.name == "tp"          ? "comm.tp_s"
                        : c.name == "tp_logits" ? "comm.tp_logits_gather_s"
                        : c.name == "pp"        ? (c.collective == "all_gather" ? "comm.pp_gather_s" : "comm.pp_s")
                        : c.name == "cp"        ? "comm.cp_s"
                        : c.name == "ep"        ? "comm.ep_s"
                        : c.name == "etp"       ? "comm.etp_s"
                        : c.name == "fsdp"      ? "comm.fsdp_param_gather_s"
                        : c.name == "hsdp"      ? "comm.hsdp_grad_all_reduce_s"
                        : param_gather          ? "comm.dp_param_gather_s"
                                                : "comm.dp_grad_reduce_s";
      t->add(key,
             "calls × (latency + factor × bytes / (busbw × protocol share)); factor 2(n−1)/n all-reduce, (n−1)/n "
             "gather/scatter/all-to-all, 1 send/recv/broadcast; rings: NCCL's base + a hop latency per step on "
             "the fastest protocol (LL, LL128, Simple); others: the tier's alpha",
             "s",
             "busbw factors: NVIDIA nccl-tests PERFORMANCE.md; ring latency and protocols: NVIDIA/nccl "
             "src/graph/tuning.cc",
             c.time_s,
             {{"group", double(c.group)},
              {"calls", c.calls},
              {"latency_per_call_s", c.latency_s},
              {"bytes_per_step", c.bytes_per_step},
              {"exposed_s", c.exposed_s}});
    }
  }
  if (offloads_activations(r)) out.push_back(activation_offload(r, plan, ct, f, t));
  return out;
}

}  // namespace llmc::detail
