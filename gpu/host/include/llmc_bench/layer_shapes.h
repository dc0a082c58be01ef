// The GEMMs one transformer layer (plus the logits) runs per micro-batch on one tensor-parallel
// rank, Megatron-style sharding: QKV and MLP-up are column-parallel (output split over tp),
// out-proj and MLP-down row-parallel (reduction split over tp), logits split over the vocabulary.
// Each linear Y[T×out] = X[T×in]·W[in×out] also runs twice in backward:
//   dX[T×in] = dY[T×out]·Wᵀ (inner dim out) and dW[in×out] = Xᵀ[in×T]·dY (inner dim T).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "llmc/model.h"
#include "llmc/result.h"
#include "llmc_bench/grids.h"

namespace llmc::bench {

struct LayerShapeRequest {
  std::string model;  // a preset id of the catalog, e.g. "llama3.1-8b"
  int64_t tp = 1;     // tensor-parallel degree
  int64_t micro_batch = 1;
  int64_t seq_len = 0;  // 0: the model's pre-training sequence length
};

// fwd, bwd-data, bwd-weight GEMMs for qkv, out_proj, mlp_up_gate (gated MLPs fuse up and gate
// into one GEMM of width 2·ffn/tp, as Megatron does), mlp_down, logits. Labels look like
// "llama3.1-8b tp2 qkv fwd". Errors name the field: unknown preset, MLA attention (shapes not
// modelled), heads / kv_heads / ffn not divisible by tp.
Result<std::vector<GemmShape>> layer_gemm_shapes(const LayerShapeRequest& req);

// The same from an explicit model (resolved() is applied inside).
Result<std::vector<GemmShape>> layer_gemm_shapes(const ModelSpec& model, const std::string& label, int64_t tp,
                                                 int64_t micro_batch, int64_t seq_len);

}  // namespace llmc::bench
