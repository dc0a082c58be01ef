// Memory per GPU: ZeRO paper, Korthikanti et al. 2022 variants, fits / max micro-batch / min GPUs.
#include "test_util.h"

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "llmc/fields.h"

using namespace llmc;
using namespace llmc::test;

TEST_CASE("ZeRO paper Figure 1: 7.5B on 64 GPUs, K = 12: 120 / 31.4 / 16.6 / 1.9 GB") {
  // Rajbhandari et al. 2020 (arXiv:1910.02054) Fig. 1; also validation/public.json record zero_paper_fig1_7p5B_64gpu.
  const double published[4] = {120, 31.4, 16.6, 1.9};
  for (int z = 0; z < 4; ++z) {
    CAPTURE(z);
    Estimate e = run({{"model.params", "7.5e9"},
                      {"training.precision", "fp16_mixed"},
                      {"hardware.gpu_count", "64"},
                      {"training.zero_stage", std::to_string(z)}});
    const double gb = e.mem.model_states_bytes / 1e9;
    CHECK(std::fabs(gb - published[z]) <= 0.05);  // printed to 0.1 GB: 16.64 → 16.6, 1.875 → 1.9
  }
}

TEST_CASE("ZeRO and FSDP: 'fsdp' is stage 3; hybrid shard groups shard within the group only") {
  Estimate fsdp = run({{"model.params", "8e9"}, {"hardware.gpu_count", "64"}, {"training.zero_stage", "fsdp"}});
  CHECK(fsdp.r.s.training.zero_stage == 3);
  // bf16_mixed: bf16 weights 2 + fp32 gradients 4 + fp32 master 4 + Adam 8 = 18 bytes per parameter.
  CHECK(fsdp.mem.model_states_bytes == doctest::Approx(18 * 8e9 / 64));
  Estimate hsdp = run({{"model.params", "8e9"},
                       {"hardware.gpu_count", "64"},
                       {"training.zero_stage", "3"},
                       {"training.zero_shard_group", "8"}});
  CHECK(hsdp.mem.model_states_bytes == doctest::Approx(18 * 8e9 / 8));
}

TEST_CASE("CPU offload moves optimizer states and master weights to the host") {
  Estimate e = run({{"model.params", "8e9"}, {"training.cpu_offload_optimizer", "true"}});
  CHECK(e.mem.optimizer_bytes == 0);
  CHECK(e.mem.cpu_offload_bytes == doctest::Approx(12 * 8e9));
}

namespace {
const double s = 2048, b = 1, h = 12288, a = 96, t = 8, L = 96;
Sets gpt3(Sets extra) {
  return with_extra({{"model.preset", "gpt3-175b"},
                     {"training.flash_attention", "false"},
                     {"parallel.tp", "8"},
                     {"hardware.gpu_count", "8"}},
                    extra);
}
}  // namespace

TEST_CASE("Korthikanti et al. 2022 Table 2: tensor parallel without sequence parallel") {
  Estimate e = run(gpt3({}));
  CHECK(e.mem.activations_per_layer_bytes ==
        doctest::Approx(s * b * h * (10 + 24 / t + 5 * a * s / (h * t))).epsilon(1e-12));
}

TEST_CASE("Korthikanti et al. 2022 Table 2: tensor + sequence parallel") {
  Estimate e = run(gpt3({{"training.sequence_parallel", "true"}}));
  CHECK(e.mem.activations_per_layer_bytes == doctest::Approx(s * b * h / t * (34 + 5 * a * s / h)).epsilon(1e-12));
}

TEST_CASE("Korthikanti et al. 2022 Table 2: selective recompute with tensor + sequence parallel") {
  Estimate e = run(gpt3({{"training.sequence_parallel", "true"}, {"training.recompute", "selective"}}));
  CHECK(e.mem.activations_per_layer_bytes == doctest::Approx(s * b * h * 34 / t).epsilon(1e-12));
}

TEST_CASE("Korthikanti et al. 2022: full recompute stores 2·s·b·h per layer (÷ t with SP)") {
  Estimate e = run(gpt3({{"training.sequence_parallel", "true"}, {"training.recompute", "full"}}));
  const double working = e.mem.activations_per_layer_bytes;  // one layer re-materialised in backward
  CHECK(e.mem.activations_bytes - working == doctest::Approx(L * 2 * s * b * h / t).epsilon(1e-12));
  Estimate k = run(gpt3(
      {{"training.sequence_parallel", "true"}, {"training.recompute", "full"}, {"training.recompute_layers", "48"}}));
  CHECK(k.mem.activations_bytes - working == doctest::Approx(48 * 2 * s * b * h / t + 48 * working).epsilon(1e-12));
}

TEST_CASE("flash attention removes the s² term and keeps the softmax statistics") {
  Estimate e = run(gpt3({{"training.flash_attention", "true"}, {"training.sequence_parallel", "true"}}));
  CHECK(e.mem.activations_per_layer_bytes == doctest::Approx(s * b * h * 34 / t + 4 * s * b * a / t).epsilon(1e-12));
}

TEST_CASE("context parallelism divides the sequence held per GPU") {
  Estimate one = run({{"model.preset", "llama3.1-8b"}, {"training.seq_len", "32768"}});
  Estimate cp4 = run({{"model.preset", "llama3.1-8b"},
                      {"training.seq_len", "32768"},
                      {"parallel.cp", "4"},
                      {"hardware.gpu_count", "4"}});
  CHECK(cp4.mem.activations_per_layer_bytes == doctest::Approx(one.mem.activations_per_layer_bytes / 4).epsilon(1e-12));
}

TEST_CASE("interleaved schedule holds p + (p − 1)/v micro-batches on the first stage") {
  Sets base = {{"model.preset", "gpt3-175b"},
               {"parallel.tp", "8"},
               {"parallel.pp", "8"},
               {"hardware.gpu_count", "64"},
               {"training.global_batch_seqs", "64"},
               {"parallel.schedule", "interleaved"},
               {"parallel.virtual_stages", "2"}};
  Estimate e = run(base);
  CHECK(e.mem.in_flight_micro_batches == 12);  // ceil(8 + 7/2)
  CHECK(e.time.bubble_fraction == doctest::Approx(7.0 / (64 * 2)));
}

// Llama 3.1 405B (126 layers) on 16 stages: the middle stages take 8 layers and the end stages 7
// each (Llama 3 §3.3.2; the time model's split). Under 1F1B stage i holds p − i micro-batches,
// so the peak is the second stage's 15 × 8 = 120 layer-micro-batches, not the first's 16 × 7
// = 112, nor 16 × 8 = 128 (the largest stage with the first stage's in-flight count).
TEST_CASE("uneven pipeline stages: the peak is on the stage holding the most layer-micro-batches") {
  Sets base = {{"model.preset", "llama3.1-405b"},
               {"parallel.tp", "8"},
               {"parallel.pp", "16"},
               {"hardware.gpu_count", "128"},
               {"training.global_batch_seqs", "32"},
               {"training.sequence_parallel", "true"}};
  Estimate e = run(base);
  CHECK(e.mem.in_flight_micro_batches == 15);
  CHECK(e.mem.activations_bytes == doctest::Approx(15 * 8 * e.mem.activations_per_layer_bytes).epsilon(1e-12));
  // 128 layers divide evenly: the first stage, 16 micro-batches of 8 layers, is the peak.
  base.push_back({"model.layers", "128"});
  Estimate even = run(base);
  CHECK(even.mem.in_flight_micro_batches == 16);
  CHECK(even.mem.activations_bytes == doctest::Approx(16 * 8 * even.mem.activations_per_layer_bytes).epsilon(1e-12));
}

// Meta's layout for Llama 3 405B (§3.3.2): 16 stages of 8 chunks, one layer each, the first chunk
// holding only the embedding and the last only the output layer and loss (126 = 16·8 − 2 layers).
// Megatron-LM's interleaved order runs 2(p − i − 1) + (v − 1)·p chunk forwards on stage i before
// its first backward, plus one: on stage 1, 28 + 112 + 1 = 141 one-layer chunks, the peak.
TEST_CASE("interleaved stages whose end chunks hold no layer (Llama 3 405B, pp 16, v 8)") {
  Sets base = {{"model.preset", "llama3.1-405b"},
               {"parallel.tp", "8"},
               {"parallel.pp", "16"},
               {"hardware.gpu_count", "128"},
               {"training.global_batch_seqs", "32"},
               {"training.sequence_parallel", "true"},
               {"parallel.schedule", "interleaved"},
               {"parallel.virtual_stages", "8"}};
  Estimate e = run(base);
  CHECK(e.mem.in_flight_micro_batches == 18);  // ceil(141 / 8)
  CHECK(e.mem.activations_bytes == doctest::Approx(141 * e.mem.activations_per_layer_bytes).epsilon(1e-12));
  CHECK(e.time.bubble_fraction == doctest::Approx(15.0 / (32 * 8)));
}

// The last stage of 6 layers on 4 stages of 2 chunks holds one layer and a chunk with only the
// output layer and loss (the logits make it the peak stage). It runs 4 warm-up forwards (its
// layer chunk for micro-batches 0-3), then alternates: forward the bare chunk, backward the bare
// chunk, … With 4 micro-batches it holds 4 layer-micro-batches; with 8, the forwards of the next
// four through its layer chunk come while the backwards still free only the bare chunk: 5 (the
// schedule simulated step by step; even chunks of half a layer would give 5 × 0.5 = 2.5).
TEST_CASE("interleaved: the last stage's bare chunk holds no activations, and its peak comes later") {
  Sets base = {
      {"model.preset", "llama3.1-8b"},      {"model.layers", "6"},           {"parallel.pp", "4"},
      {"hardware.gpu_count", "4"},          {"training.seq_len", "4096"},    {"training.global_batch_seqs", "4"},
      {"parallel.schedule", "interleaved"}, {"parallel.virtual_stages", "2"}};
  Estimate e = run(base);
  REQUIRE(e.mem.logits_bytes > 0);  // the last stage is the peak
  CHECK(e.mem.in_flight_micro_batches == 4);
  CHECK(e.mem.activations_bytes == doctest::Approx(4 * e.mem.activations_per_layer_bytes).epsilon(1e-12));
  base.push_back({"training.global_batch_seqs", "8"});
  Estimate eight = run(base);
  REQUIRE(eight.mem.logits_bytes > 0);
  CHECK(eight.mem.activations_bytes == doctest::Approx(5 * eight.mem.activations_per_layer_bytes).epsilon(1e-12));
}

// Two stages of 4 chunks with 6 layers (2·4 − 2): each stage holds 3 one-layer chunks and one
// bare chunk, the first stage's first (the embedding) and the last stage's last (the output layer
// and loss). With 4 micro-batches the last stage runs 6 warm-up forwards (its three layer chunks
// for micro-batches 0-1), then forwards of its bare chunk and next micro-batches' layer chunks
// against backwards that free one layer at most: 7 layer-micro-batches at the peak (the schedule
// simulated step by step); the even split (3 layers as four chunks of ¾) would give 6.75.
TEST_CASE("interleaved on two stages: one bare chunk on each") {
  Estimate e = run({{"model.preset", "llama3.1-8b"},
                    {"model.layers", "6"},
                    {"parallel.pp", "2"},
                    {"hardware.gpu_count", "2"},
                    {"training.seq_len", "4096"},
                    {"training.global_batch_seqs", "4"},
                    {"parallel.schedule", "interleaved"},
                    {"parallel.virtual_stages", "4"}});
  REQUIRE(e.mem.logits_bytes > 0);  // the last stage is the peak
  CHECK(e.mem.activations_bytes == doctest::Approx(7 * e.mem.activations_per_layer_bytes).epsilon(1e-12));
}

// Exact in-flight counts are not rounded up by float error; the huge vocabularies' logits make
// the last stage the peak in both cases.
// - Even chunks hold W + 1 chunk forwards exactly: 48 layers on 6 stages of 5 chunks, 12
//   micro-batches: 4·6 + 1 = 25 chunks of 1.6 layers = 5 micro-batches (a sum of fifths once
//   rounded up to 6).
// - Uneven end chunks are counted in 1/v-layer units: 21 layers on 5 stages of 3 chunks, 20
//   micro-batches: 6 micro-batches of the last stage, not 6.000000000000001 rounded up to 7
//   (checked against a step-by-step simulation of the schedule).
TEST_CASE("interleaved: an exact in-flight count is not rounded up") {
  struct Case {
    const char *vocab, *layers, *pp, *v, *seqs, *seq_len;
    int64_t in_flight;
  };
  for (const Case& c :
       {Case{"2000000", "48", "6", "5", "12", "4096", 5}, Case{"4000000", "21", "5", "3", "20", "512", 6}}) {
    CAPTURE(c.layers);
    Estimate e = run({{"model.preset", "llama3.1-8b"},
                      {"hardware.gpu", "h200"},
                      {"model.vocab", c.vocab},
                      {"model.layers", c.layers},
                      {"parallel.pp", c.pp},
                      {"parallel.virtual_stages", c.v},
                      {"parallel.schedule", "interleaved"},
                      {"hardware.gpu_count", c.pp},
                      {"training.global_batch_seqs", c.seqs},
                      {"training.seq_len", c.seq_len}});
    REQUIRE(e.mem.logits_bytes > 0);
    CHECK(e.mem.in_flight_micro_batches == c.in_flight);
  }
}

// ZeRO-2/3 keep only their shard of the gradients because they reduce after every micro-batch
// (DeepSpeed: "gradient reduction is required after every backward because of gradient
// partitioning", deepspeedai/DeepSpeed#2252). Reducing once per step instead (FSDP without
// gradient sync until the last micro-batch) holds the whole gradient while it accumulates.
TEST_CASE("training.grad_reduce: sharded gradients under ZeRO-2 need a reduction per micro-batch") {
  Sets base = {{"model.preset", "llama3.1-8b"},
               {"hardware.gpu_count", "16"},
               {"training.seq_len", "2048"},
               {"training.global_batch_seqs", "64"},
               {"training.zero_stage", "2"}};               // dp 16, m = 4
  const double grads_whole = run(base).params.per_gpu * 4;  // fp32 gradients
  Estimate per_micro = run(base);
  CHECK(per_micro.r.grad_reduce_per_micro_batch);
  CHECK(per_micro.mem.gradients_bytes == doctest::Approx(grads_whole / 16).epsilon(1e-12));
  Sets step = base;
  step.push_back({"training.grad_reduce", "step"});
  Estimate once = run(step);
  CHECK(once.mem.gradients_bytes == doctest::Approx(grads_whole).epsilon(1e-12));
  // One micro-batch per step: its reduction is the step's, so the shard is all it keeps.
  step.push_back({"training.global_batch_seqs", "16"});
  CHECK(run(step).mem.gradients_bytes == doctest::Approx(grads_whole / 16).epsilon(1e-12));
  // ZeRO-1 never shards gradients.
  Sets z1 = base;
  z1.push_back({"training.zero_stage", "1"});
  CHECK_FALSE(run(z1).r.grad_reduce_per_micro_batch);
  CHECK(run(z1).mem.gradients_bytes == doctest::Approx(grads_whole).epsilon(1e-12));
}

// FSDP2's reshard_after_forward = false (torchtitan's default with pipeline parallelism): every
// layer of the stage stays gathered from its forward to its backward, and the all-gathers drop
// from two per layer and micro-batch to one per micro-batch, or one per step when the gradient
// sync waits for the last micro-batch (PyTorch pipelining's set_requires_gradient_sync(False)).
TEST_CASE("training.reshard_after_forward: ZeRO-3 keeps the stage's weights gathered") {
  Sets base = {{"model.preset", "llama3.1-70b"},
               {"hardware.gpu_count", "64"},
               {"parallel.tp", "8"},
               {"parallel.pp", "4"},
               {"training.seq_len", "4096"},
               {"training.global_batch_seqs", "32"},
               {"training.zero_stage", "3"},
               {"training.recompute", "full"}};  // dp 2, m = 16
  auto input = [](const Estimate& e, const char* name) {
    const Term* t = e.trace.find("memory.per_gpu.model_states_bytes");
    REQUIRE(t);
    return term_input(*t, name);
  };
  auto gathers = [](const Estimate& e) {
    const CommItem* c = find_comm(e, "fsdp");
    REQUIRE(c);
    return c->calls;
  };
  const Estimate resharded = run(base);
  const double layer = input(resharded, "largest_layer");
  CHECK(input(resharded, "gather_buffers") == 2 * layer * 2);  // bf16 weights
  CHECK(gathers(resharded) == 2 * 16 * 20);  // forward and backward, every micro-batch, 20 layers per stage
  // FSDP2's reduce-scatter in flight: one layer's gradients, unsharded, in fp32, less the layer's
  // checkpoint freed by then (its bf16 input, 4096 tokens × 8192, whole on each tp rank without SP).
  CHECK(input(resharded, "reduce_staging") == doctest::Approx(layer * 4 - 2.0 * 4096 * 8192).epsilon(1e-12));

  Sets kept = base;
  kept.push_back({"training.reshard_after_forward", "false"});
  const Estimate k = run(kept);
  // The first stage: 20 layers and the embedding, 2 bytes per weight, unsharded.
  CHECK(input(k, "gather_buffers") == doctest::Approx(k.params.per_gpu * 2).epsilon(1e-12));
  CHECK(k.params.per_gpu > 20 * layer);
  CHECK(k.mem.total_bytes > resharded.mem.total_bytes + 15 * layer * 2);
  CHECK(gathers(k) == 16 * 20);  // forwards only (gradients reduced every micro-batch, the ZeRO-3 default)
  kept.push_back({"training.grad_reduce", "step"});
  const Estimate step = run(kept);
  CHECK(gathers(step) == 20);                                                                  // once per step
  CHECK(step.mem.gradients_bytes == doctest::Approx(step.params.per_gpu * 4).epsilon(1e-12));  // fp32, whole
  CHECK(input(step, "reduce_staging") == 0);  // one reduction after the backward of the last micro-batch
}

// Gradients reduced once per step are held whole while two micro-batches accumulate, sharded
// with one: Llama 3.1 8B on eight 40 GB A100s under ZeRO-2 does not fit at b = 1 (49.7 GB) and
// fits at b = 2 (37.5 GB), so the largest micro-batch is found though memory is not monotone.
TEST_CASE("the largest micro-batch that fits: one micro-batch can hold less than two") {
  Sets base = {{"model.preset", "llama3.1-8b"}, {"hardware.gpu", "a100-sxm-40gb"},   {"hardware.gpu_count", "8"},
               {"training.zero_stage", "2"},    {"training.grad_reduce", "step"},    {"training.recompute", "full"},
               {"training.seq_len", "2048"},    {"training.global_batch_seqs", "16"}};
  Estimate two = run(base);
  REQUIRE_FALSE(two.fits);
  CHECK(two.max_micro_batch == 2);
  base.push_back({"training.micro_batch", "2"});
  CHECK(run(base).fits);
}

// Interleaved needs a multiple of pp micro-batches, so the largest micro-batch is the one that
// leaves 16 of them on 16 stages (Llama 3.1 405B, 16 sequences per replica).
TEST_CASE("the largest micro-batch that fits keeps the interleaved schedule valid") {
  Estimate e = run({{"model.preset", "llama3.1-405b"},
                    {"parallel.tp", "8"},
                    {"parallel.pp", "16"},
                    {"hardware.gpu_count", "16384"},
                    {"training.global_batch_seqs", "2048"},
                    {"training.sequence_parallel", "true"},
                    {"parallel.schedule", "interleaved"},
                    {"parallel.virtual_stages", "8"},
                    {"training.zero_stage", "2"}});
  REQUIRE(e.fits);
  CHECK(e.max_micro_batch == 1);
}

TEST_CASE("fits, the largest micro-batch that fits, and the fewest GPUs that fit") {
  Estimate e = run({{"model.preset", "llama3.1-8b"},
                    {"hardware.gpu_count", "8"},
                    {"training.zero_stage", "3"},
                    {"training.global_batch_seqs", "256"},
                    {"training.seq_len", "4096"},
                    {"training.recompute", "full"}});
  CHECK(e.fits);
  CHECK(e.max_micro_batch >= 1);
  // Re-estimating at the reported micro-batch fits, at the next divisor it does not.
  Estimate at = run({{"model.preset", "llama3.1-8b"},
                     {"hardware.gpu_count", "8"},
                     {"training.zero_stage", "3"},
                     {"training.global_batch_seqs", "256"},
                     {"training.seq_len", "4096"},
                     {"training.recompute", "full"},
                     {"training.micro_batch", std::to_string(e.max_micro_batch)}});
  CHECK(at.fits);
  if (e.max_micro_batch < 32) {
    Estimate over = run({{"model.preset", "llama3.1-8b"},
                         {"hardware.gpu_count", "8"},
                         {"training.zero_stage", "3"},
                         {"training.global_batch_seqs", "256"},
                         {"training.seq_len", "4096"},
                         {"training.recompute", "full"},
                         {"training.micro_batch", std::to_string(e.max_micro_batch * 2)}});
    CHECK_FALSE(over.fits);
  }
  // 405B with ZeRO-3 and tp 8: the fewest GPUs is a multiple of tp, and it fits there.
  Estimate big = run({{"model.preset", "llama3.1-405b"},
                      {"parallel.tp", "8"},
                      {"training.zero_stage", "3"},
                      {"training.recompute", "full"},
                      {"training.seq_len", "4096"}});
  REQUIRE(big.min_gpus > 0);
  CHECK(big.min_gpus % 8 == 0);
  Estimate there = run({{"model.preset", "llama3.1-405b"},
                        {"parallel.tp", "8"},
                        {"training.zero_stage", "3"},
                        {"training.recompute", "full"},
                        {"training.seq_len", "4096"},
                        {"hardware.gpu_count", std::to_string(big.min_gpus)}});
  CHECK(there.fits);
  Estimate fewer = run({{"model.preset", "llama3.1-405b"},
                        {"parallel.tp", "8"},
                        {"training.zero_stage", "3"},
                        {"training.recompute", "full"},
                        {"training.seq_len", "4096"},
                        {"hardware.gpu_count", std::to_string(big.min_gpus - 8)}});
  CHECK_FALSE(fewer.fits);
}

TEST_CASE("a layout that fits needs at most its own GPUs: min_gpus over the broad scenario set") {
  // Memory never grows with dp, so a scenario that fits has 0 < min_gpus ≤ its GPU count. An
  // interleaved pp = 2 Mixtral 8x22B (below, one of the broad set) fitted on 64 GPUs and was
  // reported as fitting on none: the search solved A + B/dp from dp = 2 and 4 alone, a line that
  // the larger of two stages' curves is not.
  const nlohmann::json all = nlohmann::json::parse(source_text("tests/golden/broad_scenarios.json"));
  int fitting = 0;
  for (const nlohmann::json& doc : all) {
    Scenario s = default_scenario();
    if (!apply_scenario_json(s, doc.dump())) continue;
    const Result<Estimate> e = estimate(s);
    if (!e || !e->fits) continue;
    CAPTURE(doc.dump());
    ++fitting;
    CHECK(e->min_gpus > 0);
    CHECK(e->min_gpus <= s.hardware.gpu_count);
  }
  CHECK(fitting > 100);
  const Estimate mixtral = run({{"model.preset", "mixtral-8x22b"},
                                {"training.precision", "fp32"},
                                {"training.zero_stage", "2"},
                                {"training.optimizer", "adam8bit"},
                                {"training.reference_model", "true"},
                                {"training.recompute", "none"},
                                {"training.sequence_parallel", "false"},
                                {"training.seq_len", "2048"},
                                {"training.micro_batch", "1"},
                                {"training.global_batch_seqs", "128"},
                                {"parallel.tp", "2"},
                                {"parallel.pp", "2"},
                                {"parallel.ep", "4"},
                                {"parallel.schedule", "interleaved"},
                                {"parallel.virtual_stages", "3"},
                                {"hardware.gpu", "h200"},
                                {"hardware.gpu_count", "64"},
                                // NCCL's measured communicator memory (2026-12-01) took 0.2 GiB more
                                // than the 141 GiB; a lighter context keeps the case on its edge.
                                {"hardware.cuda_context_gib", "0.25"}});
  REQUIRE(mixtral.fits);
  CHECK(mixtral.min_gpus == 64);
  // The same search from a layout that does not fit: DeepSeek-V3 on 16 GPUs (also of the set) was
  // reported as fitting on none, and fits on 64 (dp 16, the same four micro-batches per replica).
  const test::Sets deepseek = {{"model.preset", "deepseek-v3"},
                               {"training.precision", "bf16_pure"},
                               {"training.recompute", "full"},
                               {"training.fused_elementwise", "false"},
                               {"training.sequence_parallel", "true"},
                               {"training.zero_stage", "3"},
                               {"training.optimizer", "sgd_momentum"},
                               {"training.seq_len", "2048"},
                               {"training.micro_batch", "1"},
                               {"parallel.tp", "2"},
                               {"parallel.pp", "2"},
                               {"parallel.ep", "4"}};
  auto on = [&](int gpus) {
    test::Sets sets = deepseek;
    sets.push_back({"hardware.gpu_count", std::to_string(gpus)});
    sets.push_back({"training.global_batch_seqs", std::to_string(gpus)});
    return run(sets);
  };
  const Estimate small = on(16);
  CHECK_FALSE(small.fits);
  CHECK(small.min_gpus == 64);
  CHECK(on(64).fits);
  CHECK_FALSE(on(48).fits);
}

TEST_CASE("ZeRO-0 cannot be rescued by more data parallelism: min_gpus is 0 when one replica does not fit") {
  Estimate e = run({{"model.preset", "llama3.1-70b"}, {"hardware.gpu_count", "8"}});
  CHECK_FALSE(e.fits);
  CHECK(e.min_gpus == 0);
}

TEST_CASE("total memory adds context, comm buffers and fragmentation; capacity is GiB") {
  Estimate e = run({{"model.preset", "llama3.1-8b"}, {"hardware.gpu_count", "8"}, {"training.zero_stage", "1"}});
  const MemoryPerGpu& m = e.mem;
  // The 5 % allocator reserve is on what PyTorch's pool holds, not on NCCL's own buffers.
  const double allocated = m.model_states_bytes + m.activations_bytes + m.logits_bytes;
  CHECK(m.comm_buffers_bytes == 688 * 1048576.0);  // one group of more than 2 ranks: dp 8 (NVIDIA/nccl#964)
  CHECK(m.total_bytes == doctest::Approx(allocated * 1.05 + m.comm_buffers_bytes + 0.5 * 1073741824.0));
  CHECK(m.capacity_bytes == 80.0 * 1073741824.0);
  CHECK(m.headroom_bytes == doctest::Approx(m.capacity_bytes - m.total_bytes));
  // A communicator of two ranks holds less (544 MiB): tp 2 beside dp 4.
  const Estimate tp2 = run({{"model.preset", "llama3.1-8b"}, {"hardware.gpu_count", "8"}, {"parallel.tp", "2"},
                            {"training.zero_stage", "1"}});
  CHECK(tp2.mem.comm_buffers_bytes == (544 + 688) * 1048576.0);
}

TEST_CASE("MoE expert parallelism shards the experts") {
  Estimate ep1 = run({{"model.preset", "mixtral-8x7b"}, {"hardware.gpu_count", "8"}, {"training.zero_stage", "1"}});
  Estimate ep8 = run({{"model.preset", "mixtral-8x7b"},
                      {"hardware.gpu_count", "8"},
                      {"parallel.ep", "8"},
                      {"training.zero_stage", "1"}});
  CHECK(ep8.mem.weights_bytes < ep1.mem.weights_bytes / 4);
  CHECK(ep8.params.per_gpu == doctest::Approx(ep1.params.per_gpu - 32 * 7.0 * 3 * 4096 * 14336).epsilon(1e-9));
}

// torchtitan's per-op policy (training.recompute = selective_op): a layer keeps its input and the
// outputs of wq, wv, SDPA (O + fp32 log-sum-exp), w1 and w2 (torchtitan
// torchtitan/models/llama3/infra/parallelize.py, _save_list and "every second mm"). Llama 3 8B,
// one 8,192-token sequence, tp 1, bf16: 2·T·(h + (q + kv) + q + ffn + h) + 4·T·a bytes.
TEST_CASE("selective_op keeps the block input, wq/wv/w1/w2 outputs and SDPA's per layer") {
  const double T = 8192, hh = 4096, q = 4096, kv = 1024, ffn = 14336, heads = 32, layers = 32;
  Estimate e =
      run({{"model.preset", "llama3.1-8b"}, {"training.seq_len", "8192"}, {"training.recompute", "selective_op"}});
  const double kept = 2 * T * (hh + q + kv + q + ffn + hh) + 4 * T * heads;  // 521,142,272
  const double working = e.mem.activations_per_layer_bytes;  // the layer whose re-runs are live in backward
  CHECK(e.mem.activations_bytes - working == doctest::Approx(layers * kept).epsilon(1e-12));
  Estimate none = run({{"model.preset", "llama3.1-8b"}, {"training.seq_len", "8192"}});
  Estimate full = run({{"model.preset", "llama3.1-8b"}, {"training.seq_len", "8192"}, {"training.recompute", "full"}});
  CHECK(e.mem.activations_bytes < none.mem.activations_bytes);
  CHECK(e.mem.activations_bytes > full.mem.activations_bytes);
  // With tp 8 and sequence parallelism it also keeps the two reduce-scatter outputs (torchtitan's
  // save list), T·h/8 each; w2's output is the row-parallel partial sum, T·h on every rank.
  Estimate sp = run({{"model.preset", "llama3.1-8b"},
                     {"training.seq_len", "8192"},
                     {"training.recompute", "selective_op"},
                     {"parallel.tp", "8"},
                     {"training.sequence_parallel", "true"}});
  const double kept_sp = 2 * T * (hh / 8 + (q + kv) / 8 + q / 8 + ffn / 8 + hh + 2 * hh / 8) + 4 * T * heads / 8;
  CHECK(sp.mem.activations_bytes - sp.mem.activations_per_layer_bytes ==
        doctest::Approx(layers * kept_sp).epsilon(1e-12));
}

// PyTorch eager (the Llama reference code, torchtitan's "rmsnorm"): autograd keeps RMSNorm's
// x.float() (4 bytes) and the normalised 16-bit tensor `* weight` needs, not the 16-bit input;
// silu(x₁) beside x₁, x₃ and the product; the K and V copies repeat_kv hands SDPA. Llama 3 8B,
// one 8,192-token sequence: per token 2 norms × (4 + 2 − 2)·h more, 2·(a − kv)·2·d for K and V,
// 2·ffn for silu's output: 73,728 bytes. With LoRA the norm weights are frozen: 2·h less per norm.
TEST_CASE("eager PyTorch keeps fp32 norm inputs, SwiGLU's silu output and repeat_kv's copies") {
  const double T = 8192, hh = 4096, a = 32, kv = 8, d = 128, ffn = 14336;
  auto layer = [](const char* fused, const char* finetune) {
    return run({{"model.preset", "llama3.1-8b"},
                {"training.seq_len", "8192"},
                {"training.fused_elementwise", fused},
                {"training.finetune", finetune}})
        .mem.activations_per_layer_bytes;
  };
  CHECK(layer("false", "full") - layer("true", "full") ==
        doctest::Approx(T * (2 * 4 * hh + 2 * (a - kv) * 2 * d + 2 * ffn)).epsilon(1e-12));
  CHECK(layer("false", "full") - layer("false", "lora") == doctest::Approx(T * 2 * 2 * hh).epsilon(1e-12));
  // Without flash attention the softmax keeps its fp32 output beside the 16-bit copy PV keeps.
  auto scores = [](const char* fused) {
    return run({{"model.preset", "llama3.1-8b"},
                {"training.seq_len", "2048"},
                {"training.flash_attention", "false"},
                {"training.fused_elementwise", fused}})
        .mem.activations_per_layer_bytes;
  };
  const double T2 = 2048;
  CHECK(scores("false") - scores("true") ==
        doctest::Approx(T2 * (2 * 4 * hh + 2 * (a - kv) * 2 * d + 2 * ffn) + 4 * a * T2 * T2).epsilon(1e-12));
  // GPT-style layers (LayerNorm, GeLU, MHA) keep the same tensors either way.
  auto gpt = [](const char* fused) {
    return run({{"model.preset", "gpt3-175b"},
                {"parallel.tp", "8"},
                {"hardware.gpu_count", "8"},
                {"training.fused_elementwise", fused}})
        .mem.activations_per_layer_bytes;
  };
  CHECK(gpt("false") == gpt("true"));
}

// torchtitan docs/performance.md @ 0413364, footnote 1: Llama 2 70B with FSDP2 on 64 A100 80GB at
// local batch 2 "will cause an OOM error when selective activation checkpointing is used" (so
// the page reports local batch 1), while full checkpointing at local batch 2 is its table's row.
TEST_CASE("torchtitan's footnote: Llama 2 70B per-op checkpointing fits one sequence per GPU, not two") {
  auto at = [](const char* mb, const char* rec) {
    return run({{"model.preset", "llama2-70b"},
                {"training.seq_len", "4096"},
                {"hardware.gpu", "a100-sxm-80gb"},
                {"hardware.gpu_count", "64"},
                {"training.zero_stage", "3"},
                {"training.grad_dtype", "fp32"},
                {"training.fused_elementwise", "false"},
                {"training.micro_batch", mb},
                {"training.global_batch_seqs", "128"},
                {"training.recompute", rec}});
  };
  CHECK(at("1", "selective_op").fits);
  CHECK_FALSE(at("2", "selective_op").fits);
  CHECK(at("2", "full").fits);
}

// torchtitan compiles the transformer blocks and leaves the loss eager: the head's region has a
// fusion of its own (training.fused_loss), which sets the logits' bytes and the loss's kernels.
TEST_CASE("training.fused_loss: compiled blocks with an eager loss hold 12 bytes per logit") {
  const Sets base = {{"model.preset", "llama3.1-8b"}, {"hardware.gpu_count", "1"}, {"training.global_batch_seqs", "1"}};
  const double logits = 8192.0 * 128256;  // s × V, one sequence, tp 1
  Sets eager_loss = base;
  eager_loss.push_back({"training.fused_loss", "eager"});
  const Estimate fused = run(base), split = run(eager_loss);
  CHECK(fused.mem.logits_bytes == doctest::Approx((2 + 4) * logits));
  CHECK(split.mem.logits_bytes == doctest::Approx(12 * logits));
  // The blocks are the same kernels; the loss and final norm become eager chains.
  CHECK(split.time.gemm_s == fused.time.gemm_s);
  CHECK(split.time.memory_bound_s > fused.time.memory_bound_s);
  // And the reverse: eager blocks with a fused loss keep e + 4 bytes per logit.
  Sets fused_loss = base;
  fused_loss.push_back({"training.fused_elementwise", "false"});
  fused_loss.push_back({"training.fused_loss", "fused"});
  CHECK(run(fused_loss).mem.logits_bytes == doctest::Approx((2 + 4) * logits));
  // On the 16-bit logits, kept by the caller (KempnerForge's loop): logits, log-softmax's output
  // and the two gradients, 2 bytes each, and no casts: fewer bytes moved than the fp32 chain.
  Sets bf16_loss = base;
  bf16_loss.push_back({"training.fused_loss", "eager_16bit"});
  const Estimate native = run(bf16_loss);
  CHECK(native.mem.logits_bytes == doctest::Approx(4 * 2 * logits));
  CHECK(native.time.gemm_s == split.time.gemm_s);
  CHECK(native.time.memory_bound_s < split.time.memory_bound_s);
  // Chunked: the whole 16-bit logits plus one chunk's 16-bit work.
  bf16_loss.push_back({"training.loss_chunks", "8"});
  CHECK(run(bf16_loss).mem.logits_bytes == doctest::Approx((2 + 3 * 2 / 8.0) * logits));
}

// A DTensor output layer whose output is Replicate (KempnerForge's TP plan) gathers the whole
// logits on every tp rank: the loss keeps and reads s × V per rank instead of s × V / t, and an
// all-gather of the logits runs in every micro-batch's forward.
TEST_CASE("training.loss_parallel: without it every tp rank holds the whole logits") {
  const Sets base = {{"model.preset", "llama3.1-8b"},
                     {"hardware.gpu_count", "4"},
                     {"parallel.tp", "4"},
                     {"training.sequence_parallel", "true"},
                     {"training.global_batch_seqs", "2"}};  // micro-batch 1, m = 2
  const double logits = 8192.0 * 128256;                    // s × V, one sequence
  Sets gathered = base;
  gathered.push_back({"training.loss_parallel", "false"});
  const Estimate split = run(base), whole = run(gathered);
  CHECK(split.mem.logits_bytes == doctest::Approx((2 + 4) * logits / 4));
  CHECK(whole.mem.logits_bytes == doctest::Approx((2 + 4) * logits));
  const CommItem* g = find_comm(whole, "tp_logits");
  REQUIRE(g);
  CHECK(g->collective == "all_gather");
  CHECK(g->calls == 2);
  CHECK(g->bytes_per_step == doctest::Approx(2 * 2 * logits));  // bf16, two micro-batches
  CHECK(g->exposed_s == g->time_s);
  CHECK(find_comm(split, "tp_logits") == nullptr);
  CHECK(whole.time.memory_bound_s > split.time.memory_bound_s);  // the loss over the whole vocabulary
  CHECK(whole.time.step_s > split.time.step_s);
  // An eager fp32 loss on the vocabulary shards is PyTorch's loss_parallel (torchtitan): its
  // decomposed backward holds the output, zeros_like, exp and their sum, 16 bytes per logit,
  // against F.cross_entropy's 12 on whole logits; one more pass each way.
  Sets eager = base, eager_whole = gathered;
  eager.push_back({"training.fused_loss", "eager"});
  eager_whole.push_back({"training.fused_loss", "eager"});
  const Estimate dtensor = run(eager), replicated = run(eager_whole);
  CHECK(dtensor.mem.logits_bytes == doctest::Approx(16 * logits / 4));
  CHECK(replicated.mem.logits_bytes == doctest::Approx(12 * logits));
}

// LoRA: frozen matrices without an adapter need only their weight in backward (dX = dY·Wᵀ), so
// they keep no input; the adapters' targets decide which inputs stay. QLoRA stores the frozen
// base in 4 bits (NF4, here fp4's 0.5 bytes) and dequantises it before every GEMM.
TEST_CASE("LoRA targets and quantised base weights") {
  const Sets base = {{"model.preset", "llama3.1-8b"},
                     {"hardware.gpu_count", "1"},
                     {"training.global_batch_seqs", "1"},
                     {"training.finetune", "lora"},
                     {"training.seq_len", "2048"}};
  auto with = [&](std::initializer_list<std::pair<std::string, std::string>> extra) {
    Sets s = base;
    for (const auto& kv : extra) s.push_back(kv);
    return run(s);
  };
  const Estimate all = with({}), attn = with({{"training.lora_targets", "attention"}}),
                 qv = with({{"training.lora_targets", "qv"}});
  // Trainable: r·(in + out) per adapted matrix, 32 layers, r = 16, h = 4096, kv = 8 × 128.
  const double r = 16, h = 4096, kvd = 1024, f = 14336, L = 32;
  CHECK(qv.params.trainable == doctest::Approx(L * r * ((h + h) + (h + kvd))));
  CHECK(attn.params.trainable == doctest::Approx(L * r * ((h + h) + 2 * (h + kvd) + (h + h))));
  CHECK(all.params.trainable == doctest::Approx(attn.params.trainable + L * 3 * r * (h + f)));
  // Without MLP adapters the MLP's GEMM inputs are not kept: the norm's output (2·T·h bytes) and
  // fc2's input (2·T·f), per layer.
  const double T = 2048;
  CHECK(all.mem.activations_per_layer_bytes - attn.mem.activations_per_layer_bytes ==
        doctest::Approx(2 * T * h + 2 * T * f));
  CHECK(attn.mem.activations_per_layer_bytes == qv.mem.activations_per_layer_bytes);
  // QLoRA: the blocks' linear weights in 4 bits; embeddings, norms and the output layer stay bf16.
  const Estimate q4 = with({{"training.base_weight_dtype", "fp4"}});
  CHECK(all.mem.weights_bytes - q4.mem.weights_bytes == doctest::Approx(1.5 * all.params.per_gpu_linear));
  CHECK(q4.time.memory_bound_s > all.time.memory_bound_s);  // the dequantisation before each GEMM
  const Error e = run_error({{"model.preset", "llama3.1-8b"}, {"training.base_weight_dtype", "fp4"}});
  CHECK(e.field == "training.base_weight_dtype");
}
