#include "json_read.h"

#include <cmath>
#include <cstdio>

namespace llmc::validate::detail {

Result<json> parse_json(const std::string& text, const std::string& what) {
  try {
    return json::parse(text);
  } catch (const json::exception& e) {  // parse_error, and out_of_range for numbers like 1e400
    return make_error(what, std::string("not valid JSON: ") + e.what());
  }
}

std::string dump(const json& j, int indent) { return j.dump(indent, ' ', false, json::error_handler_t::replace); }

std::string shown(const json& v) {
  std::string s = dump(v);
  if (s.size() > 60) s = s.substr(0, 57) + "...";
  return s;
}

std::string number_text(double v, const char* format) {
  char buf[48];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

Status only_keys(const json& obj, const std::string& path, const std::vector<std::string>& allowed) {
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    bool known = false;
    for (const std::string& k : allowed) known = known || it.key() == k;
    if (known) continue;
    std::string list;
    for (const std::string& k : allowed) list += (list.empty() ? "" : ", ") + k;
    return make_error((path.empty() ? "" : path + ".") + it.key(), "unknown key (allowed: " + list + ")");
  }
  return ok_status();
}

namespace {
std::string field_of(const std::string& path, const std::string& key) { return path.empty() ? key : path + "." + key; }
bool absent(const json& obj, const std::string& key) { return !obj.contains(key); }
Status missing(const std::string& field, const std::string& what) { return make_error(field, "missing: " + what); }
}  // namespace

Status read_text(const json& obj, const std::string& key, const std::string& path, bool required, std::string& out,
                 size_t max_bytes) {
  const std::string field = field_of(path, key);
  if (absent(obj, key)) return required ? missing(field, "text") : ok_status();
  const json& v = obj.at(key);
  if (!v.is_string()) return make_error(field, std::string("must be text; got ") + v.type_name() + " " + shown(v));
  const std::string s = v.get<std::string>();
  if (s.empty() || s.size() > max_bytes)
    return make_error(field, "must be 1 to " + std::to_string(max_bytes) + " bytes of text; got " + shown(v));
  out = s;
  return ok_status();
}

Status read_number(const json& obj, const std::string& key, const std::string& path, bool required, double lo,
                   double hi, bool integer, double& out) {
  const std::string field = field_of(path, key);
  const std::string what =
      std::string(integer ? "an integer" : "a number") + " in [" + number_text(lo) + ", " + number_text(hi) + "]";
  if (absent(obj, key)) return required ? missing(field, what) : ok_status();
  const json& v = obj.at(key);
  if (!v.is_number()) return make_error(field, "must be " + what + "; got " + shown(v));
  const double d = v.get<double>();
  if (!std::isfinite(d) || d < lo || d > hi || (integer && d != std::floor(d)))
    return make_error(field, "must be " + what + "; got " + shown(v));
  out = d;
  return ok_status();
}

Status read_bool(const json& obj, const std::string& key, const std::string& path, bool required, bool& out) {
  const std::string field = field_of(path, key);
  if (absent(obj, key)) return required ? missing(field, "true or false") : ok_status();
  const json& v = obj.at(key);
  if (!v.is_boolean()) return make_error(field, "must be true or false; got " + shown(v));
  out = v.get<bool>();
  return ok_status();
}

Status read_choice(const json& obj, const std::string& key, const std::string& path,
                   const std::vector<std::string>& choices, std::string& out) {
  std::string list;
  for (const std::string& c : choices) list += (list.empty() ? "" : ", ") + c;
  std::string given;
  if (absent(obj, key)) return missing(field_of(path, key), "one of " + list);
  if (auto st = read_text(obj, key, path, true, given, 200); !st)
    return make_error(st.error().field, st.error().message + " (one of " + list + ")");
  for (const std::string& c : choices)
    if (given == c) {
      out = given;
      return ok_status();
    }
  return make_error(field_of(path, key), "must be one of " + list + "; got '" + given + "'");
}

}  // namespace llmc::validate::detail
