// URL state: a share link restores exactly the scenario; malformed links give clear errors.
#include "llmc/url_state.h"
#include "test_util.h"

using namespace llmc;
using namespace llmc::test;

TEST_CASE("a share link round-trips the scenario, bit for bit") {
  Scenario s = scenario({{"model.preset", "mixtral-8x7b"},
                         {"parallel.ep", "8"},
                         {"hardware.gpu_count", "64"},
                         {"parallel.tp", "2"},
                         {"training.global_batch_seqs", "512"},
                         {"hardware.gpu", "a100-sxm-80gb"},
                         {"training.recompute", "selective"},
                         {"training.recompute_modules", "layernorm, moe_act"},
                         {"hardware.price_per_gpu_hour_usd", "1.79"},
                         {"training.tokens", "1.234567890123e12"}});
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
  Scenario b =
      scenario({{"model.preset", "llama3.1-70b"}, {"hardware.gpu_count", "256"}, {"training.zero_stage", "3"}});
  Scenario a = scenario({{"model.preset", "llama3.1-70b"},
                         {"hardware.gpu_count", "256"},
                         {"parallel.tp", "8"},
                         {"training.zero_stage", "1"}});
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
  Status st = apply_url_fragment(
      back, scenario_to_url_fragment(b) + "&a=" + percent_encode(R"({"parallel": {"tp": 0}})"), &pinned);
  CHECK(st.error().field == "URL state (pinned A): parallel.tp");
  CHECK(scenario_to_json(back) == before);
  CHECK(scenario_to_json(*pinned) == scenario_to_json(a));
  CHECK(contains(apply_url_fragment(back, scenario_to_url_fragment(b) + "&x=1").error().message, "expected '&a="));
}

TEST_CASE(
    "a link names the profile in use: a registry id (and registry), or a local file; old links read identically") {
  Scenario b = scenario({{"model.preset", "llama3.1-8b"}, {"hardware.gpu_count", "16"}});
  Scenario a = scenario({{"model.preset", "llama3.1-8b"}, {"hardware.gpu_count", "32"}});
  const std::string id = "542908c92f0efc2ab9b2c633d43f4a2cc44896144a318c9e855f988d1f0222e9";
  LinkProfile ref{id, "https://reg.example/api/v1", ""};
  const std::string frag = scenario_to_url_fragment(b, &a, &ref);
  CHECK(frag == scenario_to_url_fragment(b, &a) + "&p=" + id + "&r=https%3A%2F%2Freg.example%2Fapi%2Fv1");
  Scenario back = default_scenario();
  std::optional<Scenario> pinned;
  LinkProfile got{"x", "y", "z"};
  REQUIRE(apply_url_fragment(back, frag, &pinned, &got).ok());
  CHECK(scenario_to_json(back) == scenario_to_json(b));
  REQUIRE(pinned.has_value());
  CHECK(scenario_to_json(*pinned) == scenario_to_json(a));
  CHECK(got.registry_id == id);
  CHECK(got.registry == "https://reg.example/api/v1");
  CHECK(got.local_name.empty());
  // A reader that does not ask for the profile parts reads the scenario as before.
  Scenario plain = default_scenario();
  REQUIRE(apply_url_fragment(plain, frag).ok());
  CHECK(scenario_to_json(plain) == scenario_to_json(b));
  // Parts in another order read the same; the default registry writes no "&r=".
  LinkProfile same_registry{id, "", ""};
  CHECK(scenario_to_url_fragment(b, nullptr, &same_registry) == scenario_to_url_fragment(b) + "&p=" + id);
  REQUIRE(
      apply_url_fragment(back, scenario_to_url_fragment(b) + "&p=" + id + "&a=" + percent_encode("{}"), &pinned, &got)
          .ok());
  CHECK(got.registry_id == id);
  CHECK(got.registry.empty());
  CHECK(pinned.has_value());
  // A local profile: its file name (any UTF-8, percent-encoded) comes back.
  LinkProfile local{"", "", "my h100 & co.json"};
  REQUIRE(apply_url_fragment(back, scenario_to_url_fragment(b, nullptr, &local), &pinned, &got).ok());
  CHECK(got.local_name == "my h100 & co.json");
  CHECK(got.registry_id.empty());
  CHECK_FALSE(pinned.has_value());
  // Old links: exactly the scenario, nothing pinned, no profile part.
  REQUIRE(apply_url_fragment(back, scenario_to_url_fragment(b), &pinned, &got).ok());
  CHECK(scenario_to_json(back) == scenario_to_json(b));
  CHECK(got.empty());
  CHECK_FALSE(pinned.has_value());
  REQUIRE(apply_url_fragment(back, "", &pinned, &got).ok());
  CHECK(got.empty());
}

TEST_CASE("bad profile parts of a link are refused, naming them, and change nothing") {
  Scenario b = scenario({{"model.preset", "llama3.1-8b"}, {"hardware.gpu_count", "16"}});
  const std::string base = scenario_to_url_fragment(b);
  const std::string id = std::string(64, 'a');
  Scenario s = default_scenario();
  const std::string before = scenario_to_json(s);
  LinkProfile got{"keep", "", ""};
  auto message = [&](const std::string& frag) {
    Status st = apply_url_fragment(s, frag, nullptr, &got);
    REQUIRE_FALSE(st.ok());
    return st.error().text();
  };
  CHECK(contains(message(base + "&p=abc"), "64 lower-case hex digits"));
  CHECK(contains(message(base + "&p=" + std::string(64, 'A')), "64 lower-case hex digits"));
  CHECK(contains(message(base + "&p=" + id + "&p=" + id), "given twice"));
  CHECK(contains(message(base + "&p=" + id + "&r=javascript%3Aalert(1)"), "http:// or https://"));
  CHECK(contains(message(base + "&p=" + id + "&r=ftp%3A%2F%2Fx"), "http:// or https://"));
  CHECK(contains(message(base + "&r=https%3A%2F%2Fx"), "names no profile"));
  CHECK(contains(message(base + "&pl="), "1 to 255 bytes"));
  CHECK(contains(message(base + "&pl=a%2Fb.json"), "slashes"));
  CHECK(contains(message(base + "&pl=a%0Ab.json"), "control characters"));
  CHECK(contains(message(base + "&pl=%FF.json"), "UTF-8"));
  CHECK(contains(message(base + "&pl=%G1"), "malformed %-escape"));
  CHECK(contains(message(base + "&q=1"), "expected '&a="));
  CHECK(contains(message(base + "&p"), "expected '&a="));
  CHECK(scenario_to_json(s) == before);
  CHECK(got.registry_id == "keep");
}
