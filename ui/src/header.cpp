// The header bar (name, version, documentation links, help, reset, memory units) and the
// one-screen help.
#include <imgui.h>

#include <algorithm>

#include "llmc/report.h"
#include "state.h"

namespace llmc::ui {

namespace {

// A small button that stays on the current line when it fits, else starts a new one.
bool flow_button(const char* label, float right_edge) {
  const float w = ImGui::CalcTextSize(label).x + ImGui::GetStyle().FramePadding.x * 2;
  ImGui::SameLine();
  if (ImGui::GetCursorPosX() + w > right_edge) ImGui::NewLine();
  return ImGui::SmallButton(label);
}

}  // namespace

void header_bar(State& st, Platform& platform) {
  const float right = ImGui::GetContentRegionMax().x;
  ImGui::TextColored(ImVec4(0.55f, 0.8f, 1.0f, 1.0f), "llmcalc %s", kVersion);
  const char* tagline = "training cost, memory and time of LLMs, every number derived";
  ImGui::SameLine();
  if (ImGui::GetContentRegionAvail().x > ImGui::CalcTextSize(tagline).x)
    ImGui::TextDisabled("%s", tagline);  // not on a phone
  else
    ImGui::NewLine();
  if (platform.open_url) {
    if (flow_button("Docs", right)) platform.open_url("docs/index.html");
    remember_rect(st, "header:docs");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("How the numbers are computed (docs/index.html, new tab)");
    if (flow_button("Embedding", right)) platform.open_url("docs/embedding.html");
    remember_rect(st, "header:embedding");
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("Numbers and this calculator in your own pages (docs/embedding.html, new tab)");
  }
  if (flow_button("Help", right)) st.show_help = true;
  remember_rect(st, "header:help");
  if (flow_button("Reset", right)) {
    set_scenario(st, starting_scenario());
    st.active_profile = -1;
    set_banner(st, "Inputs reset to the defaults (Llama 3.1 8B on 8 H100 SXM, 1T tokens).", false);
  }
  remember_rect(st, "header:reset");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Back to the default scenario (the pinned A of Compare stays)");
  ImGui::SameLine();
  if (ImGui::GetCursorPosX() + ImGui::GetFontSize() * 9 > right) ImGui::NewLine();
  ImGui::TextDisabled("memory in");
  for (MemoryUnits u : {MemoryUnits::gib, MemoryUnits::gb}) {
    ImGui::SameLine();
    const bool on = st.memory_units == u;
    if (on) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
    if (ImGui::SmallButton(u == MemoryUnits::gib ? "GiB" : "GB")) st.memory_units = u;
    if (on) ImGui::PopStyleColor();
    remember_rect(st, std::string("units:") + to_string(u));
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s", u == MemoryUnits::gib ? "GiB = 2^30 bytes, as GPU memory is sized (an H100 has 80 GiB)"
                                                    : "GB = 10^9 bytes (an H100's 80 GiB are 85.9 GB)");
  }
  ImGui::Separator();
}

void help_window(State& st) {
  if (!st.show_help) return;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const float w = std::min(vp->WorkSize.x - 20, ImGui::GetFontSize() * 42);
  ImGui::SetNextWindowPos(ImVec2(vp->WorkPos.x + vp->WorkSize.x * 0.5f, vp->WorkPos.y + vp->WorkSize.y * 0.5f),
                          ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(ImVec2(w, 0));
  ImGui::Begin("How to use llmcalc", &st.show_help,
               ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoSavedSettings);
  ImGui::PushTextWrapPos(0);
  ImGui::BulletText(
      "Pick a model (a preset, or paste a Hugging Face config.json), then set training, parallelism and hardware.");
  ImGui::BulletText(
      "Type numbers as you would write them: 1e9, 1.5T, 8k, 4Ki, 70B, 2^20, 45%%. Enter or leaving the field applies, "
      "Esc "
      "reverts. A refused value stays red with its reason, and the results say STALE until it is fixed.");
  ImGui::BulletText("The \xE2\x88\x92 and + buttons halve and double tp, pp, cp, ep and the GPU count.");
  ImGui::BulletText(
      "Hover any result for its formula, inputs (every digit) and source; click it to keep the derivation open.");
  ImGui::BulletText("Search ranks every layout on this GPU count; Apply sets every knob of a row or a heatmap cell.");
  ImGui::BulletText("Compare: Pin as A, change the inputs, and see A and B side by side with their differences.");
  ImGui::BulletText(
      "Copy link puts everything (and a pinned A) in the URL. Export downloads results and search tables as CSV or "
      "JSON, and the scenario as a file `llmcalc estimate FILE` reads.");
  ImGui::BulletText("Drop a hardware profile, a scenario or a config.json anywhere on the page to load it.");
  ImGui::BulletText("Memory is in GiB (2^30 bytes) unless GB is chosen in the header.");
  ImGui::PopTextWrapPos();
  if (ImGui::Button("Close")) st.show_help = false;
  remember_rect(st, "help:close");
  ImGui::End();
}

}  // namespace llmc::ui
