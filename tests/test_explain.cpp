// Explanation terms and the number formatting every warning, report and UI label uses.
#include <cmath>
#include <cstdio>
#include <string>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>
#include "llmc/explain.h"
#include "test_util.h"

using namespace llmc;

TEST_CASE("format_value: sizes and fractions at two decimals") {
  CHECK(format_value(88.123e9, "bytes") == "88.12 GB");
  CHECK(format_value(80 * 1073741824.0, "bytes") == "85.90 GB");  // 80 GiB in decimal GB
  CHECK(format_value(1.5e12, "bytes") == "1.50 TB");
  CHECK(format_value(2.5e6, "bytes") == "2.50 MB");
  CHECK(format_value(999, "bytes") == "999 B");
  CHECK(format_value(-3.25e9, "bytes") == "-3.25 GB");  // a negative headroom
  CHECK(format_value(0.4567, "fraction") == "45.67%");
  CHECK(format_value(1.0, "fraction") == "100.00%");
  CHECK(format_value(std::nan(""), "bytes") == "n/a");
}

TEST_CASE("format_value's two-decimal path agrees with printf's %.2f") {
  // The fast path rounds the scaled value; printf rounds the exact binary value. They may differ
  // only where the scaled value sits within a few ulps of a tie; everywhere else, byte for byte.
  unsigned long long x = 88172645463325252ULL;  // xorshift64: a reproducible spread of values
  int compared = 0;
  for (int i = 0; i < 20000; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    const double f = double(x % 1000000000000ULL) / 1e5 * (i % 2 ? 1 : -1);  // ±1e7 with 5 decimals
    const double shown = f * 100;                                            // what the fraction path formats
    const double scaled = shown * 100;
    if (std::fabs(scaled - std::floor(scaled) - 0.5) < 1e-6) continue;  // a tie: either rounding is right
    char want[64];
    std::snprintf(want, sizeof want, "%.2f%%", shown);
    CAPTURE(f);
    CHECK(format_value(f, "fraction") == want);
    ++compared;
  }
  CHECK(compared > 15000);
}

TEST_CASE("a recording Trace keeps every term with its inputs; a silent one keeps none") {
  Trace t;
  CHECK(t.add("a", "x × y", "bytes", "src", 6, {{"x", 2}, {"y", 3}}) == 6);
  Trace silent(false);
  CHECK(silent.add("a", "x", "", "", 1, {{"x", 1}}) == 1);
  CHECK(silent.terms().empty());
  REQUIRE(t.terms().size() == 1);
  const Term* a = t.find("a");
  REQUIRE(a != nullptr);
  CHECK(a->n_inputs == 2);
  CHECK(std::string(a->inputs[1].name) == "y");
  CHECK(a->inputs[1].value == 3);
  CHECK(render(*a) == "a = x × y\n    where x = 2, y = 3\n    = 6 B\n    source: src");
}

// A term shows at most Term::kMaxInputs inputs; more are counted, never silently lost: no
// estimate of the broad scenario set (every recipe, parallelism and kernel choice) passes more.
TEST_CASE("explain terms: no estimate gives a term more inputs than it can show") {
  Trace t;
  t.add("many", "Σ", "", "", 1,
        {{"a", 1},
         {"b", 2},
         {"c", 3},
         {"d", 4},
         {"e", 5},
         {"f", 6},
         {"g", 7},
         {"h", 8},
         {"i", 9},
         {"j", 10},
         {"k", 11},
         {"l", 12},
         {"m", 13}});
  CHECK(t.terms().front().n_inputs == int(Term::kMaxInputs));
  CHECK(t.dropped_inputs() == 1);
  const nlohmann::json all = nlohmann::json::parse(test::source_text("tests/golden/broad_scenarios.json"));
  int estimated = 0;
  for (const nlohmann::json& doc : all) {
    Scenario s = default_scenario();
    if (!apply_scenario_json(s, doc.dump())) continue;
    const Result<Estimate> e = estimate(s);
    if (!e) continue;
    CAPTURE(doc.dump());
    ++estimated;
    CHECK(e->trace.dropped_inputs() == 0);
  }
  CHECK(estimated > 300);
}
