// Hugging Face config.json import: the public configs of each supported family give the same
// parameter count as the preset, and bad configs get errors naming the field.
#include "llmc/catalog.h"
#include "test_util.h"

using namespace llmc;
using namespace llmc::test;

namespace {
double params_of(const ModelSpec& m) {
  Scenario s = default_scenario();
  s.model = m;
  return run_scenario(s).params.total;
}
}  // namespace

TEST_CASE("Llama 3.1 8B config.json") {
  Result<ModelSpec> m =
      model_from_hf_config(R"({"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 4096,
    "intermediate_size": 14336, "num_attention_heads": 32, "num_hidden_layers": 32, "num_key_value_heads": 8, "vocab_size": 128256,
    "max_position_embeddings": 131072, "tie_word_embeddings": false, "attention_bias": false, "mlp_bias": false, "rope_theta": 500000.0})");
  REQUIRE(m.ok());
  CHECK(params_of(*m) == 8030261248.0);
  CHECK(m->seq_len == 4096);
}

TEST_CASE("Qwen2.5 7B config.json (q/k/v biases implied by the family)") {
  Result<ModelSpec> m = model_from_hf_config(R"({"model_type": "qwen2", "hidden_size": 3584, "intermediate_size": 18944,
    "num_attention_heads": 28, "num_hidden_layers": 28, "num_key_value_heads": 4, "vocab_size": 152064, "tie_word_embeddings": false})");
  REQUIRE(m.ok());
  CHECK(params_of(*m) == 7615616512.0);
}

TEST_CASE("Mixtral 8x7B config.json") {
  Result<ModelSpec> m =
      model_from_hf_config(R"({"model_type": "mixtral", "hidden_size": 4096, "intermediate_size": 14336,
    "num_attention_heads": 32, "num_hidden_layers": 32, "num_key_value_heads": 8, "vocab_size": 32000, "num_local_experts": 8,
    "num_experts_per_tok": 2, "tie_word_embeddings": false})");
  REQUIRE(m.ok());
  CHECK(params_of(*m) == 46702792704.0);
}

TEST_CASE("Gemma 2 9B config.json (4 norms, tied embeddings, GeGLU)") {
  Result<ModelSpec> m =
      model_from_hf_config(R"({"model_type": "gemma2", "hidden_size": 3584, "intermediate_size": 14336,
    "num_attention_heads": 16, "num_hidden_layers": 42, "num_key_value_heads": 8, "head_dim": 256, "vocab_size": 256000})");
  REQUIRE(m.ok());
  CHECK(params_of(*m) == 9241705984.0);
}

TEST_CASE("DeepSeek-V3 config.json (MLA + 256 experts)") {
  Result<ModelSpec> m =
      model_from_hf_config(R"({"model_type": "deepseek_v3", "hidden_size": 7168, "intermediate_size": 18432,
    "moe_intermediate_size": 2048, "num_attention_heads": 128, "num_hidden_layers": 61, "num_key_value_heads": 128, "vocab_size": 129280,
    "n_routed_experts": 256, "n_shared_experts": 1, "num_experts_per_tok": 8, "first_k_dense_replace": 3, "moe_layer_freq": 1,
    "q_lora_rank": 1536, "kv_lora_rank": 512, "qk_rope_head_dim": 64, "qk_nope_head_dim": 128, "v_head_dim": 128, "tie_word_embeddings": false})");
  REQUIRE(m.ok());
  CHECK(params_of(*m) == 671026404352.0);
  CHECK(m->moe_groups == 1);  // no n_group: no group-limited routing
  CHECK(m->moe_group_topk == 1);
  // Group-limited routing (the published config's n_group 8, topk_group 4).
  const std::string v3 = R"({"model_type": "deepseek_v3", "hidden_size": 7168, "intermediate_size": 18432,
    "moe_intermediate_size": 2048, "num_attention_heads": 128, "num_hidden_layers": 61, "num_key_value_heads": 128, "vocab_size": 129280,
    "n_routed_experts": 256, "n_shared_experts": 1, "num_experts_per_tok": 8, "first_k_dense_replace": 3, "moe_layer_freq": 1,
    "q_lora_rank": 1536, "kv_lora_rank": 512, "qk_rope_head_dim": 64, "qk_nope_head_dim": 128, "v_head_dim": 128, "tie_word_embeddings": false)";
  m = model_from_hf_config(v3 + R"(, "n_group": 8, "topk_group": 4})");
  REQUIRE(m.ok());
  CHECK(m->moe_groups == 8);
  CHECK(m->moe_group_topk == 4);
  m = model_from_hf_config(v3 + R"(, "n_group": 3, "topk_group": 1})");
  REQUIRE_FALSE(m.ok());
  CHECK(m.error().field == "config.json: n_group");
  CHECK(contains(m.error().message, "must divide n_routed_experts (256); got 3"));
  m = model_from_hf_config(v3 + R"(, "n_group": 8, "topk_group": 9})");
  REQUIRE_FALSE(m.ok());
  CHECK(m.error().field == "config.json: topk_group");
}

TEST_CASE("bad config.json files name the field") {
  Result<ModelSpec> m = model_from_hf_config(R"({"model_type": "llama", "hidden_size": 4096})");
  REQUIRE_FALSE(m.ok());
  CHECK(m.error().field == "config.json: num_hidden_layers");
  CHECK(contains(m.error().message, "missing"));
  m = model_from_hf_config(R"({"model_type": "gpt_bigcode"})");
  CHECK(contains(m.error().message, "'gpt_bigcode' is not supported"));
  m = model_from_hf_config(R"({"hidden_size": 4096})");
  CHECK(m.error().field == "config.json: model_type");
  m = model_from_hf_config(
      R"({"model_type": "llama", "num_hidden_layers": "32", "hidden_size": 4096, "num_attention_heads": 32, "vocab_size": 1, "intermediate_size": 1})");
  CHECK(m.error().field == "config.json: num_hidden_layers");
  CHECK(contains(m.error().message, "integer"));
  m = model_from_hf_config(
      R"({"model_type": "llama", "num_hidden_layers": -1, "hidden_size": 4096, "num_attention_heads": 32, "vocab_size": 1, "intermediate_size": 1})");
  CHECK(contains(m.error().message, "got -1"));
  m = model_from_hf_config(
      R"({"model_type": "llama", "num_hidden_layers": 2, "hidden_size": 4096, "num_attention_heads": 32,
    "num_key_value_heads": 5, "vocab_size": 10, "intermediate_size": 10})");
  CHECK(m.error().field == "config.json: num_key_value_heads");
  m = model_from_hf_config(
      R"({"model_type": "llama", "num_hidden_layers": 2, "hidden_size": 64, "num_attention_heads": 4,
    "vocab_size": 10, "intermediate_size": 10, "hidden_act": "relu"})");
  CHECK(m.error().field == "config.json: hidden_act");
  CHECK(contains(m.error().message, "'relu' is not supported"));
  m = model_from_hf_config("{not json");
  CHECK(contains(m.error().message, "not valid JSON"));
}
