// The names of the scenario's enumerations, as the JSON, the CLI and the UI write them.
#include "llmc/scenario.h"

namespace llmc {

const char* to_string(Precision v) {
  switch (v) {
    case Precision::fp32:
      return "fp32";
    case Precision::bf16_mixed:
      return "bf16_mixed";
    case Precision::fp16_mixed:
      return "fp16_mixed";
    case Precision::fp8_mixed:
      return "fp8_mixed";
    case Precision::bf16_pure:
      return "bf16_pure";
  }
  return "?";
}
const char* to_string(Optimizer v) {
  switch (v) {
    case Optimizer::adamw:
      return "adamw";
    case Optimizer::adam8bit:
      return "adam8bit";
    case Optimizer::sgd_momentum:
      return "sgd_momentum";
    case Optimizer::adafactor:
      return "adafactor";
    case Optimizer::lion:
      return "lion";
  }
  return "?";
}
const char* to_string(Recompute v) {
  switch (v) {
    case Recompute::none:
      return "none";
    case Recompute::selective:
      return "selective";
    case Recompute::full:
      return "full";
    case Recompute::selective_op:
      return "selective_op";
  }
  return "?";
}
const char* to_string(Schedule v) {
  switch (v) {
    case Schedule::afab:
      return "afab";
    case Schedule::one_f_one_b:
      return "1f1b";
    case Schedule::interleaved:
      return "interleaved";
    case Schedule::zero_bubble:
      return "zero_bubble";
  }
  return "?";
}
const char* to_string(FlopsFormula v) { return v == FlopsFormula::six_nd ? "6nd" : "detailed"; }
const char* to_string(Finetune v) { return v == Finetune::lora ? "lora" : "full"; }
const char* to_string(LoraTargets v) {
  switch (v) {
    case LoraTargets::all_linear:
      return "all_linear";
    case LoraTargets::attention:
      return "attention";
    case LoraTargets::qv:
      return "qv";
  }
  return "?";
}
const char* to_string(OptimizerKernel v) {
  switch (v) {
    case OptimizerKernel::auto_:
      return "auto";
    case OptimizerKernel::fused:
      return "fused";
    case OptimizerKernel::foreach:
      return "foreach";
  }
  return "?";
}
const char* to_string(UnfusedAttention v) {
  switch (v) {
    case UnfusedAttention::matmul:
      return "matmul";
    case UnfusedAttention::sdpa_math_tf32:
      return "sdpa_math_tf32";
    case UnfusedAttention::sdpa_math_fp32:
      return "sdpa_math_fp32";
  }
  return "?";
}
const char* to_string(Fusion v) {
  switch (v) {
    case Fusion::auto_:
      return "auto";
    case Fusion::fused:
      return "fused";
    case Fusion::eager:
      return "eager";
    case Fusion::eager_16bit:
      return "eager_16bit";
  }
  return "?";
}
const char* to_string(KernelLaunch v) {
  switch (v) {
    case KernelLaunch::python:
      return "python";
    case KernelLaunch::native:
      return "native";
    case KernelLaunch::cuda_graphs:
      return "cuda_graphs";
  }
  return "?";
}
const char* to_string(ParamGather v) {
  switch (v) {
    case ParamGather::all_gather:
      return "all_gather";
    case ParamGather::broadcast:
      return "broadcast";
  }
  return "?";
}
const char* to_string(CpMethod v) {
  switch (v) {
    case CpMethod::p2p:
      return "p2p";
    case CpMethod::all_gather:
      return "all_gather";
    case CpMethod::a2a:
      return "a2a";
  }
  return "?";
}
const char* to_string(EpDispatcher v) {
  switch (v) {
    case EpDispatcher::alltoall:
      return "alltoall";
    case EpDispatcher::deepep:
      return "deepep";
  }
  return "?";
}
const char* to_string(MoeRouting v) {
  switch (v) {
    case MoeRouting::random:
      return "random";
    case MoeRouting::contiguous:
      return "contiguous";
  }
  return "?";
}
const char* to_string(TpOverlapMethod v) {
  switch (v) {
    case TpOverlapMethod::userbuffers:
      return "userbuffers";
    case TpOverlapMethod::async_tp:
      return "async_tp";
  }
  return "?";
}
const char* to_string(AttentionBackend v) {
  switch (v) {
    case AttentionBackend::auto_:
      return "auto";
    case AttentionBackend::fa2:
      return "fa2";
    case AttentionBackend::fa3:
      return "fa3";
    case AttentionBackend::cudnn:
      return "cudnn";
    case AttentionBackend::sdpa_math:
      return "sdpa_math";
    case AttentionBackend::eager:
      return "eager";
    case AttentionBackend::triton:
      return "triton";
    case AttentionBackend::flex:
      return "flex";
  }
  return "?";
}
const char* to_string(Fp8Recipe v) {
  switch (v) {
    case Fp8Recipe::tensorwise:
      return "tensorwise";
    case Fp8Recipe::rowwise:
      return "rowwise";
  }
  return "?";
}
const char* to_string(FsdpImpl v) {
  switch (v) {
    case FsdpImpl::flat:
      return "flat";
    case FsdpImpl::fsdp2:
      return "fsdp2";
  }
  return "?";
}
const char* to_string(ActivationLayout v) {
  switch (v) {
    case ActivationLayout::sbh:
      return "sbh";
    case ActivationLayout::bsh:
      return "bsh";
  }
  return "?";
}
const char* to_string(GradReduce v) {
  switch (v) {
    case GradReduce::auto_:
      return "auto";
    case GradReduce::micro_batch:
      return "micro_batch";
    case GradReduce::step:
      return "step";
  }
  return "?";
}

}  // namespace llmc
