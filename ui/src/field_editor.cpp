// Field editors bound to core's field registry (fields.h). Typed values are committed on Enter or
// when the field loses focus, and read by core's parse_number() through set_field(): "1e9",
// "1.5T", "8k", "4Ki", "2^20", "45%". A refused value stays in its box, marked, with the field's
// message beside it; the scenario keeps its last valid value, and the results say they are stale.
// Nothing is applied per keystroke, so no half-typed number ever becomes the last valid result.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>
#include <string>

#include "llmc/fields.h"
#include "llmc/number_input.h"
#include "state.h"

namespace llmc::ui {

namespace {

bool numeric(const FieldInfo& f) { return f.kind == FieldKind::integer || f.kind == FieldKind::number; }

// Optional fields are unset by default (their get() is ""): an empty box means "the default".
bool is_optional(const FieldInfo& f) {
  static const Scenario defaults = default_scenario();
  return f.kind != FieldKind::text && f.get(defaults).empty();
}

// tp, pp, cp, ep and the counts that go with them step by powers of two (8 → 16, 24 → 16 or 32).
bool steps_by_powers_of_two(const std::string& key) {
  static const char* const keys[] = {"parallel.tp",          "parallel.pp",
                                     "parallel.cp",          "parallel.ep",
                                     "parallel.etp",         "parallel.dp",
                                     "hardware.gpu_count",   "hardware.gpus_per_node",
                                     "training.micro_batch", "training.global_batch_seqs"};
  return std::any_of(std::begin(keys), std::end(keys), [&](const char* k) { return key == k; });
}

// What a recipe-dependent field resolves to when unset (the estimate's Resolved), as field text.
std::string recipe_value(const State& st, const std::string& key) {
  if (!st.est) return "";
  const Resolved& r = st.est->r;
  if (key == "training.master_weights") return r.master_weights ? "true" : "false";
  if (key == "training.weight_dtype") return to_string(r.weight_dtype);
  if (key == "training.grad_dtype") return to_string(r.grad_dtype);
  if (key == "training.optimizer_state_dtype") return to_string(r.optimizer_state_dtype);
  return "";
}

// The scenario with an optional field unset again (read back through JSON without that key; the
// attached profile is kept, since JSON does not carry it).
Scenario without_field(const Scenario& s, const std::string& key) {
  nlohmann::json j = nlohmann::json::parse(scenario_to_json(s));
  const size_t dot = key.find('.');
  if (j.contains(key.substr(0, dot))) j[key.substr(0, dot)].erase(key.substr(dot + 1));
  Scenario out = default_scenario();
  if (!apply_scenario_json(out, j.dump())) return s;
  out.hardware.profile = s.hardware.profile;
  out.hardware.profile_loaded = s.hardware.profile_loaded;
  return out;
}

void clear_refusal(State& st, const std::string& key) {
  st.field_errors.erase(key);
  st.pending_text.erase(key);
}

// Applies text through the registry; a refusal is kept in place, never clamped.
void commit(State& st, const FieldInfo& f, const std::string& text) {
  const std::string key = f.key;
  const bool blank = text.find_first_not_of(" \t") == std::string::npos;
  if (blank && is_optional(f)) {
    st.scenario = without_field(st.scenario, key);
    clear_refusal(st, key);
    st.dirty = true;
    return;
  }
  if (Status s = set_field(st.scenario, key, text); s) {
    clear_refusal(st, key);
    st.dirty = true;
  } else {
    st.field_errors[key] = s.error().message;
    st.pending_text[key] = text;
  }
}

// The +/- buttons' next value: powers of two for the parallel sizes and counts, ±1 otherwise,
// inside the field's range.
double stepped(const FieldInfo& f, double v, int dir) {
  double next = v + dir;
  if (steps_by_powers_of_two(f.key)) {
    if (dir > 0)
      next = v < 1 ? 1 : std::exp2(std::floor(std::log2(v)) + 1);
    else
      next = v <= 1 ? f.min : std::exp2(std::ceil(std::log2(v)) - 1);
  }
  return std::clamp(next, f.min, f.max);
}

void label_tooltip(const FieldInfo& f, const std::string& current) {
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30);
  ImGui::TextUnformatted(f.key);
  ImGui::TextUnformatted(f.help);
  if (numeric(f)) {
    ImGui::TextDisabled("range %s to %s%s", format_exact(f.min).c_str(), format_exact(f.max).c_str(),
                        f.kind == FieldKind::integer ? ", whole numbers" : "");
    if (!current.empty())
      if (Result<double> v = parse_number(current)) ImGui::TextDisabled("now %s", format_exact(*v).c_str());
    ImGui::TextDisabled("type e.g. 1e9, 1.5T, 8k, 4Ki, 2^20 or 45%%; Enter applies, Esc reverts");
  }
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

// A text box committed on Enter or focus loss. Returns true when it committed. While it is being
// edited its text lives in st.editing[key] (ImGui writes there), so a field drawn after another
// field took the focus still commits what was typed into it.
bool typed_box(State& st, const FieldInfo& f, const std::string& shown, const char* hint, float width) {
  const std::string key = f.key;
  auto it = st.editing.find(key);
  std::array<char, 256> local{};
  std::snprintf(local.data(), local.size(), "%s", shown.c_str());
  char* buf = it != st.editing.end() ? it->second.data() : local.data();
  ImGui::SetNextItemWidth(width);
  ImGui::InputTextWithHint("##value", hint, buf, local.size(), ImGuiInputTextFlags_AutoSelectAll);
  bool committed = false;
  if (ImGui::IsItemActivated() && it == st.editing.end())
    it = st.editing.emplace(key, local).first;  // from the next frame ImGui writes there
  if (ImGui::IsItemActive()) st.editing_drawn.insert(key);
  if (ImGui::IsItemDeactivated()) {
    if (ImGui::IsItemDeactivatedAfterEdit()) {
      commit(st, f, it != st.editing.end() ? std::string(it->second.data()) : std::string(buf));
      committed = true;
    }
    st.editing.erase(key);
  }
  return committed;
}

}  // namespace

void commit_editing(State& st) {
  for (auto it = st.editing.begin(); it != st.editing.end();) {
    if (st.editing_drawn.count(it->first)) {
      ++it;
      continue;
    }
    if (const FieldInfo* f = find_field(it->first)) commit(st, *f, it->second.data());
    it = st.editing.erase(it);
  }
}

bool field_editor(State& st, const char* key, const char* label, std::optional<double> shown_when_unset) {
  const FieldInfo* f = find_field(key);
  if (!f) return false;
  ImGui::PushID(key);
  const ImGuiStyle& style = ImGui::GetStyle();
  const float fs = ImGui::GetFontSize();
  const float avail = ImGui::GetContentRegionAvail().x;
  const float x0 = ImGui::GetCursorPosX();
  const float label_w = std::clamp(avail * 0.46f, fs * 6, fs * 17);
  const std::string current = f->get(st.scenario);

  // Label column: wrapped, never cut; its tooltip explains the field (the editor's own area stays
  // free, so nothing covers the field's message).
  ImGui::AlignTextToFramePadding();
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + label_w - style.ItemSpacing.x);
  ImGui::TextUnformatted(label);
  ImGui::PopTextWrapPos();
  if (ImGui::IsItemHovered()) label_tooltip(*f, current);
  ImGui::SameLine(x0 + label_w);

  const auto refused = st.field_errors.find(key);
  const bool cross_field = st.error && st.error->field == key;
  const bool marked = refused != st.field_errors.end() || cross_field;
  if (marked) {
    ImGui::PushStyleColor(ImGuiCol_FrameBg, ImVec4(0.55f, 0.12f, 0.12f, 1.0f));
    ImGui::PushStyleColor(ImGuiCol_Border, ImVec4(1.0f, 0.4f, 0.4f, 1.0f));
    ImGui::PushStyleVar(ImGuiStyleVar_FrameBorderSize, 1.0f);
  }
  const float box_w = std::max(fs * 4, std::min(avail - label_w, fs * 13));
  bool changed = false;
  switch (f->kind) {
    case FieldKind::integer:
    case FieldKind::number: {
      const auto pending = st.pending_text.find(key);
      std::string shown;
      if (pending != st.pending_text.end())
        shown = pending->second;
      else if (Result<double> v = parse_number(current); !current.empty() && v)
        shown = number_input_text(*v);
      std::string hint;
      if (current.empty() && shown_when_unset) hint = number_input_text(*shown_when_unset) + " (default)";
      const bool buttons = f->kind == FieldKind::integer;
      const float button_w = ImGui::GetFrameHeight();
      const float w = buttons ? std::max(fs * 3, box_w - 2 * (button_w + style.ItemInnerSpacing.x)) : box_w;
      changed = typed_box(st, *f, shown, hint.c_str(), w);
      remember_rect(st, key);
      if (buttons) {
        const double v = current.empty()              ? shown_when_unset.value_or(f->min)
                         : parse_number(current).ok() ? *parse_number(current)
                                                      : f->min;
        for (int dir : {-1, 1}) {
          ImGui::SameLine(0, style.ItemInnerSpacing.x);
          if (ImGui::Button(dir < 0 ? "\xE2\x88\x92" : "+", ImVec2(button_w, 0))) {  // U+2212 minus
            commit(st, *f, number_input_text(stepped(*f, v, dir)));
            changed = true;
          }
          remember_rect(st, std::string(key) + (dir < 0 ? ":minus" : ":plus"));
          if (ImGui::IsItemHovered())
            ImGui::SetTooltip("%s", steps_by_powers_of_two(key)
                                        ? (dir < 0 ? "halve (previous power of two)" : "double (next power of two)")
                                        : (dir < 0 ? "one less" : "one more"));
        }
      }
      break;
    }
    case FieldKind::boolean: {
      const std::string recipe = current.empty() ? recipe_value(st, key) : "";
      bool v = current.empty() ? recipe == "true" : current == "true";
      if (ImGui::Checkbox("##value", &v)) {
        commit(st, *f, v ? "true" : "false");
        changed = true;
      }
      remember_rect(st, key);
      if (is_optional(*f)) {
        ImGui::SameLine();
        if (current.empty()) {
          ImGui::TextDisabled("(the recipe's)");
        } else if (ImGui::SmallButton("use the recipe's")) {
          commit(st, *f, "");
          changed = true;
        }
      }
      break;
    }
    case FieldKind::choice: {
      const std::string recipe = current.empty() ? recipe_value(st, key) : "";
      const std::string shown = !current.empty() ? current
                                : recipe.empty() ? "(recipe default)"
                                                 : recipe + " (recipe default)";
      ImGui::SetNextItemWidth(box_w);
      if (ImGui::BeginCombo("##value", shown.c_str(), ImGuiComboFlags_HeightLarge)) {
        if (is_optional(*f) && ImGui::Selectable("(recipe default)", current.empty())) {
          commit(st, *f, "");
          changed = true;
        }
        const std::string choices = f->choices;
        for (size_t pos = 0; pos <= choices.size();) {
          const size_t bar = choices.find('|', pos);
          const std::string c = choices.substr(pos, bar == std::string::npos ? std::string::npos : bar - pos);
          if (ImGui::Selectable(c.c_str(), c == current)) {
            commit(st, *f, c);
            changed = true;
          }
          remember_rect(st, std::string(key) + "=" + c);
          if (bar == std::string::npos) break;
          pos = bar + 1;
        }
        ImGui::EndCombo();
      }
      remember_rect(st, key);
      break;
    }
    case FieldKind::text: {
      const auto pending = st.pending_text.find(key);
      changed = typed_box(st, *f, pending != st.pending_text.end() ? pending->second : current, "", box_w);
      remember_rect(st, key);
      break;
    }
  }
  if (marked) {
    ImGui::PopStyleVar();
    ImGui::PopStyleColor(2);
  }
  // The field's own message, beside it (under the box, in the editor's column).
  if (marked) {
    ImGui::SetCursorPosX(x0 + label_w);
    error_text(refused != st.field_errors.end() ? refused->second : st.error->message);
    remember_rect(st, std::string("error:") + key);
  }
  ImGui::PopID();
  return changed;
}

}  // namespace llmc::ui
