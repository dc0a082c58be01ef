// libFuzzer target: bytes → default_scenario() + apply_scenario_json() → estimate() →
// estimate_to_json() when it succeeds. Must never crash; every figure of a successful estimate
// must be finite (fuzz_common.h). Also checks the documented round trip: scenario_to_json() of
// the applied scenario reads back with apply_scenario_json() to the same scenario, field by field.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 16384) return 0;  // scenario files are small; longer inputs only slow the search
  const std::string text(reinterpret_cast<const char*>(data), size);
  llmc::Scenario s = llmc::default_scenario();
  llmc::Status st = llmc::apply_scenario_json(s, text);
  if (!st) {
    if (st.error().message.empty()) llmc::fuzz::fail("apply_scenario_json() error without a message");
    return 0;
  }
  llmc::fuzz::check_round_trip(s);
  llmc::fuzz::estimate_and_check(s);
  return 0;
}
