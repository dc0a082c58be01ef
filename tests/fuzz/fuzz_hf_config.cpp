// libFuzzer target: bytes → llmc::model_from_hf_config(); when it accepts the config, the model
// goes into default_scenario() and is estimated (fuzz_common.h checks: no crash, finite figures).
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_common.h"
#include "llmc/catalog.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 16384) return 0;
  const std::string text(reinterpret_cast<const char*>(data), size);
  llmc::Result<llmc::ModelSpec> m = llmc::model_from_hf_config(text);
  if (!m) {
    if (m.error().message.empty()) llmc::fuzz::fail("model_from_hf_config() error without a message");
    return 0;
  }
  llmc::Scenario s = llmc::default_scenario();
  s.model = *m;
  llmc::fuzz::estimate_and_check(s);
  // The same model on a node of 8 with tensor parallelism, as the CLI's --model config.json does
  // with --set parallel.tp=8 (most configs divide by 8; those that do not exercise the errors).
  s.hardware.gpu_count = 8;
  s.parallel.tp = 8;
  llmc::fuzz::estimate_and_check(s);
  return 0;
}
