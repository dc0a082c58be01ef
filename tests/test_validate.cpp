// llmcalc validate (llmc/validate.h): record mapping, FLOP conventions, skips that name the
// field, whole-file errors, the ZeRO figure, counts over validation/public.json, the CLI.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli.h"
#include "llmc/validate.h"
#include "test_util.h"
#include "validate_cmd.h"
#include "validate_helpers.h"

namespace {

using namespace llmc;
using namespace llmc::test;

// A minimal modellable record with one field replaced (path "training.tp" → value).
std::string record_with(const std::string& section, const std::string& key, const nlohmann::json& value, const std::string& id = "r") {
  nlohmann::json rec = {
      {"id", id},
      {"kind", "training_throughput_benchmark"},
      {"source", {{"citation", "Narayanan et al. 2021, Table 1"}}},
      {"model", {{"name", "GPT 1.7B"}, {"layers", 24}, {"hidden", 2304}, {"heads", 24}, {"kv_heads", 24}, {"ffn", 9216}, {"vocab", 51200}, {"seq_len", 2048}}},
      {"training", {{"global_batch_seqs", 512}, {"micro_batch", 16}, {"precision", "fp16 mixed"}, {"zero_stage", 0}, {"tp", 1}, {"pp", 1}, {"dp", 32}, {"cp", 1},
                    {"recompute", "full"}, {"sequence_parallel", false}}},
      {"hardware", {{"gpu", "A100-SXM4-80GB"}, {"gpu_count", 32}}},
      {"measured", {{"tflops_per_gpu", 137}}},
  };
  if (!section.empty()) {
    if (value.is_null() && key == "-") rec[section] = nullptr;
    else if (key.empty()) rec[section] = value;
    else rec[section][key] = value;
  }
  return rec.dump();
}

// A one-record file of llama2_13b_record(patch).
std::string llama2_13b_file(const nlohmann::json& patch) { return "[" + llama2_13b_record(patch).dump() + "]"; }

// A file of another framework's runs: every record modelled, and ≤ 10% mean throughput error
// across other frameworks (../shared/docs/anchors.md).
ValidationReport other_framework_runs(const std::string& file, int64_t records) {
  ValidationReport r = run_text(validation_file(file));
  CHECK(r.summary.records == records);
  CHECK(r.summary.modelled == records);
  INFO("MAE " << r.summary.throughput.mae << ", max " << r.summary.throughput.max_abs_error << " (" << r.summary.throughput.worst << ")");
  CHECK(r.summary.throughput.mae <= 0.10);
  return r;
}

}  // namespace

TEST_CASE("validate: Narayanan 1.7B maps to the published layout and shape") {
  ValidateOptions opt = bundled_options();
  opt.only_prefix = "narayanan2021_table1_1.7B";
  const ValidationReport r = run_text(public_json(), opt);
  REQUIRE(r.summary.records == 1);
  const ValidationRow& x = row(r, "narayanan2021_table1_1.7B");
  CHECK(x.status == "compared");
  CHECK(x.convention == "megatron2021");
  const Scenario& s = x.scenario;
  CHECK(s.parallel.tp == 1);
  CHECK(s.parallel.pp == 1);
  CHECK(s.parallel.dp == 32);
  CHECK(s.parallel.cp == 1);
  CHECK(s.training.micro_batch == 16);
  CHECK(s.training.global_batch_seqs == 512);
  CHECK(s.training.seq_len == 2048);
  CHECK(s.training.precision == Precision::fp16_mixed);
  CHECK(s.training.recompute == Recompute::full);
  CHECK_FALSE(s.training.flash_attention);  // 2021: Megatron's fused softmax, not FlashAttention
  CHECK(s.model.layers == 24);
  CHECK(s.model.hidden == 2304);
  CHECK(s.model.heads == 24);
  CHECK(s.model.ffn_hidden == 9216);
  CHECK(s.model.vocab == 51200);
  CHECK(s.model.mlp == MlpKind::gelu);  // from preset narayanan2021-1.7b
  CHECK(s.model.position == PositionKind::learned);
  CHECK(s.hardware.gpu.id == "a100-sxm-80gb");
  CHECK(s.hardware.gpu_count == 32);
  CHECK(contains(x.profile, "published"));
  CHECK(x.measured == 137);
}

TEST_CASE("validate: the Megatron FLOP formula gives the printed aggregate and matches llmcalc's hardware FLOPs") {
  // 1.7B: B = 512, s = 2048, l = 24, h = 2304, V = 51200.
  const double f = megatron2021_flops_per_step(512, 2048, 24, 2304, 51200);
  const double by_hand = 96.0 * 512 * 2048 * 24 * 2304.0 * 2304.0 * (1 + 2048.0 / (6 * 2304) + 51200.0 / (16 * 24 * 2304));
  CHECK(f == doctest::Approx(by_hand).epsilon(1e-12));
  // Fed the measured 137 TFLOP/s on 32 GPUs, the step time gives back the printed 4.4 PFLOP/s.
  const double step = f / (137e12 * 32);
  CHECK(f / step / 1e15 == doctest::Approx(4.4).epsilon(0.01));
  // Eq. 3 counts the same work as llmcalc's hardware FLOPs (4 forward passes with full
  // recompute, unhalved attention without a fused kernel): within 2% (it drops biases, norms
  // and the position embedding).
  const Estimate e = llmc::test::run({{"model.preset", "narayanan2021-1.7b"}, {"hardware.gpu", "a100-sxm-80gb"}, {"hardware.gpu_count", "32"},
                                      {"training.micro_batch", "16"}, {"training.global_batch_seqs", "512"}, {"training.recompute", "full"},
                                      {"training.flash_attention", "false"}, {"training.causal_attention_flops", "false"}, {"training.precision", "fp16_mixed"}});
  const double llmcalc_hw = e.flops.hardware_per_token * 512 * 2048;
  CHECK(llmcalc_hw == doctest::Approx(f).epsilon(0.02));
}

TEST_CASE("validate: FlashAttention-2 convention counts attention unhalved") {
  // 6·s·N + 12·L·h·s² per sequence for GPT3-1.3B at 2k (N = 1.3e9): 1.6e13 + 2.47e12.
  CHECK(flashattention2_flops_per_seq(2048, 1.3e9, 24, 2048) == doctest::Approx(6.0 * 2048 * 1.3e9 + 12.0 * 24 * 2048 * 2048.0 * 2048));
}

TEST_CASE("validate: malformed records are skipped with the field named") {
  struct Case {
    std::string section, key;
    nlohmann::json value;
    std::string field;
  } cases[] = {
      {"training", "tp", "eight", "training.tp"},
      {"training", "tp", 0, "training.tp"},
      {"training", "micro_batch", 1.5, "training.micro_batch"},
      {"model", "layers", -3, "model.layers"},
      {"model", "hidden", nlohmann::json::array(), "model.hidden"},
      {"training", "sequence_parallel", "yes", "training.sequence_parallel"},
      {"training", "precision", 16, "training.precision"},
      {"training", "precision", "int4 magic", "training.precision"},
      {"training", "zero_stage", 7, "training.zero_stage"},
      {"training", "recompute", "sometimes", "training.recompute"},
      {"training", "dp", 31, "training.dp"},  // tp·pp·cp·dp = 31 ≠ 32 GPUs
      {"hardware", "gpu", "TPU v5p", "hardware.gpu"},
      {"hardware", "gpu_count", "many", "hardware.gpu_count"},
      {"model", "", "not an object", "model"},
      {"source", "citation", 5, "source.citation"},
      {"measured", "tflops_per_gpu", -1, "measured.tflops_per_gpu"},
  };
  for (const Case& c : cases) {
    const ValidationReport r = run_text("[" + record_with(c.section, c.key, c.value) + "]");
    INFO(c.section << "." << c.key << " = " << c.value.dump());
    REQUIRE(r.rows.size() == 1);
    CHECK(r.rows[0].status == "skipped");
    CHECK(r.rows[0].skip_field == c.field);
    CHECK_FALSE(r.rows[0].skip_reason.empty());
    CHECK(r.summary.skipped == 1);
    CHECK(r.summary.modelled == 0);
  }
  // Not an object, no id, no kind, an unknown source.
  const ValidationReport r = run_text(R"([3, {"kind": "x"}, {"id": "a"}, {"id": "b", "kind": "training_run", "measured": {"samples_per_day": 100}}])");
  REQUIRE(r.rows.size() == 4);
  CHECK(r.rows[0].skip_field == "record");
  CHECK(r.rows[0].id == "#0");
  CHECK(r.rows[1].skip_field == "id");
  CHECK(r.rows[2].skip_field == "kind");
  CHECK(r.rows[3].skip_field == "source.citation");
  CHECK(contains(r.rows[3].skip_reason, "samples_per_day"));
  // The well-formed record next to them is modelled.
  const ValidationReport ok = run_text("[" + record_with("", "", nullptr) + ", 3]");
  CHECK(ok.summary.modelled == 1);
  CHECK(ok.summary.skipped == 1);
}

TEST_CASE("validate: a missing cp is derived from the GPU count, with a note") {
  const std::string rec = record_with("training", "cp", nullptr);
  nlohmann::json j = nlohmann::json::parse(rec);
  j["training"].erase("cp");
  j["hardware"]["gpu_count"] = 64;  // tp 1 · pp 1 · dp 32 → cp 2
  const ValidationReport r = run_text("[" + j.dump() + "]");
  REQUIRE(r.rows.size() == 1);
  CHECK(r.rows[0].status == "compared");
  CHECK(r.rows[0].scenario.parallel.cp == 2);
  CHECK(has_note(r.rows[0], "cp not published: 2"));
}

TEST_CASE("validate: a file that is not a JSON array is an error, not a skip") {
  for (const char* text : {"{}", "42", "\"records\"", "null"}) {
    Result<ValidationReport> r = validate_records(text, {});
    INFO(text);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().field == "validation file");
    CHECK(contains(r.error().message, "array"));
  }
  Result<ValidationReport> bad = validate_records("[{", {});
  REQUIRE_FALSE(bad.ok());
  CHECK(contains(bad.error().message, "not valid JSON"));
  CHECK(run_text("[]").summary.records == 0);
}

TEST_CASE("validate: the ZeRO figure is reproduced") {
  ValidateOptions opt;
  opt.only_prefix = "zero_paper";
  const ValidationReport r = run_text(public_json(), opt);
  REQUIRE(r.summary.memory.rows == 4);
  const double psi = 7.5e9, nd = 64;
  struct {
    const char* key;
    double exact_gb;
  } stages[] = {{"model_state_gb_per_gpu_baseline_dp", 16 * psi / 1e9},
                {"zero1_pos_gb", (4 * psi + 12 * psi / nd) / 1e9},
                {"zero2_pos_g_gb", (2 * psi + 14 * psi / nd) / 1e9},
                {"zero3_pos_g_p_gb", 16 * psi / nd / 1e9}};
  for (const auto& st : stages) {
    const ValidationRow& x = row(r, "zero_paper_fig1_7p5B_64gpu", st.key);
    INFO(st.key << ": predicted " << x.predicted << ", printed " << x.measured);
    CHECK(x.predicted == doctest::Approx(st.exact_gb).epsilon(1e-9));  // the paper's formula, exactly
    // Within 1% of the printed figure, except where the print's own rounding is larger (1.875 → "1.9").
    const double rounding = 0.05 / x.measured;
    CHECK(std::fabs(x.error) <= std::max(0.01, rounding));
  }
}

TEST_CASE("validate: counts over validation/public.json") {
  const ValidationReport r = run_text(public_json(), bundled_options());
  CHECK(r.summary.records == 58);
  CHECK(r.summary.modelled == 57);  // 10 Narayanan + 3 Llama 3 + 3 Llama 2 hours + 4 FlashAttention-2 + 1 ZeRO + 36 kernel
  CHECK(r.summary.skipped == 1);    // nccl-tests with NVLS, which is not modelled
  CHECK(r.summary.throughput.rows == 17);
  CHECK(r.summary.memory.rows == 4);
  CHECK(r.summary.shown.rows == 3);
  CHECK(r.summary.kernels.rows == 38);  // the H200 ring record gives three collectives
  for (const ValidationRow& x : r.rows)
    if (x.status == "skipped") {
      CHECK(x.id == "nccl_allreduce_h100_8gpu_azure_nvls");
      CHECK(x.skip_field == "kernel.algorithm");
    } else {
      CHECK(std::isfinite(x.predicted));
      CHECK(x.predicted > 0);
    }
  // The Llama 3 131K row is the full 4D layout: cp 16 as printed (8·16·16·8 = 16384).
  const ValidationRow& l3 = row(r, "llama3_405B_table4_row3_16384gpus_seq131072");
  CHECK(l3.scenario.parallel.cp == 16);
  CHECK(l3.scenario.parallel.dp == 8);
  CHECK(l3.scenario.hardware.gpu.id == "h100-sxm");
}

// Llama 3 §3.3.2 gives the interleaving in words (one-layer chunks; the end chunks hold only the
// embedding and only the output layer and loss), so the three rows run 16 stages of 8 chunks,
// with a note saying where v came from, and are not searched over v.
TEST_CASE("validate: the Llama 3 rows take v = 8 from the paper's text") {
  const ValidationReport r = run_text(public_json());
  for (const char* id : {"llama3_405B_table4_row1_8192gpus_seq8192", "llama3_405B_table4_row2_16384gpus_seq8192",
                         "llama3_405B_table4_row3_16384gpus_seq131072"}) {
    CAPTURE(id);
    const ValidationRow& x = row(r, id);
    CHECK(x.scenario.parallel.pp == 16);
    CHECK(x.scenario.parallel.virtual_stages == 8);
    CHECK(x.scenario.parallel.schedule == Schedule::interleaved);
    bool noted = false, over = false;
    for (const std::string& n : x.notes) {
      noted |= contains(n, "virtual stages 8 from the source's text") && contains(n, "§3.3.2");
      over |= contains(n, "does not fit");
    }
    CHECK(noted);
    // docs/validation.md: with whole FP32 gradients none of the three fits llmcalc's memory
    // model (93-101 GB per GPU), and each row says so.
    CHECK(over);
  }
}

// The issue's targets, with the kernel time model and the datasheet profiles (what `estimate`
// uses by default). Nothing is tuned to these records (docs/formulas.md, "Kernel times": four
// datasheet fractions for every GPU).
TEST_CASE("validate: mean absolute throughput error ≤ 5%") {
  const ValidationReport r = run_text(public_json());
  INFO("MAE " << r.summary.throughput.mae << ", max " << r.summary.throughput.max_abs_error << " (" << r.summary.throughput.worst << ")");
  CHECK(r.summary.throughput.mae <= 0.05);
}

// Not met: at the layout and gradient reduction Llama 3 §3.3.2 describes (one-layer chunks,
// v = 8; FP32 gradients reduced once per step) llmcalc predicts Meta's three 405B runs 11-13 %
// fast (docs/validation.md, "Why the Llama 3 rows miss the 10 % target"). Kept visible as an
// expected failure rather than tuned away.
TEST_CASE("validate: no record worse than 10%" * doctest::may_fail()) {
  const ValidationReport r = run_text(public_json());
  INFO("max " << r.summary.throughput.max_abs_error << " (" << r.summary.throughput.worst << ")");
  CHECK(r.summary.throughput.max_abs_error <= 0.10);
}

// Korthikanti et al. 2022's eight iteration times (validation/korthikanti2022.json) are the runs
// Calculon validates on: 3.65% mean, 8.87% max error (../shared/docs/anchors.md). Same targets as
// the issue's; nothing in the model refers to these records.
TEST_CASE("validate: Korthikanti 2022 iteration times within the issue's targets") {
  const ValidationReport r = run_text(validation_file("korthikanti2022.json"));
  CHECK(r.summary.records == 8);
  CHECK(r.summary.throughput.rows == 8);
  INFO("MAE " << r.summary.throughput.mae << ", max " << r.summary.throughput.max_abs_error << " (" << r.summary.throughput.worst << ")");
  CHECK(r.summary.throughput.mae <= 0.05);
  CHECK(r.summary.throughput.max_abs_error <= 0.10);
  const ValidationRow& x = row(r, "korthikanti2022_530B_selective");
  CHECK(x.unit == "s");
  CHECK(x.measured == 37.83);
  CHECK(x.predicted == doctest::Approx(x.step_s));
  CHECK(x.error == doctest::Approx(37.83 / x.predicted - 1));  // throughput error: + = predicted faster
  // As published: interleaved with 3 chunks, sequence parallel, selective recompute, no DP.
  CHECK(x.scenario.parallel.virtual_stages == 3);
  CHECK(x.scenario.training.sequence_parallel);
  CHECK(x.scenario.training.recompute == Recompute::selective);
  CHECK(x.scenario.parallel.dp == 1);
  CHECK(x.scenario.training.flash_attention == false);
}

// Megatron-LM's sc21 run_table_1.sh runs 1.7B-18B with --DDP-impl torch (PyTorch's DDP, which
// all-reduces buckets during the backward pass) and 39B-1T with local (after it); the records say
// which in training.ddp_impl.
TEST_CASE("validate: Megatron-LM 2021 runs reduce gradients as their DDP-impl says, FlashAttention-2 runs overlap") {
  const ValidationReport r = run_text(public_json());
  for (const char* id : {"narayanan2021_table1_1.7B", "narayanan2021_table1_18B"}) {
    const ValidationRow& torch_ddp = row(r, id);
    CHECK(torch_ddp.scenario.parallel.dp_overlap == true);
    CHECK(has_note(torch_ddp, "DDP-impl torch"));
  }
  for (const char* id : {"narayanan2021_table1_39B", "narayanan2021_table1_1T"}) {
    const ValidationRow& local = row(r, id);
    CHECK(local.scenario.parallel.dp_overlap == false);
    CHECK(has_note(local, "DDP-impl local"));
  }
  CHECK(row(r, "flashattention2_table1_gpt3-1.3b_2k").scenario.parallel.dp_overlap == true);
}

TEST_CASE("validate: training.ddp_impl is torch or local, and agrees with dp_overlap") {
  auto record = [](const nlohmann::json& training) {
    return llama2_13b_file({{"training", training}, {"hardware", {{"gpu_count", 64}}}});
  };
  const ValidationReport local = run_text(record({{"zero_stage", 1}, {"ddp_impl", "local"}}));
  CHECK(row(local, "r").status == "compared");
  CHECK_FALSE(row(local, "r").scenario.parallel.dp_overlap);
  const ValidationReport both = run_text(record({{"zero_stage", 1}, {"ddp_impl", "torch"}, {"dp_overlap", true}}));
  CHECK(row(both, "r").scenario.parallel.dp_overlap);
  const ValidationReport odd = run_text(record({{"zero_stage", 1}, {"ddp_impl", "apex"}}));
  CHECK(row(odd, "r").status == "skipped");
  CHECK(row(odd, "r").skip_field == "training.ddp_impl");
  CHECK(contains(row(odd, "r").skip_reason, "got \"apex\""));
  const ValidationReport clash = run_text(record({{"zero_stage", 1}, {"ddp_impl", "local"}, {"dp_overlap", true}}));
  CHECK(row(clash, "r").status == "skipped");
  CHECK(contains(row(clash, "r").skip_reason, "contradicts"));
  const ValidationReport typed = run_text(record({{"zero_stage", 1}, {"ddp_impl", 1}}));
  CHECK(row(typed, "r").skip_field == "training.ddp_impl");
}

TEST_CASE("validate CLI: table, --json, --only, --profile datasheet, errors") {
  const std::string file = std::string(LLMC_SOURCE_DIR) + "/validation/public.json";
  std::ostringstream out, err;
  CHECK(cli::run({"validate", file}, out, err) == 0);
  CHECK(contains(out.str(), "narayanan2021_table1_1T"));
  CHECK(contains(out.str(), "records: 58 (57 modelled, 1 skipped)"));
  CHECK(contains(out.str(), "kernel benchmarks (isolated GEMM, HBM, NCCL, attention rates): 38 rows"));

  std::ostringstream jout, jerr;
  REQUIRE(cli::run({"validate", file, "--json", "--only", "llama3", "--profile", "datasheet"}, jout, jerr) == 0);
  const nlohmann::json j = nlohmann::json::parse(jout.str());
  REQUIRE(j["rows"].size() == 3);
  CHECK(j["summary"]["records"] == 3);
  CHECK(contains(j["rows"][0]["profile"].get<std::string>(), "datasheet"));
  CHECK(j["conventions"].size() == flop_conventions().size());

  // --profile published: the bundled profiles, built from the kernel records (site/profiles).
  std::ostringstream pout, perr;
  REQUIRE(cli::run({"validate", file, "--json", "--only", "llama3", "--profile", "published"}, pout, perr) == 0);
  const nlohmann::json pj = nlohmann::json::parse(pout.str());
  REQUIRE(pj["rows"].size() == 3);
  CHECK(contains(pj["rows"][0]["profile"].get<std::string>(), "site/profiles"));
  CHECK(pj["rows"][0]["predicted"].get<double>() != j["rows"][0]["predicted"].get<double>());

  std::ostringstream bout, berr;
  CHECK(cli::run({"validate", std::string(LLMC_SOURCE_DIR) + "/validation/README.md"}, bout, berr) == 2);
  CHECK(contains(berr.str(), "llmcalc: error: validation file: not valid JSON"));
  std::ostringstream mout, merr;
  CHECK(cli::run({"validate", "/nonexistent/records.json"}, mout, merr) == 2);
  CHECK(contains(merr.str(), "llmcalc: error: /nonexistent/records.json: cannot read"));
}

// A step time or a token rate needs no FLOP count: a record of any source with one is compared
// (whatever it calls the metric), the framework taken to be a current one (fused attention, DP
// reduction overlapped). A TFLOP/s figure of an unknown source stays skipped (test above).
TEST_CASE("validate: any source's step time or tokens/s is compared without a FLOP convention") {
  auto generic = [](const nlohmann::json& measured) {
    nlohmann::json j = nlohmann::json::parse(record_with("source", "citation", "A 2026 training report"));
    j["measured"] = measured;
    return run_text("[" + j.dump() + "]");
  };
  const ValidationReport per_gpu = generic({{"tokens_per_s_per_gpu", 4000}});
  REQUIRE(per_gpu.rows.size() == 1);
  const ValidationRow& a = per_gpu.rows[0];
  CHECK(a.status == "compared");
  CHECK(a.convention == "tokens_per_gpu");
  CHECK(a.metric == "tokens_per_s_per_gpu");
  CHECK(a.predicted == doctest::Approx(512.0 * 2048 / (a.step_s * 32)));
  CHECK(a.error == doctest::Approx((a.predicted - 4000) / 4000));
  CHECK(a.scenario.parallel.dp_overlap);
  CHECK(a.scenario.training.flash_attention);
  CHECK(per_gpu.summary.throughput.rows == 1);

  const ValidationReport step = generic({{"time_per_step_s", 10.0}, {"tokens_per_sec_per_gpu", 4000}});
  const ValidationRow& b = step.rows[0];
  CHECK(b.convention == "step_time");  // the step time is preferred when both are printed
  CHECK(b.metric == "time_per_step_s");
  CHECK(b.unit == "s");
  CHECK(b.predicted == doctest::Approx(b.step_s));
  CHECK(b.error == doctest::Approx(10.0 / b.predicted - 1));  // + = predicted faster, as everywhere

  const ValidationReport job = generic({{"tokens_per_second", 100000}});
  const ValidationRow& c = job.rows[0];
  CHECK(c.convention == "tokens_per_s");
  CHECK(c.predicted == doctest::Approx(512.0 * 2048 / c.step_s));

  // A FLOP rate or MFU of an unknown count: shown with llmcalc's executed FLOPs / its MFU, outside
  // the throughput target.
  const ValidationReport rate = generic({{"tflops_per_gpu", 140}, {"mfu", 0.45}});
  const ValidationRow& d = rate.rows[0];
  CHECK(d.convention == "tflops_unknown");
  CHECK(d.status == "shown");
  CHECK_FALSE(d.in_mae);
  CHECK(rate.summary.throughput.rows == 0);
  CHECK(rate.summary.shown.rows == 1);
  // The FLOPs llmcalc's step executes (full recompute here: four forward passes' worth, as
  // Megatron-LM counts them) over the predicted step and the 32 GPUs.
  Result<Estimate> e = estimate(d.scenario);
  REQUIRE(e.ok());
  CHECK(d.scenario.training.recompute == Recompute::full);
  CHECK(d.predicted == doctest::Approx(e->flops.hardware_per_token * 512 * 2048 / (d.step_s * 32) / 1e12));
  CHECK(e->flops.hardware_per_token > e->flops.model_per_token * 1.3);
  const ValidationReport mfu = generic({{"mfu_bf16", 0.45}});
  CHECK(mfu.rows[0].convention == "mfu_unknown");
  CHECK(mfu.rows[0].unit == "fraction");
  CHECK(mfu.rows[0].predicted > 0.2);
  CHECK(mfu.rows[0].predicted < 0.7);
}

TEST_CASE("validate: virtual_stages (NeMo's VP) as an alternative to layers per virtual stage") {
  nlohmann::json j = nlohmann::json::parse(record_with("training", "pp", 2));
  j["training"]["dp"] = 16;
  j["training"]["virtual_stages"] = 3;  // 24 layers / pp 2 = 12 per stage, 4 per chunk
  const ValidationReport one = run_text("[" + j.dump() + "]");
  const ValidationRow& r = one.rows[0];
  REQUIRE(r.status == "compared");
  CHECK(r.scenario.parallel.virtual_stages == 3);
  j["training"]["virtual_pipeline_layers_per_stage"] = 4;
  const ValidationReport two = run_text("[" + j.dump() + "]");
  const ValidationRow& both = two.rows[0];
  CHECK(both.status == "skipped");
  CHECK(both.skip_field == "training.virtual_stages");
}

// NeMo 24.07 and Megatron-Bridge 25.11 FP8 pre-training on DGX-H100 (validation/nemo-h100-fp8.json):
// runs of another framework than the ones the issue's file holds, compared by tokens/s per GPU.
// ../shared/docs/anchors.md asks for ≤ 10% mean error across other frameworks.
TEST_CASE("validate: NeMo / Megatron-Bridge FP8 runs on H100 within 10% mean error") {
  const ValidationReport r = other_framework_runs("nemo-h100-fp8.json", 9);
  const ValidationRow& x = row(r, "nemo2407_llama2-70b_64gpu");
  CHECK(x.convention == "tokens_per_gpu");
  CHECK(x.scenario.training.precision == Precision::fp8_mixed);
  CHECK(x.scenario.parallel.virtual_stages == 20);
  CHECK(x.scenario.parallel.cp == 1);
  CHECK(x.scenario.parallel.dp == 4);
}

// torchtitan's FSDP2 runs on 64 A100 80GB (validation/torchtitan-a100.json): eager PyTorch, so the
// records say fused_elementwise = false, and "selective layer" checkpointing is full recompute of
// every second block (recompute_layers); "selective op" is torchtitan's per-op policy
// (selective_op). ≤ 10% mean error across other frameworks, as for NeMo.
TEST_CASE("validate: torchtitan FSDP2 runs on A100 within 10% mean error, with eager element-wise kernels") {
  const ValidationReport r = other_framework_runs("torchtitan-a100.json", 8);
  CHECK(row(r, "torchtitan_llama3-8b_a100x64_ac-op").scenario.training.recompute == Recompute::selective_op);
  CHECK(row(r, "torchtitan_llama3-8b_a100x64_ac-op").scenario.training.grad_dtype == Dtype::fp32);  // FSDP2 reduce_dtype
  CHECK(row(r, "torchtitan_llama2-70b_a100x64_ac-op").scenario.training.micro_batch == 1);
  // The page's runs ran, so the tensors of each fit llmcalc's memory per GPU, eager PyTorch's
  // extra activations included (the 70B per-op run at two sequences per GPU does not:
  // tests/test_memory.cpp). With the 5 % fragmentation allowance all fit but Llama 2 13B without
  // checkpointing, which llmcalc puts 4.4 % over (docs/formulas.md, eager kernels).
  for (const ValidationRow& run_row : r.rows) {
    CAPTURE(run_row.id);
    Result<Estimate> e = estimate(run_row.scenario);
    REQUIRE(e);
    CHECK(e->mem.total_bytes - e->mem.fragmentation_bytes <= e->mem.capacity_bytes);
    CHECK(e->fits == (run_row.id != "torchtitan_llama2-13b_a100x64_ac-none"));
  }
  const ValidationRow& x = row(r, "torchtitan_llama3-8b_a100x64_ac-layer");
  CHECK(x.convention == "tokens_per_gpu");
  CHECK_FALSE(x.scenario.training.fused_elementwise);
  CHECK(x.scenario.training.recompute == Recompute::full);
  CHECK(x.scenario.training.recompute_layers == 16);
  CHECK(x.scenario.training.zero_stage == 3);
  // Fused kernels (the default) would predict this run faster than the eager model does.
  std::string text = validation_file("torchtitan-a100.json");
  for (size_t at = text.find("\"fused_elementwise\": false"); at != std::string::npos; at = text.find("\"fused_elementwise\": false"))
    text.replace(at, 26, "\"fused_elementwise\": true");
  const ValidationReport fused_report = run_text(text);
  const ValidationRow& fused = row(fused_report, "torchtitan_llama3-8b_a100x64_ac-layer");
  CHECK(fused.predicted > x.predicted * 1.05);
}

TEST_CASE("validate: FP8 parameters from the record, its precision's words, or a NeMo / Megatron-Bridge source") {
  auto file = [](const nlohmann::json& patch) {
    nlohmann::json base = {{"hardware", {{"gpu", "H100 SXM"}}}, {"training", {{"precision", "fp8 (Transformer Engine) with bf16"}}}};
    base.merge_patch(patch);
    return llama2_13b_file(base);
  };
  const ValidationReport plain_report = run_text(file(nlohmann::json::object()));
  const ValidationRow& plain = row(plain_report, "r");
  REQUIRE(plain.status == "compared");
  CHECK_FALSE(plain.scenario.training.fp8_params);
  const ValidationReport given_report = run_text(file({{"training", {{"fp8_params", true}}}}));
  CHECK(row(given_report, "r").scenario.training.fp8_params);
  const ValidationReport words_report = run_text(file({{"training", {{"precision", "FP8 hybrid, fp8-param-gather"}}}}));
  CHECK(row(words_report, "r").scenario.training.fp8_params);
  CHECK(has_note(row(words_report, "r"), "from the record's precision"));
  const ValidationReport bridge_report = run_text(file({{"source", {{"citation", "NVIDIA Megatron-Bridge performance summary"}}}}));
  CHECK(row(bridge_report, "r").scenario.training.fp8_params);
  CHECK(has_note(row(bridge_report, "r"), "Megatron-Bridge's FP8 recipes"));
  // The record's own value wins over the framework's recipe; bf16 runs have no FP8 parameters.
  const ValidationReport off_report = run_text(file({{"source", {{"citation", "NeMo"}}}, {"training", {{"fp8_params", false}}}}));
  CHECK_FALSE(row(off_report, "r").scenario.training.fp8_params);
  const ValidationReport bf16_report = run_text(file({{"source", {{"citation", "NeMo"}}}, {"training", {{"precision", "bf16"}}}}));
  CHECK_FALSE(row(bf16_report, "r").scenario.training.fp8_params);
  for (const nlohmann::json& bad : {nlohmann::json{{"fp8_params", "yes"}}, nlohmann::json{{"fp8_params", true}, {"precision", "bf16"}}}) {
    const ValidationReport bad_report = run_text(file({{"training", bad}}));
    INFO(bad.dump());
    CHECK(row(bad_report, "r").status == "skipped");
    CHECK(row(bad_report, "r").skip_field == "training.fp8_params");
  }
}

TEST_CASE("validate: recompute_layers needs full recompute; fused_elementwise must be a boolean") {
  auto with = [](const nlohmann::json& training) { return llama2_13b_file({{"training", training}}); };
  const ValidationReport sel_report = run_text(with({{"recompute", "selective"}, {"recompute_layers", 20}}));
  const ValidationRow& sel = row(sel_report, "r");
  CHECK(sel.status == "skipped");
  CHECK(sel.skip_field == "training.recompute_layers");
  const ValidationReport bad_report = run_text(with({{"recompute", "full"}, {"fused_elementwise", "no"}}));
  const ValidationRow& bad = row(bad_report, "r");
  CHECK(bad.status == "skipped");
  CHECK(bad.skip_field == "training.fused_elementwise");
  const ValidationReport ok_report = run_text(with({{"recompute", "full"}, {"recompute_layers", 20}}));
  const ValidationRow& ok = row(ok_report, "r");
  CHECK(ok.status == "compared");
  CHECK(ok.scenario.training.recompute_layers == 20);
}

TEST_CASE("validate: grad_dtype sets the dtype gradients are reduced in; 'selective op' is torchtitan's policy") {
  auto with = [](const nlohmann::json& training) { return llama2_13b_file({{"training", training}}); };
  const ValidationReport fp32_report = run_text(with({{"zero_stage", 3}, {"grad_dtype", "fp32"}, {"recompute", "selective op (per-op)"}}));
  const ValidationReport bf16_report = run_text(with({{"zero_stage", 3}, {"recompute", "selective"}}));
  const ValidationRow& fp32 = row(fp32_report, "r");
  const ValidationRow& bf16 = row(bf16_report, "r");
  REQUIRE(fp32.status == "compared");
  REQUIRE(bf16.status == "compared");
  CHECK(fp32.scenario.training.grad_dtype == Dtype::fp32);
  CHECK_FALSE(bf16.scenario.training.grad_dtype.has_value());
  CHECK(fp32.scenario.training.recompute == Recompute::selective_op);
  CHECK(bf16.scenario.training.recompute == Recompute::selective);
  for (const char* words : {"selective-op", "selective (op)", "Selective_OP", "selective op"})
    CHECK(row(run_text(with({{"recompute", words}})), "r").scenario.training.recompute == Recompute::selective_op);
  for (const char* words : {"selective", "selective (Megatron)", "selective, operator-level"})
    CHECK(row(run_text(with({{"recompute", words}})), "r").scenario.training.recompute == Recompute::selective);
  CHECK(row(run_text(with({{"grad_dtype", "FP32"}})), "r").scenario.training.grad_dtype == Dtype::fp32);
  CHECK(row(run_text(with({{"grad_dtype", ""}})), "r").skip_field == "training.grad_dtype");
  const ValidationReport bad_report = run_text(with({{"grad_dtype", "float32"}}));
  const ValidationRow& bad = row(bad_report, "r");
  CHECK(bad.status == "skipped");
  CHECK(bad.skip_field == "training.grad_dtype");
  CHECK(bad.skip_reason.find("'float32'") != std::string::npos);
}

TEST_CASE("validate: grad_reduce says when gradients are reduced; Llama 3's come from its text") {
  auto with = [](const nlohmann::json& training) { return llama2_13b_file({{"training", training}}); };
  CHECK(row(run_text(with({{"zero_stage", 2}, {"grad_reduce", "Step"}})), "r").scenario.training.grad_reduce == GradReduce::step);
  CHECK(row(run_text(with({{"zero_stage", 2}, {"grad_reduce", "micro_batch"}})), "r").scenario.training.grad_reduce == GradReduce::micro_batch);
  CHECK(row(run_text(with({{"zero_stage", 2}})), "r").scenario.training.grad_reduce == GradReduce::auto_);
  const ValidationReport bad = run_text(with({{"grad_reduce", "sometimes"}}));
  CHECK(row(bad, "r").skip_field == "training.grad_reduce");
  CHECK(contains(row(bad, "r").skip_reason, "must be micro_batch or step; got 'sometimes'"));
  // Llama 3 §3.3.2: FP32 accumulation over the micro-batches, one FP32 reduce-scatter.
  const ValidationReport l3 = run_text(public_json());
  const ValidationRow& x = row(l3, "llama3_405B_table4_row2_16384gpus_seq8192");
  CHECK(x.scenario.training.grad_reduce == GradReduce::step);
  CHECK(x.scenario.training.grad_dtype == Dtype::fp32);
  bool noted = false;
  for (const std::string& n : x.notes) noted |= contains(n, "gradients, from the source's text") && contains(n, "FP32");
  CHECK(noted);
}

// DeepSeek-V3's H800s: the H100's compute with NVLink cut to 400 GB/s (200 per direction).
TEST_CASE("validate: 'H800' names the h800 GPU, whose tensor-parallel traffic is slower than H100's") {
  auto record = [](const std::string& gpu) {
    return llama2_13b_file({{"training", {{"zero_stage", 1}, {"tp", 8}, {"dp", 8}, {"sequence_parallel", true}}}, {"hardware", {{"gpu", gpu}}}});
  };
  const ValidationReport h800 = run_text(record("NVIDIA H800 SXM5 80GB"));
  const ValidationReport h100 = run_text(record("NVIDIA H100 SXM5 80GB"));
  const ValidationRow& a = row(h800, "r");
  const ValidationRow& b = row(h100, "r");
  REQUIRE(a.status == "compared");
  CHECK(a.gpu == "h800");
  CHECK(b.gpu == "h100-sxm");
  CHECK(a.scenario.hardware.gpu.peak_bf16_tflops == b.scenario.hardware.gpu.peak_bf16_tflops);
  CHECK(a.step_s > b.step_s);
}

// Unseen records write the same knob in many ways; each reading below is what the words mean in
// the papers that use them, and words that name no one setting are refused, never guessed.
TEST_CASE("validate: precision, recompute and ZeRO in the words papers use") {
  auto with = [](const nlohmann::json& training) { return llama2_13b_file({{"training", training}}); };
  auto training_of = [&](const nlohmann::json& training) {
    const ValidationReport r = run_text(with(training));
    REQUIRE(r.rows.size() == 1);
    INFO(training.dump() << " → " << r.rows[0].skip_field << ": " << r.rows[0].skip_reason);
    REQUIRE(r.rows[0].status == "compared");
    return r.rows[0].scenario.training;
  };
  auto skipped_on = [&](const nlohmann::json& training) {
    const ValidationReport r = run_text(with(training));
    REQUIRE(r.rows.size() == 1);
    CHECK(r.rows[0].status == "skipped");
    return r.rows[0].skip_field + ": " + r.rows[0].skip_reason;
  };
  // PyTorch's dtype names; "bfloat16" holds "float16" but starts first.
  CHECK(training_of({{"precision", "torch.float16 (AMP)"}}).precision == Precision::fp16_mixed);
  CHECK(training_of({{"precision", "half precision"}}).precision == Precision::fp16_mixed);
  CHECK(training_of({{"precision", "bfloat16 mixed"}}).precision == Precision::bf16_mixed);
  CHECK(training_of({{"precision", "float32"}}).precision == Precision::fp32);
  CHECK(contains(skipped_on({{"precision", "mixed precision"}}), "training.precision: names no dtype"));
  // Checkpointing without a granularity is full recompute; a boolean is the same yes or no.
  for (const nlohmann::json& yes : {nlohmann::json(true), nlohmann::json("activation checkpointing"), nlohmann::json("Gradient checkpointing"),
                                    nlohmann::json("yes")})
    CHECK(training_of({{"recompute", yes}}).recompute == Recompute::full);
  for (const nlohmann::json& no : {nlohmann::json(false), nlohmann::json("no activation checkpointing"), nlohmann::json("without checkpointing"),
                                   nlohmann::json("off")})
    CHECK(training_of({{"recompute", no}}).recompute == Recompute::none);
  CHECK(training_of({{"recompute", "activation checkpointing (selective)"}}).recompute == Recompute::selective);
  CHECK(contains(skipped_on({{"recompute", "partial"}}), "training.recompute: names no recompute mode"));
  CHECK(contains(skipped_on({{"recompute", 3}}), "training.recompute"));
  // ZeRO: Megatron's distributed optimizer shards the optimizer states (stage 1); DDP is stage 0.
  CHECK(training_of({{"zero_stage", "distributed optimizer"}}).zero_stage == 1);
  CHECK(training_of({{"zero_stage", "PyTorch DDP"}}).zero_stage == 0);
  CHECK(training_of({{"zero_stage", "none"}}).zero_stage == 0);
  CHECK(training_of({{"zero_stage", "2"}}).zero_stage == 2);
  // Hybrid sharding: FSDP inside groups of one node (PyTorch's HYBRID_SHARD default) unless the
  // record gives training.zero_shard_group; _HYBRID_SHARD_ZERO2 is ZeRO-2 inside the group.
  const TrainingSpec hsdp = training_of({{"zero_stage", "HSDP (shard within node)"}});
  CHECK(hsdp.zero_stage == 3);
  CHECK(hsdp.zero_shard_group == 8);
  CHECK(training_of({{"zero_stage", "FSDP hybrid shard"}, {"zero_shard_group", 16}}).zero_shard_group == 16);
  CHECK(training_of({{"zero_stage", "_HYBRID_SHARD_ZERO2"}}).zero_stage == 2);
  // With tp 2 a node holds 4 data-parallel ranks.
  CHECK(training_of({{"zero_stage", "HSDP"}, {"tp", 2}, {"dp", 32}}).zero_shard_group == 4);
  CHECK(training_of({{"zero_stage", 1}, {"zero_shard_group", 32}}).zero_shard_group == 32);
  CHECK(training_of({{"zero_stage", 3}}).zero_shard_group == 0);
  CHECK(contains(skipped_on({{"zero_stage", 0}, {"zero_shard_group", 8}}), "training.zero_shard_group: needs a sharded"));
  CHECK(contains(skipped_on({{"zero_stage", 3}, {"zero_shard_group", "8"}}), "training.zero_shard_group: must be"));
  CHECK(skipped_on({{"zero_stage", 3}, {"zero_shard_group", 48}}).rfind("training.zero_shard_group", 0) == 0);  // 48 does not divide dp 64
  CHECK(contains(skipped_on({{"zero_stage", "sharded somehow"}}), "training.zero_stage: names no ZeRO stage"));
}

// The shape under Hugging Face / Megatron / GPT-2 names, the sequence length with the training
// settings, an MFU in percent, and a samples/s rate: each read as the same record in llmcalc's terms.
TEST_CASE("validate: shape names of other formats, seq_len in training, MFU percent, samples/s") {
  const ValidationReport ours = run_text(llama2_13b_file(nlohmann::json::object()));
  const ValidationRow& base = row(ours, "r");
  REQUIRE(base.status == "compared");
  nlohmann::json hf_model = {{"name", "Llama 2 13B"}, {"num_hidden_layers", 40}, {"hidden_size", 5120}, {"num_attention_heads", 40},
                             {"num_key_value_heads", 40}, {"intermediate_size", 13824}, {"vocab_size", 32000}};
  std::string hf_text = llama2_13b_file(nlohmann::json::object());
  nlohmann::json hf = nlohmann::json::parse(hf_text);
  hf[0]["model"] = hf_model;
  hf[0]["training"]["seq_length"] = 4096;
  const ValidationReport hf_report = run_text(hf.dump());
  const ValidationRow& h = row(hf_report, "r");
  REQUIRE(h.status == "compared");
  CHECK(h.predicted == doctest::Approx(base.predicted).epsilon(1e-12));
  // One field under two names, or two different sequence lengths, is refused.
  hf[0]["model"]["layers"] = 40;
  CHECK(row(run_text(hf.dump()), "r").skip_field == "model.num_hidden_layers");
  CHECK(row(run_text(llama2_13b_file({{"training", {{"seq_len", 2048}}}})), "r").skip_field == "training.seq_len");
  CHECK(row(run_text(llama2_13b_file({{"training", {{"seq_len", 4096}}}})), "r").status == "compared");  // the same number twice is fine
  // MFU 46.2 is 46.2 %; 0.462 the same; 146 is neither.
  const ValidationReport pct = run_text(llama2_13b_file({{"measured", {{"tokens_per_sec_per_gpu", nullptr}, {"mfu", 46.2}}}}));
  const ValidationReport frac = run_text(llama2_13b_file({{"measured", {{"tokens_per_sec_per_gpu", nullptr}, {"mfu", 0.462}}}}));
  CHECK(row(pct, "r").measured == doctest::Approx(0.462));
  CHECK(row(pct, "r").error == doctest::Approx(row(frac, "r").error));
  CHECK(row(run_text(llama2_13b_file({{"measured", {{"tokens_per_sec_per_gpu", nullptr}, {"mfu", 146}}}})), "r").skip_field == "measured.mfu");
  // A text value is named in the skip reason, not passed over as "none".
  const ValidationReport text = run_text(llama2_13b_file({{"measured", {{"tokens_per_sec_per_gpu", nullptr}, {"mfu", "46%"}}}}));
  CHECK(contains(row(text, "r").skip_reason, "mfu (not a number)"));
  // Samples/s of the whole job: 64 sequences per step over the predicted step time.
  const ValidationReport samples = run_text(llama2_13b_file({{"measured", {{"tokens_per_sec_per_gpu", nullptr}, {"samples_per_sec", 30}}}}));
  const ValidationRow& sm = row(samples, "r");
  REQUIRE(sm.status == "compared");
  CHECK(sm.convention == "samples_per_s");
  CHECK(sm.predicted == doctest::Approx(64 / base.step_s));
  CHECK(sm.predicted == doctest::Approx(base.predicted * 64 / 4096.0));  // base: tokens/s per GPU × 64 GPUs / 4096 tokens per sequence
}

// V100 (the GPU of Megatron-LM 2019, the ZeRO paper, Turing-NLG), A800 and MI250X GCDs.
TEST_CASE("validate: V100, A800 and MI250X records name catalog GPUs; V100 has no bf16 and no fused attention") {
  auto record = [](const std::string& gpu, const std::string& precision) {
    return llama2_13b_file({{"training", {{"zero_stage", 1}, {"tp", 8}, {"dp", 8}, {"precision", precision}}}, {"hardware", {{"gpu", gpu}}}});
  };
  const struct {
    const char* text;
    const char* id;
  } names[] = {{"Tesla V100-SXM2-32GB", "v100-sxm2-32gb"}, {"V100 SXM3 32GB (DGX-2H)", "v100-sxm2-32gb"}, {"NVIDIA V100 16GB", "v100-sxm2-16gb"},
               {"A800-SXM4-80GB", "a800-sxm-80gb"},      {"AMD MI250X (Frontier)", "mi250x"},
               {"A100 40G", "a100-sxm-40gb"},            {"A100 SXM4 (400W)", "a100-sxm-80gb"},  // 400 W is not 40 GB
               {"A100 PCIe 40 GB", "a100-pcie-40gb"},    {"V100 (16 GPUs per node)", "v100-sxm2-32gb"}};
  for (const auto& n : names) {
    const ValidationReport r = run_text(record(n.text, "fp16 mixed"));
    INFO(n.text);
    REQUIRE(r.rows.size() == 1);
    CHECK(r.rows[0].status == "compared");
    CHECK(r.rows[0].gpu == n.id);
  }
  CHECK(row(run_text(record("Tesla V100-PCIE-32GB", "fp16")), "r").skip_field == "hardware.gpu");  // no PCIe V100 in the catalog
  // bf16 on V100 is an input error, not a silent fp16.
  const ValidationReport bf16 = run_text(record("V100 32GB", "bf16"));
  CHECK(row(bf16, "r").skip_field == "training.precision");
  CHECK(contains(row(bf16, "r").skip_reason, "V100"));
  // No FlashAttention or cuDNN fused attention before Ampere: unfused unless the record says so.
  const ValidationReport v100 = run_text(record("V100 32GB", "fp16"));
  CHECK_FALSE(row(v100, "r").scenario.training.flash_attention);
  CHECK(has_note(row(v100, "r"), "need an Ampere or newer GPU"));
  CHECK(row(run_text(record("A100 80GB", "fp16")), "r").scenario.training.flash_attention);
  // The A800 is an A100 with NVLink cut to 400 GB/s: the same peaks, slower tensor parallelism.
  const ValidationReport a800_report = run_text(record("A800", "bf16"));
  const ValidationReport a100_report = run_text(record("A100 SXM4 80GB", "bf16"));
  const ValidationRow& a800 = row(a800_report, "r");
  const ValidationRow& a100 = row(a100_report, "r");
  CHECK(a800.scenario.hardware.gpu.peak_bf16_tflops == a100.scenario.hardware.gpu.peak_bf16_tflops);
  CHECK(a800.step_s > a100.step_s);
}

// A record that names an eager framework (torchtitan, Hugging Face) without torch.compile gets the
// eager element-wise kernels even when it does not say fused_elementwise; "torch.compile" named
// (not as "no torch.compile") keeps them fused.
TEST_CASE("validate: torchtitan or Hugging Face without torch.compile means eager element-wise kernels") {
  auto record = [](const std::string& notes) {
    return llama2_13b_file({{"source", {{"citation", "pytorch/torchtitan docs/performance.md"}}}, {"notes", notes}});
  };
  const ValidationReport plain = run_text(record("FSDP2"));
  const ValidationReport without = run_text(record("FSDP2, no torch.compile"));
  const ValidationReport compiled = run_text(record("FSDP2 + torch.compile"));
  CHECK_FALSE(row(plain, "r").scenario.training.fused_elementwise);
  CHECK_FALSE(row(without, "r").scenario.training.fused_elementwise);
  CHECK(row(compiled, "r").scenario.training.fused_elementwise);
  CHECK(row(compiled, "r").predicted > row(plain, "r").predicted);
}

// A record may say which attention kernel and which gradient reduction its framework ran, against
// its convention's default: a 2021-22 run under a convention-free metric is not a current stack.
TEST_CASE("validate: flash_attention and dp_overlap in a record override the convention's framework") {
  auto record = [](const nlohmann::json& training) {
    return llama2_13b_file({{"training", training}, {"hardware", {{"gpu_count", 64}}}});
  };
  const ValidationReport plain = run_text(record({{"zero_stage", 1}}));
  const ValidationReport old = run_text(record({{"zero_stage", 1}, {"flash_attention", false}, {"dp_overlap", false}}));
  const ValidationRow& a = row(plain, "r");
  const ValidationRow& b = row(old, "r");
  REQUIRE(a.status == "compared");
  REQUIRE(b.status == "compared");
  CHECK(a.scenario.training.flash_attention);
  CHECK(a.scenario.parallel.dp_overlap);
  CHECK_FALSE(b.scenario.training.flash_attention);
  CHECK_FALSE(b.scenario.parallel.dp_overlap);
  CHECK(b.step_s > a.step_s);  // separate softmax kernels and an exposed reduction both cost time
  int said = 0;
  for (const std::string& n : b.notes) said += contains(n, "as the record says");
  CHECK(said == 2);
  // The Megatron-LM 2021 convention defaults to neither; a record of it may still say flash.
  const ValidationReport meg = run_text("[" + record_with("training", "flash_attention", true) + "]");
  CHECK(row(meg, "r").scenario.training.flash_attention);
  CHECK_FALSE(row(meg, "r").scenario.parallel.dp_overlap);
  for (const char* key : {"flash_attention", "dp_overlap"}) {
    const ValidationReport bad = run_text(record({{key, 1}}));
    CHECK(row(bad, "r").status == "skipped");
    CHECK(row(bad, "r").skip_field == std::string("training.") + key);
  }
}

// Megatron-DeepSpeed prints Narayanan et al.'s count, with 3 forward-pass equivalents instead of 4
// when activations are not checkpointed; BLOOM's and MT-NLG's runs are modelled in full.
TEST_CASE("validate: Megatron-DeepSpeed's TFLOP/s convention and the 2021-22 runs") {
  const ValidationReport r = run_text(validation_file("megatron-deepspeed-a100.json"));
  CHECK(r.summary.records == 4);
  CHECK(r.summary.modelled == 4);
  const ValidationRow& bloom = row(r, "bloom176b_384gpus");
  REQUIRE(bloom.status == "compared");
  CHECK(bloom.convention == "megatron_deepspeed");
  CHECK_FALSE(bloom.scenario.training.flash_attention);
  CHECK_FALSE(bloom.scenario.parallel.dp_overlap);
  const double f = megatron2021_flops_per_step(2048, 2048, 70, 14336, 250880);
  CHECK(bloom.predicted == doctest::Approx(f / (bloom.step_s * 384) / 1e12).epsilon(1e-9));
  const ValidationRow& mtnlg = row(r, "mtnlg530b_2240gpus");
  CHECK(mtnlg.convention == "step_time");
  CHECK(mtnlg.predicted == doctest::Approx(mtnlg.step_s).epsilon(1e-12));
  CHECK(mtnlg.scenario.parallel.pp == 35);
  // Without checkpointing the same printout counts 3 forward passes: the predicted figure is ¾ of
  // the count over the (shorter) step.
  nlohmann::json recs = nlohmann::json::parse(validation_file("megatron-deepspeed-a100.json"));
  for (nlohmann::json& rec : recs) rec["training"]["recompute"] = "none";
  const ValidationReport none = run_text(recs.dump());
  const ValidationRow& b3 = row(none, "bloom176b_384gpus");
  REQUIRE(b3.status == "compared");  // timed although it does not fit (the row says so)
  CHECK(b3.step_s < bloom.step_s);
  CHECK(b3.predicted == doctest::Approx(0.75 * f / (b3.step_s * 384) / 1e12).epsilon(1e-9));
  // Selective recompute is checkpointing too (recompute_granularity selective): 4 passes.
  for (nlohmann::json& rec : recs) rec["training"]["recompute"] = "selective";
  const ValidationReport sel = run_text(recs.dump());
  const ValidationRow& b4 = row(sel, "bloom176b_384gpus");
  REQUIRE(b4.status == "compared");
  CHECK(b4.predicted == doctest::Approx(f / (b4.step_s * 384) / 1e12).epsilon(1e-9));
}

namespace {
// The file's 235B record with its model section replaced by `model`.
std::string qwen235_with_model(const nlohmann::json& model) {
  nlohmann::json recs = nlohmann::json::parse(validation_file("megatron-bridge-moe-h100.json"));
  nlohmann::json rec = recs.at(0);
  rec["model"] = model;
  return nlohmann::json::array({rec}).dump();
}
}  // namespace

// Megatron-Bridge's H100 MoE rows: modelled with their experts, head_dim, ep, etp and overlap.
// Not a target (docs/validation.md): the 235B runs are predicted 27-30 % fast, the 30B ones 2-3
// times, as the document says; a change to either is a change to that text.
TEST_CASE("validate: MoE records are modelled (Qwen3 on DGX-H100)") {
  const ValidationReport r = run_text(validation_file("megatron-bridge-moe-h100.json"));
  CHECK(r.summary.records == 4);
  CHECK(r.summary.modelled == 4);
  const ValidationRow& big = row(r, "megatronbridge2511_qwen3-235b-a22b_256gpu");
  REQUIRE(big.status == "compared");
  const ModelSpec& m = big.scenario.model;
  CHECK(m.experts == 128);
  CHECK(m.top_k == 8);
  CHECK(m.expert_ffn_hidden == 1536);
  CHECK(m.head_dim == 128);  // 64 heads × 128 = 8,192 ≠ hidden 4,096
  CHECK(m.moe_first_dense == 0);
  CHECK(big.scenario.parallel.ep == 32);
  CHECK(big.scenario.parallel.etp == 1);
  CHECK(big.scenario.parallel.ep_overlap);
  CHECK(big.scenario.training.sequence_parallel);
  for (const char* id : {"megatronbridge2511_qwen3-235b-a22b_256gpu", "megatronbridge2602_qwen3-235b-a22b_256gpu"})
    CHECK(row(r, id).error == doctest::Approx(0.285).epsilon(0.06 / 0.285));  // +27-30 %
  for (const char* id : {"megatronbridge2511_qwen3-30b-a3b_16gpu", "megatronbridge2602_qwen3-30b-a3b_16gpu"}) {
    CHECK(row(r, id).error > 0.9);
    CHECK_FALSE(row(r, id).scenario.parallel.ep_overlap);  // not published: GShard's default
  }
}

TEST_CASE("validate: MoE fields under Hugging Face names, presets, and what is refused") {
  const nlohmann::json ours = {{"name", "Qwen3-235B-A22B"}, {"layers", 94},  {"hidden", 4096},    {"heads", 64},     {"kv_heads", 4},
                               {"head_dim", 128},           {"ffn", 12288}, {"vocab", 151936},  {"seq_len", 4096}, {"experts", 128},
                               {"top_k", 8},                {"expert_ffn", 1536}, {"arch_notes", "SwiGLU"}};
  nlohmann::json hf = ours;
  for (const char* k : {"experts", "top_k", "expert_ffn"}) hf.erase(k);
  hf["num_experts"] = 128;
  hf["num_experts_per_tok"] = 8;
  hf["moe_intermediate_size"] = 1536;
  const ValidationRow a = run_text(qwen235_with_model(ours)).rows.at(0);
  const ValidationRow b = run_text(qwen235_with_model(hf)).rows.at(0);
  REQUIRE(a.status == "compared");
  REQUIRE(b.status == "compared");
  CHECK(a.predicted == b.predicted);
  CHECK(b.scenario.model.expert_ffn_hidden == 1536);

  // One field under two names is refused, naming both.
  nlohmann::json twice = ours;
  twice["num_experts"] = 64;
  const ValidationRow t = run_text(qwen235_with_model(twice)).rows.at(0);
  CHECK(t.status == "skipped");
  CHECK(t.skip_field == "model.num_experts");
  CHECK(contains(t.skip_reason, "model.experts"));
  // Experts without top-k, and MoE fields without experts.
  nlohmann::json no_k = ours;
  no_k.erase("top_k");
  CHECK(run_text(qwen235_with_model(no_k)).rows.at(0).skip_field == "model.top_k");
  nlohmann::json hf_k_too_big = hf;
  hf_k_too_big["num_experts_per_tok"] = 200;  // the error names the record's own key
  CHECK(run_text(qwen235_with_model(hf_k_too_big)).rows.at(0).skip_field == "model.num_experts_per_tok");
  nlohmann::json no_e = ours;
  no_e.erase("experts");
  CHECK(run_text(qwen235_with_model(no_e)).rows.at(0).skip_field == "model.experts");

  // No expert width: the record's ffn is the expert's (Mixtral's config), said in a note.
  nlohmann::json mixtral_like = ours;
  mixtral_like.erase("expert_ffn");
  mixtral_like["ffn"] = 1536;
  const ValidationRow mx = run_text(qwen235_with_model(mixtral_like)).rows.at(0);
  REQUIRE(mx.status == "compared");
  CHECK(mx.scenario.model.expert_ffn_hidden == 1536);
  CHECK(has_note(mx, "Mixtral's convention"));

  // DeepSeek-V3's shape finds its preset, latent attention and leading dense layers included,
  // whether the record's ffn is the dense layers' width or an expert's.
  for (int ffn : {18432, 2048}) {
    const nlohmann::json ds = {{"name", "DeepSeek-V3"}, {"layers", 61}, {"hidden", 7168}, {"heads", 128}, {"kv_heads", 128}, {"ffn", ffn},
                               {"vocab", 129280},       {"seq_len", 4096}, {"n_routed_experts", 256}, {"num_experts_per_tok", 8}, {"n_shared_experts", 1}};
    const ValidationRow d = run_text(qwen235_with_model(ds)).rows.at(0);
    REQUIRE(d.status == "compared");
    CHECK(d.scenario.model.attention == AttentionKind::mla);
    CHECK(d.scenario.model.moe_first_dense == 3);
    CHECK(d.scenario.model.expert_ffn_hidden == 2048);
    CHECK(has_note(d, "preset deepseek-v3"));
  }
  // A field the record gives that differs from the preset's: not that preset (DeepSeek-V3's shape
  // with no leading dense layers is built from the record, not taken as deepseek-v3).
  const nlohmann::json ds0 = {{"name", "DeepSeek-V3"}, {"layers", 61}, {"hidden", 7168}, {"heads", 128}, {"kv_heads", 128}, {"ffn", 2048},
                              {"vocab", 129280},       {"seq_len", 4096}, {"n_routed_experts", 256}, {"num_experts_per_tok", 8},
                              {"first_k_dense_replace", 0}, {"arch_notes", "SwiGLU"}};
  const ValidationRow d0 = run_text(qwen235_with_model(ds0)).rows.at(0);
  REQUIRE(d0.status == "compared");
  CHECK(d0.scenario.model.moe_first_dense == 0);
  CHECK_FALSE(has_note(d0, "preset deepseek-v3"));
  // A dense record may not ask for expert parallelism.
  CHECK(row(run_text("[" + record_with("training", "etp", 2) + "]"), "r").skip_field == "training.etp");
}
