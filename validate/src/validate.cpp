// validate_records(): parse → one row per record (training_rows.cpp, kernel_rows.cpp) →
// summary by target group and by family → JSON.
#include "llmc_validate/validate.h"

#include <cmath>
#include <set>

#include "json_read.h"
#include "rows.h"

namespace llmc::validate {
namespace detail {

ValidationRow row_for(const Record& rec) {
  ValidationRow row;
  row.id = rec.id;
  row.family = rec.family;
  row.convention = rec.measured.convention;
  row.metric = rec.measured.metric;
  row.unit = rec.measured.unit;
  row.measured = rec.measured.value;
  row.judgments = rec.judgments;
  row.unpublished = rec.unpublished;
  row.memory_kind = rec.measured.memory_kind;
  return row;
}

ValidationRow skipped(ValidationRow row, const Error& e) {
  row.status = "skipped";
  row.skip_field = e.field;
  row.skip_reason = e.message;
  row.predicted = row.error = 0;
  return row;
}

void finish(ValidationRow& row, const FlopConvention& c) {
  row.status = c.group == ConventionGroup::shown ? "shown" : "compared";
  row.in_mae = c.group == ConventionGroup::throughput;
  row.error = c.time_metric ? row.measured / row.predicted - 1 : (row.predicted - row.measured) / row.measured;
  if (!std::isfinite(row.error)) row.error = 0;
}

ProfilePick pick_profile(const std::string& gpu, const ValidateOptions& opt) {
  if (opt.override_profile && opt.override_profile->gpu_id == gpu)
    return {opt.override_profile, opt.override_profile->source + " (" + opt.override_label + ")"};
  for (const HardwareProfile& p : opt.default_profiles)
    if (p.gpu_id == gpu) return {p, p.source + " (" + opt.default_label + ")"};
  return {std::nullopt, "datasheet (core/data/gpus/" + gpu + ".json)"};
}

}  // namespace detail

namespace {

void add(GroupSummary& g, const ValidationRow& row) {
  const double a = std::fabs(row.error);
  g.mae += a;
  ++g.rows;
  if (a >= g.max_abs_error) g.max_abs_error = a, g.worst = row.id;
}

void finish(GroupSummary& g) {
  if (g.rows > 0) g.mae /= g.rows;
}

}  // namespace

ValidationSummary summarise(const std::vector<ValidationRow>& rows) {
  ValidationSummary s;
  for (const ValidationRow& row : rows) {
    ++s.records;
    if (row.status == "skipped") {
      ++s.skipped;
      continue;
    }
    ++s.modelled;
    if (row.in_mae)
      add(s.throughput, row);
    else if (row.kind == "model_states")
      add(s.memory, row);
    else if (row.kind == "peak_memory")
      add(s.peak_memory, row);
    else if (row.kernel)
      add(s.kernels, row);
    else
      add(s.shown, row);
    FamilySummary* f = nullptr;
    for (FamilySummary& x : s.families)
      if (x.family == row.family) f = &x;
    if (!f) f = &s.families.emplace_back(FamilySummary{row.family, {}, {}, {}});
    // A peak memory's error is not a time's: its own column, never mixed into the family's time rows.
    if (row.kind == "peak_memory")
      add(f->peak_memory, row);
    else
      add(f->all, row);
    if (row.in_mae) add(f->throughput, row);
  }
  for (GroupSummary* g : {&s.throughput, &s.memory, &s.peak_memory, &s.shown, &s.kernels}) finish(*g);
  for (FamilySummary& f : s.families) finish(f.all), finish(f.throughput), finish(f.peak_memory);
  s.meets_target =
      s.throughput.rows > 0 && s.throughput.mae <= s.target_mae && s.throughput.max_abs_error <= s.target_max;
  s.meets_stretch = s.meets_target && s.throughput.mae <= s.stretch_mae;
  return s;
}

Result<ValidationReport> validate_records(const std::string& json_text, const ValidateOptions& opt) {
  Result<std::vector<RecordEntry>> entries = parse_records(json_text);
  if (!entries) return entries.error();
  ValidationReport rep;
  std::set<std::string> profiles_used;
  for (const RecordEntry& entry : *entries) {
    if (!opt.only_prefix.empty() && entry.id.rfind(opt.only_prefix, 0) != 0) continue;
    if (!entry.record) {
      ValidationRow row;
      row.id = entry.id;
      row.family = entry.family;
      rep.rows.push_back(detail::skipped(row, entry.record.error()));
      continue;
    }
    const Record& rec = *entry.record;
    rep.rows.push_back(rec.kernel ? detail::kernel_row(rec, opt, profiles_used)
                                  : detail::training_row(rec, opt, profiles_used));
  }
  rep.summary = summarise(rep.rows);
  rep.profiles_used.assign(profiles_used.begin(), profiles_used.end());
  return rep;
}

std::string validation_to_json(const ValidationReport& r) {
  using detail::json;
  json rows = json::array();
  for (const ValidationRow& x : r.rows) {
    json o;
    o["id"] = x.id;
    o["family"] = x.family;
    o["kind"] = x.kind;
    o["status"] = x.status;
    if (x.status == "skipped") {
      o["skip_field"] = x.skip_field;
      o["skip_reason"] = x.skip_reason;
    } else {
      o["convention"] = x.convention;
      o["metric"] = x.metric;
      o["unit"] = x.unit;
      o["measured"] = x.measured;
      o["predicted"] = x.predicted;
      o["error"] = x.error;
      o["in_mae"] = x.in_mae;
      o["gpu"] = x.gpu;
      o["profile"] = x.profile;
      o["layout"] = x.layout;
      o["step_s"] = x.step_s;
      if (!x.memory_kind.empty()) o["memory_kind"] = x.memory_kind;
    }
    o["unpublished"] = x.unpublished;
    json judgments = json::array();
    for (const Judgment& j : x.judgments)
      judgments.push_back({{j.field.empty() ? "topic" : "field", j.field.empty() ? j.topic : j.field},
                           {"choice", j.choice},
                           {"why", j.why}});
    o["judgments"] = judgments;
    o["notes"] = x.notes;
    rows.push_back(o);
  }
  auto group = [](const GroupSummary& g) {
    return json{{"rows", g.rows}, {"mae", g.mae}, {"max_abs_error", g.max_abs_error}, {"worst", g.worst}};
  };
  const ValidationSummary& s = r.summary;
  json sum;
  sum["records"] = s.records;
  sum["modelled"] = s.modelled;
  sum["skipped"] = s.skipped;
  sum["throughput"] = group(s.throughput);
  sum["memory"] = group(s.memory);
  sum["peak_memory"] = group(s.peak_memory);
  sum["shown"] = group(s.shown);
  sum["kernels"] = group(s.kernels);
  json families = json::array();
  for (const FamilySummary& f : s.families)
    families.push_back({{"family", f.family},
                        {"all", group(f.all)},
                        {"throughput", group(f.throughput)},
                        {"peak_memory", group(f.peak_memory)}});
  sum["families"] = families;
  sum["target_mae"] = s.target_mae;
  sum["stretch_mae"] = s.stretch_mae;
  sum["target_max"] = s.target_max;
  sum["meets_target"] = s.meets_target;
  sum["meets_stretch"] = s.meets_stretch;
  json conv = json::array();
  static const char* const kGroups[] = {"throughput", "shown", "memory", "kernel", "peak_memory"};
  for (const FlopConvention& c : flop_conventions())
    conv.push_back({{"id", c.id},
                    {"source", c.source},
                    {"metric", c.metric},
                    {"measured_key", c.metric},
                    {"unit", c.unit},
                    {"formula", c.formula},
                    {"conversion", c.conversion},
                    {"group", kGroups[int(c.group)]},
                    {"in_throughput_mae", c.group == ConventionGroup::throughput}});
  json out;
  out["rows"] = rows;
  out["summary"] = sum;
  out["conventions"] = conv;
  out["profiles"] = r.profiles_used;
  return detail::dump(out, 2);
}

}  // namespace llmc::validate
