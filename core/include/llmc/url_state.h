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

// The hardware profile a link's author had in use, when it was not the datasheet profile: a
// profile's numbers are not in the scenario, so the link names where to get them.
//   "&p=<id>"    a registry profile (64 hex digits), loaded from the page's registry, or from
//   "&r=<base>"  this registry base URL (written only when the author used a non-default registry)
//   "&pl=<name>" a profile file the author loaded locally: the recipient is told it is missing
struct LinkProfile {
  std::string registry_id;  // "&p="
  std::string registry;     // "&r=" (only with registry_id)
  std::string local_name;   // "&pl="
  bool empty() const { return registry_id.empty() && registry.empty() && local_name.empty(); }
};
// As above, then the profile parts (in the order p, r, pl; none when `profile` is null or empty).
std::string scenario_to_url_fragment(const Scenario& s, const Scenario* pinned, const LinkProfile* profile);
// Applies the fragment (with or without the leading '#') on top of `s`; an empty fragment is
// a no-op. Malformed percent-escapes, unknown keys or bad values give an error naming them.
// An "a=" part is applied on top of a default scenario into `*pinned` (when given; without
// one, or without such a part, *pinned is reset). Links without "a=" read as they always did.
// On error neither `s` nor `*pinned` changes.
// Parts after "s=" come in any order, each at most once: "a=", "p=", "r=", "pl=". "p=" must be a
// registry id, "r=" an http(s) URL or path (check_registry_base) and comes only with "p=", "pl="
// a file name (at most 255 bytes, no control characters, no '/'). Unknown parts are refused.
// `*profile` (when given) receives the profile parts, or is cleared; links without them read as
// they always did.
Status apply_url_fragment(Scenario& s, const std::string& fragment, std::optional<Scenario>* pinned = nullptr,
                          LinkProfile* profile = nullptr);

std::string percent_encode(const std::string& text);
Result<std::string> percent_decode(const std::string& text);

}  // namespace llmc
