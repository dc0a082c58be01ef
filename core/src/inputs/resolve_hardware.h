// Internal: the hardware and kernel parts of resolve() (resolve_hardware.cpp): a variant of the
// catalog GPU, and the attention backend a scenario runs.
#pragma once
#include "llmc/result.h"
#include "llmc/scenario.h"

namespace llmc::detail {

Status apply_gpu_variant(HardwareSpec& h, bool profile_loaded);
Status resolve_attention_backend(Resolved& r);

}  // namespace llmc::detail
