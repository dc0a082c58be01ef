// Reading record JSON strictly: every value checked for type and range, every error naming the
// field's path ("measured.value") with what it must be and what was given.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "llmc/result.h"

namespace llmc::validate::detail {

using json = nlohmann::ordered_json;

// Parse without letting an exception escape; the error names `what` and the position.
Result<json> parse_json(const std::string& text, const std::string& what);
// Dump that never throws on invalid UTF-8 (it substitutes U+FFFD).
std::string dump(const json& j, int indent = -1);
// A value for an error message: at most 60 bytes.
std::string shown(const json& v);
// printf-formatted number ("%.10g": every digit a record carries).
std::string number_text(double v, const char* format = "%.10g");

// An object's keys must be among `allowed`; the error names `path.key` and lists them.
Status only_keys(const json& obj, const std::string& path, const std::vector<std::string>& allowed);
// obj[key] as text (1 to max_bytes bytes); `required` false: absent leaves `out` unchanged.
Status read_text(const json& obj, const std::string& key, const std::string& path, bool required, std::string& out,
                 size_t max_bytes = 4096);
// obj[key] as a finite number in [lo, hi]; `integer`: a whole number.
Status read_number(const json& obj, const std::string& key, const std::string& path, bool required, double lo,
                   double hi, bool integer, double& out);
Status read_bool(const json& obj, const std::string& key, const std::string& path, bool required, bool& out);
// obj[key] as one of `choices`.
Status read_choice(const json& obj, const std::string& key, const std::string& path,
                   const std::vector<std::string>& choices, std::string& out);

}  // namespace llmc::validate::detail
