// Compare: a pinned scenario (A) beside the current one (B): memory, time, cost, MFU side by
// side with their differences, and the inputs that differ. The share link carries both.
#include <imgui.h>

#include <cmath>
#include <functional>
#include <nlohmann/json.hpp>

#include "llmc/fields.h"
#include "state.h"

namespace llmc::ui {

namespace {

std::string layout_text(const Resolved& r) {
  const ParallelSpec& p = r.s.parallel;
  return "tp " + std::to_string(p.tp) + " \xC2\xB7 pp " + std::to_string(p.pp) + " \xC2\xB7 dp " +
         std::to_string(p.dp) + " \xC2\xB7 cp " + std::to_string(p.cp) + " \xC2\xB7 ep " + std::to_string(p.ep) +
         " \xC2\xB7 ZeRO-" + std::to_string(r.s.training.zero_stage) +
         (r.s.training.sequence_parallel ? " \xC2\xB7 SP" : "");
}

// "training.zero_stage: 1 → 3" for every input whose value differs (scenario JSON, field by field).
std::vector<std::string> input_differences(const Scenario& a, const Scenario& b) {
  const nlohmann::json ja = nlohmann::json::parse(scenario_to_json(a)), jb = nlohmann::json::parse(scenario_to_json(b));
  std::vector<std::string> out;
  for (auto sec = jb.begin(); sec != jb.end(); ++sec) {
    const nlohmann::json empty = nlohmann::json::object();
    const nlohmann::json& as = ja.contains(sec.key()) ? ja[sec.key()] : empty;
    std::vector<std::string> keys;
    for (auto it = sec.value().begin(); it != sec.value().end(); ++it) keys.push_back(it.key());
    for (auto it = as.begin(); it != as.end(); ++it)
      if (!sec.value().contains(it.key())) keys.push_back(it.key());
    for (const std::string& k : keys) {
      const std::string va = as.contains(k) ? as[k].dump() : "(default)",
                        vb = sec.value().contains(k) ? sec.value()[k].dump() : "(default)";
      if (va != vb) out.push_back(sec.key() + "." + k + ": " + va + " \xE2\x86\x92 " + vb);
    }
  }
  return out;
}

struct Row {
  const char* label;
  double a, b;
  std::function<std::string(double)> fmt;
  bool lower_is_better;
};

// Every cell wraps at its column's edge: on a phone the table keeps its four columns readable.
void value_row(const Row& r) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::TextWrapped("%s", r.label);
  ImGui::TableNextColumn();
  ImGui::TextWrapped("%s", r.fmt(r.a).c_str());
  ImGui::TableNextColumn();
  ImGui::TextWrapped("%s", r.fmt(r.b).c_str());
  ImGui::TableNextColumn();
  const double d = r.b - r.a;
  if (d == 0) {
    ImGui::TextDisabled("same");
    return;
  }
  const bool better = r.lower_is_better ? d < 0 : d > 0;
  const char* sign = d > 0 ? "+" : "\xE2\x88\x92";
  std::string text = sign + r.fmt(std::fabs(d));
  if (r.a != 0) text += " (" + std::string(sign) + format_percent(std::fabs(d / r.a)) + ")";
  ImGui::PushStyleColor(ImGuiCol_Text, better ? ImVec4(0.45f, 0.9f, 0.45f, 1) : ImVec4(1.0f, 0.55f, 0.45f, 1));
  ImGui::TextWrapped("%s", text.c_str());
  ImGui::PopStyleColor();
}

void text_row(const char* label, const std::string& a, const std::string& b) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::TextWrapped("%s", label);
  ImGui::TableNextColumn();
  ImGui::TextWrapped("%s", a.c_str());
  ImGui::TableNextColumn();
  ImGui::TextWrapped("%s", b.c_str());
  ImGui::TableNextColumn();
  if (a == b) ImGui::TextDisabled("same");
}

}  // namespace

void compare_panel(State& st) {
  if (!st.pinned) {
    section_note(
        "Pin the current scenario as A, change the inputs (say ZeRO-1 with tp 8, then ZeRO-3), and see A and B side by "
        "side here. "
        "Copy link carries both.");
    if (ImGui::Button("Pin as A")) pin_current(st);
    remember_rect(st, "compare:pin");
    return;
  }
  if (ImGui::Button("Pin current as A")) pin_current(st);
  remember_rect(st, "compare:repin");
  ImGui::SameLine();
  if (ImGui::Button("Swap A and B")) {
    const Scenario a = st.pinned->scenario;
    pin_current(st);
    set_scenario(st, a);
  }
  remember_rect(st, "compare:swap");
  ImGui::SameLine();
  if (ImGui::Button("Unpin")) {
    st.pinned.reset();
    st.dirty = true;
    return;
  }
  remember_rect(st, "compare:unpin");
  if (st.pinned->error) {
    error_text("A does not estimate: " + st.pinned->error->text());
    return;
  }
  if (!st.pinned->est || !st.est) return;
  const Estimate& a = *st.pinned->est;
  const Estimate& b = *st.est;
  const MemoryUnits u = st.memory_units;
  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp;
  if (ImGui::BeginTable("compare", 4, flags)) {
    ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthStretch, 1.2f);
    ImGui::TableSetupColumn("A (pinned)", ImGuiTableColumnFlags_WidthStretch, 1.5f);
    ImGui::TableSetupColumn("B (current)", ImGuiTableColumnFlags_WidthStretch, 1.5f);
    ImGui::TableSetupColumn("B \xE2\x88\x92 A", ImGuiTableColumnFlags_WidthStretch, 1.4f);
    ImGui::TableHeadersRow();
    text_row("model", a.r.m.name, b.r.m.name);
    text_row("GPUs", std::to_string(a.r.gpu_count) + " \xC3\x97 " + a.r.s.hardware.gpu.id,
             std::to_string(b.r.gpu_count) + " \xC3\x97 " + b.r.s.hardware.gpu.id);
    text_row("layout", layout_text(a.r), layout_text(b.r));
    const auto bytes = [u](double v) { return format_bytes(v, u); };
    value_row({"memory per GPU", a.mem.total_bytes, b.mem.total_bytes, bytes, true});
    text_row("fits", a.fits ? "yes" : "no", b.fits ? "yes" : "no");
    value_row({"step time", a.time.step_s, b.time.step_s, [](double v) { return format_duration(v); }, true});
    value_row({"total time", a.time.total_days, b.time.total_days, [](double v) { return format_quantity(v, "days"); },
               true});
    value_row({"GPU-hours", a.time.gpu_hours, b.time.gpu_hours, [](double v) { return format_count(v); }, true});
    value_row({"cost", a.time.cost_usd, b.time.cost_usd, [](double v) { return format_usd(v); }, true});
    value_row({"MFU", a.time.mfu, b.time.mfu, [](double v) { return format_percent(v); }, false});
    value_row({"tokens/s", a.time.tokens_per_s, b.time.tokens_per_s, [](double v) { return format_count(v); }, false});
    ImGui::EndTable();
  }
  remember_rect(st, "compare:table");
  if (stale(st)) section_note("B is the last valid scenario: the inputs have a refused value (see STALE above).");
  heading("Inputs that differ (A \xE2\x86\x92 B)");
  const std::vector<std::string> diffs = input_differences(st.pinned->scenario, st.last_valid);
  if (diffs.empty()) section_note("none: A and B are the same scenario");
  for (const std::string& d : diffs) ImGui::BulletText("%s", d.c_str());
}

std::string compare_summary(const State& st) {
  if (!st.pinned || !st.pinned->est || !st.est) return "";
  const Estimate& a = *st.pinned->est;
  const Estimate& b = *st.est;
  const MemoryUnits u = st.memory_units;
  return "\nCompare, A (pinned) then B (current): memory per GPU " + format_bytes(a.mem.total_bytes, u) + " and " +
         format_bytes(b.mem.total_bytes, u) + "; step " + format_duration(a.time.step_s) + " and " +
         format_duration(b.time.step_s) + "; cost " + format_usd(a.time.cost_usd) + " and " +
         format_usd(b.time.cost_usd) + "; MFU " + format_percent(a.time.mfu) + " and " + format_percent(b.time.mfu) +
         ".";
}

}  // namespace llmc::ui
