// URL state: a share link restores exactly the scenario; malformed links give clear errors.
#include "llmc/url_state.h"
#include "test_util.h"

using namespace llmc;
using namespace llmc::test;

TEST_CASE("a share link round-trips the scenario, bit for bit") {
  Scenario s = scenario({{"model.preset", "mixtral-8x7b"}, {"parallel.ep", "8"}, {"hardware.gpu_count", "64"}, {"parallel.tp", "2"},
                         {"training.global_batch_seqs", "512"}, {"hardware.gpu", "a100-sxm-80gb"}, {"training.recompute", "selective"}, {"training.recompute_modules", "layernorm, moe_act"},
                         {"hardware.price_per_gpu_hour_usd", "1.79"}, {"training.tokens", "1.234567890123e12"}});
  const std::string frag = scenario_to_url_fragment(s);
  CHECK(frag.rfind("#s=", 0) == 0);
  CHECK(frag.find('"') == std::string::npos);
  Scenario back = default_scenario();
  REQUIRE(apply_url_fragment(back, frag).ok());
  CHECK(scenario_to_json(back) == scenario_to_json(s));
  CHECK(back.training.recompute_modules == "layernorm, moe_act");  // text with a comma and a space
  Result<Estimate> a = estimate(s), b = estimate(back);
  REQUIRE(a.ok());
  CHECK(a->time.step_s == b->time.step_s);
}

TEST_CASE("malformed URL state is refused and leaves the scenario untouched") {
  Scenario s = scenario({{"model.preset", "llama3.1-8b"}});
  const std::string before = scenario_to_json(s);
  CHECK(contains(apply_url_fragment(s, "#s=%7B%22training%22").error().message, "not valid JSON"));
  CHECK(contains(apply_url_fragment(s, "#s=%ZZ").error().message, "malformed %-escape"));
  CHECK(contains(apply_url_fragment(s, "#s=%7").error().message, "truncated"));
  CHECK(contains(apply_url_fragment(s, "#x=1").error().message, "expected '#s="));
  Status st = apply_url_fragment(s, "#s=" + percent_encode(R"({"training": {"micro_batch": 0}})"));
  CHECK(st.error().field == "URL state: training.micro_batch");
  CHECK(scenario_to_json(s) == before);
  CHECK(apply_url_fragment(s, "").ok());
  CHECK(apply_url_fragment(s, "#").ok());
}

TEST_CASE("percent encoding matches encodeURIComponent for JSON") {
  CHECK(percent_encode(R"({"a": 1.5})") == "%7B%22a%22%3A%201.5%7D");
  CHECK(*percent_decode("%7B%22a%22%3A%201.5%7D") == R"({"a": 1.5})");
}

TEST_CASE("a link with a pinned scenario (Compare) carries both; links without one still read") {
  Scenario b = scenario({{"model.preset", "llama3.1-70b"}, {"hardware.gpu_count", "256"}, {"training.zero_stage", "3"}});
  Scenario a = scenario({{"model.preset", "llama3.1-70b"}, {"hardware.gpu_count", "256"}, {"parallel.tp", "8"}, {"training.zero_stage", "1"}});
  const std::string frag = scenario_to_url_fragment(b, &a);
  CHECK(frag.rfind(scenario_to_url_fragment(b) + "&a=", 0) == 0);  // the old link, then the pinned one
  Scenario back = default_scenario();
  std::optional<Scenario> pinned;
  REQUIRE(apply_url_fragment(back, frag, &pinned).ok());
  CHECK(scenario_to_json(back) == scenario_to_json(b));
  REQUIRE(pinned.has_value());
  CHECK(scenario_to_json(*pinned) == scenario_to_json(a));
  // A reader that does not compare takes the scenario and ignores the pinned one.
  Scenario plain = default_scenario();
  REQUIRE(apply_url_fragment(plain, frag).ok());
  CHECK(scenario_to_json(plain) == scenario_to_json(b));
  // An old link (no "a=") leaves nothing pinned.
  REQUIRE(apply_url_fragment(back, scenario_to_url_fragment(b), &pinned).ok());
  CHECK_FALSE(pinned.has_value());
  // A bad pinned part is refused, naming it, and changes neither scenario.
  pinned = a;
  const std::string before = scenario_to_json(back);
  Status st = apply_url_fragment(back, scenario_to_url_fragment(b) + "&a=" + percent_encode(R"({"parallel": {"tp": 0}})"), &pinned);
  CHECK(st.error().field == "URL state (pinned A): parallel.tp");
  CHECK(scenario_to_json(back) == before);
  CHECK(scenario_to_json(*pinned) == scenario_to_json(a));
  CHECK(contains(apply_url_fragment(back, scenario_to_url_fragment(b) + "&x=1").error().message, "expected '&a="));
}
