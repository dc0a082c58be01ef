// Hugging Face config.json → ModelSpec for the Llama, Mistral, Mixtral, Qwen2, Gemma2 and
// DeepSeek-V3 families (field names as in transformers' configuration_*.py).
#include <string>

#include "common/json_util.h"
#include "llmc/catalog.h"

namespace llmc {

using detail::json;

namespace {

struct Reader {
  const json& j;
  Error err;
  bool failed = false;

  // A required positive integer; the error names the config.json field.
  int64_t need(const char* key) {
    if (failed) return 0;
    if (!j.contains(key)) return fail(key, "missing (required for this model_type)");
    return pos(key);
  }
  int64_t opt(const char* key, int64_t fallback) {
    if (failed || !j.contains(key) || j.at(key).is_null()) return fallback;
    return pos(key, true);
  }
  bool flag(const char* key, bool fallback) {
    if (failed || !j.contains(key) || j.at(key).is_null()) return fallback;
    if (!j.at(key).is_boolean()) {
      fail(key, std::string("must be true or false; got ") + j.at(key).dump());
      return fallback;
    }
    return j.at(key).get<bool>();
  }
  int64_t pos(const char* key, bool allow_zero = false) {
    const json& v = j.at(key);
    if (!v.is_number_integer() && !v.is_number_unsigned())
      return fail(key, std::string("must be an integer; got ") + v.dump());
    const int64_t n = v.get<int64_t>();
    if (n < (allow_zero ? 0 : 1) || n > 100000000)
      return fail(key, "must be in [" + std::string(allow_zero ? "0" : "1") + ", 1e8]; got " + v.dump());
    return n;
  }
  int64_t fail(const char* key, const std::string& msg) {
    if (!failed) err = make_error(std::string("config.json: ") + key, msg);
    failed = true;
    return 0;
  }
};

}  // namespace

Result<ModelSpec> model_from_hf_config(const std::string& text) {
  Result<json> doc = detail::parse_json(text, "config.json");
  if (!doc) return doc.error();
  const json& j = *doc;
  if (!j.is_object()) return make_error("config.json", std::string("must be a JSON object; got ") + j.type_name());
  if (!j.contains("model_type") || !j.at("model_type").is_string())
    return make_error("config.json: model_type",
                      "missing; supported: llama, mistral, mixtral, qwen2, gemma2, deepseek_v3");
  const std::string type = j.at("model_type").get<std::string>();
  const bool llama_like = type == "llama" || type == "mistral" || type == "mixtral" || type == "qwen2";
  if (!llama_like && type != "gemma2" && type != "deepseek_v3")
    return make_error(
        "config.json: model_type",
        "'" + type + "' is not supported; supported: llama, mistral, mixtral, qwen2, gemma2, deepseek_v3");

  Reader rd{j, {}};
  ModelSpec m;
  m.name = j.contains("_name_or_path") && j.at("_name_or_path").is_string() ? j.at("_name_or_path").get<std::string>()
                                                                            : type;
  m.layers = rd.need("num_hidden_layers");
  m.hidden = rd.need("hidden_size");
  m.heads = rd.need("num_attention_heads");
  m.kv_heads = rd.opt("num_key_value_heads", m.heads);
  m.vocab = rd.need("vocab_size");
  m.ffn_hidden = rd.need("intermediate_size");
  m.head_dim = rd.opt("head_dim", 0);
  m.tied_embeddings = rd.flag("tie_word_embeddings", type == "gemma2");
  m.attn_bias = rd.flag("attention_bias", type == "qwen2");  // Qwen2 always has q/k/v biases
  m.mlp_bias = rd.flag("mlp_bias", false);
  m.mlp = MlpKind::swiglu;
  m.norm = NormKind::rmsnorm;
  m.position = PositionKind::rotary;
  const int64_t max_pos = rd.opt("max_position_embeddings", 4096);
  // config.json gives the context window, not the training sequence length: cap the default.
  m.seq_len = max_pos < 4096 ? max_pos : 4096;
  if (type == "gemma2") {
    m.mlp = MlpKind::geglu;
    m.norms_per_layer = 4;
  }
  // The gated MLP's activation: SiLU → SwiGLU, GeLU variants → GeGLU; others are not modelled.
  for (const char* act_key : {"hidden_act", "hidden_activation"}) {
    if (!j.contains(act_key) || j.at(act_key).is_null()) continue;
    if (!j.at(act_key).is_string())
      return make_error(std::string("config.json: ") + act_key, "must be a string; got " + j.at(act_key).dump());
    const std::string act = j.at(act_key).get<std::string>();
    if (act == "silu" || act == "swish")
      m.mlp = MlpKind::swiglu;
    else if (act.rfind("gelu", 0) == 0)
      m.mlp = MlpKind::geglu;
    else
      return make_error(std::string("config.json: ") + act_key,
                        "'" + act + "' is not supported (silu, swish, gelu, gelu_pytorch_tanh)");
  }
  // Sliding windows: Mistral's on every layer (null from v0.2 on), Gemma 2's on every other
  // (transformers' Gemma2: even layers windowed, odd ones global).
  if (type == "mistral" || type == "mixtral" || type == "gemma2") m.sliding_window = rd.opt("sliding_window", 0);
  if (type == "gemma2" && m.sliding_window > 0) m.full_attention_every = 2;
  if (type == "mixtral") {
    m.experts = rd.need("num_local_experts");
    m.top_k = rd.need("num_experts_per_tok");
    m.expert_ffn_hidden = m.ffn_hidden;
  }
  if (type == "deepseek_v3") {
    m.attention = AttentionKind::mla;
    m.q_lora_rank = rd.opt("q_lora_rank", 0);
    m.kv_lora_rank = rd.need("kv_lora_rank");
    m.qk_rope_head_dim = rd.need("qk_rope_head_dim");
    m.qk_nope_head_dim = rd.need("qk_nope_head_dim");
    m.v_head_dim = rd.need("v_head_dim");
    m.experts = rd.need("n_routed_experts");
    m.top_k = rd.need("num_experts_per_tok");
    m.shared_experts = rd.opt("n_shared_experts", 0);
    m.expert_ffn_hidden = rd.need("moe_intermediate_size");
    m.moe_first_dense = rd.opt("first_k_dense_replace", 0);
    m.moe_every = rd.opt("moe_layer_freq", 1);
    m.moe_groups = rd.opt("n_group", 1);
    m.moe_group_topk = rd.opt("topk_group", 1);
    m.head_dim = 0;
  }
  if (rd.failed) return rd.err;
  if (m.heads > 0 && m.kv_heads > 0 && m.heads % m.kv_heads != 0)
    return make_error(
        "config.json: num_key_value_heads",
        "must divide num_attention_heads (" + std::to_string(m.heads) + "); got " + std::to_string(m.kv_heads));
  if (m.head_dim == 0 && m.attention == AttentionKind::standard && m.hidden % m.heads != 0)
    return make_error("config.json: head_dim", "missing, and hidden_size is not divisible by num_attention_heads");
  if (m.is_moe() && m.top_k > m.experts)
    return make_error("config.json: num_experts_per_tok",
                      "must be at most the number of experts; got " + std::to_string(m.top_k));
  if (m.is_moe() && (m.moe_groups < 1 || m.experts % m.moe_groups != 0))
    return make_error("config.json: n_group", "must divide n_routed_experts (" + std::to_string(m.experts) + "); got " +
                                                  std::to_string(m.moe_groups));
  if (m.is_moe() && (m.moe_group_topk < 1 || m.moe_group_topk > m.moe_groups))
    return make_error("config.json: topk_group", "must be in [1, n_group = " + std::to_string(m.moe_groups) +
                                                     "]; got " + std::to_string(m.moe_group_topk));
  if (m.moe_first_dense >= m.layers && m.is_moe())
    return make_error("config.json: first_k_dense_replace", "must be less than num_hidden_layers");
  m.source = "Hugging Face config.json (model_type " + type + "); seq_len = min(max_position_embeddings, 4096)";
  return m;
}

}  // namespace llmc
