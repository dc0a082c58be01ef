// `llmcalc validate`: the table, --json, --only, --profile, several files, errors with exit code
// 2, and the Markdown sections and template filler that write docs/validation.md.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "cli.h"
#include "llmc_validate/conventions.h"
#include "llmc_validate/first_look.h"
#include "llmc_validate/markdown.h"
#include "validate_helpers.h"

using namespace llmc;
using namespace llmc::test;

namespace {

struct Out {
  int code;
  std::string out, err;
};
Out run_cli(const std::vector<std::string>& args) {
  std::ostringstream o, e;
  const int code = cli::run(args, o, e);
  return {code, o.str(), e.str()};
}
std::string path(const std::string& rel) { return std::string(LLMC_SOURCE_DIR) + "/" + rel; }

}  // namespace

TEST_CASE("validate CLI: table, --json, --only, --profile, several files") {
  const Out table = run_cli({"validate", path("validation/public.json")});
  REQUIRE(table.code == 0);
  CHECK(contains(table.out, "narayanan2021_table1_1T"));
  CHECK(contains(table.out, "records: 63 (62 modelled, 1 skipped)"));
  CHECK(contains(table.out, "kernel benchmarks (isolated GEMM, HBM, NCCL, attention rates): 38 rows"));
  CHECK(contains(table.out, "    - training.precision = fp16_mixed: the source prints 'fp16 mixed (loss scale 8192)'"));
  CHECK(contains(table.out, "by family (rows, mean absolute error, max):\n  megatron-lm-2021: 10, "));

  const Out j =
      run_cli({"validate", path("validation/public.json"), "--json", "--only", "llama3", "--profile", "datasheet"});
  REQUIRE(j.code == 0);
  const nlohmann::json rows = nlohmann::json::parse(j.out);
  REQUIRE(rows["rows"].size() == 3);
  CHECK(rows["summary"]["records"] == 3);
  CHECK(rows["summary"]["families"][0]["family"] == "llama3");
  CHECK(contains(rows["rows"][0]["profile"].get<std::string>(), "datasheet"));
  CHECK(rows["rows"][0]["judgments"].size() > 5);
  CHECK(rows["conventions"].size() == validate::flop_conventions().size());

  // --profile published: the bundled profiles, built from the kernel records (site/profiles).
  const Out p =
      run_cli({"validate", path("validation/public.json"), "--json", "--only", "llama3", "--profile", "published"});
  REQUIRE(p.code == 0);
  const nlohmann::json pj = nlohmann::json::parse(p.out);
  CHECK(contains(pj["rows"][0]["profile"].get<std::string>(), "site/profiles"));
  CHECK(pj["rows"][0]["predicted"].get<double>() != rows["rows"][0]["predicted"].get<double>());

  // Several files: one report.
  const Out two =
      run_cli({"validate", path("validation/korthikanti2022.json"), path("validation/torchtitan-a100.json"), "--json"});
  REQUIRE(two.code == 0);
  const nlohmann::json tj = nlohmann::json::parse(two.out);
  CHECK(tj["summary"]["records"] == 16);
  CHECK(tj["summary"]["families"].size() == 2);
}

// The bundled measured profiles (H100 and H200, 2026-11-22) time the H100 records; published
// stays the kernel-record profiles.
TEST_CASE("validate CLI: --profile measured and published pick the bundled profiles of that source") {
  auto ids = [](const std::string& source) {
    Result<std::vector<HardwareProfile>> p = cli::bundled_profiles(source);
    REQUIRE(p.ok());
    std::string out;
    for (const HardwareProfile& x : *p) out += x.gpu_id + ":" + x.source + " ";
    return out;
  };
  CHECK(ids("measured") == "h100-sxm:measured h200:measured ");
  CHECK(ids("published") == "a100-sxm-80gb:published h100-sxm:published ");
  const Out r =
      run_cli({"validate", path("validation/public.json"), "--profile", "measured", "--only", "llama3_405B", "--json"});
  REQUIRE(r.code == 0);
  const nlohmann::json j = nlohmann::json::parse(r.out);
  int measured = 0;
  for (const auto& x : j["rows"]) measured += x["profile"].get<std::string>().rfind("measured", 0) == 0;
  CHECK(measured == 3);
}

TEST_CASE("validate CLI: a file that cannot be read or is not an array exits 2 with one line naming it") {
  const Out md = run_cli({"validate", path("validation/README.md")});
  CHECK(md.code == 2);
  CHECK(contains(md.err, "llmcalc: error: " + path("validation/README.md") + ": validation file: not valid JSON"));
  const Out missing = run_cli({"validate", "/nonexistent/records.json"});
  CHECK(missing.code == 2);
  CHECK(missing.err == "llmcalc: error: /nonexistent/records.json: cannot read the records file\n");
  CHECK(run_cli({"validate"}).code == 2);
  CHECK(run_cli({"validate", path("validation/public.json"), "--json", "--markdown"}).code == 2);
  CHECK(run_cli({"validate", path("validation/public.json"), "--template", path("docs/validation.md.in")}).code == 2);
  const Out t = run_cli({"validate", "--template", "/nonexistent/t.md"});
  CHECK(t.code == 2);
  CHECK(contains(t.err, "/nonexistent/t.md: cannot read the template"));
}

TEST_CASE("validate Markdown: sections, families, and the template filler") {
  const ValidationReport r = run_text(validation_file("korthikanti2022.json"));
  const std::string all = validate::markdown_report(r);
  for (const char* h :
       {"## Conventions", "## Results", "## Summary", "## By family", "## Judgments per record", "## Skipped records"})
    CHECK(contains(all, h));
  CHECK(contains(validate::markdown_families(r), "| megatron-lm-2022 | 8 | "));
  CHECK(contains(validate::markdown_results(r),
                 "| `korthikanti2022_1T_full` | megatron-lm-2022 | iteration_time_s (s) | 94.42 |"));

  // The filler: each {{section FILE...}} line from the runner's report; other lines as they are.
  std::vector<std::pair<std::vector<std::string>, std::string>> calls;
  auto runner = [&](const std::vector<std::string>& files, const std::string& profile) -> Result<ValidationReport> {
    calls.emplace_back(files, profile);
    return r;
  };
  Result<std::string> out = validate::fill_template(
      "# Title\n{{summary a.json b.json}}\ntext {{not a directive}}\n{{profile-comparison a.json --profile "
      "published}}\n",
      runner);
  REQUIRE(out.ok());
  CHECK(contains(*out, "# Title\n- records: 8 (8 modelled, 0 skipped)\n"));
  CHECK(contains(*out, "text {{not a directive}}\n"));
  CHECK(contains(*out, "| record | measured | error, datasheet (default) | predicted, published | error, published |"));
  REQUIRE(calls.size() == 3);
  CHECK(calls[0].first == std::vector<std::string>{"a.json", "b.json"});
  CHECK(calls[1].second == "");
  CHECK(calls[2].second == "published");
  for (const auto& [text, message] :
       {std::pair<std::string, std::string>{"x\n{{tables a.json}}\n", "unknown section 'tables'"},
        {"{{results}}\n", "'results' needs one or more records files"},
        {"{{profile-comparison a.json}}\n", "needs --profile P"}}) {
    CAPTURE(text);
    Result<std::string> bad = validate::fill_template(text, runner);
    REQUIRE_FALSE(bad.ok());
    CHECK(contains(bad.error().field, "template line"));
    CHECK(contains(bad.error().message, message));
  }
}

// first-look.json: per group and family, rows, MAE, bias and median, worked out by hand.
TEST_CASE("validate first look: the per-family tables of a first-look file, and its errors") {
  auto entry = [](const char* id, const char* family, const char* convention, const char* metric, double error) {
    return nlohmann::json{{"id", id},
                          {"family", family},
                          {"convention", convention},
                          {"metric", metric},
                          {"measured", 100},
                          {"predicted", 100 * (1 + error)},
                          {"error", error},
                          {"llmcalc_commit", "abc1234"},
                          {"date", "2026-11-25"}};
  };
  const nlohmann::json rows = {entry("a", "fam-a", "tokens_per_gpu", "tokens_per_sec_per_gpu", 0.10),
                               entry("b", "fam-a", "step_time", "step_time_s", -0.30),
                               entry("c", "fam-a", "tokens_per_gpu", "tokens_per_sec_per_gpu", 0.50),
                               entry("d", "fam-b", "tokens_per_gpu", "tokens_per_sec_per_gpu", 0.20),
                               entry("e", "fam-a", "peak_memory", "peak_memory_gib", -0.25),
                               entry("f", "fam-b", "mfu_unknown", "mfu", 0.05)};
  Result<std::vector<validate::FirstLookRow>> parsed = validate::parse_first_look(rows.dump());
  REQUIRE(parsed.ok());
  const std::string md = validate::markdown_first_look(*parsed);
  // fam-a's times: |0.1|, |−0.3|, |0.5| → MAE 30 %, bias +10 %, median 30 %; all four: MAE 27.5 %, bias +12.5 %, median
  // 25 %.
  CHECK(contains(md,
                 "| fam-a | 3 | 30.0% | +10.0% | 30.0% |\n| fam-b | 1 | 20.0% | +20.0% | 20.0% |\n| **all** | 4 | "
                 "27.5% | +12.5% | 25.0% |"));
  CHECK(contains(md, "**Peak memory per GPU (+ = llmcalc predicts more memory)**"));
  CHECK(contains(md, "| fam-a | 1 | 25.0% | -25.0% | 25.0% |"));
  CHECK(contains(md, "| fam-b | 1 | 5.0% | +5.0% | 5.0% |"));
  CHECK(contains(md, "Predicted by: llmcalc abc1234, 2026-11-25 (6 rows)."));

  // The template directive reads the file through the caller's reader.
  auto no_report = [](const std::vector<std::string>&, const std::string&) -> Result<ValidationReport> {
    return make_error("x", "not called");
  };
  auto read = [&](const std::string& file) -> Result<std::string> {
    if (file != "first.json") return make_error(file, "cannot read the file");
    return rows.dump();
  };
  Result<std::string> filled = validate::fill_template("# First look\n{{first-look first.json}}\n", no_report, read);
  REQUIRE(filled.ok());
  CHECK(contains(*filled, "# First look\n**Time and throughput"));
  CHECK_FALSE(validate::fill_template("{{first-look other.json}}\n", no_report, read).ok());
  CHECK_FALSE(validate::fill_template("{{first-look first.json}}\n", no_report).ok());  // no reader

  for (const auto& [patch, field] : {std::pair<nlohmann::json, std::string>{{{"error", "big"}}, "[0].error"},
                                     {{{"convention", "megatron2023"}}, "[0].convention"},
                                     {{{"metric", "mfu"}}, "[0].metric"},
                                     {{{"extra", 1}}, "[0].extra"},
                                     {{{"llmcalc_commit", nullptr}}, "[0].llmcalc_commit"}}) {
    CAPTURE(field);
    nlohmann::json bad = rows;
    bad[0].merge_patch(patch);
    Result<std::vector<validate::FirstLookRow>> r = validate::parse_first_look(bad.dump());
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().field == field);
  }
  CHECK_FALSE(validate::parse_first_look("{}").ok());
}

TEST_CASE("validate CLI: --lofo's options are checked, and datasheet@F names its fraction") {
  const Out lone = run_cli({"validate", path("validation/public.json"), "--write-error-bars", "/nonexistent/x.cpp"});
  CHECK(lone.code != 0);
  CHECK(contains(lone.err, "--write-error-bars"));
  const Out bad = run_cli({"validate", path("validation/public.json"), "--profile", "datasheet@2"});
  CHECK(bad.code != 0);
  CHECK(contains(bad.err, "datasheet@F"));
  CHECK(contains(bad.err, "'2'"));
  const Out other = run_cli({"validate", path("validation/public.json"), "--lofo", "--profile", "published"});
  CHECK(other.code != 0);
  // A fraction below the fitted one slows every datasheet-timed run: errors move towards negative.
  const Out low =
      run_cli({"validate", path("validation/public.json"), "--json", "--only", "llama3", "--profile", "datasheet@0.5"});
  const Out base = run_cli({"validate", path("validation/public.json"), "--json", "--only", "llama3"});
  REQUIRE(low.code == 0);
  REQUIRE(base.code == 0);
  const nlohmann::json l = nlohmann::json::parse(low.out), b = nlohmann::json::parse(base.out);
  CHECK(l["rows"][0]["predicted"].get<double>() < b["rows"][0]["predicted"].get<double>());
  CHECK(contains(l["profiles"][0].get<std::string>(), "GEMMs at 0.5 of the maximum achievable in a step"));
}
