// Results: the headline figures (each expands to its derivation), the memory bar against the
// GPU's capacity, the step-time breakdown and warnings; sharing, pinning for Compare, exports.
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <functional>

#include "state.h"

namespace llmc::ui {

namespace {

struct Segment {
  const char* name;
  double value;
  ImU32 color;
};

// A horizontal stacked bar; with a capacity, a marker and its label where they fit.
void stacked_bar(const std::vector<Segment>& segs, double capacity, const std::string& capacity_label,
                 const std::function<std::string(double)>& fmt) {
  const float width = ImGui::GetContentRegionAvail().x - 4, height = ImGui::GetFrameHeight();
  double total = 0;
  for (const Segment& s : segs) total += s.value;
  const double scale_max = std::max(total, capacity > 0 ? capacity : total);
  if (scale_max <= 0 || width <= 0) return;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  float x = p.x;
  for (const Segment& s : segs) {
    const float w = float(s.value / scale_max) * width;
    if (w <= 0) continue;
    dl->AddRectFilled(ImVec2(x, p.y), ImVec2(x + w, p.y + height), s.color);
    if (ImGui::IsMouseHoveringRect(ImVec2(x, p.y), ImVec2(x + w, p.y + height)))
      ImGui::SetTooltip("%s: %s (%s of the total)", s.name, fmt(s.value).c_str(),
                        format_percent(s.value / total).c_str());
    x += w;
  }
  dl->AddRect(p, ImVec2(p.x + width, p.y + height), IM_COL32(200, 200, 200, 255));
  const float text_h = ImGui::GetTextLineHeight();
  if (capacity > 0) {
    const float cx = p.x + float(capacity / scale_max) * width;
    dl->AddLine(ImVec2(cx, p.y - 4), ImVec2(cx, p.y + height + 4), IM_COL32(255, 255, 255, 255), 2.0f);
    const float label_w = ImGui::CalcTextSize(capacity_label.c_str()).x;
    // Right of the marker when there is room, else left of it: never cut at the edge.
    const float lx = cx + 4 + label_w <= p.x + width ? cx + 4 : std::max(p.x, cx - 4 - label_w);
    dl->AddText(ImVec2(lx, p.y + height + 2), IM_COL32(230, 230, 230, 255), capacity_label.c_str());
  }
  ImGui::Dummy(ImVec2(width, height + (capacity > 0 ? text_h + 4 : 2)));
  bool first = true;
  for (const Segment& s : segs) {  // legend, wrapping
    if (s.value <= 0) continue;
    const float item_w = 14 + ImGui::CalcTextSize(s.name).x + ImGui::GetStyle().ItemSpacing.x * 2;
    if (!first) {
      ImGui::SameLine(0, ImGui::GetStyle().ItemSpacing.x * 2);
      if (ImGui::GetContentRegionAvail().x < item_w) ImGui::NewLine();
    }
    first = false;
    ImGui::ColorButton(s.name, ImGui::ColorConvertU32ToFloat4(s.color), ImGuiColorEditFlags_NoTooltip, ImVec2(10, 10));
    ImGui::SameLine();
    ImGui::TextUnformatted(s.name);
  }
}

void memory_bar(State& st) {
  const MemoryPerGpu& m = st.est->mem;
  std::vector<Segment> segs = {
      {"weights", m.weights_bytes + m.reference_model_bytes, IM_COL32(70, 130, 220, 255)},
      {"gradients", m.gradients_bytes, IM_COL32(90, 180, 120, 255)},
      {"optimizer", m.optimizer_bytes, IM_COL32(230, 160, 60, 255)},
      {"activations", m.activations_bytes, IM_COL32(200, 80, 160, 255)},
      {"logits", m.logits_bytes, IM_COL32(150, 110, 220, 255)},
      {"other",
       m.model_states_bytes - m.weights_bytes - m.reference_model_bytes - m.gradients_bytes - m.optimizer_bytes +
           m.comm_buffers_bytes + m.cuda_context_bytes + m.fragmentation_bytes,
       IM_COL32(140, 140, 140, 255)},
  };
  const MemoryUnits u = st.memory_units;
  stacked_bar(segs, m.capacity_bytes, "capacity " + format_bytes(m.capacity_bytes, u),
              [u](double b) { return format_bytes(b, u); });
}

void time_bar(State& st) {
  const TimeEstimate& t = st.est->time;
  // The GPU waiting for the host to issue short kernels is part of compute_s, shown apart.
  std::vector<Segment> segs = {{"compute", t.compute_s - t.host_wait_s, IM_COL32(70, 170, 220, 255)},
                               {"waiting for the host", t.host_wait_s, IM_COL32(200, 90, 200, 255)},
                               {"exposed communication", t.comm_exposed_s, IM_COL32(230, 120, 60, 255)},
                               {"pipeline bubble", t.bubble_s, IM_COL32(160, 160, 160, 255)}};
  stacked_bar(segs, 0, "", [](double s) { return format_duration(s); });
}

std::string layout_line(const Resolved& r) {
  const ParallelSpec& p = r.s.parallel;
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "tp %lld \xC2\xB7 pp %lld \xC2\xB7 dp %lld \xC2\xB7 cp %lld \xC2\xB7 ep %lld \xC2\xB7 micro-batch %lld "
                "\xC2\xB7 ZeRO-%d%s",
                (long long)p.tp, (long long)p.pp, (long long)p.dp, (long long)p.cp, (long long)p.ep,
                (long long)r.s.training.micro_batch, r.s.training.zero_stage,
                r.s.training.sequence_parallel ? " \xC2\xB7 sequence parallel" : "");
  return buf;
}

}  // namespace

void results_panel(State& st, Platform& platform, const std::string& share_url) {
  stale_notice(st);
  if (!st.est) {
    section_note("Pick a model preset (Model tab) to start.");
    return;
  }
  const Estimate& e = *st.est;
  const MemoryUnits u = st.memory_units;
  if (ImGui::Button("Copy link") && platform.copy_text) {
    platform.copy_text(share_url);
    const LinkProfile lp = link_profile(st);
    std::string said =
        st.pinned ? "Link copied: the scenario and the pinned A are in it" : "Link copied: the whole scenario is in it";
    if (!lp.registry_id.empty()) said += ", and the registry profile in use (" + lp.registry_id.substr(0, 12) + ")";
    if (!lp.local_name.empty())
      said += ". It names your local profile " + lp.local_name +
              ", which whoever opens it does not have: they get the datasheet profile";
    set_banner(st, said + ".", !lp.local_name.empty());
  }
  remember_rect(st, "Copy link");
  if (!st.embedded) {
    ImGui::SameLine();
    if (ImGui::GetContentRegionAvail().x < ImGui::GetFontSize() * 8) ImGui::NewLine();  // a phone: wrap
    if (ImGui::Button(st.pinned ? "Pin as A (replace)" : "Pin as A")) {
      pin_current(st);
      set_banner(st, "Pinned as A. Change the inputs and open Compare to see A and B side by side.", false);
    }
    remember_rect(st, "compare:pin");
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("Keep this scenario as A; the Compare tab sets it beside the inputs you change next (B)");
    ImGui::SameLine();
    if (ImGui::GetContentRegionAvail().x < ImGui::GetFontSize() * 14) ImGui::NewLine();
    export_menu(st, platform, "results");
  }
  if (const LinkProfile lp = link_profile(st); !lp.local_name.empty()) {
    // Only registry profiles travel with a link: say so before the link is sent.
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.75f, 0.4f, 1.0f));
    ImGui::TextWrapped(
        "The share link names your local profile %s: whoever opens it does not have that file and gets the datasheet "
        "profile (upload it to a registry to share it).",
        lp.local_name.c_str());
    ImGui::PopStyleColor();
    remember_rect(st, "share:local-profile-warning");
  }
  section_note(((e.r.m.name.empty() ? std::string("size-only model") : e.r.m.name) + " on " +
                std::to_string(e.r.gpu_count) + " \xC3\x97 " + e.r.s.hardware.gpu.name + "\n" + layout_line(e.r))
                   .c_str());

  heading("Size and compute");
  figure(st, "parameters", "params.total", format_count(e.params.total));
  if (e.params.active != e.params.total) figure(st, "active per token", "params.active", format_count(e.params.active));
  figure(st, "6ND", "flops.six_nd", format_flops(e.flops.six_nd));
  figure(st, "model FLOPs", "flops.model_total", format_flops(e.flops.model_total));
  figure(st, "training tokens", e.r.tokens_defaulted ? "training.tokens" : "time.steps",
         format_count(e.r.s.training.tokens));

  heading("Memory per GPU");
  const MemoryPerGpu& m = e.mem;
  figure(st, "weights", "memory.per_gpu.weights_bytes", format_bytes(m.weights_bytes, u));
  figure(st, "gradients", "memory.per_gpu.gradients_bytes", format_bytes(m.gradients_bytes, u));
  figure(st, "optimizer (+ master)", "memory.per_gpu.optimizer_bytes", format_bytes(m.optimizer_bytes, u));
  figure(st, "activations", "memory.per_gpu.activations_bytes", format_bytes(m.activations_bytes, u));
  figure(st, "logits", "memory.per_gpu.logits_bytes", format_bytes(m.logits_bytes, u));
  figure(st, "total", "memory.per_gpu.total_bytes", format_bytes(m.total_bytes, u));
  ImGui::PushStyleColor(ImGuiCol_Text, e.fits ? ImVec4(0.45f, 0.9f, 0.45f, 1) : ImVec4(1.0f, 0.45f, 0.45f, 1));
  if (e.fits)
    ImGui::TextWrapped("FITS: %s of %s, %s free", format_bytes(m.total_bytes, u).c_str(),
                       format_bytes(m.capacity_bytes, u).c_str(), format_bytes(m.headroom_bytes, u).c_str());
  else
    ImGui::TextWrapped("DOES NOT FIT: %s of %s, %s over", format_bytes(m.total_bytes, u).c_str(),
                       format_bytes(m.capacity_bytes, u).c_str(), format_bytes(-m.headroom_bytes, u).c_str());
  ImGui::PopStyleColor();
  ImGui::TextWrapped("largest micro-batch that fits: %s \xC2\xB7 fewest GPUs that fit (this tp, pp, cp and ZeRO): %s",
                     e.max_micro_batch ? std::to_string(e.max_micro_batch).c_str() : "none",
                     e.min_gpus ? std::to_string(e.min_gpus).c_str() : "none");
  memory_bar(st);

  heading("Time and cost");
  const TimeEstimate& t = e.time;
  // Each time with its 68 % range, the 16th-84th percentile of the model's out-of-sample error (hover: how the range is
  // made); a given MFU or TFLOP/s fixes the step, so it has none.
  const bool ranged = t.step_high_s > t.step_low_s;
  const auto days = [](double d) { return format_quantity(d, "days"); };
  figure(st, "step time", "time.step_s", format_duration(t.step_s));
  if (ranged)
    figure(st, "  68 % range", "time.step_high_s",
           format_duration(t.step_low_s) + " to " + format_duration(t.step_high_s));
  figure(st, "total", "time.total_days", days(t.total_days));
  if (ranged)
    figure(st, "  68 % range", "time.total_days_high", days(t.total_days_low) + " to " + days(t.total_days_high));
  figure(st, "GPU-hours", "time.gpu_hours", format_count(t.gpu_hours));
  figure(st, "cost", "time.cost_usd", format_usd(t.cost_usd));
  if (ranged)
    figure(st, "  68 % range", "time.cost_usd_high", format_usd(t.cost_usd_low) + " to " + format_usd(t.cost_usd_high));
  figure(st, "MFU", "time.mfu", format_percent(t.mfu));
  figure(st, "tokens/s", "time.tokens_per_s", format_count(t.tokens_per_s));
  figure(st, "pipeline bubble", "time.bubble_fraction", format_percent(t.bubble_fraction));
  if (t.host_wait_s > 0)  // a step of kernels shorter than issuing them (docs/formulas.md, Host issue)
    figure(st, "GPU waiting for the host", "time.host_wait_s", format_duration(t.host_wait_s));
  figure(st, "energy (GPUs at TDP)", "time.energy_kwh", format_energy_kwh(t.energy_kwh));
  section_note(("time basis: " + t.basis + "; profile: " + e.r.s.hardware.profile->source).c_str());
  time_bar(st);

  if (!e.warnings.empty()) {
    heading("Warnings");
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.8f, 0.3f, 1.0f));
    for (const std::string& w : e.warnings) ImGui::TextWrapped("- %s", w.c_str());
    ImGui::PopStyleColor();
  }
}

}  // namespace llmc::ui
