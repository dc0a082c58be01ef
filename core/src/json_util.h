// Internal helpers for reading JSON documents with errors that name the offending field.
#pragma once
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "llmc/result.h"

namespace llmc::detail {

using json = nlohmann::json;

// Parse without letting an exception escape; the error names the document and the position.
inline Result<json> parse_json(const std::string& text, const std::string& what) {
  try {
    return json::parse(text);
  } catch (const json::parse_error& e) {
    return make_error(what, std::string("not valid JSON: ") + e.what());
  }
}

// A JSON scalar as the text set_field() parses; objects, arrays and null are refused.
inline Result<std::string> leaf_text(const json& v, const std::string& key) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return std::string(v.get<bool>() ? "true" : "false");
  if (v.is_number_integer()) return std::to_string(v.get<int64_t>());
  if (v.is_number_unsigned()) return std::to_string(v.get<uint64_t>());
  if (v.is_number_float()) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", v.get<double>());
    return std::string(buf);
  }
  return make_error(key, std::string("must be a number, string or boolean; got ") + v.type_name());
}

}  // namespace llmc::detail
