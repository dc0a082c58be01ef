// The one rule for unpublished knobs (llmc_validate/unpublished.h): the fastest layout that fits,
// by search_layouts() over those knobs only, checked against estimating the candidates one by one.
#include <doctest/doctest.h>

#include <cmath>

#include "llmc/estimate.h"
#include "llmc/fields.h"
#include "llmc_validate/unpublished.h"
#include "validate_helpers.h"

using namespace llmc;
using namespace llmc::test;

namespace {

Scenario scenario_of(const nlohmann::json& j) {
  Scenario s = default_scenario();
  const Status st = apply_scenario_json(s, j.dump());
  INFO((st ? "" : st.error().text()));
  REQUIRE(st.ok());
  return s;
}

// Llama 2 13B on 16 H100s, tp 4: recompute and sequence parallelism matter here.
nlohmann::json tp4_scenario() {
  return {{"model", "llama2-13b"},
          {"training", {{"global_batch_seqs", 32}, {"micro_batch", 2}, {"zero_stage", 1}}},
          {"parallel", {{"tp", 4}}},
          {"hardware", {{"gpu", "h100-sxm"}, {"gpu_count", 16}}}};
}

}  // namespace

TEST_CASE("the rule: nothing unpublished, nothing searched") {
  const Scenario s = scenario_of(tp4_scenario());
  Result<validate::UnpublishedChoice> c = validate::choose_unpublished_knobs(s, {}, 1000);
  REQUIRE(c.ok());
  CHECK_FALSE(c->searched);
  CHECK(c->note.empty());
  CHECK(scenario_to_json(c->scenario) == scenario_to_json(s));
}

TEST_CASE("the rule: the fastest recompute and sequence parallelism that fit, as one-by-one estimates find") {
  const Scenario s = scenario_of(tp4_scenario());
  Result<validate::UnpublishedChoice> c =
      validate::choose_unpublished_knobs(s, {"training.recompute", "training.sequence_parallel"}, 1000);
  REQUIRE(c.ok());
  CHECK(c->searched);
  CHECK(c->fits);
  CHECK(contains(c->note, "the fastest layout that fits"));
  const Estimate chosen = run_scenario(c->scenario);
  CHECK(chosen.fits);
  // Every other candidate that fits is no faster.
  int fitting = 0;
  for (Recompute rc : {Recompute::none, Recompute::selective, Recompute::full})
    for (bool sp : {false, true}) {
      Scenario t = s;
      t.training.recompute = rc;
      t.training.sequence_parallel = sp;
      const Estimate e = run_scenario(t);
      if (!e.fits) continue;
      ++fitting;
      CAPTURE(to_string(rc));
      CAPTURE(sp);
      CHECK(chosen.time.step_s <= e.time.step_s);
    }
  CHECK(fitting >= 2);
  // Published knobs stay as written.
  CHECK(c->scenario.parallel.tp == 4);
  CHECK(c->scenario.training.micro_batch == 2);
  CHECK(c->scenario.training.zero_stage == 1);
}

TEST_CASE("the rule: micro-batch and ZeRO stage over their candidates; a tie goes to the simpler layout") {
  const Scenario s = scenario_of(tp4_scenario());
  Result<validate::UnpublishedChoice> c =
      validate::choose_unpublished_knobs(s, {"training.micro_batch", "training.zero_stage"}, 1000);
  REQUIRE(c.ok());
  const Estimate chosen = run_scenario(c->scenario);
  for (int64_t mb : {1, 2, 4, 8})
    for (int z : {0, 1, 2, 3}) {
      Scenario t = s;
      t.training.micro_batch = mb;
      t.training.zero_stage = z;
      const Estimate e = run_scenario(t);
      if (!e.fits) continue;
      CAPTURE(mb);
      CAPTURE(z);
      CHECK(chosen.time.step_s <= e.time.step_s);
      if (e.time.step_s == chosen.time.step_s)
        CHECK(std::make_pair(c->scenario.training.micro_batch, c->scenario.training.zero_stage) <=
              std::make_pair(mb, z));
    }
}

TEST_CASE("the rule: when nothing fits, the record's own values are timed and the row says so") {
  // Llama 3.1 405B on 8 GPUs: nothing fits whatever the recompute.
  const nlohmann::json big = {{"model", "llama3.1-405b"},
                              {"training", {{"global_batch_seqs", 8}}},
                              {"hardware", {{"gpu", "h100-sxm"}, {"gpu_count", 8}}}};
  const ValidationRow x = only_row(training_record({{"scenario", big}, {"unpublished", {"training.recompute"}}}));
  REQUIRE(x.status == "compared");
  CHECK(has_note(x, "no layout fits"));
  CHECK(has_note(x, "timed at the scenario's own values"));
  CHECK(has_note(x, "does not fit"));
  CHECK(x.scenario.training.recompute == Recompute::none);
}

TEST_CASE("the rule: what it cannot search is a skipped row naming the field") {
  // The search keeps the global batch fixed.
  const ValidationRow no_batch = only_row(training_record(
      {{"scenario", {{"training", {{"global_batch_seqs", nullptr}}}}}, {"unpublished", {"training.micro_batch"}}}));
  CHECK(no_batch.status == "skipped");
  CHECK(no_batch.skip_field == "scenario.training.global_batch_seqs");
  // A space larger than the limit names the list.
  ValidateOptions small;
  small.max_layouts = 10;
  const ValidationRow big = only_row(
      training_record({{"unpublished", {"parallel.tp", "parallel.pp", "training.micro_batch", "training.zero_stage"}}}),
      small);
  CHECK(big.status == "skipped");
  CHECK(big.skip_field == "unpublished");
  CHECK(contains(big.skip_reason, "more than the 10 searched per record"));
  // No GPU count to keep.
  const ValidationRow no_gpus = only_row(training_record(
      {{"scenario", {{"hardware", {{"gpu_count", nullptr}}}}}, {"unpublished", {"training.recompute"}}}));
  CHECK(no_gpus.skip_field == "scenario.hardware.gpu_count");
  // A layout list where nothing divides names the list.
  const ValidationRow odd = only_row(training_record(
      {{"scenario", {{"training", {{"global_batch_seqs", 63}}}}}, {"unpublished", {"training.micro_batch"}}}));
  CHECK(odd.status == "skipped");
  CHECK(odd.skip_field == "unpublished");
}
