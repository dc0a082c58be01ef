// Small shared widgets: figures that expand to their derivation, headings, notes, the stale
// notice, and the rectangles browser tests click on.
#include <imgui.h>

#include <algorithm>
#include <string>

#include "state.h"

namespace llmc::ui {

void remember_rect(State& st, const std::string& id) {
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  st.rects[id] = Rect{a.x, a.y, b.x - a.x, b.y - a.y};
}

std::string render_term(const Term& t, MemoryUnits u) {
  // Core's own rendering (explain.h render()) prints values at four digits; here the value is
  // shown as the screens show it and with every digit, and the inputs with every digit.
  std::string out = std::string(t.key) + " = " + t.formula;
  if (t.n_inputs > 0) {
    out += "\n    where ";
    for (int i = 0; i < t.n_inputs; ++i) {
      if (i) out += ", ";
      out += std::string(t.inputs[i].name) + " = " + format_exact(t.inputs[i].value);
    }
  }
  out += "\n    = " + format_quantity(t.value, t.unit, u);
  const std::string exact = format_exact(t.value) + (*t.unit ? std::string(" ") + t.unit : std::string());
  if (exact != format_quantity(t.value, t.unit, u)) out += "   (exactly " + exact + ")";
  if (t.source && *t.source) out += "\n    source: " + std::string(t.source);
  return out;
}

void figure(State& st, const char* label, const char* term_key, const std::string& value) {
  const Term* t = st.est ? st.est->trace.find(term_key) : nullptr;
  ImGui::PushID(term_key);
  const bool open = st.expanded_term == term_key;
  const float column = std::min(ImGui::GetFontSize() * 13, ImGui::GetContentRegionAvail().x * 0.5f);
  ImGui::TextUnformatted(label);
  ImGui::SameLine(column);
  if (stale(st)) ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  if (ImGui::Selectable(value.c_str(), open, 0, ImVec2(0, 0)) && t) st.expanded_term = open ? "" : term_key;
  if (stale(st)) ImGui::PopStyleColor();
  remember_rect(st, std::string("figure:") + term_key);
  if (t && ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 36);
    ImGui::TextUnformatted(render_term(*t, st.memory_units).c_str());
    ImGui::TextDisabled("click to keep it open");
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
  if (open && t) {
    ImGui::Indent();
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.7f, 0.85f, 1.0f, 1.0f));
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(render_term(*t, st.memory_units).c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
    ImGui::Unindent();
  }
  ImGui::PopID();
}

void heading(const char* text) {
  ImGui::Spacing();
  ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.6f, 0.8f, 1.0f, 1.0f));
  ImGui::TextWrapped("%s", text);  // wrapped: a long heading on a phone is not cut
  ImGui::PopStyleColor();
  ImGui::Separator();
}

void section_note(const char* text) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.65f, 0.65f, 0.65f, 1.0f));
  ImGui::TextWrapped("%s", text);
  ImGui::PopStyleColor();
}

void error_text(const std::string& text) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.45f, 1.0f));
  ImGui::TextWrapped("%s", text.c_str());
  ImGui::PopStyleColor();
}

void stale_notice(const State& st) {
  if (!stale(st)) return;
  std::string why;
  if (!st.field_errors.empty()) {
    const auto& first = *st.field_errors.begin();
    why = first.first + ": " + first.second;
    if (st.field_errors.size() > 1) why += " (and " + std::to_string(st.field_errors.size() - 1) + " more)";
  } else {
    why = st.error->text();
  }
  ImGui::PushStyleColor(ImGuiCol_ChildBg, ImVec4(0.35f, 0.12f, 0.1f, 1.0f));
  const float h = ImGui::GetTextLineHeightWithSpacing() * 2 + ImGui::GetStyle().WindowPadding.y * 2;
  ImGui::BeginChild("stale", ImVec2(0, h), false, ImGuiWindowFlags_NoScrollbar);
  ImGui::TextColored(ImVec4(1.0f, 0.75f, 0.4f, 1.0f), "STALE: these are the results of the last valid inputs.");
  ImGui::TextWrapped("Fix %s", why.c_str());
  ImGui::EndChild();
  ImGui::PopStyleColor();
}

}  // namespace llmc::ui
