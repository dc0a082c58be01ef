// The precision part of resolve(): the recipe's storage and compute dtypes, and the rules that
// tie dtypes, FP8 options and fine-tuning together (docs/formulas.md "Precision recipes").
#include "inputs/resolve_precision.h"

#include <string>

namespace llmc::detail {
namespace {

// Precision recipes: storage dtypes and compute dtype (docs/formulas.md "Precision recipes").
// Gradients of the bf16 and FP8 recipes are accumulated and reduced in fp32, as the frameworks
// do by default: Megatron-core's fp32 main_grad buffers (NeMo 2's bf16_mixed recipe sets
// grad_reduce_in_fp32; Megatron's distributed-optimizer table counts "bf16 param, fp32 grads"),
// torchtitan's FSDP2 (mixed_precision_reduce float32, fp32 sharded gradients), Llama 3 (§3.3.4:
// FP32 gradient accumulation). fp16 keeps the loss-scaled fp16 gradients of the ZeRO paper.
void apply_recipe(Resolved& r) {
  const TrainingSpec& t = r.s.training;
  Dtype w = Dtype::bf16, g = Dtype::fp32, o = Dtype::fp32, c = Dtype::bf16;
  bool master = true;
  switch (t.precision) {
    case Precision::fp32:
      w = g = o = Dtype::fp32;
      c = Dtype::tf32;
      master = false;
      break;
    case Precision::bf16_mixed:
      break;
    case Precision::fp16_mixed:
      w = g = c = Dtype::fp16;
      break;
    case Precision::fp8_mixed:
      c = Dtype::fp8;
      break;
    case Precision::bf16_pure:
      o = g = Dtype::bf16;
      master = false;
      break;
  }
  r.weight_dtype = t.weight_dtype.value_or(w);
  r.grad_dtype = t.grad_dtype.value_or(g);
  r.optimizer_state_dtype = t.optimizer_state_dtype.value_or(o);
  r.master_weights = t.master_weights.value_or(master);
  r.compute_dtype = c;
}

}  // namespace

Status resolve_precision(Resolved& r) {
  const TrainingSpec& t = r.s.training;
  apply_recipe(r);
  r.base_weight_dtype = t.base_weight_dtype.value_or(r.weight_dtype);
  if (t.base_weight_dtype && t.finetune != Finetune::lora)
    return make_error("training.base_weight_dtype",
                      "is the storage of LoRA's frozen base weights; set training.finetune=lora, or "
                      "training.weight_dtype for full training");
  if (t.base_weight_dtype == Dtype::tf32)
    return make_error("training.base_weight_dtype", "tf32 is a compute mode, not a storage dtype; use fp32");
  if (r.s.training.optimizer == Optimizer::adam8bit) r.optimizer_state_dtype = Dtype::int8;
  if (t.fp8_params && (r.compute_dtype != Dtype::fp8 || !t.fused_elementwise))
    return make_error("training.fp8_params",
                      std::string("FP8 parameters need training.precision=fp8_mixed with "
                                  "training.fused_elementwise=true (Transformer Engine); got precision ") +
                          to_string(t.precision) + (t.fused_elementwise ? "" : " with fused_elementwise false"));
  if (t.fp8_recipe == Fp8Recipe::rowwise && r.compute_dtype != Dtype::fp8)
    return make_error("training.fp8_recipe", std::string("rowwise scales FP8 GEMM inputs; training.precision ") +
                                                 to_string(t.precision) + " runs no FP8 GEMMs (use fp8_mixed)");
  if (t.fp8_recipe == Fp8Recipe::rowwise && t.fp8_params)
    return make_error("training.fp8_params",
                      "FP8 weights (and torchao's float8 all-gather) are per-tensor only; "
                      "training.fp8_recipe rowwise keeps 16-bit weights");
  return ok_status();
}

}  // namespace llmc::detail
