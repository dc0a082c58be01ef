// Internal: the hardware and kernel parts of resolve() (resolve_hardware.cpp): a variant of the
// catalog GPU, the attention backend a scenario runs and the documents it attends within; and how resolve()'s messages
// print numbers.
#pragma once
#include <string>

#include "llmc/result.h"
#include "llmc/scenario.h"

namespace llmc::detail {

// A number in an error message: an integer without decimals, anything else as %g.
std::string message_number(double v);

Status apply_gpu_variant(HardwareSpec& h, bool profile_loaded);
Status resolve_attention_backend(Resolved& r);
// training.document_tokens, once the attention backend is known.
Status resolve_documents(const Resolved& r);

}  // namespace llmc::detail
