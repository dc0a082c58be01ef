#include "llmc/model.h"

namespace llmc {

static int64_t round_up(int64_t x, int64_t to) { return (x + to - 1) / to * to; }

ModelSpec resolved(const ModelSpec& in) {
  ModelSpec m = in;
  if (!m.has_shape()) return m;
  if (m.kv_heads == 0) m.kv_heads = m.heads;
  if (m.head_dim == 0 && m.heads > 0) m.head_dim = m.hidden / m.heads;
  if (m.ffn_hidden == 0) {
    // GPT: 4h. Gated MLPs keep the parameter count of a 4h GeLU MLP with 3 matrices: 8h/3,
    // rounded up to a multiple of 256 as Llama does (Touvron et al. 2023).
    m.ffn_hidden = m.mlp == MlpKind::gelu ? 4 * m.hidden : round_up(8 * m.hidden / 3, 256);
  }
  if (m.attention == AttentionKind::mla) {
    // MLA's per-head q/k width is nope + rope; v has its own width (DeepSeek-V2, arXiv:2405.04434).
    m.head_dim = m.qk_nope_head_dim + m.qk_rope_head_dim;
  }
  if (m.is_moe()) {
    if (m.expert_ffn_hidden == 0) m.expert_ffn_hidden = m.ffn_hidden;
    if (m.shared_expert_ffn_hidden == 0) m.shared_expert_ffn_hidden = m.shared_experts * m.expert_ffn_hidden;
    if (m.moe_every <= 0) m.moe_every = 1;
  }
  if (m.max_positions == 0) m.max_positions = m.seq_len;
  return m;
}

int64_t moe_layer_count(const ModelSpec& m) {
  if (!m.is_moe() || m.layers <= m.moe_first_dense) return 0;
  const int64_t candidates = m.layers - m.moe_first_dense;
  const int64_t every = m.moe_every > 0 ? m.moe_every : 1;
  // Layers first_dense + every-1, first_dense + 2·every-1, ... are MoE (Megatron --moe-layer-freq).
  return candidates / every;
}

const char* to_string(MlpKind k) {
  switch (k) {
    case MlpKind::gelu:
      return "gelu";
    case MlpKind::swiglu:
      return "swiglu";
    case MlpKind::geglu:
      return "geglu";
  }
  return "?";
}
const char* to_string(NormKind k) { return k == NormKind::layernorm ? "layernorm" : "rmsnorm"; }
const char* to_string(PositionKind k) { return k == PositionKind::learned ? "learned" : "rotary"; }
const char* to_string(AttentionKind k) { return k == AttentionKind::mla ? "mla" : "standard"; }

}  // namespace llmc
