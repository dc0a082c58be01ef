// A training or model-state record → its row: the record's scenario, the rule's choice for its
// unpublished knobs, estimate(), and the prediction in the source's metric. Only estimate()'s
// outputs are used, so the errors move with the time model and nothing here is tuned to the records.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "json_read.h"
#include "llmc/error_bars.h"
#include "llmc/estimate.h"
#include "llmc/profile.h"
#include "llmc_validate/unpublished.h"
#include "rows.h"

namespace llmc::validate::detail {
namespace {

std::string layout_text(const Scenario& s) {
  char buf[256];
  std::snprintf(buf, sizeof buf, "tp%lld pp%lld v%lld cp%lld dp%lld mb%lld gbs%lld zero%d rec=%s sp=%d %s",
                (long long)s.parallel.tp, (long long)s.parallel.pp, (long long)s.parallel.virtual_stages,
                (long long)s.parallel.cp, (long long)s.parallel.dp, (long long)s.training.micro_batch,
                (long long)s.training.global_batch_seqs, s.training.zero_stage, to_string(s.training.recompute),
                s.training.sequence_parallel ? 1 : 0, to_string(s.parallel.schedule));
  std::string text = buf;
  if (!s.training.recompute_modules.empty()) text.insert(text.find(" sp="), "(" + s.training.recompute_modules + ")");
  return text;
}

// An estimate's error names a scenario field: the record's path to it.
Error in_scenario(const Error& e) {
  return make_error(e.field.empty() ? "scenario" : "scenario." + e.field, e.message);
}

}  // namespace

ValidationRow training_row(const Record& rec, const ValidateOptions& opt, std::set<std::string>& profiles_used) {
  const FlopConvention& c = *find_convention(rec.measured.convention);
  ValidationRow row = row_for(rec);
  row.kind = c.group == ConventionGroup::memory        ? "model_states"
             : c.group == ConventionGroup::peak_memory ? "peak_memory"
                                                       : "training_run";
  // Whole-run figures need the run's tokens: the 20-tokens-per-parameter default is not a published run.
  if ((c.id == "gpu_hours" || c.id == "training_days") && rec.scenario.training.tokens <= 0)
    return skipped(row, make_error("scenario.training.tokens",
                                   "needed to predict " + c.metric + " (the whole run's training tokens); not given"));

  Scenario s = rec.scenario;
  const ProfilePick pick = c.group == ConventionGroup::memory ? ProfilePick{std::nullopt, "n/a (memory)"}
                                                              : pick_profile(s.hardware.gpu.id, opt);
  if (pick.profile) attach_profile(s, *pick.profile);
  s.hardware.datasheet_gemm_mamf_fraction = opt.datasheet_gemm_mamf_fraction;
  Result<UnpublishedChoice> choice = choose_unpublished_knobs(s, rec.unpublished, opt.max_layouts);
  if (!choice) return skipped(row, choice.error());
  Result<Estimate> est = estimate(choice->scenario);
  if (!est) return skipped(row, in_scenario(est.error()));
  const Estimate& e = *est;

  const bool recompute_searched =
      std::find(rec.unpublished.begin(), rec.unpublished.end(), "training.recompute") != rec.unpublished.end();
  Prediction p = predict_metric(c, e, recompute_searched, rec.measured.memory_kind);
  row.predicted = p.value;
  row.gpu = e.r.s.hardware.gpu.id;
  row.regime = error_regime(e.r);
  row.scenario = e.r.s;
  row.profile = pick.label;
  if (c.group == ConventionGroup::memory) {
    row.layout = "dp" + std::to_string(e.r.s.parallel.dp) + " zero" + std::to_string(e.r.s.training.zero_stage);
  } else {
    profiles_used.insert(row.gpu + ": " + pick.label + " — " + e.r.s.hardware.profile->description);
    row.layout = layout_text(e.r.s);
    row.step_s = e.time.step_s;
    if (!choice->note.empty()) row.notes.push_back(choice->note);
    row.notes.insert(row.notes.end(), p.notes.begin(), p.notes.end());
    if (!e.fits)
      row.notes.push_back("llmcalc's memory model says this does not fit (" +
                          number_text(e.mem.total_bytes / 1073741824.0, "%.1f") + " of " +
                          number_text(e.mem.capacity_bytes / 1073741824.0, "%.1f") + " GiB); timed anyway");
    for (const std::string& w : e.warnings)
      if (w.find("training.tokens not set") == std::string::npos) row.notes.push_back("estimate warns: " + w);
  }
  finish(row, c);
  return row;
}

}  // namespace llmc::validate::detail
