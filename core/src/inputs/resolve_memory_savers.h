// Internal: the rules on the memory savers of resolve() (resolve_memory_savers.cpp): a chunked
// loss, activation offloading and the optimizer step in backward.
#pragma once
#include "llmc/result.h"
#include "llmc/scenario.h"

namespace llmc::detail {

// After the hardware profile is in place (offloading needs its host link).
Status resolve_memory_savers(const Resolved& r);

}  // namespace llmc::detail
