// One step as timed kernels (docs/formulas.md "Time model: kernels"): the layer plan's kernels,
// each timed from the hardware profile, composed per micro-batch on the slowest pipeline stage.
#include "estimate/compute_times.h"

#include <algorithm>
#include <cmath>

#include "common/detmath.h"
#include "estimate/layer_plan.h"
#include "inputs/pipeline_split.h"
#include "estimate/placement.h"
#include "inputs/datasheet.h"

namespace llmc::detail {

void OpTally::add_gemm(const KernelTime& k, double times) {
  gemm_s += k.s * times;
  var_s2 += (k.s * times * k.rel_err) * (k.s * times * k.rel_err);
  by_basis[int(k.basis)] += 1;
  kernels += times;
}
void OpTally::add_attention(const KernelTime& k, double times) {
  attention_s += k.s * times;
  var_s2 += (k.s * times * k.rel_err) * (k.s * times * k.rel_err);
  by_basis[int(k.basis)] += 1;
  kernels += times;
}
void OpTally::add_memory(const KernelTime& k, double times) {
  memory_s += k.s * times;
  var_s2 += (k.s * times * k.rel_err) * (k.s * times * k.rel_err);
  by_basis[int(k.basis)] += 1;
  kernels += times;
}
void OpTally::add(const OpTally& o, double times) {
  gemm_s += o.gemm_s * times;
  attention_s += o.attention_s * times;
  memory_s += o.memory_s * times;
  var_s2 += o.var_s2 * times * times;
  kernels += o.kernels * times;
  for (int i = 0; i < 3; ++i) by_basis[i] += o.by_basis[i];
}

double host_issue_s_per_kernel(const Resolved& r) {
  const TrainingSpec& ts = r.s.training;
  const HostIssue& h = r.s.hardware.profile->host_issue;
  auto pick = [](double profile_us, double datasheet_us) {
    return (profile_us > 0 ? profile_us : datasheet_us) * 1e-6;
  };
  switch (ts.kernel_launch) {
    case KernelLaunch::cuda_graphs:
      return 0;
    case KernelLaunch::native:
      return pick(h.native_us, kHostNativeUs);
    case KernelLaunch::python:
      break;
  }
  return ts.fused_elementwise ? pick(h.python_fused_us, kHostPythonFusedUs)
                              : pick(h.python_eager_us, kHostPythonEagerUs);
}

// FP8 training runs its backward GEMMs (dX, dW) with precise accumulation (Transformer Engine's
// split accumulator, torchao's use_fast_accum=False), its forward ones with fast accumulation,
// which profiles measure. On an H100 the precise kernel took 1.04 × the fast one's time (median
// over 99 layer shapes of Llama 3 8B/70B at TP 1-8; gpu/measurements/2026-11-27-*/gemm_recipes.json).
double fp8_backward_gemm_factor(const GpuSpec& gpu) { return gpu.is_hopper() ? 1.04 : 1.0; }

namespace {

using Kind = KernelSpec::Kind;

KernelTime time_of(const KernelProfile& kp, const KernelSpec& k) {
  switch (k.kind) {
    case Kind::gemm: {
      KernelTime t = gemm_time(kp, k.dtype, k.m, k.n, k.k, k.batch);
      if (k.dtype == Dtype::fp8 && k.pass == Pass::bwd) t.s *= fp8_backward_gemm_factor(kp.hw.gpu);
      return t;
    }
    case Kind::attention:
      return attention_time(kp, k.dtype, k.batch, k.q_len, k.kv_len, k.heads, k.kv_heads, k.head_dim, true,
                            k.pass == Pass::bwd, k.backend);
    case Kind::memory:
      break;
  }
  return memory_time(kp, k.mem, k.bytes);
}

void tally(OpTally& t, const KernelSpec& k, const KernelTime& kt) {
  if (k.repeat > 1) {  // back-to-back runs of one kernel, each with its own error, in closed form
    const double n = k.repeat, sd = kt.s * kt.rel_err;
    (k.kind == Kind::gemm ? t.gemm_s : k.kind == Kind::attention ? t.attention_s : t.memory_s) += kt.s * n;
    t.var_s2 += n * sd * sd;
    t.by_basis[int(kt.basis)] += k.repeat;
    t.kernels += n;
    return;
  }
  switch (k.kind) {
    case Kind::gemm:
      t.add_gemm(kt);
      return;
    case Kind::attention:
      t.add_attention(kt);
      return;
    case Kind::memory:
      t.add_memory(kt);
      return;
  }
}

// A plan's kernels by pass: forward, backward, and what the recompute rules in `tags` run in
// backward (forward kernels they re-run, and their own extra kernels).
struct PassTimes {
  OpTally fwd, bwd, rerun;
  double tp_window_s = 0;  // forward GEMMs of the ops next to tensor-parallel collectives
};
PassTimes read(const KernelProfile& kp, const Plan& plan, uint32_t tags) {
  PassTimes t;
  for (const Op& op : plan)
    for (int i = op.first_kernel; i < op.first_kernel + op.kernels; ++i) {
      const KernelSpec& k = plan.kernels[size_t(i)];
      const bool rerun = (k.rerun_by & tags) != 0;
      if (k.pass == Pass::rerun && !rerun) continue;
      const KernelTime kt = time_of(kp, k);
      if (k.pass == Pass::fwd) tally(t.fwd, k, kt);
      if (k.pass == Pass::bwd) tally(t.bwd, k, kt);
      if (rerun) tally(t.rerun, k, kt);
      if (op.tp_window && k.pass == Pass::fwd && k.kind == Kind::gemm) t.tp_window_s += kt.s * k.repeat;
    }
  return t;
}

}  // namespace

ComputeTimes compute_times(const Resolved& r, const ParamCounts& p, const StepPlan& plan, const HeldParams& held) {
  ComputeTimes ct;
  const ModelSpec& m = r.m;
  const TrainingSpec& ts = r.s.training;
  const ParallelSpec& par = r.s.parallel;
  const KernelProfile kp(r.s.hardware);
  ct.host_s_per_kernel = host_issue_s_per_kernel(r);
  const double zero_group = zero_shard_groups(r, par.dp).dense;

  // The optimizer step on this GPU's shard (ZeRO-1+ shards it).
  const double shard = ts.zero_stage >= 1 ? zero_group : 1.0;
  const double local = (ts.finetune == Finetune::lora ? p.trainable / double(par.tp * par.pp) : held.all) / shard;
  Plan optimizer;
  plan_optimizer(optimizer, r, local);
  ct.optimizer = read(kp, optimizer, 0).fwd;

  if (!m.has_shape()) {
    // Size-only model: 6·N FLOPs per token as GEMMs at the profile's rate on square-ish shapes.
    const double tokens_mb = double(ts.micro_batch) * double(ts.seq_len) / double(par.cp);
    const double flops = 2 * p.active / double(par.tp * par.pp) * tokens_mb;
    // det_pow, not std::cbrt: libm cube roots differ in the last bit between glibc and wasm's musl.
    const double side = det_pow(std::max(flops / 2, 1.0), 1.0 / 3.0);
    const KernelTime k = gemm_time(kp, r.compute_dtype, side, side, side);
    ct.stage_fwd.add_gemm(k);
    ct.stage_bwd.add_gemm(k, 2);
    return ct;
  }

  const uint32_t tags = recompute_tags(r);
  const double moe_share = plan.moe_share;
  PassTimes dense, moe;  // each read only when some layer is of its kind (Mixtral has no dense layer)
  if (plan.has_dense()) dense = read(kp, plan.dense, tags);
  if (plan.has_moe()) moe = read(kp, plan.moe, tags);
  OpTally layer_fwd, layer_bwd, layer_rerun;
  layer_fwd.add(dense.fwd, 1 - moe_share);
  layer_bwd.add(dense.bwd, 1 - moe_share);
  layer_rerun.add(dense.rerun, 1 - moe_share);
  if (moe_share > 0) {
    layer_fwd.add(moe.fwd, moe_share);
    layer_bwd.add(moe.bwd, moe_share);
    layer_rerun.add(moe.rerun, moe_share);
  }
  ct.tp_window_s = (1 - moe_share) * dense.tp_window_s + moe_share * moe.tp_window_s;
  ct.attention_fwd_s = layer_fwd.attention_s;
  ct.attention_bwd_s = layer_bwd.attention_s;
  // Full recompute re-runs the whole forward of the layers it covers.
  const double L_stage = double(r.layers_per_stage);
  const double recomputed_layers =
      ts.recompute == Recompute::full ? (ts.recompute_layers > 0 ? double(ts.recompute_layers) : L_stage) : 0;
  const PassTimes emb = read(kp, plan.embedding, 0), head = read(kp, plan.head, 0);

  // The slowest stage: with pp = 1 one stage holds everything; otherwise the layers split as
  // evenly as they go, the first and last stages taking the shortfall when pp does not divide
  // them (Llama 3 §3.3.2) and carrying the embedding and the head.
  auto stage = [&](double layers, bool first, bool last, OpTally& f, OpTally& bw) {
    f.add(layer_fwd, layers);
    bw.add(layer_bwd, layers);
    bw.add(layer_fwd, std::min(recomputed_layers, layers));
    bw.add(layer_rerun, layers);
    if (first) f.add(emb.fwd, 1), bw.add(emb.bwd, 1);
    if (last) f.add(head.fwd, 1), bw.add(head.bwd, 1);
  };
  const int64_t pp = par.pp;
  if (pp == 1) {
    stage(L_stage, true, true, ct.stage_fwd, ct.stage_bwd);
    return ct;
  }
  OpTally f_mid, b_mid, f_first, b_first, f_last, b_last;
  stage(L_stage, false, false, f_mid, b_mid);
  stage(stage_layers(r, 0), true, false, f_first, b_first);
  stage(stage_layers(r, pp - 1), false, true, f_last, b_last);
  const double mid = pp > 2 ? f_mid.total() + b_mid.total() : 0;
  const double first = f_first.total() + b_first.total(), last = f_last.total() + b_last.total();
  if (mid >= first && mid >= last)
    ct.stage_fwd = f_mid, ct.stage_bwd = b_mid;
  else if (first >= last)
    ct.stage_fwd = f_first, ct.stage_bwd = b_first;
  else
    ct.stage_fwd = f_last, ct.stage_bwd = b_last;
  return ct;
}

}  // namespace llmc::detail
