// Internal helpers for reading JSON documents with errors that name the offending field.
#pragma once
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "llmc/result.h"

namespace llmc::detail {

// One JSON flavour in core (ordered: documents keep their key order, and one set of template
// instantiations keeps the embed module small).
using json = nlohmann::ordered_json;

// Parse without letting an exception escape; the error names the document and the position.
inline Result<json> parse_json(const std::string& text, const std::string& what) {
  try {
    return json::parse(text);
  } catch (const json::exception& e) {  // parse_error, and out_of_range for numbers like 1e400
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

// Dump that never throws on invalid UTF-8 in user strings (it substitutes U+FFFD).
template <class J>
std::string safe_dump(const J& j, int indent = -1) {
  return j.dump(indent, ' ', false, J::error_handler_t::replace);
}

// True if `s` is well-formed UTF-8 (user text must be, to round-trip through JSON).
inline bool valid_utf8(const std::string& s) {
  size_t i = 0;
  while (i < s.size()) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    const size_t n = c < 0x80 ? 0 : (c >> 5) == 6 ? 1 : (c >> 4) == 14 ? 2 : (c >> 3) == 30 ? 3 : 99;
    if (n == 99 || i + n >= s.size()) return false;
    for (size_t k = 1; k <= n; ++k)
      if ((static_cast<unsigned char>(s[i + k]) >> 6) != 2) return false;
    i += n + 1;
  }
  return true;
}

}  // namespace llmc::detail
