// Helpers shared by the validate tests (test_validate.cpp, test_validate_kernels.cpp).
#pragma once
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "llmc/validate.h"
#include "test_util.h"
#include "validate_cmd.h"

namespace llmc::test {

inline std::string validation_file(const std::string& name) {
  std::ifstream in(std::string(LLMC_SOURCE_DIR) + "/validation/" + name, std::ios::binary);
  REQUIRE(in);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
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

// Whether one of the row's notes contains `text`.
inline bool has_note(const ValidationRow& r, const std::string& text) {
  for (const std::string& n : r.notes)
    if (contains(n, text)) return true;
  return false;
}

}  // namespace llmc::test
