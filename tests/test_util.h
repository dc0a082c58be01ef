// Helpers for the doctest suite: build a scenario from key=value pairs, estimate it.
#pragma once
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "llmc/estimate.h"
#include "llmc/fields.h"
#include "llmc/profile.h"

namespace llmc::test {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;  // bytes per GiB, for the memory tests' readings

using Sets = std::vector<std::pair<std::string, std::string>>;

inline Scenario scenario(const Sets& sets) {
  Scenario s = default_scenario();
  for (const auto& kv : sets) {
    const std::string& k = kv.first;  // no structured bindings: clang 14 cannot capture them in INFO
    const std::string& v = kv.second;
    Status st = set_field(s, k, v);
    INFO(k << "=" << v << ": " << (st ? "" : st.error().text()));
    REQUIRE(st.ok());
  }
  return s;
}

inline Estimate run_scenario(const Scenario& s) {
  Result<Estimate> e = estimate(s);
  INFO((e ? "" : e.error().text()));
  REQUIRE(e.ok());
  return std::move(e).value();
}

inline Estimate run(const Sets& sets) { return run_scenario(scenario(sets)); }

// A fixture's settings with a test's own after them (a later key overrides an earlier one).
inline Sets with_extra(Sets base, const Sets& extra) {
  base.insert(base.end(), extra.begin(), extra.end());
  return base;
}

// The estimate of `s` timed with profile `p` (s itself keeps the profile it had).
inline Estimate run_with_profile(Scenario s, const HardwareProfile& p) {
  attach_profile(s, p);
  return run_scenario(s);
}

// The communication item of this name (and collective, when given), or null.
inline const CommItem* find_comm(const Estimate& e, const std::string& name, const std::string& collective = "") {
  for (const CommItem& c : e.comm)
    if (c.name == name && (collective.empty() || c.collective == collective)) return &c;
  return nullptr;
}

// The value of input `name` of term `t` (fails the test if the term has no such input).
inline double term_input(const Term& t, const std::string& name) {
  for (int i = 0; i < t.n_inputs; ++i)
    if (name == t.inputs[size_t(i)].name) return t.inputs[size_t(i)].value;
  FAIL("no input " << name << " in " << t.key);
  return 0;
}

// The error estimate() reports for these settings (fails the test if it succeeds).
inline Error run_error(const Sets& sets) {
  Result<Estimate> e = estimate(scenario(sets));
  REQUIRE_FALSE(e.ok());
  return e.error();
}

inline bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

#ifdef LLMC_SOURCE_DIR
// The text of a file of the source tree (path relative to its root); fails the test if unreadable.
inline std::string source_text(const std::string& path) {
  std::ifstream in(std::string(LLMC_SOURCE_DIR) + "/" + path, std::ios::binary);
  INFO(path);
  REQUIRE(in);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
#endif

}  // namespace llmc::test
