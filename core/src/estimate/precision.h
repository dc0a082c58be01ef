// Internal: what the precision recipe and the optimizer imply for every reading of the plan
// (docs/formulas.md, "Precision recipes"): element sizes, FP8 and autocast copies and casts,
// optimizer states. One definition each, used by memory, time and communication; inline because
// plan builders and memory searches call them in their loops.
#pragma once
#include <utility>

#include "llmc/scenario.h"

namespace llmc::detail {

// Optimizer states per trainable parameter and bytes per state (memory and the optimizer step).
struct OptimizerStates {
  double per_param = 0, bytes = 0;
};

inline double activation_bytes(const Resolved& r) { return r.s.training.precision == Precision::fp32 ? 4.0 : 2.0; }

// Bytes per logit the loss holds at its peak. Megatron's vocab-parallel cross-entropy (and other
// fused losses) holds the 16-bit logits and one fp32 copy: e + 4. PyTorch eager
// F.cross_entropy(logits.float()) saves log-softmax's fp32 output, and its backward allocates the
// fp32 gradients of that output and of its input while every layer's activations are still held:
// 12 (measured: docs/measurements/README.md, "Ground truth"). A chunked loss (training.loss_chunks
// n > 1, torchtune's CEWithChunkedOutputLoss) keeps the 16-bit logits whole, as the output layer's
// chunks, and does that fp32 work one chunk at a time: e + 4/n fused, e + 12/n eager. Eager on the
// 16-bit logits (eager_16bit, F.cross_entropy(logits) as KempnerForge's loop calls it, keeping
// `logits` through backward): the logits, log-softmax's output and the two gradients, e each.
// PyTorch's loss_parallel (an eager loss on vocabulary-sharded DTensor logits, torchtitan under
// tp) decomposes the backward: the saved output, zeros_like, exp and their sum, 4 bytes each: 16.
inline bool dtensor_loss_parallel(const Resolved& r) {
  return !r.fused_loss && r.loss_upcast && r.s.training.loss_parallel && r.s.parallel.tp > 1;
}
inline double loss_bytes_per_logit(const Resolved& r) {
  const double e = activation_bytes(r);
  const double eager_fp32 = dtensor_loss_parallel(r) ? 16.0 : 12.0;
  const double work = r.fused_loss ? 4.0 : r.loss_upcast ? eager_fp32 : 3 * e;
  const int64_t n = r.s.training.loss_chunks;
  const bool holds_logits = r.fused_loss || !r.loss_upcast || n > 1;
  return (holds_logits ? e : 0.0) + work / double(n > 1 ? n : 1);
}

// FP8 recipes (Transformer Engine's) save each FP8 GEMM's input for its weight gradient as the
// FP8 copy the forward made, one byte per element: the norms' FP8 outputs (LayerNormLinear,
// LayerNormMLP), the out-projection's input, the activation's output (fc2's input) and the
// experts' permuted inputs. What other kernels read in backward stays 16-bit: norm inputs, Q, K,
// V and flash attention's O, the GeLU/SwiGLU inputs (NVIDIA/TransformerEngine
// pytorch/module/linear.py, layernorm_mlp.py: save_for_backward). torchao's Float8Linear,
// PyTorch's own (eager, torchtitan), saves the 16-bit input instead
// (torchao/float8/float8_linear.py, matmul_with_hp_or_float8_args), as does rowwise scaling
// (training.fp8_recipe), which only torchao runs.
inline bool saves_fp8_gemm_inputs(const Resolved& r) {
  return r.compute_dtype == Dtype::fp8 && r.s.training.fused_elementwise &&
         r.s.training.fp8_recipe == Fp8Recipe::tensorwise;
}

// Transformer Engine casts each linear weight to FP8 on a step's first micro-batch and keeps the
// copy for the others (is_first_microbatch, which Megatron-core passes), with its transpose: the
// backward's dgrad GEMM reads the weight the other way round and Hopper's FP8 tensor cores take
// only the TN layout. That is 2 bytes per linear weight beside the 16-bit one. FP8 parameters
// (training.fp8_params) are that copy: the 16-bit weight goes, the transpose stays. Under ZeRO-3,
// TE shards the copies like the weights. A one-byte training.weight_dtype is taken as the whole
// storage, as seed 004's 10Ψ recipe counts.
inline double fp8_weight_extra_bytes(const Resolved& r) {
  const double wb = bytes_of(r.weight_dtype);
  if (!saves_fp8_gemm_inputs(r) || wb <= 1) return 0;
  return r.s.training.fp8_params ? 2.0 - wb : 2.0;
}

// torch.autocast: weights stored wider than a 16-bit compute dtype (fp32 weights with bf16 or
// fp16 compute, no separate master). Not the fp32 recipe (tf32 compute reads the fp32 weights),
// nor FP8 recipes (Transformer Engine casts once per step: fp8_weight_extra_bytes).
inline bool autocast_casts_weights(const Resolved& r) {
  const bool sixteen_bit = r.compute_dtype == Dtype::bf16 || r.compute_dtype == Dtype::fp16;
  return sixteen_bit && bytes_of(r.weight_dtype) > bytes_of(r.compute_dtype);
}

// Under autocast each linear's 16-bit copy is cached for the whole forward (and saved for
// backward without recompute), so the peak holds one per linear weight. FSDP / ZeRO-3 gathers its
// 16-bit copies into the gather buffers instead (counted there); Megatron-style recipes keep
// 16-bit weights beside an fp32 master and make no copy.
inline double amp_weight_copy_bytes(const Resolved& r) {
  return autocast_casts_weights(r) && r.s.training.zero_stage < 3 ? bytes_of(r.compute_dtype) : 0;
}

// Forward W + e (the 16-bit copy, cached for the rest of the forward); backward e + G to cast the
// weight gradient up, and 3·G to add it into the kept gradient (read both, write one). Under
// ZeRO-3 (FSDP's mixed precision) each GPU casts only its shard, before the gather and after the
// reduce-scatter. LoRA's frozen weights get no gradient.
inline std::pair<double, double> amp_cast_bytes(const Resolved& r, double zero3_shard) {
  if (!autocast_casts_weights(r)) return {0, 0};
  const double w = bytes_of(r.weight_dtype), g = bytes_of(r.grad_dtype), e = bytes_of(r.compute_dtype);
  const double bwd = r.s.training.finetune == Finetune::lora ? 0 : e + 4 * g;
  return {(w + e) / zero3_shard, bwd / zero3_shard};
}

// Bytes of `params` weights as ZeRO-3 / FSDP all-gathers them: the weight dtype, the `linear`
// ones in FP8 when training.fp8_params gathers them so (torchao's float8 all-gather), or as LoRA's
// frozen base stores them (training.base_weight_dtype: QLoRA's 4-bit NF4 is gathered as stored).
inline double gathered_weight_bytes(const Resolved& r, double params, double linear) {
  const double wb = bytes_of(r.weight_dtype);
  if (r.s.training.finetune == Finetune::lora) return params * wb - linear * (wb - bytes_of(r.base_weight_dtype));
  return params * wb - (r.s.training.fp8_params ? linear * (wb - 1.0) : 0.0);
}

// AdamW and 8-bit Adam keep m and v (bitsandbytes: 1 byte each, block scales ≈ 0.2 %; resolve()
// sets the int8 state dtype), SGD with momentum and Lion one momentum (Chen et al. 2023), and
// Adafactor a factored second moment: a row and a column vector per matrix ≈ 2/h of the
// parameters, no first moment by default (Shazeer & Stern 2018).
inline OptimizerStates optimizer_states(const Resolved& r) {
  double per_param = 0;
  switch (r.s.training.optimizer) {
    case Optimizer::adamw:
    case Optimizer::adam8bit:
      per_param = 2;
      break;
    case Optimizer::sgd_momentum:
    case Optimizer::lion:
      per_param = 1;
      break;
    case Optimizer::adafactor:
      per_param = r.m.has_shape() ? 2.0 / double(r.m.hidden) : 0.0;
      break;
  }
  return {per_param, bytes_of(r.optimizer_state_dtype)};
}

}  // namespace llmc::detail
