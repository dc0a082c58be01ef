// The whole scenario in a URL fragment: "#s=<percent-encoded compact scenario JSON>", so a link
// restores exactly what its author saw. Only fields that differ from the defaults are written.
#pragma once
#include <optional>
#include <string>

#include "llmc/result.h"
#include "llmc/scenario.h"

namespace llmc {

// "#s=<scenario>", or "#s=<scenario>&a=<pinned>" when a scenario is pinned beside it for a
// comparison (the UI's Compare: A = pinned, B = the current scenario).
std::string scenario_to_url_fragment(const Scenario& s, const Scenario* pinned = nullptr);
// Applies the fragment (with or without the leading '#') on top of `s`; an empty fragment is
// a no-op. Malformed percent-escapes, unknown keys or bad values give an error naming them.
// An "a=" part is applied on top of a default scenario into `*pinned` (when given; without
// one, or without such a part, *pinned is reset). Links without "a=" read as they always did.
// On error neither `s` nor `*pinned` changes.
Status apply_url_fragment(Scenario& s, const std::string& fragment, std::optional<Scenario>* pinned = nullptr);

std::string percent_encode(const std::string& text);
Result<std::string> percent_decode(const std::string& text);

}  // namespace llmc
