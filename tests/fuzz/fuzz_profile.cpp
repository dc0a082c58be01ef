// libFuzzer target: bytes → profile_from_json() (hardware profile files users load in the web page,
// the desktop app and the CLI). Must never crash; a refusal names a field and says why; an
// accepted profile writes out and reads back to the same text, and drives an estimate to finite
// figures (its kernel tables feed the time model).
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_common.h"
#include "llmc/fields.h"
#include "llmc/profile.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 65536) return 0;
  const std::string text(reinterpret_cast<const char*>(data), size);
  llmc::Result<llmc::HardwareProfile> p = llmc::profile_from_json(text);
  if (!p) {
    if (p.error().message.empty() || p.error().field.empty())
      llmc::fuzz::fail("profile refused without a field or message");
    return 0;
  }
  const std::string out = llmc::profile_to_json(*p);
  llmc::Result<llmc::HardwareProfile> back = llmc::profile_from_json(out);
  if (!back) llmc::fuzz::fail("a written profile does not read back");
  if (llmc::profile_to_json(*back) != out) llmc::fuzz::fail("profile round trip changed the text");
  llmc::Scenario s = llmc::default_scenario();
  if (!llmc::set_field(s, "hardware.gpu", p->gpu_id)) return 0;
  llmc::attach_profile(s, *p);
  llmc::fuzz::estimate_and_check(s);
  return 0;
}
