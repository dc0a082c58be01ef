// The record format (llmc_validate/record.h): every malformed record is a skipped row naming the
// field, a file that is not a JSON array is refused, a judgment must state the record's own value,
// and a record's scenario is exactly what `llmcalc estimate` reads.
#include <doctest/doctest.h>

#include "llmc/estimate.h"
#include "llmc/fields.h"
#include "validate_helpers.h"

using namespace llmc;
using namespace llmc::test;

TEST_CASE("validate records: a malformed record is skipped with the field named") {
  struct Case {
    nlohmann::json patch;
    std::string field;
  } cases[] = {
      {{{"id", 5}}, "id"},
      {{{"id", ""}}, "id"},
      {{{"family", nullptr}}, "family"},
      {{{"family", "Megatron LM"}}, "family"},
      {{{"kind", "training_run"}}, "kind"},  // the old format's key: unknown now
      {{{"source", nullptr}}, "source"},
      {{{"source", {{"citation", 5}}}}, "source.citation"},
      {{{"source", {{"citation", nullptr}}}}, "source.citation"},
      {{{"source", {{"website", "x"}}}}, "source.website"},
      {{{"source", {{"read_from", "one text"}}}}, "source.read_from"},
      {{{"source", {{"also_measured", {{"mfu", {0.4, 0.5}}}}}}}, "source.also_measured.mfu"},
      {{{"scenario", nullptr}}, "scenario"},
      {{{"kernel", {{"op", "gemm"}}}}, "scenario"},  // a scenario and a kernel
      {{{"scenario", "llama2-13b"}}, "scenario"},
      {{{"scenario", {{"modle", "llama2-13b"}}}}, "scenario.modle"},
      {{{"scenario", {{"training", {{"tp", 2}}}}}}, "scenario.training.tp"},
      {{{"scenario", {{"parallel", {{"tp", "eight"}}}}}}, "scenario.parallel.tp"},
      {{{"scenario", {{"parallel", {{"tp", 3}}}}}}, "scenario.parallel.tp"},  // 40 heads: resolve() refuses
      {{{"scenario", {{"training", {{"precision", "fp16 mixed (loss scale 8192)"}}}}}}, "scenario.training.precision"},
      {{{"unpublished", "training.recompute"}}, "unpublished"},
      {{{"unpublished", {"training.precision"}}}, "unpublished[0]"},
      {{{"unpublished", {"training.recompute", "training.recompute"}}}, "unpublished[1]"},
      {{{"measured", nullptr}}, "measured"},
      {{{"measured", {{"convention", "megatron2023"}}}}, "measured.convention"},
      {{{"measured", {{"metric", "tps"}}}}, "measured.metric"},
      {{{"measured", {{"unit", "tokens/s"}}}}, "measured.unit"},
      {{{"measured", {{"value", -1}}}}, "measured.value"},
      {{{"measured", {{"value", "2000"}}}}, "measured.value"},
      {{{"measured", {{"value", nullptr}}}}, "measured.value"},
      {{{"measured", {{"peak", 3}}}}, "measured.peak"},
      {{{"measured", {{"convention", "kernel_gemm"}, {"metric", "tflops"}, {"unit", "TFLOP/s"}}}},
       "measured.convention"},
      {{{"measured", {{"convention", "mfu_unknown"}, {"metric", "mfu"}, {"unit", "fraction"}, {"value", 46}}}},
       "measured.value"},  // a percent
      // A peak memory names its counter; no other metric has one.
      {{{"measured", {{"convention", "peak_memory"}, {"metric", "peak_memory_gib"}, {"unit", "GiB"}, {"value", 60}}}},
       "measured.memory_kind"},
      {{{"measured",
         {{"convention", "peak_memory"},
          {"metric", "peak_memory_gib"},
          {"unit", "GiB"},
          {"value", 60},
          {"memory_kind", "nvidia-smi"}}}},
       "measured.memory_kind"},
      {{{"measured", {{"memory_kind", "reserved"}}}}, "measured.memory_kind"},
      {{{"judgments", "all fine"}}, "judgments"},
      {{{"judgments", {3}}}, "judgments[0]"},
      {{{"judgments", {{{"field", "training.zero_stage"}, {"choice", 3}}}}}, "judgments[0].why"},
      {{{"judgments", {{{"choice", 3}, {"why", "x"}}}}}, "judgments[0].field"},
      {{{"judgments", {{{"field", "training.zero_stage"}, {"topic", "ZeRO"}, {"choice", 3}, {"why", "x"}}}}},
       "judgments[0].field"},
      {{{"judgments", {{{"field", "training.zero_stage"}, {"choice", {1, 2}}, {"why", "x"}}}}}, "judgments[0].choice"},
      {{{"judgments", {{{"field", "training.zero_stage"}, {"choice", 1}, {"why", "FSDP"}}}}}, "judgments[0].choice"},
      {{{"judgments", {{{"field", "training.magic"}, {"choice", 1}, {"why", "x"}}}}}, "judgments[0].field"},
      {{{"judgments", {{{"field", "model.preset"}, {"choice", "llama2-7b"}, {"why", "x"}}}}}, "judgments[0].choice"},
      {{{"judgments", {{{"field", "hardware.gpu"}, {"choice", "h100-sxm"}, {"why", "x"}}}}}, "judgments[0].choice"},
      {{{"judgments", {{{"field", "measured.value"}, {"choice", 1999}, {"why", "x"}}}}}, "judgments[0].choice"},
      {{{"judgments", {{{"field", "kernel.m"}, {"choice", 1}, {"why", "x"}}}}}, "judgments[0].field"},
      {{{"judgments", {{{"topic", "x"}, {"choice", 1}, {"why", "x"}, {"because", "y"}}}}}, "judgments[0].because"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.patch.dump());
    nlohmann::json rec = training_record(c.patch);
    if (c.patch.contains("kernel")) rec["kernel"] = c.patch["kernel"];
    const ValidationRow x = only_row(rec);
    CHECK(x.status == "skipped");
    CHECK(x.skip_field == c.field);
    CHECK_FALSE(x.skip_reason.empty());
  }
}

TEST_CASE("validate records: errors say what the field must be and what was given") {
  const ValidationRow unit = only_row(training_record({{"measured", {{"unit", "tokens/s"}}}}));
  CHECK(unit.skip_reason == "must be 'tokens/s/GPU' under convention tokens_per_gpu; got 'tokens/s'");
  const ValidationRow judged =
      only_row(training_record({{"judgments", {{{"field", "training.zero_stage"}, {"choice", 1}, {"why", "FSDP"}}}}}));
  CHECK(judged.skip_reason == "'1' is not the scenario's training.zero_stage ('3')");
  const ValidationRow listed = only_row(training_record({{"unpublished", {"training.precision"}}}));
  CHECK(contains(listed.skip_reason, "'training.precision' is not a knob the rule chooses"));
  const ValidationRow tp = only_row(training_record({{"scenario", {{"parallel", {{"tp", 3}}}}}}));
  CHECK(contains(tp.skip_reason, "divisible by parallel.tp (3)"));
}

TEST_CASE("validate records: judgments state the record's own values; a topic or an unpublished knob is free") {
  const nlohmann::json judgments = {
      {{"field", "training.zero_stage"}, {"choice", 3}, {"why", "FSDP full shard"}},
      {{"field", "model.preset"}, {"choice", "llama2-13b"}, {"why", "the shape"}},
      {{"field", "hardware.gpu"}, {"choice", "a100-sxm-80gb"}, {"why", "'A100 80GB'"}},
      {{"field", "training.precision"}, {"choice", "bf16_mixed"}, {"why", "the default, as the source says"}},
      {{"field", "measured.value"}, {"choice", 2000}, {"why", "as printed"}},
      {{"field", "training.recompute"}, {"choice", "searched"}, {"why", "the rule chooses it"}},
      {{"topic", "network"}, {"choice", "DGX"}, {"why", "not printed"}},
  };
  const ValidationRow x =
      only_row(training_record({{"judgments", judgments}, {"unpublished", {"training.recompute"}}}));
  REQUIRE(x.status == "compared");
  REQUIRE(x.judgments.size() == 7);
  CHECK(x.judgments[0].field == "training.zero_stage");
  CHECK(x.judgments[0].choice == "3");
  CHECK(x.judgments[6].topic == "network");
  CHECK(x.judgments[6].choice == "DGX");
  CHECK(x.unpublished == std::vector<std::string>{"training.recompute"});
}

TEST_CASE("validate records: the scenario is the one `llmcalc estimate` reads") {
  const nlohmann::json scenario = {{"model", {{"preset", "llama2-13b"}, {"seq_len", 2048}}},
                                   {"training", {{"global_batch_seqs", 64}, {"zero_stage", 1}, {"recompute", "full"}}},
                                   {"parallel", {{"tp", 2}}},
                                   {"hardware", {{"gpu", "h100-sxm"}, {"gpu_count", 64}}}};
  const ValidationRow x = only_row(training_record({{"scenario", scenario}}));
  REQUIRE(x.status == "compared");
  Scenario s = default_scenario();
  REQUIRE(apply_scenario_json(s, scenario.dump()).ok());
  const Estimate e = run_scenario(s);
  CHECK(x.step_s == e.time.step_s);
  CHECK(x.predicted == 64.0 * 2048 / (e.time.step_s * 64));
  CHECK(x.layout == "tp2 pp1 v1 cp1 dp32 mb1 gbs64 zero1 rec=full sp=0 1f1b");
  CHECK(x.scenario.parallel.dp == 32);
}

TEST_CASE(
    "validate records: a file that is not a JSON array is an error; ids are unique; good records stand beside bad "
    "ones") {
  for (const char* text : {"{}", "42", "\"records\"", "null"}) {
    Result<ValidationReport> r = validate::validate_records(text, {});
    CAPTURE(text);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().field == "validation file");
    CHECK(contains(r.error().message, "array"));
  }
  Result<ValidationReport> bad = validate::validate_records("[{", {});
  REQUIRE_FALSE(bad.ok());
  CHECK(contains(bad.error().message, "not valid JSON"));
  CHECK(run_text("[]").summary.records == 0);

  const nlohmann::json good = training_record();
  const ValidationReport r = run_text(nlohmann::json::array({3, good, good, {{"family", "x"}}}).dump());
  REQUIRE(r.rows.size() == 4);
  CHECK(r.rows[0].id == "#0");
  CHECK(r.rows[0].skip_field == "record");
  CHECK(r.rows[1].status == "compared");
  CHECK(r.rows[2].skip_field == "id");  // the same id twice
  CHECK(contains(r.rows[2].skip_reason, "earlier record"));
  CHECK(r.rows[3].id == "#3");
  CHECK(r.rows[3].family == "x");
  CHECK(r.rows[3].skip_field == "id");
  CHECK(r.summary.records == 4);
  CHECK(r.summary.modelled == 1);
  CHECK(r.summary.skipped == 3);
}
