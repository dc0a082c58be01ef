// The key results twice: in words for the ARIA live region (what a screen reader speaks), and as
// exact numbers in a JSON object (the page puts it in a data attribute; tests and scripts read
// that, so the spoken text carries no machine tags).
#include <nlohmann/json.hpp>

#include "state.h"

namespace llmc::ui {

std::string aria_summary(const State& st) {
  std::string out;
  if (!st.banner.empty()) out += std::string(st.banner_error ? "Error: " : "Note: ") + st.banner + "\n";
  if (!st.est) return out + (st.error ? "Input error: " + st.error->text() : "No model selected.");
  if (stale(st)) {
    const std::string why = !st.field_errors.empty()
                                ? st.field_errors.begin()->first + ": " + st.field_errors.begin()->second
                                : st.error->text();
    out += "Stale: the results below are for the last valid inputs. Fix " + why + ".\n";
  }
  const Estimate& e = *st.est;
  const TimeEstimate& t = e.time;
  const MemoryUnits u = st.memory_units;
  const bool ranged = t.step_high_s > t.step_low_s;
  const auto range = [ranged](const std::string& lo, const std::string& hi) {
    return ranged ? " (68 % range " + lo + " to " + hi + ")" : std::string();
  };
  const auto days = [](double d) { return format_quantity(d, "days"); };
  const ParallelSpec& p = e.r.s.parallel;
  out += (e.r.m.name.empty() ? std::string("Size-only model") : e.r.m.name) + " on " + std::to_string(e.r.gpu_count) +
         " " + e.r.s.hardware.gpu.name + " GPUs (" + e.r.s.hardware.gpu.id + "), tensor parallel " +
         std::to_string(p.tp) + ", pipeline parallel " + std::to_string(p.pp) + ", data parallel " +
         std::to_string(p.dp) + ", ZeRO stage " + std::to_string(e.r.s.training.zero_stage) + ".\n";
  out += "Parameters: " + format_count(e.params.total) + ". Model FLOPs: " + format_flops(e.flops.model_total) + ".\n";
  out += "Memory per GPU: " + format_bytes(e.mem.total_bytes, u) + " of " + format_bytes(e.mem.capacity_bytes, u) +
         ", " + (e.fits ? "fits" : "does not fit") + ".\n";
  out += "Step time: " + format_duration(t.step_s) +
         range(format_duration(t.step_low_s), format_duration(t.step_high_s)) + ".\n";
  out += "Total: " + days(t.total_days) + range(days(t.total_days_low), days(t.total_days_high)) + ".\n";
  out += "GPU-hours: " + format_count(t.gpu_hours) + ". Cost: " + format_usd(t.cost_usd) +
         range(format_usd(t.cost_usd_low), format_usd(t.cost_usd_high)) + ". MFU: " + format_percent(t.mfu) + ".\n";
  out += "Profile: " + e.r.s.hardware.profile->source + " (" + e.r.s.hardware.profile->description + ").\n";
  out += "Warnings: " + std::to_string(e.warnings.size()) + ".";
  return out;
}

std::string figures_json(const State& st) {
  nlohmann::ordered_json j;
  j["stale"] = stale(st);
  nlohmann::ordered_json refused = nlohmann::ordered_json::object();
  for (const auto& [key, message] : st.field_errors) refused[key] = message;
  j["input_errors"] = refused;
  j["error"] = st.error ? nlohmann::ordered_json(st.error->text()) : nlohmann::ordered_json();
  j["banner"] = st.banner;
  j["banner_error"] = st.banner_error;
  j["preset"] = st.model_preset;
  j["memory_units"] = to_string(st.memory_units);
  {  // the registry group (registry_panel.cpp): "idle", "loading", "ready" or "none"; its entries' ids
    const RegistryState& r = st.registry;
    const char* states[] = {"idle", "loading", "ready", "none"};
    nlohmann::ordered_json reg;
    reg["base"] = r.base;
    reg["state"] = states[int(r.list)];
    reg["note"] = r.list_note;
    nlohmann::ordered_json ids = nlohmann::ordered_json::array();
    for (const RegistryEntry& e : r.entries) ids.push_back(e.id);
    reg["ids"] = ids;
    const LinkProfile lp = link_profile(st);
    reg["link_profile"] = lp.registry_id;
    reg["link_local"] = lp.local_name;
    j["registry"] = reg;
  }
  if (!st.compare_profiles.empty()) {  // Compare profiles (profile_compare.cpp): ticked profiles and the table shown
    nlohmann::ordered_json c;
    c["profiles"] = st.compare_profiles;
    c["metric"] = st.compare_metric;
    j["profile_compare"] = c;
  }
  if (st.est) {
    const Estimate& e = *st.est;
    j["model"] = e.r.m.name;
    j["gpu"] = e.r.s.hardware.gpu.id;
    j["gpus"] = e.r.gpu_count;
    j["params.total"] = e.params.total;
    j["flops.model_total"] = e.flops.model_total;
    j["memory.per_gpu.total_bytes"] = e.mem.total_bytes;
    j["memory.per_gpu.capacity_bytes"] = e.mem.capacity_bytes;
    j["memory.fits"] = e.fits;
    j["time.step_s"] = e.time.step_s;
    j["time.total_days"] = e.time.total_days;
    j["time.gpu_hours"] = e.time.gpu_hours;
    j["time.cost_usd"] = e.time.cost_usd;
    j["time.mfu"] = e.time.mfu;
    j["min_gpus"] = e.min_gpus;
    j["profile"] = e.r.s.hardware.profile->source + " (" + e.r.s.hardware.profile->description + ")";
    j["warnings"] = e.warnings.size();
  }
  std::string text = j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
  std::string extra;
  search_figures(extra);
  if (st.pinned) {
    nlohmann::ordered_json c;
    c["a_error"] = st.pinned->error ? nlohmann::ordered_json(st.pinned->error->text()) : nlohmann::ordered_json();
    if (st.pinned->est) {
      const Estimate& a = *st.pinned->est;
      c["a"] = {{"memory.per_gpu.total_bytes", a.mem.total_bytes},
                {"time.step_s", a.time.step_s},
                {"time.total_days", a.time.total_days},
                {"time.cost_usd", a.time.cost_usd},
                {"time.mfu", a.time.mfu},
                {"zero_stage", a.r.s.training.zero_stage},
                {"tp", a.r.s.parallel.tp},
                {"pp", a.r.s.parallel.pp},
                {"gpus", a.r.gpu_count}};
    }
    extra += ",\"compare\":" + c.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
  }
  if (!extra.empty()) text.insert(text.size() - 1, extra);
  return text;
}

}  // namespace llmc::ui
