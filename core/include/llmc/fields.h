// The registry of every input field: key, kind, range, choices, help. JSON scenario files,
// `--set key=value`, URL state and the UI's inline validation all go through it, so a field's
// rules are written once.
#pragma once
#include <string>
#include <vector>

#include "llmc/result.h"
#include "llmc/scenario.h"

namespace llmc {

enum class FieldKind { integer, number, boolean, choice, text };

struct FieldInfo {
  const char* key;  // "training.micro_batch"
  FieldKind kind;
  double min, max;      // inclusive range for integer / number
  const char* choices;  // "a|b|c" for choice fields
  const char* help;
  void (*set)(Scenario&, double num, bool flag, const std::string& text);
  std::string (*get)(const Scenario&);  // "" when unset (optional fields)
};

const std::vector<FieldInfo>& scenario_fields();
const FieldInfo* find_field(const std::string& key);

// Parse `text` for `key` and store it; errors name the field, the allowed range and the value.
// Special keys: "model.preset" loads a preset (before other model fields), "hardware.gpu" a GPU.
Status set_field(Scenario& s, const std::string& key, const std::string& text);

// Apply a JSON scenario document ({"model": "id" | {...}, "training": {...}, ...}) on top of s.
Status apply_scenario_json(Scenario& s, const std::string& json_text);

// A scenario with the defaults of every section (GPU h100-sxm, no model).
Scenario default_scenario();

// The scenario as JSON (every field that has a value), readable back by apply_scenario_json.
std::string scenario_to_json(const Scenario& s);

}  // namespace llmc
