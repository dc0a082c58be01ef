// Internal: the hardware and kernel parts of resolve() (resolve_hardware.cpp): a variant of the
// catalog GPU, and the attention backend a scenario runs; and how resolve()'s messages print numbers.
#pragma once
#include <string>

#include "llmc/result.h"
#include "llmc/scenario.h"

namespace llmc::detail {

// A number in an error message: an integer without decimals, anything else as %g.
std::string message_number(double v);

Status apply_gpu_variant(HardwareSpec& h, bool profile_loaded);
Status resolve_attention_backend(Resolved& r);

}  // namespace llmc::detail
