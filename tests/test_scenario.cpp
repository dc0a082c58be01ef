// resolve(): defaults and cross-field rules, each error naming its fields and values.
#include "test_util.h"

using namespace llmc;
using namespace llmc::test;

TEST_CASE("unset dp is gpu_count / (tp·pp·cp)") {
  Estimate e =
      run({{"model.preset", "llama3.1-70b"}, {"parallel.tp", "8"}, {"parallel.pp", "2"}, {"hardware.gpu_count", "64"}});
  CHECK(e.r.s.parallel.dp == 4);
  CHECK(e.r.gpu_count == 64);
}

TEST_CASE("divisibility rules name their fields and values") {
  Error e = run_error({{"model.preset", "llama3.1-8b"}, {"parallel.tp", "3"}});
  CHECK(e.field == "parallel.tp");
  CHECK(contains(e.message, "model.heads (32)"));
  CHECK(contains(e.message, "(3)"));

  e = run_error({{"model.preset", "llama3.1-8b"}, {"parallel.tp", "16"}});  // 8 kv heads
  CHECK(e.field == "parallel.tp");
  CHECK(contains(e.message, "model.kv_heads (8)"));

  e = run_error({{"model.preset", "mixtral-8x7b"}, {"parallel.ep", "3"}, {"hardware.gpu_count", "3"}});
  CHECK(e.field == "parallel.ep");
  CHECK(contains(e.message, "model.experts (8)"));

  e = run_error({{"model.preset", "llama3.1-8b"}, {"parallel.tp", "8"}, {"hardware.gpu_count", "12"}});
  CHECK(e.field == "hardware.gpu_count");
  CHECK(contains(e.message, "multiple of parallel.tp × pp × cp = 8"));

  e = run_error({{"model.preset", "llama3.1-8b"},
                 {"hardware.gpu_count", "8"},
                 {"training.global_batch_seqs", "100"},
                 {"training.micro_batch", "2"}});
  CHECK(e.field == "training.global_batch_seqs");
  CHECK(contains(e.message, "2 × 8 = 16; got 100"));

  e = run_error({{"model.preset", "llama3.1-8b"}, {"parallel.pp", "64"}});
  CHECK(e.field == "parallel.pp");
  CHECK(contains(e.message, "model.layers (32)"));

  e = run_error({{"model.preset", "llama3.1-8b"}, {"parallel.cp", "3"}, {"training.seq_len", "8192"}});
  CHECK(e.field == "parallel.cp");

  e = run_error({{"model.preset", "llama3.1-8b"}, {"parallel.ep", "2"}, {"hardware.gpu_count", "2"}});
  CHECK(e.field == "parallel.ep");
  CHECK(contains(e.message, "MoE"));

  e = run_error({{"model.preset", "llama3.1-8b"}, {"training.global_batch_tokens", "1000"}});
  CHECK(e.field == "training.global_batch_tokens");

  e = run_error({{"model.preset", "llama3.1-8b"},
                 {"parallel.virtual_stages", "2"},
                 {"parallel.pp", "2"},
                 {"hardware.gpu_count", "2"}});
  CHECK(e.field == "parallel.virtual_stages");

  e = run_error({{"model.preset", "llama3.1-8b"},
                 {"parallel.pp", "4"},
                 {"parallel.schedule", "interleaved"},
                 {"parallel.virtual_stages", "2"},
                 {"hardware.gpu_count", "4"},
                 {"training.global_batch_seqs", "6"}});
  CHECK(e.field == "training.global_batch_seqs");
  CHECK(contains(e.message, "multiple of parallel.pp (4)"));

  e = run_error({{"hardware.mfu", "0.4"}, {"hardware.achieved_tflops", "400"}, {"model.params", "1e9"}});
  CHECK(e.field == "hardware.mfu");

  e = run_error({{"training.precision", "fp8_mixed"}, {"hardware.gpu", "a100-sxm-80gb"}, {"model.params", "1e9"}});
  CHECK(e.field == "training.precision");
}

// V100 runs neither FlashAttention nor cuDNN's fused attention; bf16 is an error there, not fp16.
TEST_CASE("V100: bf16 is refused, flash attention is warned about") {
  Error e = run_error({{"hardware.gpu", "v100-sxm2-32gb"}, {"model.preset", "llama2-7b"}});
  CHECK(e.field == "training.precision");
  CHECK(contains(e.message, "V100"));
  Estimate flash =
      run({{"hardware.gpu", "v100-sxm2-32gb"}, {"model.preset", "llama2-7b"}, {"training.precision", "fp16_mixed"}});
  bool warned = false;
  for (const std::string& w : flash.warnings)
    warned |= contains(w, "training.flash_attention") && contains(w, "Ampere");
  CHECK(warned);
  Estimate unfused = run({{"hardware.gpu", "v100-sxm2-32gb"},
                          {"model.preset", "llama2-7b"},
                          {"training.precision", "fp16_mixed"},
                          {"training.flash_attention", "false"}});
  for (const std::string& w : unfused.warnings) CHECK_FALSE(contains(w, "training.flash_attention"));
  Estimate a100 = run({{"hardware.gpu", "a100-sxm-80gb"}, {"model.preset", "llama2-7b"}});
  for (const std::string& w : a100.warnings) CHECK_FALSE(contains(w, "training.flash_attention"));
}

TEST_CASE("a scenario without a model says how to give one") {
  Error e = run_error({});
  CHECK(e.field == "model");
  CHECK(contains(e.message, "--model"));
}

TEST_CASE("uneven pipeline stages are allowed with a warning (Llama 3 405B: 126 layers on 16 stages)") {
  Estimate e = run({{"model.preset", "llama3.1-405b"},
                    {"parallel.tp", "8"},
                    {"parallel.pp", "16"},
                    {"hardware.gpu_count", "128"},
                    {"training.global_batch_seqs", "16"}});
  CHECK(e.r.layers_per_stage == 8);
  bool warned = false;
  for (const std::string& w : e.warnings) warned |= contains(w, "uneven");
  CHECK(warned);
}

TEST_CASE("pipeline chunks: the first and the last may hold no layer, no others") {
  Sets meta = {{"model.preset", "llama3.1-405b"},
               {"parallel.tp", "8"},
               {"parallel.pp", "16"},
               {"hardware.gpu_count", "128"},
               {"training.global_batch_seqs", "16"},
               {"parallel.schedule", "interleaved"},
               {"parallel.virtual_stages", "8"}};
  Estimate e = run(meta);  // 126 = 16 × 8 − 2 layers (Llama 3 §3.3.2)
  bool bare = false;
  for (const std::string& w : e.warnings)
    bare |= contains(w, "first chunk holds only the embedding and the last only the output layer and loss");
  CHECK(bare);
  meta.push_back({"model.layers", "125"});
  Error too_few = run_error(meta);
  CHECK(too_few.field == "parallel.pp");
  CHECK(contains(too_few.message,
                 "model.layers (125) must be at least 126 for parallel.pp = 16 × parallel.virtual_stages = 8"));
  // 4 stages need 2 layers: one stage may hold only the embedding, one only the loss.
  CHECK(contains(
      run_error(
          {{"model.preset", "llama3.1-8b"}, {"model.layers", "1"}, {"parallel.pp", "4"}, {"hardware.gpu_count", "4"}})
          .message,
      "must be at least 2"));
  // 2 stages of 4 chunks take 6 layers: a full stage of 4, each stage giving one up (the first
  // chunk and the last bare), as Megatron-LM splits them with the embedding and loss accounted.
  Sets two = {{"model.preset", "llama3.1-8b"},
              {"parallel.pp", "2"},
              {"hardware.gpu_count", "2"},
              {"training.global_batch_seqs", "4"},
              {"parallel.schedule", "interleaved"},
              {"parallel.virtual_stages", "4"},
              {"model.layers", "5"}};
  CHECK(contains(run_error(two).message, "must be at least 6"));
  two.push_back({"model.layers", "6"});
  Estimate six = run(two);
  CHECK(six.r.layers_per_stage == 4);
  bool both_bare = false;
  for (const std::string& w : six.warnings)
    both_bare |= contains(w, "each stage takes 3 of a full stage's 4 layers") &&
                 contains(w, "first chunk holds only the embedding and the last only the output layer and loss");
  CHECK(both_bare);
  // 7 layers: ⌈7/2⌉ = 4, the first stage gives up one.
  two.push_back({"model.layers", "7"});
  CHECK(run(two).r.layers_per_stage == 4);
  // 8 layers: the even split, 4 + 4, nothing bare.
  two.push_back({"model.layers", "8"});
  CHECK(run(two).r.layers_per_stage == 4);
}

TEST_CASE("seq_len defaults to the model's pre-training length") {
  CHECK(run({{"model.preset", "llama2-7b"}}).r.s.training.seq_len == 4096);
  CHECK(run({{"model.params", "1e9"}}).r.s.training.seq_len == 2048);
}
