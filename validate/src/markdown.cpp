// Markdown sections of a validation report, and the template filler for docs/validation.md.
#include "llmc_validate/markdown.h"

#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

#include "llmc_validate/conventions.h"
#include "llmc_validate/first_look.h"
#include "llmc_validate/lofo.h"

namespace llmc::validate {
namespace {

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}
// Enough digits to compare: four significant figures below 1000 (iteration times such as 18.13 s), whole numbers above.
std::string value(double v) { return std::fabs(v) >= 1000 ? fmt("%.0f", v) : fmt("%.4g", v); }
std::string percent(double e) { return fmt("%+.1f%%", 100 * e); }
std::string pct(double e, const char* f = "%.1f%%") { return fmt(f, 100 * e); }

std::string cell(const std::string& s) {
  std::string out;
  for (char c : s) out += c == '|' ? std::string("\\|") : c == '\n' ? std::string(" ") : std::string(1, c);
  return out;
}

const char* target_word(const ValidationSummary& s) {
  return s.meets_stretch ? "met (stretch too)" : s.meets_target ? "met" : "NOT met";
}

}  // namespace

std::vector<std::string> summary_lines(const ValidationSummary& s) {
  std::vector<std::string> out;
  out.push_back("records: " + std::to_string(s.records) + " (" + std::to_string(s.modelled) + " modelled, " +
                std::to_string(s.skipped) + " skipped)");
  out.push_back("throughput: " + std::to_string(s.throughput.rows) + " rows, mean absolute error " +
                pct(s.throughput.mae) + ", max " + pct(s.throughput.max_abs_error) +
                (s.throughput.worst.empty() ? "" : " (" + s.throughput.worst + ")") + "; target MAE ≤ " +
                pct(s.target_mae, "%.0f%%") + " (stretch " + pct(s.stretch_mae, "%.0f%%") + "), max ≤ " +
                pct(s.target_max, "%.0f%%") + ": " + target_word(s));
  if (s.memory.rows)
    out.push_back("model-state memory: " + std::to_string(s.memory.rows) + " rows, mean absolute error " +
                  pct(s.memory.mae, "%.2f%%") + ", max " + pct(s.memory.max_abs_error, "%.2f%%"));
  if (s.peak_memory.rows)
    out.push_back("peak memory per GPU: " + std::to_string(s.peak_memory.rows) + " rows, mean absolute error " +
                  pct(s.peak_memory.mae) + ", max " + pct(s.peak_memory.max_abs_error) + " (" + s.peak_memory.worst +
                  ")");
  if (s.shown.rows)
    out.push_back(
        "shown, outside the targets (GPU-hours and days of whole runs; TFLOP/s or MFU of a FLOP count llmcalc does not "
        "know): " +
        std::to_string(s.shown.rows) + " rows, mean absolute error " + pct(s.shown.mae));
  if (s.kernels.rows)
    out.push_back("kernel benchmarks (isolated GEMM, HBM, NCCL, attention rates): " + std::to_string(s.kernels.rows) +
                  " rows, mean absolute error " + pct(s.kernels.mae) + ", max " + pct(s.kernels.max_abs_error) + " (" +
                  s.kernels.worst + ")");
  return out;
}

std::string markdown_conventions() {
  std::ostringstream out;
  static const char* const kGroups[] = {"throughput target", "shown, no target", "model-state memory",
                                        "kernel benchmark", "peak memory"};
  out << "| convention | source | metric (unit) | the source's count | llmcalc's prediction in the same terms | group "
         "|\n|---|---|---|---|---|---|\n";
  for (const FlopConvention& c : flop_conventions())
    out << "| `" << c.id << "` | " << cell(c.source) << " | `" << c.metric << "` (" << cell(c.unit) << ") | "
        << cell(c.formula) << " | " << cell(c.conversion) << " | " << kGroups[int(c.group)] << " |\n";
  return out.str();
}

std::string markdown_profiles(const ValidationReport& r) {
  std::string out;
  for (const std::string& p : r.profiles_used) out += "- " + cell(p) + "\n";
  return out;
}

std::string markdown_results(const ValidationReport& r) {
  std::ostringstream out;
  out << "| record | family | metric | measured | predicted | error | layout (llmcalc) "
         "|\n|---|---|---|---:|---:|---:|---|\n";
  for (const ValidationRow& x : r.rows) {
    if (x.status == "skipped" || x.kernel) continue;
    out << "| `" << x.id << "` | " << cell(x.family) << " | " << cell(x.metric + " (" + x.unit + ")")
        << (x.in_mae ? "" : ", not in MAE") << " | " << value(x.measured) << " | " << value(x.predicted) << " | "
        << percent(x.error) << " | " << cell(x.layout) << " |\n";
  }
  return out.str();
}

std::string markdown_kernels(const ValidationReport& r) {
  std::ostringstream out;
  out << "| record | family | metric | measured | predicted | error | timed (llmcalc) "
         "|\n|---|---|---|---:|---:|---:|---|\n";
  for (const ValidationRow& x : r.rows)
    if (x.status != "skipped" && x.kernel)
      out << "| `" << x.id << "` | " << cell(x.family) << " | " << cell(x.metric + " (" + x.unit + ")") << " | "
          << value(x.measured) << " | " << value(x.predicted) << " | " << percent(x.error) << " | " << cell(x.layout)
          << " |\n";
  return out.str();
}

std::string markdown_summary(const ValidationReport& r) {
  std::string out;
  for (const std::string& l : summary_lines(r.summary)) out += "- " + l + "\n";
  return out;
}

std::string markdown_throughput_line(const ValidationReport& r) { return summary_lines(r.summary).at(1) + "\n"; }

std::string markdown_families(const ValidationReport& r) {
  std::ostringstream out;
  // Peak-memory columns only where a family has such rows (the published files have none).
  bool memory = false;
  for (const FamilySummary& f : r.summary.families) memory = memory || f.peak_memory.rows > 0;
  out << "| family | rows | mean absolute error | max | worst | throughput rows | throughput MAE |"
      << (memory ? " peak-memory rows | peak-memory MAE |" : "") << "\n|---|---:|---:|---:|---|---:|---:|"
      << (memory ? "---:|---:|" : "") << "\n";
  for (const FamilySummary& f : r.summary.families) {
    out << "| " << cell(f.family) << " | " << f.all.rows << " | " << (f.all.rows ? pct(f.all.mae) : "-") << " | "
        << (f.all.rows ? pct(f.all.max_abs_error) : "-") << " | " << (f.all.rows ? "`" + f.all.worst + "`" : "-")
        << " | " << f.throughput.rows << " | " << (f.throughput.rows ? pct(f.throughput.mae) : "-") << " |";
    if (memory)
      out << " " << f.peak_memory.rows << " | " << (f.peak_memory.rows ? pct(f.peak_memory.mae) : "-") << " |";
    out << "\n";
  }
  return out.str();
}

std::string markdown_judgments(const ValidationReport& r) {
  std::ostringstream out;
  for (const ValidationRow& x : r.rows) {
    if (x.status == "skipped") continue;
    out << "- `" << x.id << "` (" << cell(x.family) << "; profile: " << cell(x.profile) << ")\n";
    for (const Judgment& j : x.judgments)
      out << "  - " << (j.field.empty() ? cell(j.topic) + ": " : "`" + j.field + "` = ") << cell(j.choice) << ": "
          << cell(j.why) << "\n";
    for (const std::string& n : x.notes) out << "  - llmcalc: " << cell(n) << "\n";
  }
  return out.str();
}

std::string markdown_skipped(const ValidationReport& r) {
  std::ostringstream out;
  out << "| record | family | field | reason |\n|---|---|---|---|\n";
  for (const ValidationRow& x : r.rows)
    if (x.status == "skipped")
      out << "| `" << x.id << "` | " << cell(x.family) << " | " << cell(x.skip_field) << " | " << cell(x.skip_reason)
          << " |\n";
  return out.str();
}

std::string markdown_profile_comparison(const ValidationReport& base, const std::string& base_name,
                                        const ValidationReport& other, const std::string& other_name) {
  std::map<std::string, const ValidationRow*> by_id;
  for (const ValidationRow& x : other.rows) by_id[x.id] = &x;
  std::ostringstream out;
  out << "| record | measured | error, " << base_name << " | predicted, " << other_name << " | error, " << other_name
      << " |\n|---|---:|---:|---:|---:|\n";
  for (const ValidationRow& x : base.rows) {
    if (x.status == "skipped" || !x.in_mae) continue;
    const auto it = by_id.find(x.id);
    if (it == by_id.end() || it->second->status == "skipped") continue;
    out << "| `" << x.id << "` | " << value(x.measured) << " | " << percent(x.error) << " | "
        << value(it->second->predicted) << " | " << percent(it->second->error) << " |\n";
  }
  return out.str();
}

std::string markdown_report(const ValidationReport& r) {
  std::string out = "## Conventions\n\n" + markdown_conventions() + "\n## Profiles used\n\n" + markdown_profiles(r) +
                    "\n## Results\n\n" + markdown_results(r);
  if (r.summary.kernels.rows) out += "\n## Kernel benchmarks\n\n" + markdown_kernels(r);
  out += "\n## Summary\n\n" + markdown_summary(r) + "\n## By family\n\n" + markdown_families(r) +
         "\n## Judgments per record\n\n" + markdown_judgments(r) + "\n## Skipped records\n\n" + markdown_skipped(r);
  return out;
}

Result<std::string> fill_template(const std::string& text, const ReportSource& run, const TextSource& read) {
  std::istringstream in(text);
  std::string line, out;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.rfind("{{", 0) != 0 || line.size() < 4 || line.compare(line.size() - 2, 2, "}}") != 0) {
      out += line + "\n";
      continue;
    }
    const std::string where = "template line " + std::to_string(number);
    std::istringstream words(line.substr(2, line.size() - 4));
    std::string section, word, profile;
    std::vector<std::string> files;
    words >> section;
    while (words >> word) {
      if (word == "--profile") {
        if (!(words >> profile)) return make_error(where, "--profile needs a value");
      } else {
        files.push_back(word);
      }
    }
    if (section == "conventions") {
      out += markdown_conventions();
      continue;
    }
    if (files.empty()) return make_error(where, "'" + section + "' needs one or more records files");
    if (section == "first-look") {
      if (files.size() != 1 || !profile.empty())
        return make_error(where, "first-look takes one first-look file and no --profile");
      if (!read) return make_error(where, "first-look needs a file reader");
      Result<std::string> json_text = read(files[0]);
      if (!json_text) return json_text.error();
      Result<std::vector<FirstLookRow>> rows = parse_first_look(*json_text);
      if (!rows) return make_error(files[0] + ": " + rows.error().field, rows.error().message);
      out += markdown_first_look(*rows);
      continue;
    }
    if (section == "lofo") {
      if (!profile.empty()) return make_error(where, "lofo refits the datasheet profile; no --profile");
      char at[32];
      auto by_fraction = [&](double f) {
        std::snprintf(at, sizeof at, "datasheet@%.4g", f);
        return run(files, at);
      };
      Result<LofoReport> r = leave_one_family_out(by_fraction, default_lofo_grid());
      if (!r) return r.error();
      out += markdown_lofo(*r);
      continue;
    }
    Result<ValidationReport> rep = run(files, section == "profile-comparison" ? "" : profile);
    if (!rep) return rep.error();
    using Section = std::string (*)(const ValidationReport&);
    static const std::map<std::string, Section> sections = {
        {"profiles", markdown_profiles}, {"results", markdown_results},
        {"kernels", markdown_kernels},   {"summary", markdown_summary},
        {"families", markdown_families}, {"judgments", markdown_judgments},
        {"skipped", markdown_skipped},   {"throughput-line", markdown_throughput_line}};
    if (section == "profile-comparison") {
      if (profile.empty()) return make_error(where, "profile-comparison needs --profile P (the second profile)");
      Result<ValidationReport> other = run(files, profile);
      if (!other) return other.error();
      out += markdown_profile_comparison(*rep, "datasheet (default)", *other, profile);
    } else if (const auto it = sections.find(section); it != sections.end()) {
      out += it->second(*rep);
    } else {
      return make_error(where, "unknown section '" + section +
                                   "' (conventions, profiles, results, kernels, summary, families, judgments, skipped, "
                                   "throughput-line, profile-comparison, "
                                   "first-look, lofo)");
    }
  }
  return out;
}

}  // namespace llmc::validate
