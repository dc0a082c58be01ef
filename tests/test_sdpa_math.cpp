// training.unfused_attention: PyTorch's math SDPA (fp32 throughout) against the 16-bit unfused
// attention llmcalc models by default (docs/formulas.md, "Unfused attention").
#include "test_util.h"

using namespace llmc;
using namespace llmc::test;

namespace {

// llama-1b of gpu/groundtruth/train_llama.py: 16 layers, 32 query heads of 64 over 8 kv heads.
Sets llama_1b(const std::string& attention) {
  return {{"model.layers", "16"},
          {"model.hidden", "2048"},
          {"model.heads", "32"},
          {"model.kv_heads", "8"},
          {"model.ffn_hidden", "8192"},
          {"model.vocab", "128256"},
          {"model.mlp", "swiglu"},
          {"model.norm", "rmsnorm"},
          {"model.tied_embeddings", "false"},
          {"training.seq_len", "2048"},
          {"training.micro_batch", "1"},
          {"training.global_batch_seqs", "1"},
          {"training.precision", "bf16_mixed"},
          {"training.fused_elementwise", "false"},
          {"training.flash_attention", "false"},
          {"training.unfused_attention", attention},
          {"hardware.gpu", "h100-sxm"},
          {"hardware.gpu_count", "1"}};
}

}  // namespace

TEST_CASE("math SDPA keeps 4 bytes per score and fp32 Q, K, V for every query head") {
  const Estimate reference = run(llama_1b("matmul"));
  const Estimate sdpa = run(llama_1b("sdpa_math_tf32"));
  // Per layer, 2048 tokens, 32 heads of 64, 8 kv heads:
  //   scores 32 · 2048² = 134,217,728: the Llama reference keeps softmax's fp32 output and the
  //   16-bit copy PV reads (6 B), the math SDPA only _safe_softmax's fp32 result (4 B);
  //   Q, K, V: 16-bit Q + K, V (2·2048·(2048 + 2·512)) + repeat_kv's copies (2·2048·24·2·64)
  //   = 25,165,824 B against fp32 Q and K, V repeated to 32 heads (4·2048·32·3·64) = 50,331,648.
  const double per_layer = 2.0 * 134217728 - (50331648.0 - 25165824.0);
  CHECK(reference.mem.activations_bytes - sdpa.mem.activations_bytes == doctest::Approx(16 * per_layer).epsilon(1e-12));
}

TEST_CASE("math SDPA's matmuls in TF32, or fp32 on CUDA cores, are slower than 16-bit ones") {
  const Estimate reference = run(llama_1b("matmul"));
  const Estimate tf32 = run(llama_1b("sdpa_math_tf32"));
  const Estimate fp32 = run(llama_1b("sdpa_math_fp32"));
  // Same FLOPs: the dtype changes the rate, not the work.
  CHECK(tf32.flops.hardware_per_token == reference.flops.hardware_per_token);
  // The six score GEMMs per layer (2 · 32 · 2048² · 64 FLOPs each) at TF32's rate (495 TFLOP/s
  // peak on an H100 against bf16's 989) cost more than in bf16, and on CUDA cores in fp32 (67
  // TFLOP/s peak) more than twice as much again; the element-wise passes are the same in both.
  CHECK(tf32.time.step_s > reference.time.step_s);
  CHECK(fp32.time.memory_bound_s == tf32.time.memory_bound_s);
  CHECK(fp32.time.gemm_s - reference.time.gemm_s > 2 * (tf32.time.gemm_s - reference.time.gemm_s));
}

TEST_CASE("training.unfused_attention: bad settings are named") {
  Sets flash_on = llama_1b("sdpa_math_tf32");
  flash_on.push_back({"training.flash_attention", "true"});
  const Error e1 = run_error(flash_on);
  CHECK(e1.field == "training.unfused_attention");
  CHECK(contains(e1.message, "flash_attention=false"));
  // V100 has no TF32: PyTorch runs these matmuls in fp32 there.
  Sets v100 = llama_1b("sdpa_math_tf32");
  v100.push_back({"hardware.gpu", "v100-sxm2-32gb"});
  v100.push_back({"training.precision", "fp16_mixed"});
  const Error e2 = run_error(v100);
  CHECK(e2.field == "training.unfused_attention");
  CHECK(contains(e2.message, "sdpa_math_fp32"));
  v100.push_back({"training.unfused_attention", "sdpa_math_fp32"});
  CHECK(run(v100).time.step_s > 0);
  Scenario s = default_scenario();
  const Status bad = set_field(s, "training.unfused_attention", "xformers");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().field == "training.unfused_attention");
  CHECK(contains(bad.error().message, "matmul"));
}
