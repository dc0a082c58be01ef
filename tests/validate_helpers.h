// Helpers shared by the validate tests (test_validate.cpp, test_validate_kernels.cpp).
#pragma once
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "llmc/validate.h"
#include "test_util.h"
#include "validate_cmd.h"

namespace llmc::test {

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
  Result<ValidationReport> r = validate_records(text, opt);
  INFO((r ? "" : r.error().text()));
  REQUIRE(r.ok());
  return std::move(r).value();
}

inline const ValidationRow& row(const ValidationReport& r, const std::string& id, const std::string& metric = "") {
  for (const ValidationRow& x : r.rows)
    if (x.id == id && (metric.empty() || x.metric == metric)) return x;
  FAIL("no row " << id << " " << metric);
  return r.rows.front();
}

// A modellable record: Llama 2 13B on 64 A100s under FSDP, tokens/s per GPU, with `patch` merged
// in (RFC 7386: a nested object replaces only the keys it names; null removes a key).
inline nlohmann::json llama2_13b_record(const nlohmann::json& patch = nlohmann::json::object()) {
  nlohmann::json rec = {
      {"id", "r"},
      {"kind", "training_run"},
      {"source", {{"citation", "x"}}},
      {"model", {{"name", "Llama 2 13B"}, {"layers", 40}, {"hidden", 5120}, {"heads", 40}, {"kv_heads", 40}, {"ffn", 13824}, {"vocab", 32000}, {"seq_len", 4096}}},
      {"training", {{"global_batch_seqs", 64}, {"micro_batch", 1}, {"precision", "bf16"}, {"zero_stage", 3}, {"recompute", "none"}, {"tp", 1}, {"pp", 1}, {"dp", 64}}},
      {"hardware", {{"gpu", "A100 80GB"}, {"gpu_count", 64}}},
      {"measured", {{"tokens_per_sec_per_gpu", 2000}}},
  };
  rec.merge_patch(patch);
  return rec;
}

// Whether one of the row's notes contains `text`.
inline bool has_note(const ValidationRow& r, const std::string& text) {
  for (const std::string& n : r.notes)
    if (contains(n, text)) return true;
  return false;
}

}  // namespace llmc::test
