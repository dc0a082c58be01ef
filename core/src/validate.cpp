// validate_records(): for each record, parse → pick the source's FLOP convention → map to a
// Scenario → the layout rule for unpublished knobs → estimate() → the source's metric. Only
// estimate()'s outputs are used, so the errors move with the time model and nothing here is
// tuned to the records.
#include <algorithm>
#include <cmath>
#include <set>

#include "llmc/fields.h"
#include "llmc/profile.h"
#include "validate_internal.h"

namespace llmc {
namespace detail::validation {

ValidationRow skipped(const std::string& id, const std::string& kind, const Error& e) {
  ValidationRow row;
  row.id = id;
  row.kind = kind;
  row.status = "skipped";
  row.skip_field = e.field;
  row.skip_reason = e.message;
  return row;
}

ProfilePick pick_profile(const std::string& gpu, const ValidateOptions& opt) {
  if (opt.override_profile && opt.override_profile->gpu_id == gpu)
    return {opt.override_profile, opt.override_profile->source + " (" + opt.override_label + ")"};
  for (const HardwareProfile& p : opt.default_profiles)
    if (p.gpu_id == gpu) return {p, p.source + " (" + opt.default_label + ")"};
  return {std::nullopt, "datasheet (core/data/gpus/" + gpu + ".json)"};
}

void finish_row(ValidationRow& row) {
  row.error = row.unit == "s" ? row.measured / row.predicted - 1 : (row.predicted - row.measured) / row.measured;
  if (!std::isfinite(row.error)) row.error = 0;
}

}  // namespace detail::validation

namespace {

using namespace detail::validation;
using detail::json;

// ZeRO Figure 1: one row per stage the record prints (baseline = stage 0).
std::vector<ValidationRow> memory_rows(const ParsedRecord& r, const FlopConvention& c) {
  std::vector<ValidationRow> rows;
  if (r.params <= 0) return {skipped(r.id, r.kind, make_error("model.params", "missing: model states need the parameter count"))};
  Scenario s = default_scenario();
  std::vector<std::string> notes;
  const std::string gpu = gpu_id_for(r.gpu_text);
  if (!gpu.empty()) (void)set_field(s, "hardware.gpu", gpu);
  notes.push_back("model states do not depend on the GPU (" + (gpu.empty() ? std::string("h100-sxm used") : gpu) + ")");
  s.model = ModelSpec{};
  s.model.params_override = r.params;
  const std::string pt = r.precision_text;
  s.training.precision = pt.find("bf16") != std::string::npos && pt.find("fp16") == std::string::npos ? Precision::bf16_mixed : Precision::fp16_mixed;
  if (pt.empty()) notes.push_back("precision not given: mixed precision (16-bit weights and grads, fp32 master and Adam states)");
  s.training.optimizer = Optimizer::adamw;
  s.parallel.tp = r.tp.value_or(1);
  s.parallel.pp = r.pp.value_or(1);
  s.parallel.dp = r.dp.value_or(r.gpu_count.value_or(1));
  s.hardware.gpu_count = 0;
  for (const auto& [key, value] : r.measured) {
    int stage = -1;
    if (key.find("baseline") != std::string::npos) stage = 0;
    for (int z = 1; z <= 3; ++z)
      if (key.find("zero" + std::to_string(z)) != std::string::npos) stage = z;
    if (stage < 0) continue;
    ValidationRow row;
    row.id = r.id;
    row.kind = r.kind;
    row.convention = c.id;
    row.metric = key;
    row.unit = c.unit;
    row.measured = value;
    row.gpu = s.hardware.gpu.id;
    row.profile = "n/a (memory)";
    s.training.zero_stage = stage;
    Result<Estimate> e = estimate(s);
    if (!e) return {skipped(r.id, r.kind, e.error())};
    if (value <= 0) return {skipped(r.id, r.kind, make_error("measured." + key, "must be positive to compare"))};
    row.status = "compared";
    row.predicted = e->mem.model_states_bytes / 1e9;
    row.scenario = e->r.s;
    row.layout = "dp" + std::to_string(e->r.s.parallel.dp) + " zero" + std::to_string(stage);
    row.notes = notes;
    finish_row(row);
    rows.push_back(row);
  }
  if (rows.empty()) return {skipped(r.id, r.kind, make_error("measured", "no per-stage model-state figure (keys with 'baseline' or 'zeroN')"))};
  return rows;
}

std::vector<ValidationRow> throughput_rows(const ParsedRecord& r, const FlopConvention& c, const ValidateOptions& opt, std::set<std::string>& profiles_used) {
  std::string key = c.measured_key;
  for (const std::string& k : measured_keys(c))
    if (r.measured_value(k)) {
      key = k;
      break;
    }
  const double* found = r.measured_value(key);
  if (!found) return {skipped(r.id, r.kind, make_error("measured." + key, "missing"))};
  if (*found <= 0) return {skipped(r.id, r.kind, make_error("measured." + key, "must be positive to compare"))};
  // An MFU is at most 1 as a fraction; one above 1 was written as a percent ("46.2"), one above
  // 100 is neither.
  const bool percent = c.id == "mfu_unknown" && *found > 1;
  if (percent && *found > 100) return {skipped(r.id, r.kind, make_error("measured." + key, "an MFU must be a fraction ≤ 1 or a percent ≤ 100; got " + number_text(*found, "%g")))};
  const double measured = percent ? *found / 100 : *found;
  Result<Mapped> mr = map_record(r, c);
  if (!mr) return {skipped(r.id, r.kind, mr.error())};
  Mapped m = std::move(mr).value();
  const ProfilePick pick = pick_profile(m.base.hardware.gpu.id, opt);
  if (pick.profile) attach_profile(m.base, *pick.profile);
  Result<LayoutChoice> lc = best_layout(m, opt.max_layouts);
  if (!lc) return {skipped(r.id, r.kind, lc.error())};
  const Estimate& e = lc->estimate;
  const Resolved& res = e.r;
  const double gpus = double(res.gpu_count), step = e.time.step_s;
  const double gbs_seqs = double(res.s.training.global_batch_seqs), seq = double(res.s.training.seq_len);
  const double printed_step = step_at_printed_batch(e, lc->printed_gbs);
  const bool step_metric = c.id == "korthikanti2022" || c.id == "step_time";

  ValidationRow row;
  row.id = r.id;
  row.kind = r.kind;
  row.status = c.in_throughput_mae ? "compared" : "shown";
  row.in_mae = c.in_throughput_mae;
  row.convention = c.id;
  row.metric = key;
  row.unit = c.unit;
  row.measured = measured;
  row.gpu = res.s.hardware.gpu.id;
  row.profile = pick.label;
  profiles_used.insert(res.s.hardware.gpu.id + ": " + pick.label + " — " + res.s.hardware.profile->description);
  row.layout = layout_text(e);
  row.step_s = step;
  row.scenario = res.s;
  row.notes = m.notes;
  if (percent) row.notes.push_back("measured." + key + " = " + number_text(*found, "%g") + " is above 1: read as a percent, " + number_text(measured, "%g"));
  if (c.id == "megatron2021" || c.id == "megatron_deepspeed") {
    // Narayanan et al.'s count (4 forward-pass equivalents: full recompute). Megatron-DeepSpeed
    // prints the same with 3 when nothing is recomputed (throughput_calculator: 4 with
    // checkpoint_activations or any recompute granularity), following the run's own recompute:
    // the record's, if published.
    double passes = 1.0;
    if (c.id == "megatron_deepspeed") {
      const bool published = m.space.recompute.size() == 1;
      const Recompute rec = published ? m.space.recompute.front() : res.s.training.recompute;
      if (!published) row.notes.push_back("recompute not published: the FLOP count's factor follows llmcalc's choice (" + std::string(to_string(rec)) + ")");
      if (rec == Recompute::none) passes = 0.75;
    }
    const double f = megatron2021_flops_per_step(gbs_seqs, seq, double(r.layers), double(r.hidden), double(r.vocab)) * passes;
    row.predicted = f / (step * gpus) / 1e12;
  } else if (c.id == "llama3") {
    const double tokens = gbs_seqs * seq;
    row.predicted = e.flops.model_per_token * tokens / (step * gpus) / 1e12;
    const double unhalved = (e.flops.model_per_token + e.flops.attention_per_token) * tokens / (step * gpus) / 1e12;
    row.notes.push_back("with PaLM's unhalved attention FLOPs (6N + 12·l·h·s) the same step time gives " + number_text(unhalved, "%.1f") + " TFLOP/s");
  } else if (c.id == "flashattention2") {
    const double f = flashattention2_flops_per_seq(seq, e.params.total, double(r.layers), double(r.hidden));
    row.predicted = f * gbs_seqs / (step * gpus) / 1e12;
    row.notes.push_back("N = " + number_text(e.params.total / 1e9, "%.3f") + "B (llmcalc's count of the shape)");
  } else if (step_metric) {
    row.predicted = printed_step;
  } else if (c.id == "tokens_per_gpu") {
    row.predicted = gbs_seqs * seq / (step * gpus);
  } else if (c.id == "tokens_per_s") {
    row.predicted = gbs_seqs * seq / step;
  } else if (c.id == "samples_per_s") {
    row.predicted = gbs_seqs / step;
  } else if (c.id == "tflops_unknown") {
    row.predicted = e.flops.hardware_per_token * gbs_seqs * seq / (step * gpus) / 1e12;
    row.notes.push_back("not in the throughput target: the source's FLOP count is not known to llmcalc (compared with the FLOPs llmcalc's step executes)");
  } else if (c.id == "mfu_unknown") {
    row.predicted = e.time.mfu;
    row.notes.push_back("not in the throughput target: the source's FLOP count is not known to llmcalc (compared with llmcalc's MFU)");
  } else if (c.id == "training_days") {
    row.predicted = e.time.total_days;
    row.notes.push_back("not in the throughput target: the days include restarts, evaluation and idle time");
  } else {  // gpu_hours
    row.predicted = e.time.gpu_hours;
    row.notes.push_back("not in the throughput target: GPU count and layout unpublished; the hours include restarts, evaluation and idle time");
  }
  if (lc->printed_gbs > 0)
    row.notes.push_back("global batch " + number_text(double(lc->printed_gbs)) + " is not whole micro-batches of " +
                        number_text(double(res.s.training.micro_batch)) + " on " + number_text(double(res.s.parallel.dp)) +
                        " replicas: timed at the nearest multiple, " + number_text(gbs_seqs) +
                        (step_metric ? " (the step time scaled back to the printed batch)" : " (per-token rates hardly change)"));
  if (lc->searched)
    row.notes.push_back(std::string("layout: ") + (lc->fits ? "fastest that fits" : "none fits; the one needing the least memory") + " of " +
                        std::to_string(lc->candidates) + " candidates over the unpublished knobs");
  if (!lc->fits)
    row.notes.push_back("llmcalc's memory model says this does not fit (" + number_text(e.mem.total_bytes / 1073741824.0, "%.1f") + " of " +
                        number_text(e.mem.capacity_bytes / 1073741824.0, "%.1f") + " GiB); timed anyway");
  for (const std::string& w : e.warnings)
    if (w.find("training.tokens not set") == std::string::npos) row.notes.push_back("llmcalc: " + w);
  finish_row(row);
  return {row};
}

void summarise(ValidationGroupSummary& g, const ValidationRow& row) {
  const double a = std::fabs(row.error);
  g.mae += a;
  ++g.rows;
  if (a >= g.max_abs_error) g.max_abs_error = a, g.worst = row.id + (row.convention == "model_states" ? " " + row.metric : "");
}

}  // namespace

Result<ValidationReport> validate_records(const std::string& json_text, const ValidateOptions& opt) {
  Result<json> doc = detail::parse_json(json_text, "validation file");
  if (!doc) return doc.error();
  if (!doc->is_array()) return make_error("validation file", std::string("must be a JSON array of records; got ") + doc->type_name());
  ValidationReport rep;
  std::set<std::string> profiles_used;
  size_t index = 0;
  for (const json& j : *doc) {
    const std::string fallback_id = "#" + std::to_string(index++);
    Result<std::pair<std::string, std::string>> ik = parse_id_kind(j);
    const std::string id = ik ? ik->first : (j.is_object() && j.contains("id") && j.at("id").is_string() ? j.at("id").get<std::string>() : fallback_id);
    if (!opt.only_prefix.empty() && id.rfind(opt.only_prefix, 0) != 0) continue;
    ++rep.summary.records;
    std::vector<ValidationRow> rows;
    if (!ik) {
      rows.push_back(skipped(id, "", ik.error()));
    } else if (is_kernel_kind(ik->second)) {
      rows = kernel_rows(j, id, ik->second, opt, profiles_used);
    } else if (Result<ParsedRecord> r = parse_record(j); !r) {
      rows.push_back(skipped(id, ik->second, r.error()));
    } else if (const FlopConvention* c = convention_for(*r); !c) {
      std::string keys;
      for (const auto& kv : r->measured) keys += (keys.empty() ? "" : ", ") + kv.first;
      for (const std::string& k : r->measured_text) keys += (keys.empty() ? "" : ", ") + k + " (not a number)";
      rows.push_back(skipped(id, ik->second, make_error("source.citation", "no FLOP convention known for this source and metric (measured: " + (keys.empty() ? std::string("none") : keys) + ")")));
    } else if (c->id == "model_states") {
      rows = memory_rows(*r, *c);
    } else {
      rows = throughput_rows(*r, *c, opt, profiles_used);
    }
    const bool modelled = std::any_of(rows.begin(), rows.end(), [](const ValidationRow& x) { return x.status != "skipped"; });
    ++(modelled ? rep.summary.modelled : rep.summary.skipped);
    for (ValidationRow& row : rows) rep.rows.push_back(std::move(row));
  }
  ValidationSummary& s = rep.summary;
  for (const ValidationRow& row : rep.rows) {
    if (row.status == "skipped") continue;
    if (row.in_mae) summarise(s.throughput, row);
    else if (row.convention == "model_states") summarise(s.memory, row);
    else if (is_kernel_kind(row.kind)) summarise(s.kernels, row);
    else summarise(s.shown, row);
  }
  for (ValidationGroupSummary* g : {&s.throughput, &s.memory, &s.shown, &s.kernels})
    if (g->rows > 0) g->mae /= g->rows;
  s.meets_target = s.throughput.rows > 0 && s.throughput.mae <= s.target_mae && s.throughput.max_abs_error <= s.target_max;
  s.meets_stretch = s.meets_target && s.throughput.mae <= s.stretch_mae;
  rep.profiles_used.assign(profiles_used.begin(), profiles_used.end());
  return rep;
}

std::string validation_to_json(const ValidationReport& r) {
  json rows = json::array();
  for (const ValidationRow& x : r.rows) {
    json o;
    o["id"] = x.id;
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
    }
    o["notes"] = x.notes;
    rows.push_back(o);
  }
  auto group = [](const ValidationGroupSummary& g) {
    json o;
    o["rows"] = g.rows;
    o["mae"] = g.mae;
    o["max_abs_error"] = g.max_abs_error;
    o["worst"] = g.worst;
    return o;
  };
  const ValidationSummary& s = r.summary;
  json sum;
  sum["records"] = s.records;
  sum["modelled"] = s.modelled;
  sum["skipped"] = s.skipped;
  sum["throughput"] = group(s.throughput);
  sum["memory"] = group(s.memory);
  sum["shown"] = group(s.shown);
  sum["kernels"] = group(s.kernels);
  sum["target_mae"] = s.target_mae;
  sum["stretch_mae"] = s.stretch_mae;
  sum["target_max"] = s.target_max;
  sum["meets_target"] = s.meets_target;
  sum["meets_stretch"] = s.meets_stretch;
  json conv = json::array();
  for (const FlopConvention& c : flop_conventions())
    conv.push_back({{"id", c.id}, {"source", c.source}, {"metric", c.metric}, {"measured_key", c.measured_key}, {"unit", c.unit}, {"formula", c.formula}, {"conversion", c.conversion},
                    {"in_throughput_mae", c.in_throughput_mae}, {"flash_attention", c.flash_attention}, {"dp_overlap", c.dp_overlap}});
  json out;
  out["rows"] = rows;
  out["summary"] = sum;
  out["conventions"] = conv;
  out["profiles"] = r.profiles_used;
  return detail::safe_dump(out, 2);
}

}  // namespace llmc
