// The committed records (validation/*.json): counts, every record modelled, the targets
// with their pinned misses, and the facts the records state (layouts, framework judgments).
// Nothing is fitted per record: the validator only converts estimate()'s step time into each
// source's metric, so these bounds move only when the time model or a profile does.
#include <doctest/doctest.h>

#include <cmath>
#include <map>
#include <set>

#include "llmc/estimate.h"
#include "llmc_validate/conventions.h"
#include "llmc_validate/first_look.h"
#include "validate_helpers.h"

using namespace llmc;
using namespace llmc::test;

namespace {

const char* const kFiles[] = {"public.json",          "korthikanti2022.json",
                              "nemo-h100-fp8.json",   "megatron-bridge-moe-h100.json",
                              "torchtitan-a100.json", "megatron-deepspeed-a100.json"};

// A file of another framework's runs: every record modelled, and its mean throughput error
// pinned where the fitted model puts it (it fails if it grows).
ValidationReport other_framework_runs(const std::string& file, int records, double mae_pin) {
  ValidationReport r = run_text(validation_file(file));
  CHECK(r.summary.records == records);
  CHECK(r.summary.modelled == records);
  INFO("MAE " << r.summary.throughput.mae << ", max " << r.summary.throughput.max_abs_error << " ("
              << r.summary.throughput.worst << ")");
  CHECK(r.summary.throughput.mae <= mae_pin);
  return r;
}

bool has_judgment(const ValidationRow& x, const std::string& field) {
  for (const validate::Judgment& j : x.judgments)
    if (j.field == field) return true;
  return false;
}

}  // namespace

TEST_CASE("validation files: counts, and every record modelled but the NVLS one") {
  const ValidationReport r = run_text(public_json(), bundled_options());
  CHECK(r.summary.records == 63);
  CHECK(r.summary.modelled ==
        62);  // 10 Narayanan + 3 Llama 3 + 3 Llama 2 hours + 4 FlashAttention-2 + 4 ZeRO + 38 kernel
  CHECK(r.summary.skipped == 1);  // nccl-tests with NVLS, which is not modelled
  CHECK(r.summary.throughput.rows == 17);
  CHECK(r.summary.memory.rows == 4);
  CHECK(r.summary.shown.rows == 3);
  CHECK(r.summary.kernels.rows == 38);
  for (const ValidationRow& x : r.rows)
    if (x.status == "skipped") {
      CHECK(x.id == "nccl_allreduce_h100_8gpu_azure_nvls");
      CHECK(x.skip_field == "kernel.algorithm");
    } else {
      CHECK(std::isfinite(x.predicted));
      CHECK(x.predicted > 0);
    }
  for (const char* file : kFiles) {
    CAPTURE(file);
    const ValidationReport f = run_text(validation_file(file));
    CHECK(f.summary.modelled + (std::string(file) == "public.json" ? 1 : 0) == f.summary.records);
  }
}

// Every training record states the two framework properties no printed table settles (the
// attention kernel and whether the DP reduction hid behind backward) and its convention, each
// with a reason; every record names its family and raw transcription.
TEST_CASE("validation files: the framework judgments are explicit in every training record") {
  std::set<std::string> families;
  for (const char* file : kFiles) {
    const ValidationReport r = run_text(validation_file(file));
    const nlohmann::json raw = nlohmann::json::parse(validation_file(file));
    for (size_t i = 0; i < r.rows.size(); ++i) {
      const ValidationRow& x = r.rows[i];
      CAPTURE(x.id);
      families.insert(x.family);
      CHECK_FALSE(x.family.empty());
      // The raw transcription holds the record's id, or the one it was split from (a prefix).
      bool in_raw = false;
      for (const nlohmann::json& rr :
           nlohmann::json::parse(source_text(raw.at(i).at("source").at("raw").get<std::string>())))
        in_raw = in_raw || x.id.rfind(rr.at("id").get<std::string>(), 0) == 0;
      CHECK(in_raw);
      if (x.kernel || x.kind == "model_states") continue;
      CHECK(has_judgment(x, "training.flash_attention"));
      CHECK(has_judgment(x, "parallel.dp_overlap"));
      CHECK(has_judgment(x, "measured.convention"));
      CHECK(has_judgment(x, "hardware.gpu"));
    }
  }
  CHECK(families.size() == 14);
}

// The sources llmcalc was first built against, with the kernel time model and the datasheet
// profiles (what `estimate` uses by default). Before the datasheet's in-step GEMM fraction was
// fitted (docs/validation.md, "Leave one family out") these met MAE ≤ 5 %; pooled over every
// architecture, 0.74 instead of 0.86 of MAMF, the tuned Megatron runs on A100 came out 4-17 %
// slow; fitted per architecture (A100 0.80, H100 0.74) they are back within −11…+2 %, and within
// +3 % since the interleaved schedule's pipeline sends overlap compute (parallel.pp_overlap, the
// Llama 3 rows +2.4 %). Pinned where the fit puts them, so they fail if they grow.
TEST_CASE("validation files: the first sources after the per-architecture fit: MAE ≤ 4 %, within −11…+3 %") {
  const ValidationReport r = run_text(public_json());
  INFO("MAE " << r.summary.throughput.mae << ", max " << r.summary.throughput.max_abs_error << " ("
              << r.summary.throughput.worst << ")");
  CHECK(r.summary.throughput.mae <= 0.04);
  CHECK(r.summary.throughput.max_abs_error <= 0.11);
  for (const ValidationRow& x : r.rows) {
    if (!x.in_mae) continue;
    CAPTURE(x.id);
    CHECK(x.error < 0.03);
    CHECK(x.error > -0.11);
  }
}

// Korthikanti et al. 2022's eight iteration times are the runs Calculon validates on (3.65 %
// mean, 8.87 % max error in its paper). Before the fit llmcalc met the targets here
// (3.5 %); after it, 12 % slow on average: pinned.
TEST_CASE("validation files: Korthikanti 2022 iteration times, pinned after the fit") {
  const ValidationReport r = run_text(validation_file("korthikanti2022.json"));
  CHECK(r.summary.records == 8);
  CHECK(r.summary.throughput.rows == 8);
  INFO("MAE " << r.summary.throughput.mae << ", max " << r.summary.throughput.max_abs_error << " ("
              << r.summary.throughput.worst << ")");
  CHECK(r.summary.throughput.mae <= 0.125);
  CHECK(r.summary.throughput.max_abs_error <= 0.18);
  CHECK_FALSE(r.summary.meets_target);
  const ValidationRow& x = row(r, "korthikanti2022_530B_selective");
  CHECK(x.unit == "s");
  CHECK(x.measured == 37.83);
  // As published: interleaved with 3 chunks, sequence parallel, selective recompute of the attention core, no DP.
  CHECK(x.scenario.parallel.virtual_stages == 3);
  CHECK(x.scenario.training.sequence_parallel);
  CHECK(x.scenario.training.recompute == Recompute::selective);
  CHECK(x.scenario.training.recompute_modules == "core_attn");
  CHECK(x.scenario.parallel.dp == 1);
  CHECK_FALSE(x.scenario.training.flash_attention);
}

// Megatron-LM's sc21 run_table_1.sh runs 1.7B-18B with --DDP-impl torch (PyTorch's DDP, which
// all-reduces buckets during the backward pass) and 39B-1T with local (after it).
TEST_CASE("validation files: Narayanan 2021 as run_table_1.sh ran it; Llama 3 as §3.3.2 describes") {
  const ValidationReport r = run_text(public_json());
  const ValidationRow& small = row(r, "narayanan2021_table1_1.7B");
  CHECK(small.convention == "megatron2021");
  CHECK(small.layout == "tp1 pp1 v1 cp1 dp32 mb16 gbs512 zero0 rec=full sp=0 1f1b");
  CHECK(small.scenario.model.mlp == MlpKind::gelu);  // from preset narayanan2021-1.7b
  CHECK(small.scenario.training.precision == Precision::fp16_mixed);
  for (const char* id : {"narayanan2021_table1_1.7B", "narayanan2021_table1_18B"})
    CHECK(row(r, id).scenario.parallel.dp_overlap);
  for (const char* id : {"narayanan2021_table1_39B", "narayanan2021_table1_1T"})
    CHECK_FALSE(row(r, id).scenario.parallel.dp_overlap);
  CHECK(row(r, "narayanan2021_table1_76B").scenario.parallel.virtual_stages ==
        3);  // 5 layers per chunk on 15-layer stages
  for (const char* id : {"llama3_405B_table4_row1_8192gpus_seq8192", "llama3_405B_table4_row2_16384gpus_seq8192",
                         "llama3_405B_table4_row3_16384gpus_seq131072"}) {
    CAPTURE(id);
    const ValidationRow& x = row(r, id);
    CHECK(x.scenario.parallel.pp == 16);
    CHECK(x.scenario.parallel.virtual_stages == 8);
    CHECK(x.scenario.training.grad_reduce == GradReduce::step);
    CHECK(x.scenario.training.grad_dtype == Dtype::fp32);
    CHECK(has_note(x, "does not fit"));  // timed at the least-memory layout, marked
  }
  CHECK(row(r, "llama3_405B_table4_row3_16384gpus_seq131072").scenario.parallel.cp == 16);  // 8·16·16·8 = 16,384
  // Llama 2's GPU-hours: everything but the model and the run's tokens left to the rule.
  const ValidationRow& l2 = row(r, "gpu_hours_llama_2_70b");
  CHECK(l2.unpublished.size() == 7);
  CHECK(has_note(l2, "the fastest layout that fits"));
  CHECK(l2.status == "shown");
}

// 10.6 % until FP8 backward GEMMs took the precise-accumulation time measured on an H100 (1.04 ×,
// Transformer Engine's split accumulator for dgrad and wgrad): 11.6 %, every row predicted slower.
TEST_CASE("validation files: NeMo / Megatron-Bridge FP8 runs on H100 within 12 % mean error") {
  const ValidationReport r = other_framework_runs("nemo-h100-fp8.json", 9, 0.12);
  const ValidationRow& x = row(r, "nemo2407_llama2-70b_64gpu");
  CHECK(x.convention == "tokens_per_gpu");
  CHECK(x.scenario.training.precision == Precision::fp8_mixed);
  CHECK(x.scenario.training.fp8_params);
  CHECK(x.scenario.parallel.virtual_stages == 20);
  CHECK(x.scenario.parallel.dp == 4);
  CHECK(x.unpublished.empty());  // recompute and sequence parallelism: the launcher config's defaults, judged
  CHECK(x.scenario.training.recompute == Recompute::none);
}

// NeMo 24.07's fine-tuning rows pack SQuAD into 4096-token sequences and run Transformer Engine's
// THD attention. Before they said so (document_tokens unset), all six were predicted slow, by
// 3-28 % (mean 18.5 %; docs/validation.md, "Packed documents"); the file's mean was 14.0 %.
TEST_CASE("validation: NeMo's packed SQuAD fine-tuning rows attend within ~200-token examples") {
  const ValidationReport r = run_text(validation_file("nemo.json"));
  REQUIRE(r.rows.size() == 10);
  double finetune_abs = 0, all_abs = 0;
  int finetune = 0;
  for (const ValidationRow& x : r.rows) {
    CAPTURE(x.id);
    all_abs += std::fabs(x.error);
    const bool packed = x.id.find("_sft_") != std::string::npos || x.id.find("_lora_") != std::string::npos;
    CHECK(x.scenario.training.document_tokens == (packed ? 200 : 0));
    if (!packed) continue;
    finetune_abs += std::fabs(x.error);
    ++finetune;
  }
  REQUIRE(finetune == 6);
  CHECK(finetune_abs / 6 < 0.135);  // 12.7 % (11.4 % before the attention floor)
  CHECK(all_abs / 10 < 0.11);       // 10.6 %
}

// torchtitan's FSDP2 runs on 64 A100 80GB: eager PyTorch (fused_elementwise false), fp32 gradient
// reduction, "selective layer" as full recompute of every second block, "selective op" as
// selective_op.
TEST_CASE("validation files: torchtitan FSDP2 runs on A100 within 7 % mean error, with eager element-wise kernels") {
  const ValidationReport r = other_framework_runs("torchtitan-a100.json", 8, 0.07);
  const ValidationRow& x = row(r, "torchtitan_llama3-8b_a100x64_ac-layer");
  CHECK_FALSE(x.scenario.training.fused_elementwise);
  CHECK(x.scenario.training.recompute == Recompute::full);
  CHECK(x.scenario.training.recompute_layers == 16);
  CHECK(x.scenario.training.zero_stage == 3);
  CHECK(row(r, "torchtitan_llama3-8b_a100x64_ac-op").scenario.training.recompute == Recompute::selective_op);
  CHECK(row(r, "torchtitan_llama3-8b_a100x64_ac-op").scenario.training.grad_dtype == Dtype::fp32);
  // The page's runs ran, so the tensors of each fit llmcalc's memory per GPU, eager PyTorch's
  // extra activations included; with the 5 % fragmentation allowance all fit but Llama 2 13B
  // without checkpointing, which llmcalc puts 4.4 % over (docs/formulas.md, eager kernels).
  for (const ValidationRow& run_row : r.rows) {
    CAPTURE(run_row.id);
    const Estimate e = run_scenario(run_row.scenario);
    CHECK(e.mem.total_bytes - e.mem.fragmentation_bytes <= e.mem.capacity_bytes);
    CHECK(e.fits == (run_row.id != "torchtitan_llama2-13b_a100x64_ac-none"));
  }
  // Fused kernels (the default) would predict this run faster than the eager model does.
  nlohmann::json recs = nlohmann::json::parse(validation_file("torchtitan-a100.json"));
  nlohmann::json fused = recs.at(0);
  fused["scenario"]["training"]["fused_elementwise"] = true;
  fused.erase("judgments");
  CHECK(only_row(fused).predicted > x.predicted * 1.05);
}

// Not a target (docs/validation.md): Megatron-DeepSpeed's MT-NLG runs are predicted 19-24 % fast
// and BLOOM 7 % fast (A100's in-step fraction 0.80), Megatron-Bridge's MoE rows 26-29 % (235B) and
// 2.4-2.6 times (30B) fast; a change to either is a change to that document's text.
TEST_CASE("validation files: Megatron-DeepSpeed and MoE runs as docs/validation.md describes them") {
  const ValidationReport mds = run_text(validation_file("megatron-deepspeed-a100.json"));
  CHECK(mds.summary.modelled == 4);
  const ValidationRow& bloom = row(mds, "bloom176b_384gpus");
  CHECK(bloom.convention == "megatron_deepspeed");
  CHECK(bloom.error > 0.06);
  CHECK(bloom.error < 0.07);
  for (const char* id : {"mtnlg530b_2240gpus", "mtnlg530b_2800gpus", "mtnlg530b_3360gpus"}) {
    CAPTURE(id);
    CHECK(row(mds, id).convention == "step_time");
    CHECK(row(mds, id).error > 0.18);
    CHECK(row(mds, id).error < 0.24);
    CHECK(row(mds, id).unpublished == std::vector<std::string>{"training.zero_stage"});
  }
  const ValidationReport moe = run_text(validation_file("megatron-bridge-moe-h100.json"));
  CHECK(moe.summary.modelled == 4);
  const ValidationRow& big = row(moe, "megatronbridge2511_qwen3-235b-a22b_256gpu");
  CHECK(big.scenario.model.experts == 128);
  CHECK(big.scenario.model.head_dim == 128);  // 64 heads × 128 = 8,192 ≠ hidden 4,096
  CHECK(big.scenario.parallel.ep == 32);
  CHECK(big.scenario.parallel.etp == 1);
  CHECK(big.scenario.parallel.ep_overlap);
  for (const char* id : {"megatronbridge2511_qwen3-235b-a22b_256gpu", "megatronbridge2602_qwen3-235b-a22b_256gpu"})
    CHECK(row(moe, id).error == doctest::Approx(0.275).epsilon(0.03 / 0.275));  // +26-29 %
  // The 30B rows' releases (Megatron-Bridge 0.2.0, 0.3.0) set moe_a2a_overlap on their H100 FP8
  // layout; measured at 3.3 times llmcalc's step (docs/validation.md: host-bound, not modelled).
  for (const char* id : {"megatronbridge2511_qwen3-30b-a3b_16gpu", "megatronbridge2602_qwen3-30b-a3b_16gpu"}) {
    CHECK(row(moe, id).error > 2.0);
    CHECK(row(moe, id).scenario.parallel.ep_overlap);
  }
}

// The files added on 2026-11-25 for issue 28 (validation/README.md): every record is modelled (a
// record llmcalc cannot express was left out and listed in the README), every peak memory names
// its counter beside a run of the same scenario, and validation/first-look.json holds exactly
// their compared rows as recorded. Their errors are not held to a target: the first look is the
// baseline the model is changed against, and the live errors move with it.
TEST_CASE("validation files of 2026-11-25: every record modelled, peak memories paired, the first look complete") {
  const std::pair<const char*, int> files[] = {{"llm-foundry.json", 92},
                                               {"torchtitan-h100.json", 51},
                                               {"megatron-bridge.json", 23},
                                               {"nemo.json", 10},
                                               {"mlperf-training.json", 25},
                                               {"nanotron-ultrascale.json", 26},
                                               {"nemo-long-context.json", 14},
                                               {"dgxc-benchmarking-h100.json", 10},
                                               {"flagperf-nvidia.json", 20},
                                               {"internevo-a100-roce.json", 8},
                                               {"megatron-llama-alibaba.json", 4},
                                               {"megatron-lm-h100-weak-scaling.json", 6},
                                               {"kempnerforge.json", 28},
                                               {"olmo-core.json", 8},
                                               {"torchtune.json", 25},  // 4 added on 2026-11-26
                                               {"nemo-automodel.json", 11},
                                               {"ibm-fms-fsdp.json", 4},
                                               {"llm.c.json", 6},
                                               {"tinyllama.json", 1},
                                               {"deepseek.json", 1},
                                               {"torchtitan-h200-community.json", 4},
                                               {"torchtitan-blackwell.json", 3}};
  std::map<std::string, ValidationRow> compared;
  int peak = 0;
  for (const auto& [file, records] : files) {
    CAPTURE(file);
    const ValidationReport r = run_text(validation_file(file));
    CHECK(r.summary.records == records);
    CHECK(r.summary.modelled == records);
    for (const ValidationRow& x : r.rows) {
      CAPTURE(x.id);
      CHECK(std::isfinite(x.predicted));
      CHECK(has_judgment(x, "hardware.gpu"));
      CHECK(compared.emplace(x.id, x).second);  // ids unique across the files too
      if (x.kind != "peak_memory") continue;
      ++peak;
      CHECK(has_judgment(x, "measured.memory_kind"));
      CHECK_FALSE(x.memory_kind.empty());
      const std::string run_id = x.id.substr(0, x.id.size() - std::string("_peak_memory").size());
      REQUIRE(x.id == run_id + "_peak_memory");
      const ValidationRow& run_row = row(r, run_id);  // the run it was measured in, same scenario
      CHECK(run_row.layout == x.layout);
      CHECK(run_row.kind == "training_run");
    }
  }
  CHECK(peak == 63);
  CHECK(compared.size() == 380);

  // The first look of 2026-11-25 covers every row but torchtune's four of 2026-11-26 (below).
  Result<std::vector<validate::FirstLookRow>> first = validate::parse_first_look(validation_file("first-look.json"));
  REQUIRE(first.ok());
  CHECK(first->size() == compared.size() - 4);
  std::set<std::string> seen;
  for (const validate::FirstLookRow& f : *first) {
    CAPTURE(f.id);
    CHECK(seen.insert(f.id).second);
    const auto it = compared.find(f.id);
    REQUIRE(it != compared.end());
    CHECK(f.family == it->second.family);
    CHECK(f.convention == it->second.convention);
    CHECK(f.measured == it->second.measured);  // the source's figure, unchanged since the first look
    CHECK(f.date == "2026-11-25");
    CHECK(f.llmcalc_commit.size() == 12);
    // The recorded error is the recorded prediction's, as a report row computes it.
    const bool time = validate::find_convention(f.convention)->time_metric;
    CHECK(f.error ==
          doctest::Approx(time ? f.measured / f.predicted - 1 : (f.predicted - f.measured) / f.measured).epsilon(1e-5));
  }
}

// The records added on 2026-11-26: the same rules, each batch against its own first look, predicted
// before the model could express it (torchao's FP8 scaling recipes before training.fp8_recipe;
// torchtune's activation offloading rows before training.activation_offload).
TEST_CASE("validation files of 2026-11-26: every record modelled, peak memories paired, the first look complete") {
  const ValidationReport r = run_text(validation_file("torchao-float8.json"));
  CHECK(r.summary.records == 6);
  CHECK(r.summary.modelled == 6);
  std::map<std::string, ValidationRow> compared;
  for (const ValidationRow& x : r.rows) {
    CAPTURE(x.id);
    CHECK(std::isfinite(x.predicted));
    CHECK(has_judgment(x, "hardware.gpu"));
    CHECK(compared.emplace(x.id, x).second);
    if (x.kind != "peak_memory") continue;
    CHECK(has_judgment(x, "measured.memory_kind"));
    const std::string run_id = x.id.substr(0, x.id.size() - std::string("_peak_memory").size());
    CHECK(row(r, run_id).layout == x.layout);
  }
  Result<std::vector<validate::FirstLookRow>> first =
      validate::parse_first_look(validation_file("first-look-2026-11-26.json"));
  REQUIRE(first.ok());
  CHECK(first->size() == compared.size());
  for (const validate::FirstLookRow& f : *first) {
    CAPTURE(f.id);
    const auto it = compared.find(f.id);
    REQUIRE(it != compared.end());
    CHECK(f.measured == it->second.measured);
    CHECK(f.date == "2026-11-26");
  }
  const std::string offload = "torchtune_a100_llama3.2-3b_1gpu_packed_compile_chunkedce_ac_optinbwd_offload";
  const ValidationReport tt = run_text(validation_file("torchtune.json"));
  Result<std::vector<validate::FirstLookRow>> tt_first =
      validate::parse_first_look(validation_file("first-look-2026-11-26-offload.json"));
  REQUIRE(tt_first.ok());
  CHECK(tt_first->size() == 4);
  for (const validate::FirstLookRow& f : *tt_first) {
    CAPTURE(f.id);
    CHECK(f.id.rfind(offload, 0) == 0);
    CHECK(f.measured == row(tt, f.id).measured);
    CHECK(f.date == "2026-11-26");
  }
}
