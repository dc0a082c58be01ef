// llmcalc validate on records written the way other sources write them (docs/validation.md,
// "Reading other sources"): framework config names for the layout, model families named instead
// of an architecture, a printed global batch that is not whole micro-batches, the year of a
// source that predates fused attention, and DeepSpeed's pipeline without interleaving.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <cmath>

#include "llmc/validate.h"
#include "test_util.h"
#include "validate_helpers.h"

namespace {

using namespace llmc;
using namespace llmc::test;

ValidationRow one(const nlohmann::json& rec) {
  const ValidationReport r = run_text("[" + rec.dump() + "]");
  REQUIRE(r.rows.size() == 1);
  return r.rows[0];
}

}  // namespace

TEST_CASE("validate: Megatron-LM, NeMo and DeepSpeed config names for the layout and GPU count") {
  const ValidationRow base = one(llama2_13b_record({{"training", {{"tp", 2}, {"pp", 2}, {"dp", 16}, {"micro_batch", 2}}}}));
  REQUIRE(base.status == "compared");
  const nlohmann::json megatron = {{"tp", nullptr}, {"pp", nullptr}, {"dp", nullptr}, {"micro_batch", nullptr}, {"global_batch_seqs", nullptr},
                                   {"tensor_model_parallel_size", 2}, {"pipeline_model_parallel_size", 2}, {"data_parallel_size", 16},
                                   {"micro_batch_size", 2}, {"global_batch_size", 64}};
  const ValidationRow m = one(llama2_13b_record({{"training", megatron}, {"hardware", {{"gpu_count", nullptr}, {"num_gpus", 64}}}}));
  REQUIRE(m.status == "compared");
  CHECK(m.predicted == doctest::Approx(base.predicted).epsilon(1e-12));
  CHECK(m.scenario.parallel.tp == 2);
  CHECK(m.scenario.parallel.pp == 2);
  // DeepSpeed's names for the batch.
  const ValidationRow ds = one(llama2_13b_record({{"training", {{"micro_batch", nullptr}, {"global_batch_seqs", nullptr}, {"train_micro_batch_size_per_gpu", 1},
                                                         {"train_batch_size", 64}}}}));
  REQUIRE(ds.status == "compared");
  CHECK(ds.scenario.training.global_batch_seqs == 64);
  // One field under two names is refused, naming the second; later errors name the field as written.
  const ValidationRow twice = one(llama2_13b_record({{"training", {{"tensor_model_parallel_size", 1}}}}));
  CHECK(twice.status == "skipped");
  CHECK(twice.skip_field == "training.tensor_model_parallel_size");
  const ValidationRow wrong_dp = one(llama2_13b_record({{"training", {{"dp", nullptr}, {"data_parallel_size", 31}}}}));
  CHECK(wrong_dp.skip_field == "training.data_parallel_size");
  const ValidationRow wrong_gpus = one(llama2_13b_record({{"training", {{"dp", nullptr}, {"tp", 2}}}, {"hardware", {{"gpu_count", nullptr}, {"gpus", 63}}}}));
  CHECK(wrong_gpus.skip_field == "hardware.gpus");
  // Megatron-core's chunks per rank; null says "not interleaved" as Megatron's default None does.
  nlohmann::json pipe = {{"pp", 4}, {"dp", 16}};
  pipe["virtual_pipeline_model_parallel_size"] = 5;  // 40 layers / 4 stages = 10, 2 per chunk
  CHECK(one(llama2_13b_record({{"training", pipe}})).scenario.parallel.virtual_stages == 5);
  pipe["virtual_pipeline_model_parallel_size"] = nullptr;
  nlohmann::json rec = llama2_13b_record({{"training", pipe}});
  rec["training"]["virtual_pipeline_model_parallel_size"] = nullptr;  // merge_patch removed it; a null key is kept here
  const ValidationRow flat = one(rec);
  CHECK(flat.scenario.parallel.virtual_stages == 1);
  CHECK_FALSE(has_note(flat, "virtual pipeline stages not published"));
  pipe["virtual_pipeline_model_parallel_size"] = 5;
  pipe["num_layers_per_virtual_pipeline_stage"] = 2;
  CHECK(one(llama2_13b_record({{"training", pipe}})).skip_field == "training.virtual_pipeline_model_parallel_size");
}

TEST_CASE("validate: a model family named instead of an architecture, or told apart by its printed size") {
  auto model_of = [](const std::string& name, double params = 0) {
    nlohmann::json model = {{"name", name}, {"layers", 96}, {"hidden", 12288}, {"heads", 96}, {"kv_heads", 96}, {"ffn", 49152}, {"vocab", 50272}, {"seq_len", 2048}};
    if (params > 0) model["params"] = params;
    nlohmann::json rec = llama2_13b_record({{"training", {{"tp", 8}, {"dp", 8}}}});
    rec["model"] = model;
    return one(rec);
  };
  struct Case {
    const char* name;
    MlpKind mlp;
  } cases[] = {{"OPT-175B", MlpKind::gelu},   {"BLOOM-like", MlpKind::gelu}, {"Falcon 180B", MlpKind::gelu}, {"MPT-30B", MlpKind::gelu},
               {"Mistral Large", MlpKind::swiglu}, {"Qwen2 72B", MlpKind::swiglu}, {"CodeLlama", MlpKind::swiglu}, {"Gemma 3", MlpKind::geglu},
               // The first family named wins.
               {"Llama 3 (a GPT-style decoder)", MlpKind::swiglu}};
  for (const Case& c : cases) {
    INFO(c.name);
    const ValidationRow r = model_of(c.name);
    REQUIRE(r.status == "compared");
    CHECK(r.scenario.model.mlp == c.mlp);
    CHECK(has_note(r, "named in the record"));
  }
  CHECK(model_of("OPT-175B").scenario.model.norm == NormKind::layernorm);
  CHECK(model_of("Qwen2 72B").scenario.model.norm == NormKind::rmsnorm);
  // Short names count only as whole words: "optimizer" is not OPT, "adopted" not OPT.
  const ValidationRow words = model_of("an optimizer study, adopted");
  CHECK(words.status == "skipped");
  CHECK(words.skip_field == "model.arch_notes");
  CHECK(contains(words.skip_reason, "no printed size"));
  // With no family named, the printed size decides: GPT-3's shape counts 174.6B with a two-matrix
  // MLP, 232B with a gated one, so "175B" is the former.
  const ValidationRow sized = model_of("our 175B model", 175e9);
  REQUIRE(sized.status == "compared");
  CHECK(sized.scenario.model.mlp == MlpKind::gelu);
  CHECK(has_note(sized, "within 3 % of the printed size (175B)"));
  const ValidationRow gated = model_of("our 232B model", 232e9);
  REQUIRE(gated.status == "compared");
  CHECK(gated.scenario.model.mlp == MlpKind::swiglu);
  // A size neither design gives is refused, saying so.
  const ValidationRow neither = model_of("our 200B model", 200e9);
  CHECK(neither.skip_field == "model.arch_notes");
  CHECK(contains(neither.skip_reason, "does not single out"));
}

TEST_CASE("validate: a printed global batch that is not whole micro-batches is timed at the nearest multiple") {
  const ValidationRow exact = one(llama2_13b_record());
  REQUIRE(exact.status == "compared");
  // 65 sequences on 64 replicas of micro-batch 1: timed at 64 (1.5 % off), with a note.
  const ValidationRow near = one(llama2_13b_record({{"training", {{"global_batch_seqs", 65}}}}));
  REQUIRE(near.status == "compared");
  CHECK(near.scenario.training.global_batch_seqs == 64);
  CHECK(near.predicted == doctest::Approx(exact.predicted).epsilon(1e-12));  // tokens/s per GPU: the same run
  CHECK(has_note(near, "global batch 65 is not whole micro-batches of 1 on 64 replicas: timed at the nearest multiple, 64"));
  // A step time is scaled back to the printed batch: 65 sequences take 65/64 of 64's step.
  const nlohmann::json step = {{"measured", {{"tokens_per_sec_per_gpu", nullptr}, {"step_time_s", 3.0}}}};
  const ValidationRow step64 = one(llama2_13b_record(step));
  nlohmann::json step65_rec = llama2_13b_record(step);
  step65_rec["training"]["global_batch_seqs"] = 65;
  const ValidationRow step65 = one(step65_rec);
  REQUIRE(step65.status == "compared");
  CHECK(step65.predicted == doctest::Approx(step64.predicted * 65 / 64).epsilon(1e-12));
  CHECK(has_note(step65, "scaled back to the printed batch"));
  // 80 is 25 % from 64 and 20 % from 128: beyond the 10 % a rounded print explains, so refused.
  const ValidationRow far = one(llama2_13b_record({{"training", {{"global_batch_seqs", 80}}}}));
  CHECK(far.status == "skipped");
  CHECK(far.skip_field == "training.global_batch_seqs");
}

TEST_CASE("validate: a source of 2022 or before ran attention unfused; DeepSpeed's pipeline is not interleaved") {
  auto cited = [](const std::string& citation, const nlohmann::json& training = nlohmann::json::object()) {
    return one(llama2_13b_record({{"source", {{"citation", citation}}}, {"training", training}}));
  };
  const ValidationRow old = cited("Zhang et al., 2022. OPT: Open Pre-trained Transformer Language Models.");
  REQUIRE(old.status == "compared");
  CHECK_FALSE(old.scenario.training.flash_attention);
  CHECK(has_note(old, "the source is of 2022"));
  CHECK_FALSE(cited("Korthikanti et al. 2022a, Table 3").scenario.training.flash_attention);  // a second paper of the year
  const ValidationRow now = cited("Someone et al. 2023");
  CHECK(now.scenario.training.flash_attention);
  CHECK(now.predicted > old.predicted);  // fused attention is faster at 4K
  // An arXiv number is not a year; with no year the framework is a current one.
  CHECK(cited("arXiv:2205.01068").scenario.training.flash_attention);
  // The record's own word wins.
  CHECK(cited("Zhang et al. 2022", {{"flash_attention", true}}).scenario.training.flash_attention);
  // The Llama 3 and Megatron-LM conventions know their own frameworks; the year rule is for other sources.
  const ValidationReport pub = run_text(public_json());
  CHECK(row(pub, "narayanan2021_table1_1.7B").scenario.training.flash_attention == false);
  CHECK(row(pub, "flashattention2_table1_gpt3-1.3b_2k").scenario.training.flash_attention);

  // Pipeline of 4 stages with the chunks unpublished: searched, unless the record names DeepSpeed.
  const nlohmann::json pipe = {{"pp", 4}, {"dp", 16}};
  const ValidationRow searched = cited("x", pipe);
  REQUIRE(searched.status == "compared");
  CHECK(has_note(searched, "virtual pipeline stages not published: searched"));
  CHECK(searched.scenario.parallel.virtual_stages > 1);  // interleaving pays at 1 micro-batch per replica
  const ValidationRow deepspeed = cited("GPT-NeoX (DeepSpeed) 2023", pipe);
  REQUIRE(deepspeed.status == "compared");
  CHECK(deepspeed.scenario.parallel.virtual_stages == 1);
  CHECK(has_note(deepspeed, "runs 1F1B without interleaving"));
  CHECK(deepspeed.predicted < searched.predicted);
}

TEST_CASE("validate: the pipeline schedule a record names, and DualPipe") {
  auto with = [](const nlohmann::json& training) { return one(llama2_13b_record({{"training", training}})); };
  const nlohmann::json pipe = {{"pp", 4}, {"dp", 16}};
  struct Case {
    const char* words;
    Schedule schedule;
  } cases[] = {{"1F1B", Schedule::one_f_one_b}, {"PipeDream-Flush (1F1B)", Schedule::one_f_one_b}, {"GPipe", Schedule::afab},
               {"ZB-H1", Schedule::zero_bubble}, {"zero bubble", Schedule::zero_bubble}};
  for (const Case& c : cases) {
    INFO(c.words);
    nlohmann::json t = pipe;
    t["schedule"] = c.words;
    const ValidationRow r = with(t);
    REQUIRE(r.status == "compared");
    CHECK(r.scenario.parallel.schedule == c.schedule);
    CHECK(r.scenario.parallel.virtual_stages == 1);
    CHECK(has_note(r, "as the record says"));
  }
  // The bubble each schedule leaves: GPipe's and 1F1B's are the same, zero bubble's a third.
  nlohmann::json t = pipe;
  t["pipeline_schedule"] = "interleaved 1F1B";
  t["virtual_stages"] = 5;
  const ValidationRow inter = with(t);
  CHECK(inter.scenario.parallel.schedule == Schedule::interleaved);
  CHECK(inter.scenario.parallel.virtual_stages == 5);
  t["pipeline_schedule"] = "1F1B";
  CHECK(with(t).skip_field == "training.pipeline_schedule");  // one chunk per stage, but five given
  t.erase("virtual_stages");
  t["pipeline_schedule"] = "round robin";
  const ValidationRow bad = with(t);
  CHECK(bad.skip_field == "training.pipeline_schedule");
  CHECK(contains(bad.skip_reason, "got 'round robin'"));
  t["schedule"] = "1F1B";
  CHECK(with(t).skip_field == "training.pipeline_schedule");  // the same field twice

  // DualPipe in an MoE record's words: zero bubble, the expert all-to-all overlapped.
  nlohmann::json moe = llama2_13b_record({{"training", {{"pp", 4}, {"dp", 16}, {"ep", 8}}}});
  moe["model"] = {{"name", "Mixtral 8x7B"}, {"layers", 32},  {"hidden", 4096}, {"heads", 32}, {"kv_heads", 8},
                  {"ffn", 14336},           {"vocab", 32000}, {"seq_len", 4096}, {"experts", 8}, {"top_k", 2}};
  const ValidationRow waited = one(moe);
  REQUIRE(waited.status == "compared");
  CHECK_FALSE(waited.scenario.parallel.ep_overlap);
  moe["notes"] = "trained with DualPipe";
  const ValidationRow dual = one(moe);
  REQUIRE(dual.status == "compared");
  CHECK(dual.scenario.parallel.schedule == Schedule::zero_bubble);
  CHECK(dual.scenario.parallel.ep_overlap);
  nlohmann::json zb = moe;
  zb.erase("notes");
  zb["training"]["schedule"] = "zero bubble";
  const ValidationRow zero_bubble = one(zb);
  CHECK_FALSE(zero_bubble.scenario.parallel.ep_overlap);
  CHECK(dual.predicted > zero_bubble.predicted);  // the same schedule, the all-to-all hidden
  moe["training"]["ep_overlap"] = false;  // the record's own word wins
  CHECK_FALSE(one(moe).scenario.parallel.ep_overlap);
}

// DeepSeek-V3's pre-training as a GPU-hours record, the way its report gives it (arXiv:2412.19437
// Table 1: 2,664K H800 GPU-hours for 14.8T tokens; §3.2: PP 16, EP 64, ZeRO-1, DualPipe, FP8;
// §3.2.3: RMSNorm and MLA up-projections recomputed, SwiGLU's output recomputed from its inputs).
nlohmann::json deepseek_v3_record(const nlohmann::json& training_patch) {
  nlohmann::json rec = {
      {"id", "deepseek_v3_pretraining"},
      {"kind", "training_run"},
      {"source", {{"citation", "DeepSeek-AI 2024, DeepSeek-V3 Technical Report (arXiv:2412.19437), Table 1 and §3.2"}}},
      {"model",
       {{"name", "DeepSeek-V3"}, {"layers", 61}, {"hidden", 7168}, {"heads", 128}, {"ffn", 18432}, {"vocab", 129280}, {"seq_len", 4096},
        {"experts", 256}, {"top_k", 8}, {"expert_ffn", 2048}, {"shared_experts", 1}, {"first_dense_layers", 3}}},
      {"training",
       {{"total_tokens", 14.8e12}, {"global_batch_seqs", 15360}, {"precision", "fp8 mixed"}, {"tp", 1}, {"pp", 16}, {"ep", 64},
        {"zero_stage", 1}, {"micro_batch", 1}, {"schedule", "DualPipe"}}},
      {"hardware", {{"gpu", "H800"}, {"gpu_count", 2048}}},
      {"measured", {{"gpu_hours", 2664000}}}};
  rec["training"].merge_patch(training_patch);
  return rec;
}

TEST_CASE("validate: selective recompute modules from a record's field, its words, or the search") {
  // Named in words: selective recompute of those modules, taken as given.
  const ValidationRow words = one(deepseek_v3_record({{"recompute", "RMSNorm and MLA up-projections recomputed; SwiGLU output recomputed"}}));
  REQUIRE(words.status == "shown");  // GPU-hours: outside the throughput MAE
  CHECK(words.scenario.training.recompute == Recompute::selective);
  CHECK(words.scenario.training.recompute_modules == "layernorm,mla_up_proj,moe_act");
  CHECK(contains(words.layout, "rec=selective(layernorm,mla_up_proj,moe_act)"));
  // The report's GPU-hours, within the throughput target (the row is outside the MAE: hours).
  CHECK(std::abs(words.error) <= 0.10);
  // Megatron-core's list, as a list or as text.
  const ValidationRow list = one(deepseek_v3_record({{"recompute_modules", {"layernorm", "mla_up_proj", "moe_act"}}}));
  CHECK(list.predicted == words.predicted);
  CHECK(one(deepseek_v3_record({{"recompute_modules", "layernorm, mla_up_proj,moe_act"}})).predicted == words.predicted);
  // Not published: MoE and MLA models search selective with every module that applies; only that
  // fits this layout (llmcalc: ~110 GB without), and it is the one the report names plus core_attn.
  const ValidationRow searched = one(deepseek_v3_record(nlohmann::json::object()));
  REQUIRE(searched.status == "shown");
  CHECK(searched.scenario.training.recompute == Recompute::selective);
  CHECK(searched.scenario.training.recompute_modules == "core_attn,layernorm,mla_up_proj,moe_act");
  CHECK(has_note(searched, "selective with every module that applies"));
  // Modules beside a mode that is not selective, or a module the model lacks, are skipped, named.
  const ValidationRow clash = one(deepseek_v3_record({{"recompute", "full"}, {"recompute_modules", "layernorm"}}));
  CHECK(clash.status == "skipped");
  CHECK(clash.skip_field == "training.recompute_modules");
  const ValidationRow bad = one(deepseek_v3_record({{"recompute_modules", {"layernorm", 3}}}));
  CHECK(bad.skip_field == "training.recompute_modules");
  CHECK(contains(bad.skip_reason, "must be a list of module names"));
  const ValidationRow dense = one(llama2_13b_record({{"training", {{"recompute", "selective: core attention and norms"}}}}));
  REQUIRE(dense.status == "compared");
  CHECK(dense.scenario.training.recompute_modules == "core_attn,layernorm");
}

// Days of a whole run (LLaMA's "approximately 21 days" for 1.4T tokens on 2,048 A100s, Touvron et
// al. 2023 §2.4): llmcalc's time.total_days for the record's tokens and GPUs, shown outside the
// throughput target like GPU-hours; the tokens and the GPU count are never guessed for it.
TEST_CASE("validate: training days of a whole run, under any of their names") {
  const nlohmann::json days = {{"measured", {{"tokens_per_sec_per_gpu", nullptr}, {"training_days", 10}}}, {"training", {{"tokens", 2e12}}}};
  const ValidationRow r = one(llama2_13b_record(days));
  REQUIRE(r.status == "shown");
  CHECK(r.convention == "training_days");
  CHECK(r.unit == "days");
  CHECK_FALSE(r.in_mae);
  const double tokens_per_step = double(r.scenario.training.global_batch_seqs) * double(r.scenario.training.seq_len);
  CHECK(r.predicted == doctest::Approx(2e12 / (tokens_per_step / r.step_s) / 86400).epsilon(1e-9));
  CHECK(r.error == doctest::Approx(r.predicted / 10 - 1).epsilon(1e-12));
  CHECK(has_note(r, "the days include restarts"));
  for (const char* alias : {"train_days", "wall_clock_days", "days"}) {
    const ValidationRow a = one(llama2_13b_record({{"measured", {{"tokens_per_sec_per_gpu", nullptr}, {alias, 10}}}, {"training", {{"total_tokens", 2e12}}}}));
    INFO(alias);
    CHECK(a.predicted == doctest::Approx(r.predicted).epsilon(1e-12));
  }
  // A throughput beside the days is what gets compared.
  CHECK(one(llama2_13b_record({{"measured", {{"training_days", 10}}}, {"training", {{"tokens", 2e12}}}})).convention == "tokens_per_gpu");
  // No token count, no GPU count, or the tokens under two names: skipped, the field named.
  const ValidationRow no_tokens = one(llama2_13b_record({{"measured", {{"tokens_per_sec_per_gpu", nullptr}, {"training_days", 10}}}}));
  CHECK(no_tokens.status == "skipped");
  CHECK(no_tokens.skip_field == "training.total_tokens");
  const ValidationRow no_gpus = one(llama2_13b_record({{"measured", {{"tokens_per_sec_per_gpu", nullptr}, {"training_days", 10}}},
                                                       {"training", {{"tokens", 2e12}, {"dp", nullptr}}},
                                                       {"hardware", {{"gpu_count", nullptr}}}}));
  CHECK(no_gpus.status == "skipped");
  CHECK(no_gpus.skip_field == "hardware.gpu_count");
  const ValidationRow twice = one(llama2_13b_record({{"measured", {{"tokens_per_sec_per_gpu", nullptr}, {"training_days", 10}}},
                                                     {"training", {{"tokens", 2e12}, {"total_tokens", 2e12}}}}));
  CHECK(twice.status == "skipped");
  CHECK(contains(twice.skip_reason, "give one of them"));
  // GPU-hours need the run's tokens too.
  const ValidationRow hours = one(llama2_13b_record({{"measured", {{"tokens_per_sec_per_gpu", nullptr}, {"gpu_hours", 1e5}}}}));
  CHECK(hours.skip_field == "training.total_tokens");
}
