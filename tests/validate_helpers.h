// Helpers shared by the llmc_validate tests (test_validate_*.cpp).
#pragma once
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "llmc_validate/validate.h"
#include "test_util.h"
#include "validate_cmd.h"

namespace llmc::test {

using validate::ValidateOptions;
using validate::ValidationReport;
using validate::ValidationRow;

inline std::string validation_file(const std::string& name) { return source_text("validation/" + name); }
inline std::string public_json() { return validation_file("public.json"); }

inline ValidateOptions bundled_options() {
  ValidateOptions opt;
  Result<std::vector<HardwareProfile>> p = cli::bundled_profiles();
  INFO((p ? "" : p.error().text()));
  REQUIRE(p.ok());
  opt.default_profiles = *p;
  opt.default_label = "site/profiles";
  return opt;
}

inline ValidationReport run_text(const std::string& text, const ValidateOptions& opt = {}) {
  Result<ValidationReport> r = validate::validate_records(text, opt);
  INFO((r ? "" : r.error().text()));
  REQUIRE(r.ok());
  return std::move(r).value();
}

inline const ValidationRow& row(const ValidationReport& r, const std::string& id) {
  for (const ValidationRow& x : r.rows)
    if (x.id == id) return x;
  FAIL("no row " << id);
  return r.rows.front();
}

// A modellable training record: Llama 2 13B on 64 A100s under FSDP, tokens/s per GPU, with
// `patch` merged in (RFC 7386: a nested object replaces only the keys it names; null removes a key).
inline nlohmann::json training_record(const nlohmann::json& patch = nlohmann::json::object()) {
  nlohmann::json rec = {
      {"id", "r"},
      {"family", "test"},
      {"source", {{"citation", "x"}}},
      {"scenario",
       {{"model", "llama2-13b"},
        {"training", {{"global_batch_seqs", 64}, {"zero_stage", 3}}},
        {"hardware", {{"gpu", "a100-sxm-80gb"}, {"gpu_count", 64}}}}},
      {"measured",
       {{"metric", "tokens_per_sec_per_gpu"},
        {"value", 2000},
        {"unit", "tokens/s/GPU"},
        {"convention", "tokens_per_gpu"}}},
  };
  rec.merge_patch(patch);
  return rec;
}

// A one-record file.
inline std::string file_of(const nlohmann::json& record) { return nlohmann::json::array({record}).dump(); }

// The one row of a one-record file.
inline ValidationRow only_row(const nlohmann::json& record, const ValidateOptions& opt = {}) {
  const ValidationReport r = run_text(file_of(record), opt);
  REQUIRE(r.rows.size() == 1);
  return r.rows[0];
}

// Whether one of the row's notes contains `text`.
inline bool has_note(const ValidationRow& r, const std::string& text) {
  for (const std::string& n : r.notes)
    if (contains(n, text)) return true;
  return false;
}

}  // namespace llmc::test
