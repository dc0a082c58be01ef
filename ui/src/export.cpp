// Exports: the results as CSV (every figure of the JSON contract, flattened to key,value rows) and
// as JSON (exactly `llmcalc estimate --json`), and the scenario as a file `llmcalc estimate FILE`
// reads. Full precision everywhere: these are for spreadsheets and scripts, not for reading.
#include <imgui.h>

#include <cstdio>
#include <nlohmann/json.hpp>

#include "llmc/fields.h"
#include "llmc/report.h"
#include "state.h"

namespace llmc::ui {

namespace {

using ojson = nlohmann::ordered_json;

std::string csv_field(const std::string& text) {  // RFC 4180 quoting, only where needed
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

void flatten(const ojson& j, const std::string& prefix, std::string& out) {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it)
      flatten(it.value(), prefix.empty() ? it.key() : prefix + "." + it.key(), out);
  } else if (j.is_array()) {
    for (size_t i = 0; i < j.size(); ++i) flatten(j[i], prefix + "." + std::to_string(i), out);
  } else if (j.is_string()) {
    out += csv_field(prefix) + "," + csv_field(j.get<std::string>()) + "\n";
  } else {
    out += csv_field(prefix) + "," + j.dump() + "\n";  // numbers as the JSON writes them: every digit
  }
}

}  // namespace

void save(State& st, Platform& platform, const std::string& name, const std::string& text) {
  if (!platform.save_file) return;
  const std::string where = platform.save_file(name, text);
  if (where.empty())
    set_banner(st, "Could not save " + name + ".", true);
  else
    set_banner(st, where, false);
}

void export_menu(State& st, Platform& platform, const char* id) {
  if (!platform.save_file || !st.est) return;
  ImGui::PushID(id);
  ImGui::TextDisabled("Export:");
  ImGui::SameLine();
  if (ImGui::SmallButton("CSV")) {
    std::string csv = "key,value\n";
    flatten(ojson::parse(estimate_to_json(*st.est, false, -1)), "", csv);
    save(st, platform, "llmcalc-results.csv", csv);
  }
  remember_rect(st, "export:results.csv");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Every figure as key,value rows, full precision (llmcalc-results.csv)");
  ImGui::SameLine();
  if (ImGui::SmallButton("JSON"))
    save(st, platform, "llmcalc-results.json", estimate_to_json(*st.est, false, 2) + "\n");
  remember_rect(st, "export:results.json");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("What `llmcalc estimate --json` prints for this scenario (llmcalc-results.json)");
  ImGui::SameLine();
  if (ImGui::SmallButton("scenario")) {
    save(st, platform, "llmcalc-scenario.json", scenario_to_json(st.last_valid) + "\n");
    if (st.last_valid.hardware.profile_loaded)
      st.banner += " The hardware profile is not in the scenario file: give it to the CLI with --profile.";
  }
  remember_rect(st, "export:scenario");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("The inputs as a file: `llmcalc estimate llmcalc-scenario.json` gives these results");
  ImGui::PopID();
}

}  // namespace llmc::ui
