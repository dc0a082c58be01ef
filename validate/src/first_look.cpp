// first-look.json → its per-family tables (first_look.h).
#include "llmc_validate/first_look.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <sstream>

#include "json_read.h"
#include "llmc_validate/conventions.h"

namespace llmc::validate {
namespace {

using detail::json;

std::string pct(double e, const char* f) {
  char buf[48];
  std::snprintf(buf, sizeof buf, f, 100 * e);
  return buf;
}

struct Stats {
  int rows = 0;
  double mae = 0, bias = 0, median = 0;
};

Stats stats(const std::vector<double>& errors) {
  Stats s;
  s.rows = int(errors.size());
  if (errors.empty()) return s;
  std::vector<double> abs;
  for (double e : errors) s.mae += std::fabs(e), s.bias += e, abs.push_back(std::fabs(e));
  s.mae /= s.rows;
  s.bias /= s.rows;
  std::sort(abs.begin(), abs.end());
  const size_t n = abs.size();
  s.median = n % 2 ? abs[n / 2] : (abs[n / 2 - 1] + abs[n / 2]) / 2;
  return s;
}

std::string table_row(const std::string& name, const Stats& s) {
  return "| " + name + " | " + std::to_string(s.rows) + " | " + pct(s.mae, "%.1f%%") + " | " + pct(s.bias, "%+.1f%%") +
         " | " + pct(s.median, "%.1f%%") + " |\n";
}

}  // namespace

Result<std::vector<FirstLookRow>> parse_first_look(const std::string& json_text) {
  Result<json> doc = detail::parse_json(json_text, "first look");
  if (!doc) return doc.error();
  if (!doc->is_array())
    return make_error("first look", std::string("must be a JSON array of rows; got ") + doc->type_name());
  std::vector<FirstLookRow> out;
  for (size_t i = 0; i < doc->size(); ++i) {
    const json& x = (*doc)[i];
    const std::string path = "[" + std::to_string(i) + "]";
    if (!x.is_object()) return make_error(path, std::string("must be an object; got ") + x.type_name());
    if (auto st = detail::only_keys(
            x, path,
            {"id", "family", "convention", "metric", "measured", "predicted", "error", "llmcalc_commit", "date"});
        !st)
      return st.error();
    FirstLookRow r;
    for (const auto& [key, dst] : {std::pair{"id", &r.id},
                                   {"family", &r.family},
                                   {"convention", &r.convention},
                                   {"metric", &r.metric},
                                   {"llmcalc_commit", &r.llmcalc_commit},
                                   {"date", &r.date}})
      if (auto st = detail::read_text(x, key, path, true, *dst, 200); !st) return st.error();
    const FlopConvention* c = find_convention(r.convention);
    if (!c)
      return make_error(path + ".convention",
                        "unknown convention '" + r.convention + "' (docs/validation.md, Conventions)");
    if (c->metric != r.metric)
      return make_error(path + ".metric",
                        "must be '" + c->metric + "' under convention " + c->id + "; got '" + r.metric + "'");
    if (auto st = detail::read_number(x, "measured", path, true, 0, 1e18, false, r.measured); !st) return st.error();
    if (auto st = detail::read_number(x, "predicted", path, true, 0, 1e18, false, r.predicted); !st) return st.error();
    if (auto st = detail::read_number(x, "error", path, true, -1e6, 1e6, false, r.error); !st) return st.error();
    out.push_back(r);
  }
  return out;
}

std::string markdown_first_look(const std::vector<FirstLookRow>& rows) {
  struct Group {
    const char* title;
    bool (*in)(ConventionGroup);
  };
  static const Group groups[] = {
      {"Time and throughput (+ = llmcalc predicts faster)",
       [](ConventionGroup g) { return g == ConventionGroup::throughput; }},
      {"Peak memory per GPU (+ = llmcalc predicts more memory)",
       [](ConventionGroup g) { return g == ConventionGroup::peak_memory; }},
      {"Shown, outside every target (TFLOP/s or MFU of a FLOP count llmcalc does not know; whole-run hours)",
       [](ConventionGroup g) { return g != ConventionGroup::throughput && g != ConventionGroup::peak_memory; }},
  };
  std::ostringstream out;
  for (const Group& g : groups) {
    std::vector<std::string> families;  // in order of first appearance
    std::vector<double> all;
    for (const FirstLookRow& r : rows)
      if (g.in(find_convention(r.convention)->group)) {
        all.push_back(r.error);
        if (std::find(families.begin(), families.end(), r.family) == families.end()) families.push_back(r.family);
      }
    if (all.empty()) continue;
    out << "**" << g.title
        << "**\n\n| family | rows | mean absolute error | mean signed error (bias) | median absolute error "
           "|\n|---|---:|---:|---:|---:|\n";
    for (const std::string& f : families) {
      std::vector<double> errors;
      for (const FirstLookRow& r : rows)
        if (r.family == f && g.in(find_convention(r.convention)->group)) errors.push_back(r.error);
      out << table_row(f, stats(errors));
    }
    out << table_row("**all**", stats(all)) << "\n";
  }
  std::set<std::string> when;
  for (const FirstLookRow& r : rows) when.insert("llmcalc " + r.llmcalc_commit + ", " + r.date);
  out << "Predicted by:";
  for (const std::string& w : when) out << " " << w << (w == *when.rbegin() ? "" : ";");
  out << " (" << rows.size() << " rows).\n";
  return out.str();
}

}  // namespace llmc::validate
