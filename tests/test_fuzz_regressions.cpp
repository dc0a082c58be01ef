// Inputs the fuzzers once crashed on (tests/fuzz/crashes/<target>/): each must now give either a
// clean error or a fully finite estimate.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "llmc/catalog.h"
#include "llmc/report.h"
#include "test_util.h"

using namespace llmc;
using namespace llmc::test;
namespace fs = std::filesystem;

namespace {

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void check_finite(const Result<Estimate>& e) {
  if (!e) return;
  for (const Term& t : e->trace.terms()) {
    CAPTURE(t.key);
    CHECK(std::isfinite(t.value));
  }
  CHECK_FALSE(estimate_to_json(*e, true).empty());
}

std::vector<fs::path> files(const char* target) {
  std::vector<fs::path> out;
  const fs::path dir = fs::path(LLMC_SOURCE_DIR) / "tests/fuzz/crashes" / target;
  if (fs::exists(dir))
    for (const auto& f : fs::directory_iterator(dir)) out.push_back(f.path());
  return out;
}

}  // namespace

TEST_CASE("scenario JSON crash inputs") {
  for (const fs::path& f : files("fuzz_scenario_json")) {
    CAPTURE(f.string());
    Scenario s = default_scenario();
    if (!apply_scenario_json(s, read(f))) continue;
    check_finite(estimate(s));
  }
}

TEST_CASE("HF config crash inputs") {
  for (const fs::path& f : files("fuzz_hf_config")) {
    CAPTURE(f.string());
    Result<ModelSpec> m = model_from_hf_config(read(f));
    if (!m) continue;
    Scenario s = default_scenario();
    s.model = *m;
    check_finite(estimate(s));
  }
}

TEST_CASE("set_field crash inputs (key=value lines)") {
  for (const fs::path& f : files("fuzz_set_field")) {
    CAPTURE(f.string());
    Scenario s = default_scenario();
    std::istringstream lines(read(f));
    std::string line;
    while (std::getline(lines, line)) {
      const size_t eq = line.find('=');
      if (eq != std::string::npos) (void)set_field(s, line.substr(0, eq), line.substr(eq + 1));
    }
    check_finite(estimate(s));
  }
}

TEST_CASE("the four known crashes now give errors, not crashes") {
  Scenario s = default_scenario();
  CHECK(contains(apply_scenario_json(s, "1e400").error().message, "not valid JSON"));
  CHECK_FALSE(model_from_hf_config(R"({"model_type":"llama","num_hidden_layers":1e400})").ok());
  CHECK(set_field(s, "model.name", "M\xff").error().field == "model.name");
  Error e = run_error({{"model.preset", "llama3.1-405b"}, {"hardware.mfu", "1e-300"}});
  CHECK(e.field == "hardware.mfu");
  Estimate big = run({{"model.preset", "llama3.1-405b"}, {"training.global_batch_seqs", "1000000000"}});
  CHECK(big.max_micro_batch >= 0);
}

TEST_CASE("text fields accept well-formed UTF-8 only (RFC 3629)") {
  Scenario s = default_scenario();
  CHECK(set_field(s, "model.name", "Llama 3 – 405B ✓ 𝛼").ok());
  CHECK_FALSE(set_field(s, "model.name", "\xC0\xAF").ok());          // overlong '/'
  CHECK_FALSE(set_field(s, "model.name", "\xED\xA0\x80").ok());      // surrogate U+D800
  CHECK_FALSE(set_field(s, "model.name", "\xF4\x90\x80\x80").ok());  // above U+10FFFF
  CHECK_FALSE(set_field(s, "model.name", "abc\xE2\x82").ok());       // truncated
}
