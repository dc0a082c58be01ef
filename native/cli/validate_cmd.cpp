// `llmcalc validate FILE... [--json|--markdown|--template T|--lofo [--write-error-bars F]] [--profile
// datasheet|datasheet@F|published|measured|FILE]
// [--only ID_PREFIX]`.
// The numbers come from llmc_validate; this file only reads files and prints.
#include "validate_cmd.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>

#include "cli_io.h"
#include "llmc/profile.h"
#include "llmc_validate/lofo.h"
#include "llmc_validate/markdown.h"
#include "llmc_validate/validate.h"

namespace llmc::cli {
namespace data {
struct ProfileFile {
  const char* name;
  const char* text;
};
extern const ProfileFile kProfiles[];
extern const size_t kProfilesCount;
}  // namespace data

namespace {

using validate::ValidateOptions;
using validate::ValidationReport;
using validate::ValidationRow;

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}
// Enough digits to compare: four significant figures below 1000 (iteration times such as 18.13 s), whole numbers above.
std::string value(double v) { return std::fabs(v) >= 1000 ? fmt("%.0f", v) : fmt("%.4g", v); }

void print_table(const ValidationReport& r, std::ostream& out) {
  char line[512];
  std::snprintf(line, sizeof line, "%-44s %-22s %10s %10s %8s\n", "record", "metric", "measured", "predicted", "error");
  out << line;
  for (const ValidationRow& x : r.rows) {
    if (x.status == "skipped") continue;
    const std::string metric = x.kind == "model_states" ? x.metric : x.unit;
    std::snprintf(line, sizeof line, "%-44s %-22s %10s %10s %8s%s\n", x.id.c_str(), metric.c_str(),
                  value(x.measured).c_str(), value(x.predicted).c_str(), fmt("%+.1f%%", 100 * x.error).c_str(),
                  x.in_mae                  ? ""
                  : x.kernel                ? "  (kernel)"
                  : x.kind == "peak_memory" ? "  (peak memory)"
                                            : "  (not in MAE)");
    out << line;
    if (!x.layout.empty())
      out << (x.kernel ? "    timed " : "    layout ") << x.layout << "; profile " << x.profile << "\n";
    for (const validate::Judgment& j : x.judgments)
      out << "    - " << (j.field.empty() ? j.topic + ": " : j.field + " = ") << j.choice << ": " << j.why << "\n";
    for (const std::string& n : x.notes) out << "    - llmcalc: " << n << "\n";
  }
  out << "\nskipped:\n";
  for (const ValidationRow& x : r.rows)
    if (x.status == "skipped")
      out << "  " << x.id << ": " << (x.skip_field.empty() ? "" : x.skip_field + ": ") << x.skip_reason << "\n";
  out << "\nsummary:\n";
  for (const std::string& l : validate::summary_lines(r.summary)) out << "  " << l << "\n";
  out << "\nby family (rows, mean absolute error, max):\n";
  for (const validate::FamilySummary& f : r.summary.families) {
    out << "  " << f.family << ": " << f.all.rows << ", " << fmt("%.1f%%", 100 * f.all.mae) << ", "
        << fmt("%.1f%%", 100 * f.all.max_abs_error);
    if (f.peak_memory.rows)
      out << "; peak memory " << f.peak_memory.rows << ", " << fmt("%.1f%%", 100 * f.peak_memory.mae) << ", "
          << fmt("%.1f%%", 100 * f.peak_memory.max_abs_error);
    out << "\n";
  }
}

// "datasheet@F": the datasheet profile with GEMMs at F of MAMF inside a step (lofo.h sweeps it).
bool is_datasheet_at(const std::string& profile) { return profile.rfind("datasheet@", 0) == 0; }

// The options for a --profile choice: "" or "datasheet", "datasheet@F", "published" / "measured" (bundled), or a file.
Result<ValidateOptions> options_for(const std::string& profile, const std::string& only) {
  ValidateOptions opt;
  opt.only_prefix = only;
  if (is_datasheet_at(profile)) {
    const std::string f = profile.substr(10);
    char* end = nullptr;
    const double v = std::strtod(f.c_str(), &end);
    if (f.empty() || *end != '\0' || !(v > 0.2 && v <= 1.2))
      return make_error("--profile",
                        "datasheet@F: F is the in-step GEMM fraction of MAMF, a number in (0.2, 1.2]; got '" + f + "'");
    opt.datasheet_gemm_mamf_fraction = v;
  } else if (profile == "published" || profile == "measured") {
    Result<std::vector<HardwareProfile>> bundled = bundled_profiles(profile);
    if (!bundled) return bundled.error();
    opt.default_profiles = *bundled;
    opt.default_label = "site/profiles";
  } else if (!profile.empty() && profile != "datasheet") {
    std::string text;
    if (!read_file(profile, text)) return make_error(profile, "cannot read profile file");
    Result<HardwareProfile> p = profile_from_json(text);
    if (!p) return make_error(profile, p.error().text());
    opt.override_profile = *p;
    opt.override_label = "file: " + profile;
  }
  return opt;
}

// Every file's rows in one report (ids are unique within a file).
Result<ValidationReport> validate_files(const std::vector<std::string>& files, const ValidateOptions& opt) {
  ValidationReport all;
  for (const std::string& file : files) {
    std::string text;
    if (!read_file(file, text)) return make_error(file, "cannot read the records file");
    Result<ValidationReport> r = validate::validate_records(text, opt);
    if (!r) return make_error(file, r.error().text());
    all.rows.insert(all.rows.end(), r->rows.begin(), r->rows.end());
    for (const std::string& p : r->profiles_used)
      if (std::find(all.profiles_used.begin(), all.profiles_used.end(), p) == all.profiles_used.end())
        all.profiles_used.push_back(p);
  }
  std::sort(all.profiles_used.begin(), all.profiles_used.end());
  all.summary = validate::summarise(all.rows);
  return all;
}

}  // namespace

Result<std::vector<HardwareProfile>> bundled_profiles(const std::string& source) {
  std::vector<HardwareProfile> out;
  for (size_t i = 0; i < data::kProfilesCount; ++i) {
    Result<HardwareProfile> p = profile_from_json(data::kProfiles[i].text);
    if (!p) return make_error(std::string("site/profiles/") + data::kProfiles[i].name, p.error().text());
    if (p->source == source) out.push_back(*p);
  }
  return out;
}

CLI::App* add_validate_command(CLI::App& app, ValidateArgs& a) {
  CLI::App* v = app.add_subcommand(
      "validate", "compare predictions with published runs or your own (record format: docs/validation.md)");
  v->add_option("files", a.files, "records files (JSON arrays of records, e.g. validation/public.json)");
  v->add_flag("--json", a.json, "JSON: rows, summary, conventions, profiles");
  v->add_flag("--markdown", a.markdown, "Markdown tables of every section");
  v->add_option("--template", a.template_file,
                "a Markdown template: its {{section FILE...}} lines are filled from those files, named relative to the "
                "template (scripts/validation-doc.sh writes docs/validation.md so)");
  v->add_option("--profile,-p", a.profile,
                "'datasheet' (default): the datasheet profile of each GPU, as estimate uses; 'published' or "
                "'measured': the bundled profiles of that source (site/profiles; GPUs without one keep the datasheet); "
                "a file: that profile for its GPU's records");
  v->add_option("--only", a.only, "only records whose id starts with this");
  v->add_flag("--lofo", a.lofo,
              "leave one family out: fit the datasheet's in-step GEMM fraction of MAMF on all families but one, "
              "predict that one; prints the "
              "per-family errors and the error bars per regime (Markdown)");
  v->add_option("--write-error-bars", a.error_bars_file,
                "with --lofo: write core's error-bar table (core/src/estimate/error_bars_data.cpp) to this file");
  return v;
}

int cmd_validate(const ValidateArgs& a, std::ostream& out, std::ostream& err) {
  if (a.json + a.markdown + !a.template_file.empty() > 1)
    return fail(err, make_error("validate", "give one of --json, --markdown and --template"));
  if (!a.template_file.empty()) {
    if (!a.files.empty())
      return fail(err, make_error("validate", "--template names its records files itself; give no FILE"));
    std::string text;
    if (!read_file(a.template_file, text)) return fail(err, make_error(a.template_file, "cannot read the template"));
    // The template names its records files relative to itself, wherever llmcalc runs.
    const size_t slash = a.template_file.find_last_of('/');
    const std::string dir = slash == std::string::npos ? "" : a.template_file.substr(0, slash + 1);
    // Each (files, profile) is validated once, however many sections show it.
    std::map<std::pair<std::vector<std::string>, std::string>, ValidationReport> done;
    auto run = [&](const std::vector<std::string>& files, const std::string& profile) -> Result<ValidationReport> {
      const auto key = std::make_pair(files, profile);
      if (const auto it = done.find(key); it != done.end()) return it->second;
      const bool profile_file = !profile.empty() && profile != "datasheet" && !is_datasheet_at(profile) &&
                                profile != "published" && profile != "measured";
      Result<ValidateOptions> opt = options_for(profile_file && profile[0] != '/' ? dir + profile : profile, a.only);
      if (!opt) return opt.error();
      std::vector<std::string> paths;
      for (const std::string& f : files) paths.push_back(f.rfind('/', 0) == 0 ? f : dir + f);
      Result<ValidationReport> r = validate_files(paths, *opt);
      if (r) done.emplace(key, *r);
      return r;
    };
    auto read = [&](const std::string& file) -> Result<std::string> {
      const std::string p = file.rfind('/', 0) == 0 ? file : dir + file;
      std::string t;
      if (!read_file(p, t)) return make_error(p, "cannot read the file");
      return t;
    };
    Result<std::string> filled = validate::fill_template(text, run, read);
    if (!filled) return fail(err, make_error(a.template_file + ": " + filled.error().field, filled.error().message));
    out << *filled;
    return 0;
  }
  if (a.files.empty()) return fail(err, make_error("validate", "give a records file (e.g. validation/public.json)"));
  if (!a.error_bars_file.empty() && !a.lofo) return fail(err, make_error("--write-error-bars", "needs --lofo"));
  if (a.lofo) {
    if (!a.profile.empty() && a.profile != "datasheet")
      return fail(err, make_error("--profile", "--lofo refits the datasheet profile; give no other profile"));
    auto run = [&](double fraction) -> Result<ValidationReport> {
      ValidateOptions o;
      o.only_prefix = a.only;
      o.datasheet_gemm_mamf_fraction = fraction;
      return validate_files(a.files, o);
    };
    Result<validate::LofoReport> r = validate::leave_one_family_out(run, validate::default_lofo_grid());
    if (!r) return fail(err, r.error());
    out << validate::markdown_lofo(*r);
    if (!a.error_bars_file.empty()) {
      std::ofstream f(a.error_bars_file, std::ios::binary);
      f << validate::error_bars_source(*r);
      if (!f) return fail(err, make_error(a.error_bars_file, "cannot write the error-bar table"));
    }
    return 0;
  }
  Result<ValidateOptions> opt = options_for(a.profile, a.only);
  if (!opt) return fail(err, opt.error());
  Result<ValidationReport> r = validate_files(a.files, *opt);
  if (!r) return fail(err, r.error());
  if (a.json)
    out << validate::validation_to_json(*r) << "\n";
  else if (a.markdown)
    out << validate::markdown_report(*r);
  else
    print_table(*r, out);
  return 0;
}

}  // namespace llmc::cli
