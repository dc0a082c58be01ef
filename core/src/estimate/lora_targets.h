// Internal: the matrices training.lora_targets adapts, one table that the parameter count
// (params.cpp) and the layer plan's adapter kernels (plan_attention.cpp, layer_plan.cpp) read.
#pragma once
#include "llmc/scenario.h"

namespace llmc::detail {

// PEFT's names: q, k, v, o the attention projections, mlp every MLP matrix (each routed and
// shared expert's too). The embeddings and the output layer are never adapted.
struct LoraMatrices {
  bool q, k, v, o, mlp;
};

constexpr LoraMatrices lora_matrices(LoraTargets t) {
  switch (t) {
    case LoraTargets::qv:
      return {true, false, true, false, false};
    case LoraTargets::attention:
      return {true, true, true, true, false};
    case LoraTargets::all_linear:
      break;
  }
  return {true, true, true, true, true};
}

}  // namespace llmc::detail
