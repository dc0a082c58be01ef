// ModelSpec: the shape of a decoder-only transformer (dense, MoE, MLA), or just its size N.
#pragma once
#include <cstdint>
#include <string>

namespace llmc {

enum class MlpKind { gelu, swiglu, geglu };   // gelu: 2 matrices; swiglu/geglu: 3 (gated)
enum class NormKind { layernorm, rmsnorm };   // layernorm has weight + bias, rmsnorm weight only
enum class PositionKind { rotary, learned };  // learned adds max_positions × hidden params
enum class AttentionKind { standard, mla };   // standard covers MHA, GQA, MQA via kv_heads

struct ModelSpec {
  std::string name;
  std::string source;  // where the shape comes from (preset file, config.json, user)

  // Size-only path: when > 0 it overrides the count derived from the shape (the seeds' "N").
  double params_override = 0;

  // Shape. layers == 0 means "no shape given" (size-only scenario).
  int64_t layers = 0;
  int64_t hidden = 0;
  int64_t heads = 0;
  int64_t kv_heads = 0;    // 0: same as heads (MHA)
  int64_t head_dim = 0;    // 0: hidden / heads
  int64_t ffn_hidden = 0;  // 0: 4·hidden for gelu, 8/3·hidden rounded up to 256 for gated MLPs
  MlpKind mlp = MlpKind::swiglu;
  int64_t vocab = 0;
  bool tied_embeddings = false;
  bool attn_bias = false;      // q/k/v projection biases
  bool attn_out_bias = false;  // output projection bias
  bool mlp_bias = false;
  NormKind norm = NormKind::rmsnorm;
  int64_t norms_per_layer = 2;
  PositionKind position = PositionKind::rotary;
  int64_t max_positions = 0;  // learned position table size (0: seq_len)
  int64_t seq_len = 0;        // the model's pre-training sequence length (default for training.seq_len)
  bool dropout = false;       // dropout layers present (adds masks to activation memory)

  // Mixture of experts (experts == 0: dense).
  int64_t experts = 0;
  int64_t top_k = 0;
  int64_t shared_experts = 0;
  int64_t expert_ffn_hidden = 0;         // 0: ffn_hidden
  int64_t shared_expert_ffn_hidden = 0;  // total width of all shared experts; 0: shared_experts × expert_ffn_hidden
  int64_t moe_first_dense = 0;           // leading dense layers (DeepSeek: 3)
  int64_t moe_every = 1;                 // every n-th layer (after the dense ones) is MoE
  // Group-limited routing (DeepSeek-V3 §2.1.2; config.json n_group, topk_group): the experts form
  // moe_groups equal groups in order and a token's top_k come from its moe_group_topk best groups.
  int64_t moe_groups = 1;
  int64_t moe_group_topk = 1;
  // Sliding-window attention (Mistral 7B v0.1, Gemma 2, GPT-OSS; config.json sliding_window): in
  // windowed layers a query attends to the last sliding_window keys; every full_attention_every-th
  // layer attends to all of them (Gemma 2 and GPT-OSS alternate: 2), 0: none does.
  int64_t sliding_window = 0;
  int64_t full_attention_every = 0;

  // Multi-head latent attention (DeepSeek-V2/V3).
  AttentionKind attention = AttentionKind::standard;
  int64_t q_lora_rank = 0;  // 0: full-rank q projection
  int64_t kv_lora_rank = 0;
  int64_t qk_rope_head_dim = 0;
  int64_t qk_nope_head_dim = 0;
  int64_t v_head_dim = 0;

  bool has_shape() const { return layers > 0; }
  bool is_moe() const { return experts > 0; }
};

// The model with every "0 means default" field filled in. Only call on a validated spec.
ModelSpec resolved(const ModelSpec& m);

// Number of MoE layers among `layers` given moe_first_dense / moe_every.
int64_t moe_layer_count(const ModelSpec& m);

const char* to_string(MlpKind k);
const char* to_string(NormKind k);
const char* to_string(PositionKind k);
const char* to_string(AttentionKind k);

}  // namespace llmc
