// Field editors bound to core's field registry, and figures that expand to their derivation.
#include <imgui.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "llmc/fields.h"
#include "state.h"

namespace llmc::ui {

void remember_rect(State& st, const std::string& id) {
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  st.rects[id] = Rect{a.x, a.y, b.x - a.x, b.y - a.y};
}

namespace {

std::string number_text(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// Applies a new value through the registry; a refusal is shown inline, never clamped.
void apply(State& st, const char* key, const std::string& text, std::optional<double> typed) {
  Status s = set_field(st.scenario, key, text);
  if (s) {
    st.field_errors.erase(key);
    st.pending.erase(key);
    st.dirty = true;
  } else {
    st.field_errors[key] = s.error().message;
    if (typed) st.pending[key] = *typed;
  }
}

}  // namespace

bool field_editor(State& st, const char* key, const char* label, std::optional<double> shown_when_unset) {
  const FieldInfo* f = find_field(key);
  if (!f) return false;
  ImGui::PushID(key);
  const std::string current = f->get(st.scenario);
  const bool marked = st.field_errors.count(key) || (st.error && st.error->field == key);
  if (marked) ImGui::PushStyleColor(ImGuiCol_FrameBg, ImVec4(0.55f, 0.12f, 0.12f, 1.0f));
  bool changed = false;
  ImGui::SetNextItemWidth(160);
  switch (f->kind) {
    case FieldKind::integer: {
      auto it = st.pending.find(key);
      long long v = it != st.pending.end() ? static_cast<long long>(it->second)
                                           : (current.empty() ? static_cast<long long>(shown_when_unset.value_or(0)) : std::stoll(current));
      const long long step = 1;
      if (ImGui::InputScalar(label, ImGuiDataType_S64, &v, &step, nullptr, "%lld")) {
        apply(st, key, std::to_string(v), double(v));
        changed = true;
      }
      break;
    }
    case FieldKind::number: {
      auto it = st.pending.find(key);
      double v = it != st.pending.end() ? it->second : (current.empty() ? shown_when_unset.value_or(0.0) : std::stod(current));
      if (ImGui::InputDouble(label, &v, 0, 0, "%.6g")) {
        apply(st, key, number_text(v), v);
        changed = true;
      }
      break;
    }
    case FieldKind::boolean: {
      bool v = current == "true";
      if (ImGui::Checkbox(label, &v)) {
        apply(st, key, v ? "true" : "false", std::nullopt);
        changed = true;
      }
      break;
    }
    case FieldKind::choice: {
      const std::string shown = current.empty() ? "(recipe default)" : current;
      if (ImGui::BeginCombo(label, shown.c_str())) {
        std::string choices = f->choices;
        size_t pos = 0;
        while (pos <= choices.size()) {
          const size_t bar = choices.find('|', pos);
          const std::string c = choices.substr(pos, bar == std::string::npos ? std::string::npos : bar - pos);
          if (ImGui::Selectable(c.c_str(), c == current)) {
            apply(st, key, c, std::nullopt);
            changed = true;
          }
          remember_rect(st, std::string(key) + "=" + c);
          if (bar == std::string::npos) break;
          pos = bar + 1;
        }
        ImGui::EndCombo();
      }
      break;
    }
    case FieldKind::text: {
      char buf[256];
      std::snprintf(buf, sizeof buf, "%s", current.c_str());
      if (ImGui::InputText(label, buf, sizeof buf)) {
        apply(st, key, buf, std::nullopt);
        changed = true;
      }
      break;
    }
  }
  if (marked) ImGui::PopStyleColor();
  remember_rect(st, key);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s\n%s", key, f->help);
  auto fe = st.field_errors.find(key);
  if (fe != st.field_errors.end()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.45f, 1.0f));
    ImGui::TextWrapped("%s", fe->second.c_str());
    ImGui::PopStyleColor();
  } else if (st.error && st.error->field == key) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.45f, 1.0f));
    ImGui::TextWrapped("%s", st.error->message.c_str());
    ImGui::PopStyleColor();
  }
  ImGui::PopID();
  return changed;
}

void figure(State& st, const char* label, const char* term_key, const std::string& value) {
  const Term* t = st.est ? st.est->trace.find(term_key) : nullptr;
  ImGui::PushID(term_key);
  const bool open = st.expanded_term == term_key;
  ImGui::TextUnformatted(label);
  ImGui::SameLine(230);
  if (ImGui::Selectable(value.c_str(), open, 0, ImVec2(0, 0)) && t) st.expanded_term = open ? "" : term_key;
  remember_rect(st, std::string("figure:") + term_key);
  if (t && ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(520);
    ImGui::TextUnformatted(render(*t).c_str());
    ImGui::TextDisabled("click to keep it open");
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
  if (open && t) {
    ImGui::Indent();
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.7f, 0.85f, 1.0f, 1.0f));
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(render(*t).c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
    ImGui::Unindent();
  }
  ImGui::PopID();
}

void heading(const char* text) {
  ImGui::Spacing();
  ImGui::TextColored(ImVec4(0.6f, 0.8f, 1.0f, 1.0f), "%s", text);
  ImGui::Separator();
}

void section_note(const char* text) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.65f, 0.65f, 0.65f, 1.0f));
  ImGui::TextWrapped("%s", text);
  ImGui::PopStyleColor();
}

}  // namespace llmc::ui
