// Scenario JSON files: read through the field registry, written from it.
#include <cstdlib>

#include <nlohmann/json.hpp>

#include "io/scenario_json.h"

#include "common/json_util.h"
#include "llmc/fields.h"

namespace llmc {

using detail::json;

static Status apply_section(Scenario& s, const std::string& section, const json& obj, const char* first_key) {
  if (!obj.is_object()) return make_error(section, std::string("must be an object; got ") + obj.type_name());
  if (first_key && obj.contains(first_key)) {
    Result<std::string> t = detail::leaf_text(obj.at(first_key), section + "." + first_key);
    if (!t) return t.error();
    if (auto st = set_field(s, section + "." + first_key, *t); !st) return st;
  }
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    if (first_key && it.key() == first_key) continue;
    const std::string key = section + "." + it.key();
    Result<std::string> t = detail::leaf_text(it.value(), key);
    if (!t) return t.error();
    if (auto st = set_field(s, key, *t); !st) return st;
  }
  return ok_status();
}

Status apply_scenario_json(Scenario& s, const std::string& json_text) {
  Result<json> doc = detail::parse_json(json_text, "scenario");
  if (!doc) return doc.error();
  const json& j = *doc;
  if (!j.is_object()) return make_error("scenario", std::string("must be a JSON object; got ") + j.type_name());
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string& k = it.key();
    if (k == "model" && it.value().is_string()) {
      if (auto st = set_field(s, "model.preset", it.value().get<std::string>()); !st) return st;
    } else if (k == "model") {
      if (auto st = apply_section(s, "model", it.value(), "preset"); !st) return st;
    } else if (k == "hardware") {
      if (auto st = apply_section(s, "hardware", it.value(), "gpu"); !st) return st;
    } else if (k == "training" || k == "parallel") {
      if (auto st = apply_section(s, k, it.value(), nullptr); !st) return st;
    } else if (k == "comment" || k == "$schema") {
      continue;
    } else {
      return make_error(k, "unknown section (allowed: model, training, parallel, hardware, comment, $schema)");
    }
  }
  return ok_status();
}

detail::json detail::scenario_json_value(const Scenario& s) {
  json out = json::object();
  out["model"] = detail::json::object();
  out["training"] = detail::json::object();
  out["parallel"] = detail::json::object();
  out["hardware"] = detail::json::object();
  out["hardware"]["gpu"] = s.hardware.gpu.id;
  for (const FieldInfo& f : scenario_fields()) {
    const std::string v = f.get(s);
    if (v.empty()) continue;
    const std::string key = f.key;
    const size_t dot = key.find('.');
    auto& sec = out[key.substr(0, dot)];
    const std::string name = key.substr(dot + 1);
    switch (f.kind) {
      // f.get writes valid numbers. Not std::stoll/stod: without exceptions libc++'s print to
      // stderr before aborting, which links stdio into the embed module (1.5 KB gzipped).
      case FieldKind::integer:
        sec[name] = static_cast<int64_t>(std::strtoll(v.c_str(), nullptr, 10));
        break;
      case FieldKind::number:
        sec[name] = std::strtod(v.c_str(), nullptr);
        break;
      case FieldKind::boolean:
        sec[name] = (v == "true");
        break;
      default:
        sec[name] = v;
        break;
    }
  }
  return out;
}

std::string scenario_to_json(const Scenario& s) { return detail::safe_dump(detail::scenario_json_value(s), 2); }

}  // namespace llmc
