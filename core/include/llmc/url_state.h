// The whole scenario in a URL fragment: "#s=<percent-encoded compact scenario JSON>", so a link
// restores exactly what its author saw. Only fields that differ from the defaults are written.
#pragma once
#include <string>

#include "llmc/result.h"
#include "llmc/scenario.h"

namespace llmc {

std::string scenario_to_url_fragment(const Scenario& s);
// Applies the fragment (with or without the leading '#') on top of `s`; an empty fragment is
// a no-op. Malformed percent-escapes, unknown keys or bad values give an error naming them.
Status apply_url_fragment(Scenario& s, const std::string& fragment);

std::string percent_encode(const std::string& text);
Result<std::string> percent_decode(const std::string& text);

}  // namespace llmc
