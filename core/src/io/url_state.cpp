#include "llmc/url_state.h"

#include <nlohmann/json.hpp>

#include "common/json_util.h"

#include "llmc/fields.h"

namespace llmc {

std::string percent_encode(const std::string& text) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    // RFC 3986 unreserved characters stay; everything else is escaped (as encodeURIComponent).
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.' || c == '~') {
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
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%') {
      out += text[i] == '+' ? ' ' : text[i];
      continue;
    }
    if (i + 2 >= text.size()) return make_error("URL state", "truncated %-escape at position " + std::to_string(i));
    const int hi = nibble(text[i + 1]), lo = nibble(text[i + 2]);
    if (hi < 0 || lo < 0) return make_error("URL state", "malformed %-escape at position " + std::to_string(i));
    out += static_cast<char>(hi * 16 + lo);
    i += 2;
  }
  return out;
}

namespace {

// The scenario's fields that differ from a default scenario (and its GPU), as compact JSON.
std::string diff_from_defaults(const Scenario& s) {
  const detail::json full = detail::json::parse(scenario_to_json(s));
  Scenario d = default_scenario();
  const detail::json defaults = detail::json::parse(scenario_to_json(d));
  detail::json diff = detail::json::object();
  for (auto sec = full.begin(); sec != full.end(); ++sec) {
    for (auto it = sec.value().begin(); it != sec.value().end(); ++it) {
      const bool same = defaults.contains(sec.key()) && defaults[sec.key()].contains(it.key()) && defaults[sec.key()][it.key()] == it.value();
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
  // Only what differs from a default scenario on the same GPU, keeping links short.
  std::string out = "#s=" + percent_encode(diff_from_defaults(s));
  if (pinned) out += "&a=" + percent_encode(diff_from_defaults(*pinned));
  return out;
}

Status apply_url_fragment(Scenario& s, const std::string& fragment, std::optional<Scenario>* pinned) {
  std::string f = fragment;
  if (!f.empty() && f[0] == '#') f.erase(0, 1);
  if (f.empty()) {
    if (pinned) pinned->reset();
    return ok_status();
  }
  if (f.rfind("s=", 0) != 0) return make_error("URL state", "expected '#s=<scenario>'; got '" + f.substr(0, 40) + "'");
  // Parts are separated by '&', which percent_encode() always escapes inside a scenario.
  const size_t amp = f.find('&');
  Scenario next = s;
  if (Status st = apply_part(next, f.substr(2, amp == std::string::npos ? std::string::npos : amp - 2), "URL state: "); !st) return st;
  std::optional<Scenario> next_pinned;
  if (amp != std::string::npos) {
    const std::string rest = f.substr(amp + 1);
    if (rest.rfind("a=", 0) != 0 || rest.find('&') != std::string::npos)
      return make_error("URL state", "expected '&a=<pinned scenario>' after the scenario; got '&" + rest.substr(0, 40) + "'");
    Scenario a = default_scenario();
    if (Status st = apply_part(a, rest.substr(2), "URL state (pinned A): "); !st) return st;
    next_pinned = std::move(a);
  }
  s = std::move(next);
  if (pinned) *pinned = std::move(next_pinned);
  return ok_status();
}

}  // namespace llmc
