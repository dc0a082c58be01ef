// Training FLOPs (core/src/estimate/flops.cpp, read from the layer plan): the published formulas
// they reduce to, the causal halving, MoE top-k, LoRA's backward and the hardware FLOPs each
// recompute rule adds.
#include "test_util.h"

using namespace llmc;
using namespace llmc::test;

TEST_CASE("FLOPs: a GPT layer stack gives Narayanan et al. 2021 eq. 3 without recompute") {
  // Per token, forward + backward: 72·l·h²·(1 + s/(6h) + V/(12·l·h)) with the attention score
  // term counted in full (not causal-halved), as the paper counts it.
  const Estimate e = run({{"model.preset", "narayanan2021-1.7b"}, {"training.causal_attention_flops", "false"}});
  const double l = 24, h = 2304, s = 2048, V = 51200;
  CHECK(e.flops.model_per_token ==
        doctest::Approx(72 * l * h * h * (1 + s / (6 * h) + V / (12 * l * h))).epsilon(1e-15));
}

TEST_CASE("FLOPs: the causal mask halves the attention score term, nothing else") {
  const Sets base = {{"model.preset", "llama3.1-8b"}};
  Sets full = base;
  full.push_back({"training.causal_attention_flops", "false"});
  const Estimate causal = run(base), dense = run(full);
  // Llama 3.1 8B: 2·s·a·(d_qk + d_v) per layer, 32 layers, s = 8192, a = 32, d = 128.
  CHECK(dense.flops.attention_per_token == 3 * 32 * 2.0 * 8192 * 32 * 256);
  CHECK(causal.flops.attention_per_token == dense.flops.attention_per_token / 2);
  CHECK(dense.flops.model_per_token - causal.flops.model_per_token == dense.flops.attention_per_token / 2);
}

TEST_CASE("FLOPs: MoE layers count the top-k routed experts, the shared experts and the router") {
  // Mixtral 8x7B has no biases, so a token's matmul weights are the active parameters less the
  // embeddings and the norms.
  const Estimate e = run({{"model.preset", "mixtral-8x7b"}});
  const ParamCounts& p = e.params;
  const double norms = p.norm_per_layer * double(p.dense_layers + p.moe_layers) + 4096;  // + the final norm
  CHECK(e.flops.forward_per_token - e.flops.attention_per_token / 3 - e.flops.logits_per_token / 3 ==
        doctest::Approx(2 * (p.active - p.embedding - norms)).epsilon(1e-15));
}

TEST_CASE("FLOPs: LoRA's frozen weights need input gradients only, 1× forward in backward") {
  const Estimate full = run({{"model.preset", "llama3.1-8b"}});
  const Estimate lora = run({{"model.preset", "llama3.1-8b"}, {"training.finetune", "lora"}});
  const double linear_and_logits = full.flops.forward_per_token - full.flops.attention_per_token / 3;
  CHECK(full.flops.backward_per_token - lora.flops.backward_per_token ==
        doctest::Approx(linear_and_logits).epsilon(1e-15));
}

TEST_CASE("FLOPs: hardware FLOPs add what recomputes: flash attention's backward, full recompute's forward") {
  const Estimate none = run({{"model.preset", "llama3.1-8b"}, {"training.recompute", "none"}});
  const double attn_fwd = none.flops.attention_per_token / 3;
  // Flash attention's backward recomputes QKᵀ: backward = 2.5 × forward (Dao 2023).
  CHECK(none.flops.hardware_per_token - none.flops.model_per_token == doctest::Approx(0.5 * attn_fwd).epsilon(1e-15));
  // Full recompute runs every layer's forward again (the logits are not recomputed).
  const Estimate full = run({{"model.preset", "llama3.1-8b"}, {"training.recompute", "full"}});
  const double layers_fwd = full.flops.forward_per_token - full.flops.logits_per_token / 3;
  CHECK(full.flops.hardware_per_token - full.flops.model_per_token ==
        doctest::Approx(layers_fwd + 0.5 * attn_fwd).epsilon(1e-15));
  // Megatron's selective recompute re-runs the attention core: one more attention forward.
  const Estimate sel = run({{"model.preset", "llama3.1-8b"}, {"training.recompute", "selective"}});
  CHECK(sel.flops.hardware_per_token - sel.flops.model_per_token == doctest::Approx(1.5 * attn_fwd).epsilon(1e-15));
  CHECK(sel.flops.model_per_token == none.flops.model_per_token);
}
