#include "llmc_bench/layer_shapes.h"

#include <algorithm>

#include "llmc/catalog.h"

namespace llmc::bench {
namespace {

// The three GEMMs of one linear layer with `in` inputs and `out` outputs over `tokens` rows.
void add_linear(std::vector<GemmShape>& out, const std::string& prefix, int64_t tokens, int64_t in, int64_t outs) {
  out.push_back({tokens, outs, in, prefix + " fwd"});
  out.push_back({tokens, in, outs, prefix + " bwd_data"});
  out.push_back({in, outs, tokens, prefix + " bwd_weight"});
}

Error divisibility(const char* field, int64_t v, int64_t tp) {
  return make_error(std::string("model.") + field, "must be divisible by tp=" + std::to_string(tp) +
                                                       " for tensor-parallel sharding; got " + std::to_string(v));
}

}  // namespace

Result<std::vector<GemmShape>> layer_gemm_shapes(const ModelSpec& spec, const std::string& label, int64_t tp,
                                                 int64_t micro_batch, int64_t seq_len) {
  if (!spec.has_shape()) return make_error("model", "has no layer shape (size-only model); pick a preset with a shape");
  if (tp < 1) return make_error("tp", "must be ≥ 1; got " + std::to_string(tp));
  if (micro_batch < 1) return make_error("micro_batch", "must be ≥ 1; got " + std::to_string(micro_batch));
  const ModelSpec m = resolved(spec);
  if (m.attention == AttentionKind::mla)
    return make_error("model.attention",
                      "MLA layer shapes are not modelled by the bench; pick a standard-attention preset");
  const int64_t seq = seq_len > 0 ? seq_len : m.seq_len;
  if (seq < 1) return make_error("seq_len", "must be ≥ 1 (the model gives none); got " + std::to_string(seq));
  if (m.heads % tp) return divisibility("heads", m.heads, tp);
  if (m.kv_heads % tp) return divisibility("kv_heads", m.kv_heads, tp);
  const bool gated = m.mlp != MlpKind::gelu;
  // MoE: an expert's GEMM sees on average tokens·top_k/experts rows (balanced routing).
  const int64_t ffn = m.is_moe() ? m.expert_ffn_hidden : m.ffn_hidden;
  if (ffn % tp) return divisibility(m.is_moe() ? "expert_ffn_hidden" : "ffn_hidden", ffn, tp);

  const int64_t tokens = micro_batch * seq;
  const int64_t mlp_tokens = m.is_moe() ? std::max<int64_t>(1, tokens * m.top_k / m.experts) : tokens;
  const std::string p = label + " tp" + std::to_string(tp) + " ";
  std::vector<GemmShape> out;
  add_linear(out, p + "qkv", tokens, m.hidden, (m.heads + 2 * m.kv_heads) * m.head_dim / tp);
  add_linear(out, p + "out_proj", tokens, m.heads * m.head_dim / tp, m.hidden);
  add_linear(out, p + (gated ? "mlp_up_gate" : "mlp_up"), mlp_tokens, m.hidden, (gated ? 2 : 1) * ffn / tp);
  add_linear(out, p + "mlp_down", mlp_tokens, ffn / tp, m.hidden);
  add_linear(out, p + "logits", tokens, m.hidden, (m.vocab + tp - 1) / tp);  // vocab-parallel, last shard padded
  return out;
}

Result<std::vector<GemmShape>> layer_gemm_shapes(const LayerShapeRequest& req) {
  Result<ModelPreset> preset = find_model_preset(req.model);
  if (!preset) return make_error("model", preset.error().message);
  return layer_gemm_shapes(preset->model, req.model, req.tp, req.micro_batch, req.seq_len);
}

}  // namespace llmc::bench
