// libFuzzer target: bytes as lines of key=value → llmc::set_field() on default_scenario() (a line
// it refuses is skipped, as a UI keeps the last valid value), then estimate() and, when that
// succeeds, estimate_to_json() (fuzz_common.h checks: no crash, finite figures). The scenario
// must also survive scenario_to_json() → apply_scenario_json() unchanged.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 4096) return 0;
  const std::string text(reinterpret_cast<const char*>(data), size);
  llmc::Scenario s = llmc::default_scenario();
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(pos, end - pos);
    pos = end + 1;
    const size_t eq = line.find('=');
    if (eq == std::string::npos) continue;
    llmc::Status st = llmc::set_field(s, line.substr(0, eq), line.substr(eq + 1));
    if (!st && st.error().message.empty()) llmc::fuzz::fail("set_field() error without a message");
  }
  llmc::fuzz::check_round_trip(s);
  llmc::fuzz::estimate_and_check(s);
  return 0;
}
