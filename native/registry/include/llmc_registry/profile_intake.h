// What an uploaded profile goes through before it is stored: size and nesting limits, JSON
// parsing, core's own profile loader (the refusal is the message `llmcalc profile --check`
// prints), canonical form and content hash, and the summary the list shows.
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "llmc_registry/api_error.h"

namespace llmc::registry {

// Arrays/objects nested deeper than this are refused before parsing (the deepest valid profile
// is 5 levels: collectives.measured[].points[].bytes).
constexpr int kMaxJsonDepth = 64;
constexpr size_t kMaxLabelChars = 100, kMaxNotesChars = 2000;

struct Intake {
  std::string id;                  // SHA-256 (hex) of `canonical`
  std::string canonical;           // the stored and served bytes (see canonical_json)
  std::string gpu;                 // catalog id, for ?gpu= filtering
  nlohmann::ordered_json summary;  // profile fields of a list entry (summary_fields)
};

// Canonical JSON: UTF-8, object keys sorted by byte value, no whitespace, integers as written,
// other numbers in nlohmann::json's shortest round-trip form. Equal JSON values, whatever their
// key order or spacing, give equal bytes, hence equal ids.
std::string canonical_json(const nlohmann::json& value);

// Depth of the deepest array/object nesting in `text` (strings skipped), stopping early once it
// exceeds `limit` (returns limit + 1 then). Linear, no recursion: safe on any bytes.
int json_depth(const std::string& text, int limit);

// Checks `body` as an uploaded profile; fills `out` or returns the error (400).
std::optional<ApiError> take_in_profile(const std::string& body, Intake& out);

// Checks an upload's label or notes (query parameters): UTF-8, no control characters (notes may
// have newlines and tabs), at most `max_chars` characters. `field` is "label" or "notes".
std::optional<ApiError> check_metadata_text(const std::string& field, const std::string& value, size_t max_chars);

}  // namespace llmc::registry
