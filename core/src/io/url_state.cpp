#include "llmc/url_state.h"

#include <nlohmann/json.hpp>

#include "common/ascii.h"
#include "common/json_util.h"
#include "io/scenario_json.h"

#include "llmc/fields.h"
#include "llmc/registry_list.h"

namespace llmc {

std::string percent_encode(const std::string& text) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    // RFC 3986 unreserved characters stay; everything else is escaped (as encodeURIComponent).
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
        c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

Result<std::string> percent_decode(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%') {
      out += text[i] == '+' ? ' ' : text[i];
      continue;
    }
    if (i + 2 >= text.size()) return make_error("URL state", "truncated %-escape at position " + std::to_string(i));
    const int hi = detail::hex_value(text[i + 1]), lo = detail::hex_value(text[i + 2]);
    if (hi < 0 || lo < 0) return make_error("URL state", "malformed %-escape at position " + std::to_string(i));
    out += static_cast<char>(hi * 16 + lo);
    i += 2;
  }
  return out;
}

namespace {

// The scenario's fields that differ from a default scenario (and its GPU), as compact JSON.
std::string diff_from_defaults(const Scenario& s) {
  const detail::json full = detail::scenario_json_value(s);
  Scenario d = default_scenario();
  const detail::json defaults = detail::scenario_json_value(d);
  detail::json diff = detail::json::object();
  for (auto sec = full.begin(); sec != full.end(); ++sec) {
    for (auto it = sec.value().begin(); it != sec.value().end(); ++it) {
      const bool same = defaults.contains(sec.key()) && defaults[sec.key()].contains(it.key()) &&
                        defaults[sec.key()][it.key()] == it.value();
      if (!same || (sec.key() == "hardware" && it.key() == "gpu")) diff[sec.key()][it.key()] = it.value();
    }
  }
  return detail::safe_dump(diff);
}

Status apply_part(Scenario& s, const std::string& encoded, const std::string& what) {
  Result<std::string> text = percent_decode(encoded);
  if (!text) return text.error();
  if (Status st = apply_scenario_json(s, *text); !st) return make_error(what + st.error().field, st.error().message);
  return ok_status();
}

}  // namespace

std::string scenario_to_url_fragment(const Scenario& s, const Scenario* pinned) {
  return scenario_to_url_fragment(s, pinned, nullptr);
}

std::string scenario_to_url_fragment(const Scenario& s, const Scenario* pinned, const LinkProfile* profile) {
  // Only what differs from a default scenario on the same GPU, keeping links short.
  std::string out = "#s=" + percent_encode(diff_from_defaults(s));
  if (pinned) out += "&a=" + percent_encode(diff_from_defaults(*pinned));
  if (profile) {
    if (!profile->registry_id.empty()) out += "&p=" + percent_encode(profile->registry_id);
    if (!profile->registry_id.empty() && !profile->registry.empty()) out += "&r=" + percent_encode(profile->registry);
    if (!profile->local_name.empty()) out += "&pl=" + percent_encode(profile->local_name);
  }
  return out;
}

Status apply_url_fragment(Scenario& s, const std::string& fragment, std::optional<Scenario>* pinned,
                          LinkProfile* profile) {
  std::string f = fragment;
  if (!f.empty() && f[0] == '#') f.erase(0, 1);
  if (f.empty()) {
    if (pinned) pinned->reset();
    if (profile) *profile = LinkProfile{};
    return ok_status();
  }
  if (f.rfind("s=", 0) != 0) return make_error("URL state", "expected '#s=<scenario>'; got '" + f.substr(0, 40) + "'");
  // Parts are separated by '&', which percent_encode() always escapes inside a value.
  std::vector<std::string> parts;
  for (size_t at = 0;;) {
    const size_t amp = f.find('&', at);
    parts.push_back(f.substr(at, amp == std::string::npos ? std::string::npos : amp - at));
    if (amp == std::string::npos) break;
    at = amp + 1;
  }
  Scenario next = s;
  if (Status st = apply_part(next, parts[0].substr(2), "URL state: "); !st) return st;
  std::optional<Scenario> next_pinned;
  LinkProfile next_profile;
  bool seen_p = false, seen_r = false, seen_pl = false;
  for (size_t i = 1; i < parts.size(); ++i) {
    const std::string& part = parts[i];
    const size_t eq = part.find('=');
    const std::string key = part.substr(0, eq);
    const std::string value = eq == std::string::npos ? std::string() : part.substr(eq + 1);
    const bool known = eq != std::string::npos && (key == "a" || key == "p" || key == "r" || key == "pl");
    if (!known)
      return make_error("URL state",
                        "expected '&a=<pinned scenario>', '&p=<registry profile id>', '&r=<registry URL>' or "
                        "'&pl=<profile file name>' after the scenario; got '&" +
                            part.substr(0, 40) + "'");
    auto twice = [&](bool& flag) {
      const bool again = flag;
      flag = true;
      return again;
    };
    if (key == "a") {
      if (next_pinned) return make_error("URL state", "'&a=' given twice");
      Scenario a = default_scenario();
      if (Status st = apply_part(a, value, "URL state (pinned A): "); !st) return st;
      next_pinned = std::move(a);
      continue;
    }
    Result<std::string> text = percent_decode(value);
    if (!text) return make_error("URL state (&" + key + "=)", text.error().message);
    if (key == "p") {
      if (twice(seen_p)) return make_error("URL state", "'&p=' given twice");
      if (!is_registry_id(*text))
        return make_error("URL state (&p=)",
                          "a registry profile id is 64 lower-case hex digits; got '" + text->substr(0, 80) + "'");
      next_profile.registry_id = *text;
    } else if (key == "r") {
      if (twice(seen_r)) return make_error("URL state", "'&r=' given twice");
      Result<std::string> base = check_registry_base(*text);
      if (!base) return make_error("URL state (&r=)", base.error().message);
      next_profile.registry = *base;
    } else {
      if (twice(seen_pl)) return make_error("URL state", "'&pl=' given twice");
      if (text->empty() || text->size() > 255)
        return make_error("URL state (&pl=)",
                          "a profile file name of 1 to 255 bytes; got " + std::to_string(text->size()));
      for (unsigned char c : *text)
        if (c < 0x20 || c == 0x7F || c == '/' || c == '\\')
          return make_error("URL state (&pl=)",
                            "a file name without control characters or slashes; got '" + text->substr(0, 80) + "'");
      if (!detail::valid_utf8(*text)) return make_error("URL state (&pl=)", "the file name is not valid UTF-8");
      next_profile.local_name = *text;
    }
  }
  if (!next_profile.registry.empty() && next_profile.registry_id.empty())
    return make_error("URL state (&r=)", "a registry URL without '&p=<registry profile id>' names no profile");
  s = std::move(next);
  if (pinned) *pinned = std::move(next_pinned);
  if (profile) *profile = std::move(next_profile);
  return ok_status();
}

}  // namespace llmc
