// libFuzzer target: bytes → apply_url_fragment() on a default scenario (the share-link decoder:
// percent-decoding, then the scenario JSON reader). Must never crash; a refused fragment leaves
// the scenario untouched; an accepted one estimates to finite figures, and its own fragment
// (scenario_to_url_fragment) decodes back to the same scenario, the same pinned one ("&a=") and
// the same profile parts ("&p=", "&r=", "&pl=").
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "fuzz_common.h"
#include "llmc/url_state.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 16384) return 0;
  const std::string fragment(reinterpret_cast<const char*>(data), size);
  llmc::Scenario s = llmc::default_scenario();
  const std::string before = llmc::scenario_to_json(s);
  std::optional<llmc::Scenario> pinned;  // the Compare tab's A ("&a=" part)
  llmc::LinkProfile link;                // the profile parts
  llmc::Status st = llmc::apply_url_fragment(s, fragment, &pinned, &link);
  if (!st) {
    if (st.error().message.empty()) llmc::fuzz::fail("apply_url_fragment() error without a message");
    if (llmc::scenario_to_json(s) != before) llmc::fuzz::fail("a refused fragment changed the scenario");
    if (pinned) llmc::fuzz::fail("a refused fragment pinned a scenario");
    if (!link.empty()) llmc::fuzz::fail("a refused fragment named a profile");
    return 0;
  }
  llmc::Scenario again = llmc::default_scenario();
  std::optional<llmc::Scenario> pinned_again;
  llmc::LinkProfile link_again;
  if (!llmc::apply_url_fragment(again, llmc::scenario_to_url_fragment(s, pinned ? &*pinned : nullptr, &link),
                                &pinned_again, &link_again))
    llmc::fuzz::fail("the scenario's own share link does not decode");
  if (llmc::scenario_to_json(again) != llmc::scenario_to_json(s))
    llmc::fuzz::fail("share link round trip changed the scenario");
  if (pinned.has_value() != pinned_again.has_value() ||
      (pinned && llmc::scenario_to_json(*pinned) != llmc::scenario_to_json(*pinned_again)))
    llmc::fuzz::fail("share link round trip changed the pinned scenario");
  if (link_again.registry_id != link.registry_id || link_again.registry != link.registry ||
      link_again.local_name != link.local_name)
    llmc::fuzz::fail("share link round trip changed the profile parts");
  llmc::fuzz::estimate_and_check(s);
  if (pinned) llmc::fuzz::estimate_and_check(*pinned);
  return 0;
}
