// model.sliding_window, model.full_attention_every: sliding-window attention (Mistral 7B v0.1,
// Gemma 2, GPT-OSS). A window w over a span s leaves a causal band of s·w − w²/2 scores, counted
// as a span of 2w − w²/s in the windowed layers; the fused kernels skip the blocks outside it.
#include "llmc/catalog.h"
#include "test_util.h"

using namespace llmc;
using namespace llmc::test;

namespace {

const Sets kMistral = {{"model.preset", "mistral-7b"},       {"hardware.gpu", "h100-sxm"},
                       {"hardware.gpu_count", "8"},          {"training.seq_len", "8192"},
                       {"training.global_batch_seqs", "64"}, {"training.recompute", "full"}};

}  // namespace

TEST_CASE("sliding window: attention FLOPs of the band, on the windowed layers only") {
  // Mistral 7B v0.1: a 4096-token window on all 32 layers at 8192 tokens: span 2·4096 − 4096²/8192
  // = 6144; per token 3 × 32 layers × 2·s·a·(d_qk + d_v) × ½ with a = 32 heads of 128.
  const Estimate windowed = run(kMistral);
  CHECK(windowed.flops.attention_per_token == 3 * 32 * 2.0 * 6144 * 32 * 256 / 2);
  const Estimate whole = run(with_extra(kMistral, {{"model.sliding_window", "0"}}));
  CHECK(whole.flops.attention_per_token == 3 * 32 * 2.0 * 8192 * 32 * 256 / 2);
  CHECK(windowed.time.attention_s < 0.8 * whole.time.attention_s);  // fewer blocks; at most 3/4 the FLOPs
  CHECK(windowed.time.attention_s > 0.6 * whole.time.attention_s);
  CHECK(windowed.mem.total_bytes == whole.mem.total_bytes);  // flash keeps per-token state
  // Every other layer global (Gemma 2, GPT-OSS): the average of 8192 and 6144.
  const Estimate alternating = run(with_extra(kMistral, {{"model.full_attention_every", "2"}}));
  CHECK(alternating.flops.attention_per_token == 3 * 32 * 2.0 * 7168 * 32 * 256 / 2);
  // A window at least the sequence changes nothing, bit for bit.
  const Estimate wide = run(with_extra(kMistral, {{"model.sliding_window", "8192"}}));
  CHECK(wide.time.step_s == whole.time.step_s);
  CHECK(wide.flops.attention_per_token == whole.flops.attention_per_token);
}

TEST_CASE("sliding window: the Gemma 2 presets alternate a 4096-token window with global layers") {
  const Estimate g = run({{"model.preset", "gemma2-9b"}, {"training.seq_len", "8192"}});
  const Estimate full = run({{"model.preset", "gemma2-9b"},
                             {"training.seq_len", "8192"},
                             {"model.sliding_window", "0"},
                             {"model.full_attention_every", "0"}});
  CHECK(g.flops.attention_per_token == doctest::Approx(full.flops.attention_per_token * 7168 / 8192).epsilon(1e-12));
  // At 4096 tokens the window covers every sequence: no change.
  CHECK(run({{"model.preset", "gemma2-9b"}, {"training.seq_len", "4096"}}).flops.attention_per_token ==
        run({{"model.preset", "gemma2-9b"},
             {"training.seq_len", "4096"},
             {"model.sliding_window", "0"},
             {"model.full_attention_every", "0"}})
            .flops.attention_per_token);
}

TEST_CASE("sliding window: ring attention (cp > 1) runs its windowed layers whole") {
  const Sets cp = with_extra(kMistral, {{"parallel.cp", "2"}});
  const Estimate windowed = run(cp);
  const Estimate whole = run(with_extra(cp, {{"model.sliding_window", "0"}}));
  CHECK(windowed.time.attention_s == whole.time.attention_s);
  CHECK(windowed.flops.attention_per_token < whole.flops.attention_per_token);  // the model's work is the band
}

TEST_CASE("sliding window: full_attention_every needs a window; config.json's sliding_window is read") {
  const Error e = run_error({{"model.preset", "llama3.1-8b"}, {"model.full_attention_every", "2"}});
  CHECK(e.field == "model.full_attention_every");
  CHECK(contains(e.text(), "needs model.sliding_window > 0"));
  const std::string mistral = R"({"model_type": "mistral", "hidden_size": 4096, "intermediate_size": 14336,
    "num_attention_heads": 32, "num_hidden_layers": 32, "num_key_value_heads": 8, "vocab_size": 32000)";
  Result<ModelSpec> m = model_from_hf_config(mistral + R"(, "sliding_window": 4096})");
  REQUIRE(m.ok());
  CHECK(m->sliding_window == 4096);
  CHECK(m->full_attention_every == 0);
  m = model_from_hf_config(mistral + R"(, "sliding_window": null})");  // v0.2 and later
  REQUIRE(m.ok());
  CHECK(m->sliding_window == 0);
  m = model_from_hf_config(
      R"({"model_type": "gemma2", "hidden_size": 3584, "intermediate_size": 14336, "num_attention_heads": 16,
    "num_hidden_layers": 42, "num_key_value_heads": 8, "head_dim": 256, "vocab_size": 256000, "sliding_window": 4096})");
  REQUIRE(m.ok());
  CHECK(m->sliding_window == 4096);
  CHECK(m->full_attention_every == 2);
}
