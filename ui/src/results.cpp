// Results: the headline figures (each expands to its derivation), the memory bar against the
// GPU's capacity, the step-time breakdown, warnings, and the accessible summary.
#include <imgui.h>

#include <cstdio>

#include "state.h"

namespace llmc::ui {

namespace {

std::string sci(double v, const char* unit = "") {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.4g%s%s", v, *unit ? " " : "", unit);
  return buf;
}
std::string money(double v) {
  char buf[64];
  if (v >= 1e6) std::snprintf(buf, sizeof buf, "$%.2f M", v / 1e6);
  else std::snprintf(buf, sizeof buf, "$%.0f", v);
  return buf;
}

struct Segment {
  const char* name;
  double bytes;
  ImU32 color;
};

void stacked_bar(const std::vector<Segment>& segs, double capacity, const char* capacity_label) {
  const float width = ImGui::GetContentRegionAvail().x - 10, height = 26;
  double total = 0;
  for (const Segment& s : segs) total += s.bytes;
  const double scale_max = std::max(total, capacity > 0 ? capacity : total);
  if (scale_max <= 0) return;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  float x = p.x;
  for (const Segment& s : segs) {
    const float w = float(s.bytes / scale_max) * width;
    if (w <= 0) continue;
    dl->AddRectFilled(ImVec2(x, p.y), ImVec2(x + w, p.y + height), s.color);
    if (ImGui::IsMouseHoveringRect(ImVec2(x, p.y), ImVec2(x + w, p.y + height)))
      ImGui::SetTooltip("%s: %s (%.1f%%)", s.name, format_value(s.bytes, capacity > 0 ? "bytes" : "s").c_str(), 100 * s.bytes / total);
    x += w;
  }
  dl->AddRect(p, ImVec2(p.x + width, p.y + height), IM_COL32(200, 200, 200, 255));
  if (capacity > 0) {
    const float cx = p.x + float(capacity / scale_max) * width;
    dl->AddLine(ImVec2(cx, p.y - 4), ImVec2(cx, p.y + height + 4), IM_COL32(255, 255, 255, 255), 2.0f);
    dl->AddText(ImVec2(std::min(cx + 3, p.x + width - 90), p.y + height + 2), IM_COL32(230, 230, 230, 255), capacity_label);
  }
  ImGui::Dummy(ImVec2(width, height + 18));
  // Legend.
  for (const Segment& s : segs) {
    if (s.bytes <= 0) continue;
    ImGui::ColorButton(s.name, ImGui::ColorConvertU32ToFloat4(s.color), ImGuiColorEditFlags_NoTooltip, ImVec2(10, 10));
    ImGui::SameLine();
    ImGui::TextUnformatted(s.name);
    ImGui::SameLine();
  }
  ImGui::NewLine();
}

}  // namespace

void memory_bar(State& st) {
  if (!st.est) return;
  const MemoryPerGpu& m = st.est->mem;
  std::vector<Segment> segs = {
      {"weights", m.weights_bytes + m.reference_model_bytes, IM_COL32(70, 130, 220, 255)},
      {"gradients", m.gradients_bytes, IM_COL32(90, 180, 120, 255)},
      {"optimizer", m.optimizer_bytes, IM_COL32(230, 160, 60, 255)},
      {"activations", m.activations_bytes, IM_COL32(200, 80, 160, 255)},
      {"logits", m.logits_bytes, IM_COL32(150, 110, 220, 255)},
      {"other", m.model_states_bytes - m.weights_bytes - m.reference_model_bytes - m.gradients_bytes - m.optimizer_bytes + m.comm_buffers_bytes +
                    m.cuda_context_bytes + m.fragmentation_bytes,
       IM_COL32(140, 140, 140, 255)},
  };
  ImGui::TextUnformatted("Memory per GPU against capacity");
  stacked_bar(segs, m.capacity_bytes, "capacity");
}

void time_bar(State& st) {
  if (!st.est) return;
  const TimeEstimate& t = st.est->time;
  std::vector<Segment> segs = {{"compute", t.compute_s, IM_COL32(70, 170, 220, 255)},
                               {"exposed communication", t.comm_exposed_s, IM_COL32(230, 120, 60, 255)},
                               {"pipeline bubble", t.bubble_s, IM_COL32(160, 160, 160, 255)}};
  ImGui::TextUnformatted("Step time breakdown");
  stacked_bar(segs, 0, "");
}

void results_panel(State& st, Platform& platform, const std::string& share_url) {
  if (st.error) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.45f, 1.0f));
    ImGui::TextWrapped("Input error: %s", st.error->text().c_str());
    ImGui::PopStyleColor();
    if (st.est) section_note("Showing the last valid result.");
  }
  if (!st.est) {
    section_note("Pick a model preset (Model tab) to start.");
    return;
  }
  const Estimate& e = *st.est;
  if (ImGui::Button("Copy link") && platform.copy_text) {
    platform.copy_text(share_url);
    set_banner(st, "Link copied: the whole scenario is in it.", false);
  }
  remember_rect(st, "Copy link");
  ImGui::SameLine();
  section_note(("model: " + (e.r.m.name.empty() ? std::string("size only") : e.r.m.name) + ", " + std::to_string(e.r.gpu_count) + " × " +
                e.r.s.hardware.gpu.id)
                   .c_str());

  heading("Size and compute");
  figure(st, "parameters", "params.total", sci(e.params.total));
  if (e.params.active != e.params.total) figure(st, "active per token", "params.active", sci(e.params.active));
  figure(st, "6ND", "flops.six_nd", sci(e.flops.six_nd, "FLOPs"));
  figure(st, "model FLOPs", "flops.model_total", sci(e.flops.model_total, "FLOPs"));
  figure(st, "training tokens", e.r.tokens_defaulted ? "training.tokens" : "time.steps", sci(e.r.s.training.tokens));

  heading("Memory per GPU");
  const MemoryPerGpu& m = e.mem;
  figure(st, "weights", "memory.per_gpu.weights_bytes", format_value(m.weights_bytes, "bytes"));
  figure(st, "gradients", "memory.per_gpu.gradients_bytes", format_value(m.gradients_bytes, "bytes"));
  figure(st, "optimizer (+ master)", "memory.per_gpu.optimizer_bytes", format_value(m.optimizer_bytes, "bytes"));
  figure(st, "activations", "memory.per_gpu.activations_bytes", format_value(m.activations_bytes, "bytes"));
  figure(st, "logits", "memory.per_gpu.logits_bytes", format_value(m.logits_bytes, "bytes"));
  figure(st, "total", "memory.per_gpu.total_bytes", format_value(m.total_bytes, "bytes"));
  ImGui::PushStyleColor(ImGuiCol_Text, e.fits ? ImVec4(0.45f, 0.9f, 0.45f, 1) : ImVec4(1.0f, 0.45f, 0.45f, 1));
  ImGui::Text("%s: headroom %s of %s", e.fits ? "FITS" : "DOES NOT FIT", format_value(m.headroom_bytes, "bytes").c_str(),
              format_value(m.capacity_bytes, "bytes").c_str());
  ImGui::PopStyleColor();
  ImGui::Text("largest micro-batch that fits: %lld   fewest GPUs that fit: %lld", (long long)e.max_micro_batch, (long long)e.min_gpus);
  memory_bar(st);

  heading("Time and cost");
  const TimeEstimate& t = e.time;
  // Each time with its one-sigma range (hover: how the range is made); a given MFU or TFLOP/s
  // fixes the step, so it has none.
  const bool ranged = t.step_high_s > t.step_low_s;
  figure(st, "step time", "time.step_s", format_value(t.step_s, "s"));
  if (ranged) figure(st, "  one-sigma range", "time.step_high_s", format_value(t.step_low_s, "s") + " to " + format_value(t.step_high_s, "s"));
  figure(st, "total", "time.total_days", sci(t.total_days, "days"));
  if (ranged) figure(st, "  one-sigma range", "time.total_days_high", sci(t.total_days_low) + " to " + sci(t.total_days_high, "days"));
  figure(st, "GPU-hours", "time.gpu_hours", sci(t.gpu_hours));
  figure(st, "cost", "time.cost_usd", money(t.cost_usd));
  if (ranged) figure(st, "  one-sigma range", "time.cost_usd_high", money(t.cost_usd_low) + " to " + money(t.cost_usd_high));
  figure(st, "MFU", "time.mfu", format_value(t.mfu, "fraction"));
  figure(st, "tokens/s", "time.tokens_per_s", sci(t.tokens_per_s));
  figure(st, "pipeline bubble", "time.bubble_fraction", format_value(t.bubble_fraction, "fraction"));
  section_note(("time basis: " + t.basis + "; profile: " + e.r.s.hardware.profile->source).c_str());
  time_bar(st);

  if (!e.warnings.empty()) {
    heading("Warnings");
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.8f, 0.3f, 1.0f));
    for (const std::string& w : e.warnings) ImGui::TextWrapped("- %s", w.c_str());
    ImGui::PopStyleColor();
  }
}

std::string aria_summary(const State& st) {
  const std::string message = st.banner.empty() ? "" : std::string(st.banner_error ? "Error: " : "Note: ") + st.banner + "\n";
  if (!st.est) return message + (st.error ? "Input error: " + st.error->text() : "No model selected.");
  const Estimate& e = *st.est;
  // " (one sigma LOW to HIGH)", or nothing where there is no range (a given MFU or TFLOP/s)
  auto range = [](double low, double high) {
    if (!(high > low)) return std::string();
    char r[96];
    std::snprintf(r, sizeof r, " (one sigma %.4g to %.4g)", low, high);
    return std::string(r);
  };
  char buf[2048];
  std::snprintf(buf, sizeof buf,
                "%s%s on %lld %s GPUs.\n"
                "Parameters: %.4g [params.total=%.17g]\n"
                "Model FLOPs: %.4g [flops.model_total=%.17g]\n"
                "Memory per GPU: %s of %s, %s [memory.per_gpu.total_bytes=%.17g] [memory.fits=%s]\n"
                "Step time: %.4g s%s [time.step_s=%.17g]\n"
                "Total: %.4g days%s [time.total_days=%.17g]\n"
                "GPU-hours: %.4g [time.gpu_hours=%.17g]\n"
                "Cost: $%.4g [time.cost_usd=%.17g]\n"
                "MFU: %.1f%% [time.mfu=%.17g]\n"
                "Profile: %s (%s)\n"
                "Warnings: %zu",
                st.error ? ("Input error: " + st.error->text() + ". Last valid result: ").c_str() : "",
                e.r.m.name.empty() ? "Size-only model" : e.r.m.name.c_str(), (long long)e.r.gpu_count, e.r.s.hardware.gpu.id.c_str(),
                e.params.total, e.params.total, e.flops.model_total, e.flops.model_total, format_value(e.mem.total_bytes, "bytes").c_str(),
                format_value(e.mem.capacity_bytes, "bytes").c_str(), e.fits ? "fits" : "does not fit", e.mem.total_bytes, e.fits ? "true" : "false",
                e.time.step_s, range(e.time.step_low_s, e.time.step_high_s).c_str(), e.time.step_s, e.time.total_days,
                range(e.time.total_days_low, e.time.total_days_high).c_str(), e.time.total_days, e.time.gpu_hours, e.time.gpu_hours, e.time.cost_usd,
                e.time.cost_usd, 100 * e.time.mfu, e.time.mfu, e.r.s.hardware.profile->source.c_str(), e.r.s.hardware.profile->description.c_str(),
                e.warnings.size());
  return message + buf;
}

}  // namespace llmc::ui
