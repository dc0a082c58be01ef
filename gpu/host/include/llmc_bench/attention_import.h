// Attention points measured outside the bench (gpu/groundtruth/attention_bench.py runs PyTorch's
// F.scaled_dot_product_attention, which dispatches to cuDNN or FlashAttention kernels), read
// from that script's JSON so llmcalc-bench can put them in the profile while its own cuDNN
// SDPA graph is not implemented (docs/bench.md).
//   {"dtype": "bf16", "backend": "...", "points": [{"batch": 1, "seq_len": 8192, "heads": 32,
//     "kv_heads": 8, "head_dim": 128, "causal": true, "backend": "cudnn", "fwd_seconds": [...],
//     "bwd_seconds": [...]}]}
// A point's backend (cudnn, fa2 or its SDPA name flash, fa3) files it under that backend's table
// ("bf16.cudnn"); points of other kernels (efficient, auto) go to the unnamed table ("bf16").
#pragma once
#include <map>
#include <string>
#include <vector>

#include "llmc/hardware.h"
#include "llmc/result.h"

namespace llmc::bench {

struct ImportedAttention {
  std::string dtype, backend;  // backend: the file's description of what ran
  // Points by profile table key: "<dtype>.<backend>" or "<dtype>".
  std::map<std::string, std::vector<AttentionPoint>> tables;
  size_t points() const;
};

// Errors name the JSON path ("points[2].heads: ...").
Result<ImportedAttention> import_attention_samples(const std::string& json_text);

}  // namespace llmc::bench
