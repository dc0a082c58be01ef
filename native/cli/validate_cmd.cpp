// `llmcalc validate FILE [--json|--markdown] [--profile datasheet|published|measured|FILE] [--only ID_PREFIX]`.
// The numbers come from llmc::validate_records(); this file only reads files and prints.
#include "validate_cmd.h"

#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>

#include "cli_io.h"
#include "llmc/profile.h"
#include "llmc/validate.h"

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

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

// Enough digits to compare: four significant figures below 1000 (iteration times such as 18.13 s), whole numbers above.
std::string value(double v) { return std::fabs(v) >= 1000 ? fmt("%.0f", v) : fmt("%.4g", v); }
std::string percent(double e) { return fmt("%+.1f%%", 100 * e); }

std::string md_cell(std::string s) {
  std::string out;
  for (char c : s) out += c == '|' ? std::string("\\|") : c == '\n' ? std::string(" ") : std::string(1, c);
  return out;
}

void print_summary(const ValidationReport& r, std::ostream& out, bool md) {
  const ValidationSummary& s = r.summary;
  const char* b = md ? "- " : "  ";
  out << b << "records: " << s.records << " (" << s.modelled << " modelled, " << s.skipped << " skipped)\n";
  out << b << "throughput: " << s.throughput.rows << " rows, mean absolute error " << fmt("%.1f%%", 100 * s.throughput.mae) << ", max "
      << fmt("%.1f%%", 100 * s.throughput.max_abs_error) << (s.throughput.worst.empty() ? "" : " (" + s.throughput.worst + ")") << "; target MAE ≤ "
      << fmt("%.0f%%", 100 * s.target_mae) << " (stretch " << fmt("%.0f%%", 100 * s.stretch_mae) << "), max ≤ " << fmt("%.0f%%", 100 * s.target_max)
      << ": " << (s.meets_stretch ? "met (stretch too)" : s.meets_target ? "met" : "NOT met") << "\n";
  if (s.memory.rows)
    out << b << "model-state memory: " << s.memory.rows << " rows, mean absolute error " << fmt("%.2f%%", 100 * s.memory.mae) << ", max "
        << fmt("%.2f%%", 100 * s.memory.max_abs_error) << "\n";
  if (s.shown.rows)
    out << b << "shown, outside the targets (GPU-hours and days of whole runs; TFLOP/s or MFU of a FLOP count llmcalc does not know): " << s.shown.rows << " rows, mean absolute error " << fmt("%.1f%%", 100 * s.shown.mae) << "\n";
  if (s.kernels.rows)
    out << b << "kernel benchmarks (isolated GEMM, HBM, NCCL, attention rates): " << s.kernels.rows << " rows, mean absolute error "
        << fmt("%.1f%%", 100 * s.kernels.mae) << ", max " << fmt("%.1f%%", 100 * s.kernels.max_abs_error) << " (" << s.kernels.worst << ")\n";
}

void print_table(const ValidationReport& r, std::ostream& out) {
  char line[512];
  std::snprintf(line, sizeof line, "%-44s %-22s %10s %10s %8s\n", "record", "metric", "measured", "predicted", "error");
  out << line;
  for (const ValidationRow& x : r.rows) {
    if (x.status == "skipped") continue;
    const std::string metric = x.convention == "model_states" ? x.metric : x.unit;
    std::snprintf(line, sizeof line, "%-44s %-22s %10s %10s %8s%s\n", x.id.c_str(), metric.c_str(), value(x.measured).c_str(), value(x.predicted).c_str(),
                  percent(x.error).c_str(), x.in_mae ? "" : is_kernel_kind(x.kind) ? "  (kernel)" : "  (not in MAE)");
    out << line;
    if (!x.layout.empty()) out << (is_kernel_kind(x.kind) ? "    timed " : "    layout ") << x.layout << "; profile " << x.profile << "\n";
    for (const std::string& n : x.notes) out << "    - " << n << "\n";
  }
  out << "\nskipped:\n";
  for (const ValidationRow& x : r.rows)
    if (x.status == "skipped") out << "  " << x.id << ": " << (x.skip_field.empty() ? "" : x.skip_field + ": ") << x.skip_reason << "\n";
  out << "\nsummary:\n";
  print_summary(r, out, false);
}

// The generated part of docs/validation.md (scripts/validation-doc.sh adds the prose).
void print_markdown(const ValidationReport& r, std::ostream& out) {
  out << "## FLOP conventions\n\n| convention | source | metric | the source's count | llmcalc's prediction in the same terms | in throughput MAE | fused attention | DP reduce overlapped |\n|---|---|---|---|---|---|---|---|\n";
  for (const FlopConvention& c : flop_conventions())
    out << "| `" << c.id << "` | " << md_cell(c.source) << " | " << md_cell(c.metric) << " | " << md_cell(c.formula) << " | " << md_cell(c.conversion) << " | "
        << (c.in_throughput_mae ? "yes" : "no") << " | " << (c.flash_attention ? "yes" : "no") << " | " << (c.dp_overlap ? "yes" : "no") << " |\n";
  out << "\n## Profiles used\n\n";
  for (const std::string& p : r.profiles_used) out << "- " << md_cell(p) << "\n";
  out << "\n## Results\n\n| record | metric | measured | predicted | error | layout (llmcalc) |\n|---|---|---:|---:|---:|---|\n";
  for (const ValidationRow& x : r.rows) {
    if (x.status == "skipped" || is_kernel_kind(x.kind)) continue;
    const std::string metric = x.convention == "model_states" ? x.metric + " (GB)" : x.metric + " (" + x.unit + ")";
    out << "| `" << x.id << "` | " << md_cell(metric) << (x.in_mae ? "" : ", not in MAE") << " | " << value(x.measured) << " | " << value(x.predicted) << " | "
        << percent(x.error) << " | " << md_cell(x.layout) << " |\n";
  }
  if (r.summary.kernels.rows) {
    out << "\n## Kernel benchmarks\n\n| record | metric | measured | predicted | error | timed (llmcalc) |\n|---|---|---:|---:|---:|---|\n";
    for (const ValidationRow& x : r.rows)
      if (x.status != "skipped" && is_kernel_kind(x.kind))
        out << "| `" << x.id << "` | " << md_cell(x.metric + " (" + x.unit + ")") << " | " << value(x.measured) << " | " << value(x.predicted) << " | " << percent(x.error) << " | "
            << md_cell(x.layout) << " |\n";
  }
  out << "\n## Summary\n\n";
  print_summary(r, out, true);
  out << "\n## Assumptions per record\n\n";
  std::string last;
  for (const ValidationRow& x : r.rows) {
    if (x.status == "skipped" || x.id == last) continue;
    last = x.id;
    out << "- `" << x.id << "` (profile: " << md_cell(x.profile) << ")\n";
    for (const std::string& n : x.notes) out << "  - " << md_cell(n) << "\n";
  }
  out << "\n## Skipped records\n\n| record | kind | field | reason |\n|---|---|---|---|\n";
  for (const ValidationRow& x : r.rows)
    if (x.status == "skipped") out << "| `" << x.id << "` | " << md_cell(x.kind) << " | " << md_cell(x.skip_field) << " | " << md_cell(x.skip_reason) << " |\n";
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
  CLI::App* v = app.add_subcommand("validate", "compare predictions with published runs (validation/public.json format; docs/validation.md)");
  v->add_option("file", a.file, "records file (a JSON array, e.g. validation/public.json)")->required();
  v->add_flag("--json", a.json, "JSON: rows, summary, conventions, profiles");
  v->add_flag("--markdown", a.markdown, "Markdown tables (scripts/validation-doc.sh writes docs/validation.md with them)");
  v->add_option("--profile,-p", a.profile, "'datasheet' (default): the datasheet profile of each GPU, as estimate uses; 'published' or 'measured': the bundled profiles of that source (site/profiles; GPUs without one keep the datasheet); a file: that profile for its GPU's records");
  v->add_option("--only", a.only, "only records whose id starts with this");
  return v;
}

int cmd_validate(const ValidateArgs& a, std::ostream& out, std::ostream& err) {
  if (a.json && a.markdown) return fail(err, make_error("validate", "give --json or --markdown, not both"));
  std::string text;
  if (!read_file(a.file, text)) return fail(err, make_error(a.file, "cannot read the records file"));
  ValidateOptions opt;
  opt.only_prefix = a.only;
  // Default: the datasheet profile, as `llmcalc estimate` and the web page use when no profile is
  // loaded. "published" / "measured": the bundled profiles of that source (site/profiles). A file:
  // that profile for its GPU's records.
  if (a.profile == "published" || a.profile == "measured") {
    Result<std::vector<HardwareProfile>> bundled = bundled_profiles(a.profile);
    if (!bundled) return fail(err, bundled.error());
    opt.default_profiles = *bundled;
    opt.default_label = "site/profiles";
  } else if (!a.profile.empty() && a.profile != "datasheet") {
    std::string ptext;
    if (!read_file(a.profile, ptext)) return fail(err, make_error(a.profile, "cannot read profile file"));
    Result<HardwareProfile> p = profile_from_json(ptext);
    if (!p) return fail(err, make_error(a.profile, p.error().text()));
    opt.override_profile = *p;
    opt.override_label = "file: " + a.profile;
  }
  Result<ValidationReport> r = validate_records(text, opt);
  if (!r) return fail(err, r.error());
  if (a.json) out << validation_to_json(*r) << "\n";
  else if (a.markdown) print_markdown(*r, out);
  else print_table(*r, out);
  return 0;
}

}  // namespace llmc::cli
