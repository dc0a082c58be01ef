// The field registry: parsing, ranges, choices, and scenario JSON in and out.
#include "test_util.h"

using namespace llmc;
using namespace llmc::test;

TEST_CASE("out-of-range and malformed values are refused with field, range and value") {
  Scenario s = default_scenario();
  Status st = set_field(s, "training.micro_batch", "0");
  REQUIRE_FALSE(st.ok());
  CHECK(st.error().field == "training.micro_batch");
  CHECK(contains(st.error().message, "[1, 1048576]"));
  CHECK(contains(st.error().message, "got '0'"));

  st = set_field(s, "parallel.tp", "2.5");
  CHECK(contains(st.error().message, "integer"));
  st = set_field(s, "hardware.mfu", "1.5");
  CHECK(contains(st.error().message, "[0, 1]"));
  st = set_field(s, "hardware.mfu", "nan");
  CHECK_FALSE(st.ok());
  st = set_field(s, "hardware.mfu", "");
  CHECK_FALSE(st.ok());
  st = set_field(s, "training.precision", "fp64");
  CHECK(contains(st.error().message, "fp32,bf16_mixed,fp16_mixed,fp8_mixed,bf16_pure"));
  st = set_field(s, "training.grad_reduce", "sometimes");
  CHECK(st.error().field == "training.grad_reduce");
  CHECK(contains(st.error().message, "auto,micro_batch,step"));
  st = set_field(s, "training.flash_attention", "yes");
  CHECK(contains(st.error().message, "true or false"));
  st = set_field(s, "training.no_such_field", "1");
  CHECK(contains(st.error().message, "unknown field"));
  st = set_field(s, "model.preset", "llama9");
  CHECK(contains(st.error().message, "unknown preset 'llama9'"));
  st = set_field(s, "hardware.gpu", "tpu-v5");
  CHECK(contains(st.error().message, "unknown GPU 'tpu-v5'"));
  CHECK(contains(st.error().message, "h100-sxm"));
}

TEST_CASE("a refused value leaves the scenario unchanged") {
  Scenario s = default_scenario();
  REQUIRE(set_field(s, "training.micro_batch", "4").ok());
  CHECK_FALSE(set_field(s, "training.micro_batch", "-1").ok());
  CHECK(s.training.micro_batch == 4);
}

TEST_CASE("scenario JSON: presets first, then fields; unknown keys and bad types refused") {
  Scenario s = default_scenario();
  REQUIRE(apply_scenario_json(s, R"({"model": {"seq_len": 1024, "preset": "llama2-7b"},
                                     "training": {"micro_batch": 2, "precision": "bf16_mixed", "zero_stage": "fsdp"},
                                     "parallel": {"tp": 2}, "hardware": {"gpu_count": 8, "gpu": "a100-sxm-80gb"}})")
              .ok());
  CHECK(s.model.layers == 32);
  CHECK(s.model.seq_len == 1024);  // applied after the preset
  CHECK(s.training.zero_stage == 3);
  CHECK(s.hardware.gpu.id == "a100-sxm-80gb");
  CHECK(s.hardware.gpu_count == 8);

  Status st = apply_scenario_json(s, R"({"training": {"micro_batch": [1]}})");
  CHECK(st.error().field == "training.micro_batch");
  st = apply_scenario_json(s, R"({"trainer": {}})");
  CHECK(st.error().field == "trainer");
  st = apply_scenario_json(s, R"({"training": {"tokens": )");
  CHECK(contains(st.error().message, "not valid JSON"));
  st = apply_scenario_json(s, "[]");
  CHECK_FALSE(st.ok());
  st = apply_scenario_json(s, R"({"model": "nope"})");
  CHECK(contains(st.error().message, "unknown preset"));
}

TEST_CASE("scenario JSON round-trips through scenario_to_json") {
  Scenario s = scenario({{"model.preset", "mixtral-8x7b"},
                         {"parallel.ep", "8"},
                         {"hardware.gpu_count", "8"},
                         {"training.zero_stage", "2"},
                         {"training.tokens", "1.5e12"},
                         {"training.grad_dtype", "fp32"},
                         {"hardware.price_per_gpu_hour_usd", "3.1"}});
  const std::string text = scenario_to_json(s);
  Scenario back = default_scenario();
  REQUIRE(apply_scenario_json(back, text).ok());
  CHECK(scenario_to_json(back) == text);
  Result<Estimate> a = estimate(s), b = estimate(back);
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  CHECK(a->time.step_s == b->time.step_s);
  CHECK(a->mem.total_bytes == b->mem.total_bytes);
}

TEST_CASE("every registered field round-trips its own printed value") {
  Scenario s = scenario({{"model.preset", "deepseek-v3"}});
  for (const FieldInfo& f : scenario_fields()) {
    const std::string v = f.get(s);
    if (v.empty()) continue;
    CAPTURE(f.key);
    CAPTURE(v);
    Scenario copy = s;
    CHECK(set_field(copy, f.key, v).ok());
    CHECK(f.get(copy) == v);
  }
}
