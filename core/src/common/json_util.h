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

// Parse without exceptions (the embed module is built with none): nlohmann's DOM builder, with
// its parse_error hook replaced to keep the message it would have thrown ("parse error at line 3,
// column 5: ...", or "number overflow parsing '1e400'").
class MessageKeepingParser : public nlohmann::detail::json_sax_dom_parser<json> {
 public:
  explicit MessageKeepingParser(json& out) : json_sax_dom_parser<json>(out, false) {}
  // Hides the base's hook: sax_parse calls it through this class's type.
  template <class Exception>
  bool parse_error(std::size_t, const std::string&, const Exception& ex) {
    message = ex.what();
    return false;
  }
  std::string message;
};

// The document, or an error that names it and the position.
inline Result<json> parse_json(const std::string& text, const std::string& what) {
  json out;
  MessageKeepingParser sax(out);
  // The text parser itself: json::sax_parse would also instantiate the binary formats' readers.
  auto input = nlohmann::detail::input_adapter(text);
  nlohmann::detail::parser<json, decltype(input)> parser(std::move(input), nullptr, false);
  if (parser.sax_parse(&sax, /*strict=*/true)) return out;
  // "[json.exception.parse_error.101] parse error at line 3, column 5: ..." without the tag.
  std::string message = sax.message;
  if (message.rfind("[json.exception.", 0) == 0 && message.find("] ") != std::string::npos)
    message.erase(0, message.find("] ") + 2);
  return make_error(what, "not valid JSON: " + message);
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

// True if `s` is well-formed UTF-8 per RFC 3629 (no overlong forms, no surrogates, nothing above
// U+10FFFF): user text must be, to round-trip through JSON unchanged.
inline bool valid_utf8(const std::string& s) {
  auto byte = [&](size_t i) { return static_cast<unsigned char>(s[i]); };
  size_t i = 0;
  while (i < s.size()) {
    const unsigned char c = byte(i);
    size_t n = 0;
    unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the first continuation byte
    if (c < 0x80)
      n = 0;
    else if (c >= 0xC2 && c <= 0xDF)
      n = 1;
    else if (c == 0xE0)
      n = 2, lo = 0xA0;
    else if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF)
      n = 2;
    else if (c == 0xED)
      n = 2, hi = 0x9F;  // no UTF-16 surrogates
    else if (c == 0xF0)
      n = 3, lo = 0x90;
    else if (c >= 0xF1 && c <= 0xF3)
      n = 3;
    else if (c == 0xF4)
      n = 3, hi = 0x8F;  // nothing above U+10FFFF
    else
      return false;
    if (i + n >= s.size() && n > 0) return false;
    for (size_t k = 1; k <= n; ++k) {
      const unsigned char b = byte(i + k);
      if (k == 1 ? (b < lo || b > hi) : (b < 0x80 || b > 0xBF)) return false;
    }
    i += n + 1;
  }
  return true;
}

}  // namespace llmc::detail
