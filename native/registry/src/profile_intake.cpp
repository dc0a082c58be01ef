#include "llmc_registry/profile_intake.h"

#include "llmc/profile.h"
#include "llmc_registry/sha256.h"
#include "llmc_registry/summary.h"

namespace llmc::registry {
namespace {

// Characters (code points) of well-formed UTF-8 text, or -1 when it is not well-formed. Accepts
// what nlohmann::json's parser accepts in strings: RFC 3629 (no overlongs, no surrogates).
long utf8_chars(const std::string& s, bool allow_newlines) {
  long chars = 0;
  size_t i = 0;
  while (i < s.size()) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    size_t n = 0;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c < 0x80) {
      const bool control = c < 0x20 || c == 0x7F;
      if (control && !(allow_newlines && (c == '\n' || c == '\t'))) return -2;
    } else if (c >= 0xC2 && c <= 0xDF)
      n = 1;
    else if (c == 0xE0)
      n = 2, lo = 0xA0;
    else if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF)
      n = 2;
    else if (c == 0xED)
      n = 2, hi = 0x9F;
    else if (c == 0xF0)
      n = 3, lo = 0x90;
    else if (c >= 0xF1 && c <= 0xF3)
      n = 3;
    else if (c == 0xF4)
      n = 3, hi = 0x8F;
    else
      return -1;
    for (size_t k = 1; k <= n; ++k) {
      if (i + k >= s.size()) return -1;
      const unsigned char b = static_cast<unsigned char>(s[i + k]);
      if (b < (k == 1 ? lo : 0x80) || b > (k == 1 ? hi : 0xBF)) return -1;
    }
    i += n + 1;
    ++chars;
  }
  return chars;
}

}  // namespace

std::string canonical_json(const nlohmann::json& value) {
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::strict);
}

int json_depth(const std::string& text, int limit) {
  int depth = 0, deepest = 0;
  bool in_string = false, escaped = false;
  for (const char c : text) {
    if (in_string) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == '"')
      in_string = true;
    else if (c == '[' || c == '{') {
      if (++depth > deepest) deepest = depth;
      if (deepest > limit) return limit + 1;
    } else if ((c == ']' || c == '}') && depth > 0)
      --depth;
  }
  return deepest;
}

std::optional<ApiError> take_in_profile(const std::string& body, Intake& out) {
  if (body.empty())
    return ApiError{400, "not_json", "the request body is empty; send a profile (docs/profile-schema.md) as JSON", ""};
  if (json_depth(body, kMaxJsonDepth) > kMaxJsonDepth)
    return ApiError{400, "json_too_deep",
                    "JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels; a profile needs 5", ""};
  nlohmann::json value;
  try {
    value = nlohmann::json::parse(body);
  } catch (const nlohmann::json::exception& e) {  // parse_error (with the byte position), out_of_range (1e400)
    return ApiError{400, "not_json", std::string("not valid JSON: ") + e.what(), ""};
  }
  // The loader's own message, as `llmcalc profile --check FILE` prints it after the file name.
  Result<HardwareProfile> p = profile_from_json(body);
  if (!p) return ApiError{400, "invalid_profile", p.error().text(), p.error().field};
  out.canonical = canonical_json(value);
  // The stored bytes are what every reader gets: they must load exactly as the upload did.
  if (!profile_from_json(out.canonical))
    return ApiError{500, "internal", "the canonical form of this profile does not load; please report it", ""};
  out.id = sha256_hex(out.canonical);
  out.gpu = p->gpu_id;
  out.summary = summary_fields(*p);
  return std::nullopt;
}

std::optional<ApiError> check_metadata_text(const std::string& field, const std::string& value, size_t max_chars) {
  const long n = utf8_chars(value, field == "notes");
  if (n == -1) return ApiError{400, "bad_request", field + ": not valid UTF-8", field};
  if (n == -2)
    return ApiError{400, "bad_request",
                    field + ": control characters are not allowed" +
                        std::string(field == "notes" ? " (except newline and tab)" : ""),
                    field};
  if (size_t(n) > max_chars)
    return ApiError{400, "bad_request",
                    field + ": at most " + std::to_string(max_chars) + " characters; got " + std::to_string(n), field};
  return std::nullopt;
}

}  // namespace llmc::registry
