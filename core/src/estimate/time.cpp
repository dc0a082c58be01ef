// Step time and totals. Four bases, in order of precedence:
//  mfu:                step = model FLOPs per step / (gpus × peak × MFU)   (seed 002: "40% utilization")
//  achieved_tflops:    step = model FLOPs per step / (gpus × achieved)     (seeds 000/003: "1000/400 TFLOPS")
//  compute_efficiency: step = hardware FLOPs / (gpus × peak × efficiency) + bubble + exposed comm
//  profile:            step = the slowest stage's kernels × micro-batches + optimizer + bubble +
//                      exposed comm, every kernel timed from the hardware profile (compute_times.cpp)
// The user's MFU is end-to-end by definition (PaLM appendix B), so in the first two bases the
// bubble and communication are shown as parts of the given step time, not added to it.
#include <algorithm>
#include <cmath>

#include "estimate/compute_times.h"
#include "estimate/placement.h"
#include "llmc/error_bars.h"
#include "estimate/schedule.h"

namespace llmc::detail {

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

namespace {

// The attention term names the kernel that ran it (training.attention_backend, resolved): one
// literal per backend, as a term's source is a static string.
const char* attention_source(AttentionBackend b) {
#define LLMC_FUSED_SOURCE(KERNEL, DATASHEET)                                                                \
  "kernel " KERNEL ": the profile's table for it, else its fused table, else " DATASHEET \
  "; exponentials at SMs × 16 × boost clock (docs/formulas.md, Attention backends)"
  switch (b) {
    case AttentionBackend::fa2:
      return LLMC_FUSED_SOURCE("fa2 (FlashAttention-2)", "the datasheet fractions");
    case AttentionBackend::fa3:
      return LLMC_FUSED_SOURCE("fa3 (FlashAttention-3)", "the datasheet fractions");
    case AttentionBackend::cudnn:
      return LLMC_FUSED_SOURCE("cudnn (cuDNN fused attention)", "the datasheet fractions");
    case AttentionBackend::triton:
      return LLMC_FUSED_SOURCE("triton (FlashAttention in Triton)",
                               "FlashAttention-2's fractions ÷ 1.4 forward, ÷ 2 backward");
    case AttentionBackend::flex:
      return LLMC_FUSED_SOURCE("flex (FlexAttention)", "its authors' shares of FlashAttention-2 and -3");
    case AttentionBackend::sdpa_math:
    case AttentionBackend::eager:
    case AttentionBackend::auto_:
      break;
  }
#undef LLMC_FUSED_SOURCE
  return "unfused attention: its batched GEMMs count in time.gemm_s and its softmax in time.memory_bound_s "
         "(docs/formulas.md, Unfused attention)";
}

// Kernels, communication and the schedule composed into a step, then the totals.
TimeEstimate time_per_step(const Resolved& r, const FlopCounts& f, const ComputeTimes& ct,
                           const std::vector<CommItem>& comm, double tokens, Trace* t,
                           std::vector<std::string>& warnings) {
  TimeEstimate te;
  Trace scratch(false);
  Trace& tr = t ? *t : scratch;
  const HardwareSpec& hw = r.s.hardware;
  const ParallelSpec& par = r.s.parallel;
  const double gpus = double(r.gpu_count);
  const double tokens_step = r.s.training.global_batch_tokens;
  te.peak_tflops = hw.gpu.peak_tflops(r.compute_dtype);
  const double peak = te.peak_tflops * 1e12;
  const double model_step = f.model_per_token * tokens_step;
  const double hw_step = f.hardware_per_token * tokens_step;

  // Pipeline bubble relative to the ideal compute time (Narayanan et al. 2021; seed 004 (p−1)/m).
  const double p = double(par.pp), m = double(r.micro_batches);
  const double bubble = bubble_fraction(r);
  te.bubble_fraction =
      tr.add("time.bubble_fraction", "(p − 1) / m  (interleaved: ÷ v; zero bubble H1: ÷ 3)", "",
             "Narayanan et al. 2021 §2.2", bubble, {{"p", p}, {"m", m}, {"v", double(par.virtual_stages)}});

  double exposed = 0, slot_comm = 0, hidden = 0;  // slot_comm: exposed communication inside the micro-batches
  for (const CommItem& c : comm) {
    exposed += c.exposed_s;
    if (c.in_micro_batch) slot_comm += c.exposed_s;
    if (c.overlapped && c.tier != "host") hidden += c.time_s - c.exposed_s;  // host copies use copy engines
  }
  // Overlap is not free: while a collective runs behind compute, its NCCL kernels hold nccl_sms
  // SMs that compute kernels cannot use (NCCL CTAs do not share an SM), so the compute the
  // collective hides behind takes hidden × nccl_sms / sm_count longer.
  const double sm_share = hw.gpu.sm_count > 0 ? std::min(1.0, double(hw.nccl_sms) / double(hw.gpu.sm_count)) : 0.0;
  const double contention = hidden * sm_share;
  const double compute = compute_seconds(r, f);
  // The step's error bar, by basis (below): the profile's kernel spread and the model's own
  // out-of-sample error in this kind of run (llmc/error_bars.h), which is asymmetric.
  double kernels_rel = 0, model_low = 0, model_high = 0, rel_low = 0, rel_high = 0;
  const std::string regime = error_regime(r);
  const ErrorBar& bar = error_bar(regime);
  auto model_error = [&] {
    model_low = std::max(0.0, 1 - bar.low);
    model_high = std::max(0.0, bar.high - 1);
    if (bar.regime != regime)
      warnings.push_back("outside the validated regimes: fewer than " + std::to_string(kMinRegimeRows) +
                         " published runs of this kind (" + regime + ") were validated; the time range is that of " +
                         (bar.regime == "all" ? std::string("all runs") : bar.regime + " runs"));
    else if (bar.max_gpus > 0 && r.gpu_count > 2 * bar.max_gpus)
      warnings.push_back("outside the validated regimes: the largest validated " + regime + " run used " +
                         std::to_string(bar.max_gpus) + " GPUs; the time range is extrapolated to " +
                         std::to_string(r.gpu_count));
  };
  if (hw.mfu > 0 || hw.achieved_tflops > 0) {
    const double rate = hw.mfu > 0 ? hw.mfu * peak : hw.achieved_tflops * 1e12;
    te.basis = hw.mfu > 0 ? "mfu" : "achieved_tflops";
    te.step_s = tr.add("time.step_s", "model_flops_per_step / (gpus × rate), rate = MFU × peak or achieved TFLOP/s",
                       "s", "definition of MFU (Chowdhery et al. 2022, appendix B)", model_step / (gpus * rate),
                       {{"model_flops_per_step", model_step}, {"gpus", gpus}, {"rate_flops", rate}});
    // Share the given step time out: bubble and comm as modelled, the rest is compute.
    te.comm_exposed_s = exposed;
    te.compute_s = te.step_s / (1 + bubble) - exposed;
    te.bubble_s = te.step_s - te.step_s / (1 + bubble);
    if (te.compute_s <= 0) {
      warnings.push_back("the given " + te.basis +
                         " leaves no time for compute once the pipeline bubble and exposed communication are counted; "
                         "it is higher than this layout allows");
      te.compute_s = 0;
    }
  } else if (hw.compute_efficiency > 0) {
    te.basis = "compute_efficiency";
    const double eff = compute_efficiency(r);
    te.comm_contention_s = contention;
    te.compute_s = tr.add("time.compute_s", "hardware_flops_per_step / (gpus × peak × efficiency) + comm_contention",
                          "s", "hardware.compute_efficiency (user)", compute + contention,
                          {{"hardware_flops_per_step", hw_step},
                           {"gpus", gpus},
                           {"peak_flops", peak},
                           {"efficiency", eff},
                           {"comm_contention_s", contention}});
    te.bubble_s = (compute + slot_comm) * bubble;  // idle slots: no collective runs beside them
    te.comm_exposed_s = exposed;
    te.step_s = tr.add("time.step_s", "compute + bubble + exposed communication", "s",
                       "llmcalc time model (docs/formulas.md)", te.compute_s + te.bubble_s + te.comm_exposed_s,
                       {{"compute_s", te.compute_s}, {"bubble_s", te.bubble_s}, {"comm_exposed_s", te.comm_exposed_s}});
    model_error();
    rel_low = model_low, rel_high = model_high;
  } else {
    te.basis = "profile";
    const double fwd = ct.stage_fwd.total(), bwd = ct.stage_bwd.total();
    // A micro-batch (and the optimizer step) lasts at least as long as the host takes to issue its
    // kernels: the GPU runs ahead of nothing (docs/formulas.md, "Host issue").
    const double host_mb = ct.host_micro_batch_s(), host_opt = ct.host_optimizer_s();
    const double slot = std::max(fwd + bwd, host_mb), opt_s = std::max(ct.optimizer.memory_s, host_opt);
    const double step_kernels = m * (ct.stage_fwd.kernels + ct.stage_bwd.kernels) + ct.optimizer.kernels;
    te.host_issue_s = tr.add("time.host_issue_s", "kernels of the step × host µs per kernel", "s",
                             "profile host_issue, else measured (docs/formulas.md, Host issue)", m * host_mb + host_opt,
                             {{"kernels", step_kernels}, {"host_us_per_kernel", ct.host_s_per_kernel * 1e6}});
    // The GPU idles while the host issues kernels shorter than issuing them.
    te.host_wait_s = tr.add(
        "time.host_wait_s", "m × (slot − kernels) + the optimizer's", "s", "slot = max(kernels, host issue)",
        m * (slot - (fwd + bwd)) + (opt_s - ct.optimizer.memory_s), {{"slot_s", slot}, {"kernels_s", fwd + bwd}});
    OpTally step;  // the slowest stage over all micro-batches
    step.add(ct.stage_fwd, m);
    step.add(ct.stage_bwd, m);
    te.gemm_s =
        tr.add("time.gemm_s",
               "m × Σ GEMMs of a micro-batch on the slowest stage (forward, dX, dW, recompute); routed experts: the "
               "busiest rank's share × moe_capacity_factor; LoRA: six GEMMs per adapter; FP8 dX, dW × "
               "fp8_backward_gemm_factor",
               "s", "hardware profile gemm table / fit (docs/formulas.md, Kernel times; MoE load; LoRA)", step.gemm_s,
               {{"m", m},
                {"moe_capacity_factor", r.s.training.moe_capacity_factor},
                {"lora_rank", r.s.training.finetune == Finetune::lora ? double(r.s.training.lora_rank) : 0.0},
                {"fp8_backward_gemm_factor", r.compute_dtype == Dtype::fp8 ? fp8_backward_gemm_factor(hw.gpu) : 1.0}});
    te.attention_s = tr.add("time.attention_s",
                            "m × Σ attention kernels (fused flash: FLOPs / matmul rate + score elements / exponential "
                            "rate, no faster than its floor per query row and head: t_row + t_dim × d; or "
                            "QKᵀ/softmax/PV); packed documents: document_tokens long",
                            "s", attention_source(r.attention_backend), step.attention_s,
                            {{"m", m},
                             {"gpu_exp_tera_per_s", hw.gpu.exp_tera_per_s()},
                             {"document_tokens", double(r.s.training.document_tokens)}});
    const CopyOuts copy_outs = fsdp2_copy_outs(r);
    te.memory_bound_s =
        tr.add("time.memory_bound_s",
               "m × Σ bytes / achieved bandwidth + launch: norms, activations, rotary, residuals, loss, FP8 casts "
               "(fp8_casts_per_operand per GEMM operand), FSDP2's copy-outs (fsdp2_copy_outs per micro-batch)",
               "s", "hardware profile memory_bound table / fit; FP8 casts of either recipe; FSDP2 (docs/formulas.md)",
               step.memory_s,
               {{"m", m},
                {"fp8_casts_per_operand", r.s.training.fp8_recipe == Fp8Recipe::rowwise ? 2.0 : 1.0},
                {"fsdp2_copy_outs", copy_outs.fwd + copy_outs.bwd}});
    te.optimizer_s =
        tr.add("time.optimizer_s", "local_params × bytes per param moved by the optimizer / achieved bandwidth", "s",
               "hardware profile memory_bound.adamw (fit: HBM)", ct.optimizer.memory_s, {});
    const int* nb = step.by_basis;
    te.kernels_from_table = nb[0] + ct.optimizer.by_basis[0];
    te.kernels_from_fit = nb[1] + ct.optimizer.by_basis[1];
    te.kernels_from_spec = nb[2] + ct.optimizer.by_basis[2];
    te.comm_contention_s = contention;
    te.compute_s =
        tr.add("time.compute_s",
               "m × (forward + backward of one micro-batch on the slowest stage) + optimizer + comm_contention + "
               "host_wait",
               "s",
               "kernel times from the hardware profile: time.gemm_s, attention_s, memory_bound_s; comm_contention_s; "
               "host_wait_s",
               m * (fwd + bwd) + ct.optimizer.memory_s + contention + te.host_wait_s,
               {{"m", m},
                {"forward_s", fwd},
                {"backward_s", bwd},
                {"optimizer_s", ct.optimizer.memory_s},
                {"comm_contention_s", contention},
                {"host_wait_s", te.host_wait_s},
                {"kernels_table", double(te.kernels_from_table)},
                {"kernels_fit", double(te.kernels_from_fit)},
                {"kernels_spec", double(te.kernels_from_spec)}});
    // The bubble in time: (p − 1) micro-batch slots, ÷ v interleaved, ÷ 3 for zero bubble H1;
    // a slot is one micro-batch's kernels plus the tp/cp/ep communication it waits on
    // (Narayanan et al. 2021 §2.2: bubble = (p − 1)·(t_f + t_b), t_f and t_b whole stage times).
    te.bubble_s = (m * slot + slot_comm) * bubble;
    te.comm_exposed_s = exposed;
    te.step_s = tr.add("time.step_s", "compute + bubble + exposed communication", "s",
                       "llmcalc time model (docs/formulas.md)", te.compute_s + te.bubble_s + te.comm_exposed_s,
                       {{"compute_s", te.compute_s}, {"bubble_s", te.bubble_s}, {"comm_exposed_s", te.comm_exposed_s}});
    // Error bar: the kernels' measured spread (independent kernels add in quadrature, scaled
    // with the bubble) and the model's validated error.
    kernels_rel = te.step_s > 0 ? std::sqrt(step.var_s2 + ct.optimizer.var_s2) * (1 + bubble) / te.step_s : 0;
    model_error();
    rel_low = std::sqrt(kernels_rel * kernels_rel + model_low * model_low);
    rel_high = std::sqrt(kernels_rel * kernels_rel + model_high * model_high);
  }
  // One sigma, in every basis: the profile's kernel spread and the model's validated error; the
  // model's error alone on a flat efficiency; none for a given MFU or TFLOP/s (the user's rate).
  const char* range_source =
      "profile p10/p90 per kernel; model: 16th-84th percentile of measured / predicted step time of the regime's "
      "published runs, each left out with its family (docs/validation.md)";
  rel_low = std::min(rel_low, 0.9);  // a range, never a step of zero
  te.step_low_s = tr.add("time.step_low_s",
                         "step_s × (1 − rel_low); rel_low = √(kernel_rel² + (1 − model_low)²) (profile basis), 1 − "
                         "model_low (compute_efficiency), 0 (mfu / achieved_tflops)",
                         "s", range_source, te.step_s * (1 - rel_low),
                         {{"step_s", te.step_s},
                          {"kernel_rel", kernels_rel},
                          {"model_low", 1 - model_low},
                          {"regime_runs", double(bar.rows)}});
  te.step_high_s = tr.add("time.step_high_s",
                          "step_s × (1 + rel_high); rel_high = √(kernel_rel² + (model_high − 1)²) (profile basis), "
                          "model_high − 1 (compute_efficiency), 0 (mfu / achieved_tflops)",
                          "s", range_source, te.step_s * (1 + rel_high),
                          {{"step_s", te.step_s},
                           {"kernel_rel", kernels_rel},
                           {"model_high", 1 + model_high},
                           {"regime_runs", double(bar.rows)}});
  tr.add("time.bubble_s",
         "(micro-batch kernels + exposed tp/cp/ep communication) × bubble_fraction; step − step/(1 + bubble_fraction) "
         "(MFU basis)",
         "s", "Narayanan et al. 2021 §2.2", te.bubble_s, {{"bubble_fraction", bubble}, {"slot_comm_s", slot_comm}});
  tr.add("time.comm_exposed_s", "Σ exposed communication", "s", "comm.* terms", te.comm_exposed_s, {});
  tr.add("time.comm_contention_s", "Σ hidden communication × nccl_sms / sm_count (part of compute_s)", "s",
         "NCCL runs one CTA per channel on an SM of its own, 16 SMs on a DGX-class node (NVIDIA/nccl#689, sjeaugey); "
         "hardware.nccl_sms, gpu sm_count",
         te.comm_contention_s,
         {{"hidden_comm_s", hidden}, {"nccl_sms", double(hw.nccl_sms)}, {"sm_count", double(hw.gpu.sm_count)}});
  te.tokens_per_s = tr.add("time.tokens_per_s", "global_batch_tokens / step_s", "tokens/s", "definition of throughput",
                           tokens_step / te.step_s, {{"global_batch_tokens", tokens_step}, {"step_s", te.step_s}});
  te.tokens_per_gpu_per_step = tr.add("time.tokens_per_gpu_per_step", "global_batch_tokens / gpus", "tokens",
                                      "definition: the tokens of a step shared over the GPUs", tokens_step / gpus,
                                      {{"global_batch_tokens", tokens_step}, {"gpus", gpus}});
  te.steps = tr.add("time.steps", "D / global_batch_tokens (not rounded)", "steps",
                    "definition: tokens per step = global batch (sequences) × sequence length", tokens / tokens_step,
                    {{"D", tokens}, {"global_batch_tokens", tokens_step}});
  te.total_s = tr.add("time.total_s", "steps × step_s", "s", "equals C / (GPUs × throughput per GPU)",
                      te.steps * te.step_s, {{"steps", te.steps}, {"step_s", te.step_s}});
  te.total_days =
      tr.add("time.total_days", "total_s / 86400", "days", "definition", te.total_s / 86400, {{"total_s", te.total_s}});
  te.gpu_hours = tr.add("time.gpu_hours", "total_s × gpus / 3600", "GPU-hours", "definition", te.total_s * gpus / 3600,
                        {{"total_s", te.total_s}, {"gpus", gpus}});
  const double price = hw.price_per_gpu_hour_usd.value_or(hw.gpu.price_per_gpu_hour_usd);
  te.cost_usd =
      tr.add("time.cost_usd", "gpu_hours × price_per_gpu_hour", "USD",
             "price: hardware.price_per_gpu_hour_usd or the GPU catalog (core/data/gpus/<id>.json sources.price)",
             te.gpu_hours * price, {{"gpu_hours", te.gpu_hours}, {"price_per_gpu_hour", price}});
  // The step's error bar carried to the totals (every time carries a range, issue 5).
  te.total_days_low = tr.add("time.total_days_low", "steps × step_low_s / 86400", "days", "time.step_low_s",
                             te.steps * te.step_low_s / 86400, {{"steps", te.steps}, {"step_low_s", te.step_low_s}});
  te.total_days_high =
      tr.add("time.total_days_high", "steps × step_high_s / 86400", "days", "time.step_high_s",
             te.steps * te.step_high_s / 86400, {{"steps", te.steps}, {"step_high_s", te.step_high_s}});
  te.cost_usd_low = tr.add("time.cost_usd_low", "total_days_low × 24 × gpus × price_per_gpu_hour", "USD",
                           "time.step_low_s", te.total_days_low * 24 * gpus * price,
                           {{"total_days_low", te.total_days_low}, {"gpus", gpus}, {"price_per_gpu_hour", price}});
  te.cost_usd_high = tr.add("time.cost_usd_high", "total_days_high × 24 × gpus × price_per_gpu_hour", "USD",
                            "time.step_high_s", te.total_days_high * 24 * gpus * price,
                            {{"total_days_high", te.total_days_high}, {"gpus", gpus}, {"price_per_gpu_hour", price}});
  te.energy_kwh = tr.add("time.energy_kwh", "gpu_hours × TDP / 1000 (GPUs only at TDP; no host, network or cooling)",
                         "kWh", "assumption: GPUs draw TDP", te.gpu_hours * hw.gpu.tdp_w / 1000,
                         {{"gpu_hours", te.gpu_hours}, {"tdp_w", hw.gpu.tdp_w}});
  te.mfu = tr.add("time.mfu", "model_flops_per_step / (step_s × gpus × peak)", "fraction",
                  "Chowdhery et al. 2022 appendix B", model_step / (te.step_s * gpus * peak),
                  {{"model_flops_per_step", model_step}, {"step_s", te.step_s}, {"gpus", gpus}, {"peak_flops", peak}});
  te.hfu =
      tr.add("time.hfu", "hardware_flops_per_step / (step_s × gpus × peak)", "fraction", "Korthikanti et al. 2022 §6",
             hw_step / (te.step_s * gpus * peak), {{"hardware_flops_per_step", hw_step}, {"step_s", te.step_s}});
  te.achieved_model_tflops_per_gpu = model_step / (te.step_s * gpus) / 1e12;
  return te;
}

}  // namespace

TimeEstimate step_time(const Resolved& r, const ParamCounts& p, const StepPlan& plan, const HeldParams& held,
                       const FlopCounts& f, double tokens, Trace* t, std::vector<std::string>& warnings,
                       std::vector<CommItem>* comm_out) {
  const ComputeTimes ct = compute_times(r, p, plan, held);
  std::vector<CommItem> comm = comm_per_step(r, p, plan, held, f, ct, t);
  TimeEstimate te = time_per_step(r, f, ct, comm, tokens, t, warnings);
  if (comm_out) *comm_out = std::move(comm);
  return te;
}

}  // namespace llmc::detail
