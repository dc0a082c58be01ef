// Memory per GPU at the peak of a training step: model states from the placement (ZeRO,
// Rajbhandari et al. 2020), activations as the layer plan's kept bytes (Korthikanti et al. 2022,
// term by term: layer_plan.cpp), in-flight micro-batches per pipeline schedule (Narayanan et al.
// 2021; schedule.cpp).
#include <algorithm>
#include <cmath>

#include "estimate/estimate_parts.h"
#include "estimate/layer_plan.h"
#include "estimate/memory.h"
#include "inputs/pipeline_split.h"
#include "estimate/placement.h"
#include "estimate/precision.h"
#include "estimate/schedule.h"

namespace llmc::detail {
namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

struct StageMemory {
  MemoryPerGpu mem;
  int64_t stage = 0;
};

double kept_bytes(const Plan& plan, uint32_t tags) {
  double bytes = 0;
  for (const Op& o : plan) bytes += o.saved_bytes - (o.drop_tags & tags ? o.dropped_bytes : 0.0);
  return bytes;
}

// Trace's interface with nothing behind it: the memory searches evaluate stages silently, and
// with a body the compiler sees, the terms' input lists are never built (they were half of a
// stage's cost through a non-recording Trace).
struct NoTrace {
  double add(const char*, const char*, const char*, const char*, double value, std::initializer_list<TermInput>) const {
    return value;
  }
};

// PyTorch's pipelining (torch.distributed.pipelining, the schedule FSDP2 runs under: torchtitan,
// NeMo AutoModel) allocates, per micro-batch of the step and per model chunk of the rank, a
// receive buffer for the chunk's input and one for its output's gradient when its schedule is set
// up, and keeps every micro-batch's chunk output until the step ends (PipelineStage
// _prepare_forward_infra, _create_grad_recv_info, output_chunks): on the last stage those outputs
// are the logits, held beside the one micro-batch the loss is working on.
double pipelining_buffers(const Resolved& r, int64_t stage, double m, double b) {
  const ParallelSpec& par = r.s.parallel;
  if (par.pp <= 1 || r.s.training.fsdp_impl != FsdpImpl::fsdp2 || !r.m.has_shape()) return 0;
  const double e = activation_bytes(r), tokens = b * double(r.s.training.seq_len) / double(par.cp);
  const double sp = r.s.training.sequence_parallel ? double(par.tp) : 1.0;
  const double boundary = e * tokens * double(r.m.hidden) / sp;  // one chunk's input or output
  const double chunks = double(par.virtual_stages), first = stage == 0, last = stage == par.pp - 1;
  const double logits = e * tokens * double(r.m.vocab) / (r.s.training.loss_parallel ? double(par.tp) : 1.0);
  return m * boundary * ((chunks - first) + 2 * (chunks - last)) + (last ? (m - 1) * logits : 0.0);
}

// The knobs' slot for this stage (MemoryKnobs::stages), filled on first use; a middle stage past
// the second is computed afresh.
MemoryKnobs::StageFacts stage_facts(const Resolved& r, const ParamCounts& p, int64_t stage, const MemoryKnobs& k) {
  const int64_t pp = r.s.parallel.pp;
  const int slot = stage == pp - 1 ? 2 : stage <= 1 ? int(stage) : -1;
  if (slot >= 0 && k.stages[size_t(slot)].m == k.m) return k.stages[size_t(slot)];
  const MemoryKnobs::StageFacts f{k.m, r.m.has_shape() ? in_flight(r, k.m, stage) : 0.0, stage_params(r, p, stage)};
  if (slot >= 0) k.stages[size_t(slot)] = f;
  return f;
}

// Parameters in the stage's largest weight tensor: the embedding (first stage) or output layer
// (last), else an MLP or expert matrix or the query projection, each split by tp.
double largest_tensor(const Resolved& r, int64_t stage) {
  const ModelSpec& m = r.m;
  const double h = double(m.hidden), t = double(r.s.parallel.tp);
  double largest = std::max(double(m.ffn_hidden), double(m.heads * m.head_dim)) * h / t;
  if (m.is_moe()) largest = std::max(largest, double(m.expert_ffn_hidden) * h / double(r.etp));
  if (stage == 0 || stage == r.s.parallel.pp - 1) largest = std::max(largest, double(m.vocab) * h / t);
  return largest;
}

template <class Tr>
StageMemory stage_memory_with(const Resolved& r, const ParamCounts& p, int64_t stage, const MemoryKnobs& k,
                              const LayerActivations& act, Tr& tr) {
  const int64_t b = k.b;
  const TrainingSpec& ts = r.s.training;
  const ParallelSpec& par = r.s.parallel;
  const HardwareSpec& hw = r.s.hardware;
  const ModelSpec& m = r.m;
  StageMemory out;
  out.stage = stage;
  MemoryPerGpu& mem = out.mem;
  const MemoryKnobs::StageFacts facts = stage_facts(r, p, stage, k);
  const StageParams& sh = facts.params;
  const ShardGroups zero = zero_shard_groups(r, k.dp);
  const double d = zero.dense, d_experts = zero.expert;
  const int z = ts.zero_stage;
  auto shard = [&](double dense, double expert, int from_stage) {
    return z >= from_stage ? dense / d + expert / d_experts : dense + expert;
  };
  const double wb = bytes_of(r.weight_dtype), gb = bytes_of(r.grad_dtype);

  // Trainable parameters on this GPU: everything, or the LoRA adapters (split like the layers).
  double tr_dense = sh.dense, tr_expert = sh.expert;
  const bool lora = ts.finetune == Finetune::lora;
  if (lora) {
    tr_dense = p.trainable / double(par.tp * par.pp);
    tr_expert = 0;
  }
  const double local_params = shard(sh.dense, sh.expert, 3);
  const double local_gemm = shard(sh.linear - sh.expert, sh.expert, 3);
  const double fp8_extra = fp8_weight_extra_bytes(r);
  // LoRA's frozen base: the blocks' linear weights in base_weight_dtype (QLoRA: 4-bit), the rest
  // (embeddings, norms, output layer) in weight_dtype, beside the adapters.
  const double base_b = bytes_of(r.base_weight_dtype);
  mem.weights_bytes =
      tr.add("memory.per_gpu.weights_bytes",
             "(params_local − linear_weights_local) × bytes_per_param + linear_weights_local × (base_bytes + "
             "fp8_extra_bytes) (+ LoRA adapters × bytes_per_param); "
             "÷ dp under ZeRO-3",
             "bytes",
             "4, 2 or 1 bytes per parameter; ZeRO-3 shards them (Rajbhandari et al. 2020); FP8: Transformer Engine's "
             "weight workspaces; LoRA base: training.base_weight_dtype (Dettmers et al. 2023)",
             (local_params - local_gemm) * wb + local_gemm * (base_b + fp8_extra) + (lora ? tr_dense : 0) * wb,
             {{"params_local", sh.dense + sh.expert},
              {"bytes_per_param", wb},
              {"base_bytes", base_b},
              {"zero_stage", double(z)},
              {"dp_shard", d},
              {"linear_weights_local", local_gemm},
              {"fp8_extra_bytes", fp8_extra}});
  // Autocast's 16-bit weight copies live for a forward and its backward, like activations: each
  // micro-batch in flight holds its own. They cover the output layer too (last stage: V × h / tp).
  const double amp_copy = amp_weight_copy_bytes(r);
  const double head_local = stage == par.pp - 1 ? double(m.vocab) * double(m.hidden) / double(par.tp) : 0.0;
  const double autocast_weights = amp_copy > 0 ? local_gemm + head_local : 0.0;
  const double stages_grad_bytes = gb + (ts.grad_fp32_accum_buffer ? 4.0 : 0.0);
  // ZeRO-2/3 keep only their shard of the gradients when they reduce after every micro-batch; one
  // reduction per step of several micro-batches means each GPU accumulates the whole gradient.
  const bool accumulate_whole = k.m > 1 && !r.grad_reduce_per_micro_batch;
  double grads_local = accumulate_whole ? tr_dense + tr_expert : shard(tr_dense, tr_expert, 2);
  // The optimizer step in backward frees each gradient once it is stepped: one tensor's at a time.
  const double one_tensor = ts.optimizer_in_backward ? largest_tensor(r, stage) : 0.0;
  if (ts.optimizer_in_backward) grads_local = std::min(grads_local, one_tensor);
  mem.gradients_bytes =
      tr.add("memory.per_gpu.gradients_bytes",
             "trainable_local / (dp under ZeRO-2+, unless m > 1 micro-batches accumulate before one "
             "reduction) × (grad_bytes + 4 if fp32 accumulation buffer); step in backward: largest tensor",
             "bytes",
             "gradients in training.grad_dtype (+ an fp32 accumulation buffer, as nanotron keeps "
             "one); ZeRO-2 (Rajbhandari et al. 2020); training.grad_reduce; torchtune's optimizer_in_bwd",
             grads_local * stages_grad_bytes,
             {{"trainable_local", tr_dense + tr_expert},
              {"grad_bytes", stages_grad_bytes},
              {"dp_shard", d},
              {"micro_batches", double(k.m)},
              {"reduce_every_micro_batch", r.grad_reduce_per_micro_batch ? 1.0 : 0.0},
              {"largest_tensor", one_tensor}});
  const OptimizerStates optimizer = optimizer_states(r);
  const double states = optimizer.per_param, state_bytes = optimizer.bytes;
  const double opt_params = shard(tr_dense, tr_expert, 1);
  mem.master_weights_bytes =
      tr.add("memory.per_gpu.master_weights_bytes", "trainable_local / (dp under ZeRO-1+) × 4 (fp32 master copy)",
             "bytes", "mixed precision (Micikevicius et al. 2018)", r.master_weights ? opt_params * 4 : 0,
             {{"trainable_local_sharded", opt_params}, {"master", r.master_weights ? 1.0 : 0.0}});
  const double opt_states = opt_params * states * state_bytes;
  mem.optimizer_bytes = tr.add("memory.per_gpu.optimizer_bytes",
                               "master_weights + trainable_local_sharded × states × state_bytes", "bytes",
                               "with an fp32 master copy AdamW keeps 12, 8-bit Adam 6, SGD with momentum 8 bytes per "
                               "parameter (Rajbhandari et al. 2020; Dettmers et al. 2021); ZeRO-1 shards them",
                               mem.master_weights_bytes + opt_states,
                               {{"master_weights", mem.master_weights_bytes},
                                {"trainable_local_sharded", opt_params},
                                {"states", states},
                                {"state_bytes", state_bytes}});
  if (ts.cpu_offload_optimizer) {
    mem.cpu_offload_bytes = mem.optimizer_bytes;
    mem.optimizer_bytes = tr.add("memory.per_gpu.optimizer_bytes",
                                 "0 on the GPU: optimizer states and master weights offloaded to host memory", "bytes",
                                 "ZeRO-Offload (Ren et al. 2021)", 0, {{"cpu_bytes", mem.cpu_offload_bytes}});
  }
  // A frozen reference model (DPO) in the weight dtype; with LoRA the base model is the reference.
  mem.reference_model_bytes = tr.add(
      "memory.per_gpu.reference_model_bytes",
      "params_local / (dp under ZeRO-3) × bytes_per_param if a reference model is kept", "bytes",
      "a frozen reference model, as DPO keeps (Rafailov et al. 2023); LoRA reuses the base",
      ts.reference_model && !lora ? local_params * wb : 0, {{"params_local", local_params}, {"bytes_per_param", wb}});
  // ZeRO-3 gather buffers: the layer in use and the prefetched one (FSDP); without resharding
  // after forward every layer of the stage stays gathered from its forward to its backward.
  const bool keep_gathered = !ts.reshard_after_forward;
  const double gather = z < 3 || d <= 1 ? 0
                        : keep_gathered ? gathered_weight_bytes(r, sh.dense + sh.expert, sh.linear)
                                        : 2 * gathered_weight_bytes(r, sh.max_layer, sh.max_layer_linear);
  // ZeRO-3's reduce-scatter in flight, when gradients are reduced every micro-batch: a layer's
  // gradients are copied into a reduce-scatter input in grad_dtype, unsharded, which stays allocated
  // while the next layer's backward runs (PyTorch FSDP2's foreach_reduce keeps one in flight). By
  // then the layer's own stored tensors are freed, so only what the input exceeds them by raises
  // the peak: a large layer over few tokens (a checkpoint of s·b·h/t, or a tiny micro-batch).
  // LoRA reduces only its adapters: negligible.
  const double freed_layer = ts.recompute == Recompute::full           ? act.checkpoint
                             : ts.recompute == Recompute::selective_op ? act.selective_op
                                                                       : act.full_layer;
  const double reduce_staging = z < 3 || d <= 1 || lora || accumulate_whole || !m.has_shape()
                                    ? 0.0
                                    : std::max(0.0, sh.max_layer * gb - freed_layer);
  mem.model_states_bytes = tr.add(
      "memory.per_gpu.model_states_bytes",
      "weights + gradients + optimizer + reference + ZeRO-3 gather buffers (2 × largest layer in its gathered bytes; "
      "the stage's weights when not resharded after forward) + ZeRO-3 reduce-scatter in flight (largest "
      "layer × grad_bytes beyond one layer's stored tensors, when reduced every micro-batch)",
      "bytes",
      "ZeRO paper's 'model states'; FSDP2 fully_shard (reshard_after_forward; foreach_reduce's unsharded "
      "reduce-scatter input, one in flight)",
      mem.weights_bytes + mem.gradients_bytes + mem.optimizer_bytes + mem.reference_model_bytes + gather +
          reduce_staging,
      {{"weights", mem.weights_bytes},
       {"gradients", mem.gradients_bytes},
       {"optimizer", mem.optimizer_bytes},
       {"reference", mem.reference_model_bytes},
       {"gather_buffers", gather},
       {"reduce_staging", reduce_staging},
       {"largest_layer", sh.max_layer},
       {"reshard_after_forward", keep_gathered ? 0.0 : 1.0}});

  // Activations.
  if (m.has_shape()) {
    const double full_layer = act.full_layer;
    mem.activations_per_layer_bytes =
        tr.add("memory.per_gpu.activations_per_layer_bytes",
               "Korthikanti 2022 per-layer terms (GPT: s·b·h·(34 + 5·a·s/h)) ÷ t (tp regions; all with SP) ÷ cp; "
               "FP8 GEMM inputs in 1 byte; less selective recompute's modules; math SDPA: 4 bytes per score, fp32 "
               "Q, K, V per query head",
               "bytes",
               "Korthikanti et al. 2022 Table 2; Transformer Engine (FP8); Megatron-core --recompute-modules; "
               "PyTorch aten attention.cpp (_scaled_dot_product_attention_math)",
               full_layer,
               {{"s", double(ts.seq_len)},
                {"b", double(b)},
                {"h", double(m.hidden)},
                {"a", double(m.heads)},
                {"t", double(par.tp)},
                {"cp", double(par.cp)},
                {"flash", ts.flash_attention ? 1.0 : 0.0},
                {"sdpa_math", runs_sdpa_math(ts.flash_attention, ts.unfused_attention) ? 1.0 : 0.0},
                {"fp8_saved_inputs", saves_fp8_gemm_inputs(r) ? 1.0 : 0.0},
                {"recompute_layernorm", r.recompute_modules & kRecomputeLayernorm ? 1.0 : 0.0},
                {"recompute_mla_up_proj", r.recompute_modules & kRecomputeMlaUpProj ? 1.0 : 0.0},
                {"recompute_moe_act", r.recompute_modules & kRecomputeMoeAct ? 1.0 : 0.0}});
    const double L = stage_layers(r, stage);
    const StoredActivations stored = stored_activations(r, act, L);
    const double per_micro = stored.per_micro, working = stored.working;
    const bool last_stage = stage == par.pp - 1;
    const double flights = facts.in_flight;
    mem.in_flight_micro_batches = static_cast<int64_t>(std::ceil(flights));
    const double autocast = autocast_weights * amp_copy;
    // Offloading keeps on the GPU only what is in transit: two layers' stored tensors.
    const double on_gpu = ts.activation_offload ? offload_kept_bytes(per_micro, L) : flights * per_micro;
    mem.activations_offloaded_bytes = flights * per_micro - on_gpu;
    const double pipeline = pipelining_buffers(r, stage, double(k.m), double(b));
    mem.activations_bytes =
        tr.add("memory.per_gpu.activations_bytes",
               "in_flight × (stored_per_micro_batch + autocast_weights × amp_copy_bytes) + recompute working layer (on "
               "the peak stage i) + pipeline_buffers; offloaded: only min(2, L) layers' stored",
               "bytes",
               "Korthikanti et al. 2022 §4-5; in flight on stage i: AFAB m, 1F1B min(p − i, m), interleaved "
               "p + (p − 1 − 2i)/v; autocast's 16-bit weight copies; activation offloading; PyTorch pipelining's "
               "buffers (docs/formulas.md, Activations)",
               on_gpu + flights * autocast + working + pipeline,
               {{"in_flight", flights},
                {"stage", double(stage)},
                {"layers_on_stage", L},
                {"stored_per_micro_batch", per_micro},
                {"working_layer", working},
                {"autocast_weights", autocast_weights},
                {"amp_copy_bytes", amp_copy},
                {"offloaded_bytes", mem.activations_offloaded_bytes},
                {"pipeline_buffers", pipeline}});
    const double per_logit = loss_bytes_per_logit(r);
    const double logits = last_stage ? act.loss : 0;
    mem.logits_bytes = tr.add(
        "memory.per_gpu.logits_bytes",
        "bytes_per_logit × s/cp × b × V / t on the last stage (t = 1 without loss parallelism); bytes_per_logit: "
        "fused e + 4, eager 12 (16 under loss_parallel), eager_16bit 4e, n chunks e + work / n",
        "bytes", "cross-entropy upcasts logits to fp32 (Megatron vocab-parallel loss; PyTorch eager measured on H100)",
        logits,
        {{"s", double(ts.seq_len)},
         {"b", double(b)},
         {"V", double(m.vocab)},
         {"t", double(par.tp)},
         {"loss_parallel", ts.loss_parallel ? 1.0 : 0.0},
         {"loss_chunks", double(ts.loss_chunks)},
         {"bytes_per_logit", per_logit}});
  }
  // NCCL's own memory per communicator, as measured through PyTorch on 4 × A100 with NVLink (one
  // 4 MB all-reduce per group, NVIDIA/nccl#964): 544 MiB for 2 ranks, 688 MiB for more; per
  // channel a connection holds Simple's 4 MiB, LL128's 4.7 MiB and LL's 0.5 MiB buffers.
  int pairs = 0, groups = 0;
  for (int64_t g : {par.tp, par.pp, k.dp * par.cp, par.cp, par.ep}) {
    pairs += g == 2 ? 1 : 0;
    groups += g > 2 ? 1 : 0;
  }
  constexpr double kMiB = 1024.0 * 1024.0, kPairComm = 544 * kMiB, kGroupComm = 688 * kMiB;
  mem.comm_buffers_bytes = tr.add(
      "memory.per_gpu.comm_buffers_bytes", "544 MiB × groups of 2 ranks + 688 MiB × larger groups (tp, pp, dp·cp, cp, ep)",
      "bytes", "NCCL's memory per communicator, measured on 4 × A100 (NVIDIA/nccl#964)",
      kPairComm * pairs + kGroupComm * groups, {{"groups_of_2", double(pairs)}, {"larger_groups", double(groups)}});
  mem.cuda_context_bytes = tr.add("memory.per_gpu.cuda_context_bytes", "hardware.cuda_context_gib × 2^30", "bytes",
                                  "assumption: CUDA context + cuBLAS/cuDNN kernels with lazy loading",
                                  hw.cuda_context_gib * kGiB, {{"cuda_context_gib", hw.cuda_context_gib}});
  // What PyTorch's caching allocator holds; NCCL allocates its channel buffers itself, so they
  // neither fragment its pool nor show in max_memory_allocated / reserved (only in nvidia-smi).
  const double allocated = mem.model_states_bytes + mem.activations_bytes + mem.logits_bytes;
  mem.fragmentation_bytes = tr.add(
      "memory.per_gpu.fragmentation_bytes", "fragmentation_fraction × (model_states + activations + logits)", "bytes",
      "assumption: PyTorch caching allocator reserves ~5% beyond allocated", hw.fragmentation_fraction * allocated,
      {{"fragmentation_fraction", hw.fragmentation_fraction}, {"allocated", allocated}});
  mem.total_bytes = tr.add("memory.per_gpu.total_bytes",
                           "model_states + activations + logits + comm_buffers + cuda_context + fragmentation", "bytes",
                           "sum", allocated + mem.comm_buffers_bytes + mem.cuda_context_bytes + mem.fragmentation_bytes,
                           {{"model_states", mem.model_states_bytes},
                            {"activations", mem.activations_bytes},
                            {"logits", mem.logits_bytes},
                            {"comm_buffers", mem.comm_buffers_bytes}});
  // A measured profile knows what the GPU really offers: what cudaMemGetInfo left free after the
  // bench's CUDA context (H100 80GB: 78.7 GiB), plus the context llmcalc counts in the total.
  const double usable = hw.profile ? hw.profile->usable_memory_bytes : 0.0;
  mem.capacity_bytes = tr.add(
      "memory.per_gpu.capacity_bytes",
      usable > 0 ? "profile usable_memory_bytes + cuda_context" : "gpu.memory_gib × 2^30", "bytes",
      usable > 0 ? "measured free memory on an idle GPU (hardware profile)" : "datasheet memory size",
      usable > 0 ? usable + mem.cuda_context_bytes : hw.gpu.memory_gib * kGiB,
      {{"memory_gib", hw.gpu.memory_gib}, {"usable_memory_bytes", usable}, {"cuda_context", mem.cuda_context_bytes}});
  mem.headroom_bytes = mem.capacity_bytes - mem.total_bytes;
  return out;
}

StageMemory stage_memory(const Resolved& r, const ParamCounts& p, int64_t stage, const MemoryKnobs& k,
                         const LayerActivations& act, Trace* t) {
  if (t) return stage_memory_with(r, p, stage, k, act, *t);
  NoTrace silent;
  return stage_memory_with(r, p, stage, k, act, silent);
}

}  // namespace

StoredActivations stored_activations(const Resolved& r, const LayerActivations& act, double L) {
  const TrainingSpec& ts = r.s.training;
  StoredActivations out{L * act.full_layer, 0.0};
  if (ts.recompute == Recompute::full && L > 0) {
    const double k = ts.recompute_layers > 0 ? std::min(double(ts.recompute_layers), L) : L;
    out.per_micro = k * act.checkpoint + (L - k) * act.full_layer;
    out.working = act.full_layer;  // the layer being recomputed during backward
  } else if (ts.recompute == Recompute::selective_op && L > 0) {
    out.per_micro = L * act.selective_op;
    out.working = act.full_layer;  // the layer whose re-runs are live during its backward
  }
  return out;
}

LayerActivations layer_activations(const Resolved& r, const StepPlan& plan, int64_t b) {
  LayerActivations a;
  if (!r.m.has_shape()) return a;
  const uint32_t tags = recompute_tags(r);
  const double dense = plan.has_dense() ? kept_bytes(plan.dense, tags) : 0.0;
  const double moe = plan.has_moe() ? kept_bytes(plan.moe, tags) : 0.0;
  a.full_layer = (1 - plan.moe_share) * dense + plan.moe_share * moe;
  a.checkpoint = checkpoint_bytes(r, b);
  if (r.s.training.recompute == Recompute::selective_op)  // dense layers only (resolve())
    for (const Op& o : plan.dense) a.selective_op += o.saved_op_policy_bytes;
  a.loss = kept_bytes(plan.head, 0);
  return a;
}

LayerActivations layer_activations(const Resolved& r, const ParamCounts& p, int64_t b) {
  StepPlan plan;
  build_step_plan(plan, r, p, PlanShape{b, 1, false});
  return layer_activations(r, plan, b);
}

LayerActivations at_micro_batch(const LayerActivations& a, int64_t from, int64_t to) {
  if (from == to) return a;
  const double f = double(from), t = double(to);
  return {a.full_layer * t / f, a.checkpoint * t / f, a.selective_op * t / f, a.loss * t / f};
}

MemoryPerGpu peak_memory(const Resolved& r, const ParamCounts& p, const MemoryKnobs& b, const LayerActivations& act,
                         Trace* t, int64_t* peak_stage_out) {
  // The first stage holds the embedding and the most in-flight micro-batches; the last holds the
  // output layer and logits. When the end stages give up layers (stage_layers), the second
  // stage, a full one with one micro-batch fewer in flight, can hold more than the first.
  // Report the largest (with pp = 1 they are the same GPU).
  const int64_t pp = r.s.parallel.pp;
  if (pp == 1) {
    StageMemory s = stage_memory(r, p, 0, b, act, t);
    if (peak_stage_out) *peak_stage_out = 0;
    return s.mem;
  }
  // The candidates silently, then the peak one again with its terms: cheaper than recording all
  // and keeping one.
  int64_t peak_stage = 0;
  StageMemory peak = stage_memory(r, p, 0, b, act, nullptr);
  auto consider = [&](int64_t stage) {
    StageMemory s = stage_memory(r, p, stage, b, act, nullptr);
    if (s.mem.total_bytes > peak.mem.total_bytes) peak = std::move(s), peak_stage = stage;
  };
  if (pp > 2 && stage_layers(r, 0) < double(r.layers_per_stage)) consider(1);
  consider(pp - 1);
  if (peak_stage_out) *peak_stage_out = peak_stage;
  if (t) return stage_memory(r, p, peak_stage, b, act, t).mem;
  return peak.mem;
}

MemoryPerGpu memory_per_gpu(const Resolved& r, const ParamCounts& p, const LayerActivations& act, Trace* t,
                            int64_t* peak_stage) {
  return peak_memory(r, p, MemoryKnobs{r.s.training.micro_batch, r.micro_batches, r.s.parallel.dp}, act, t, peak_stage);
}

}  // namespace llmc::detail
