// Internal: the precision part of resolve() (resolve_precision.cpp): the recipe's dtypes and the
// rules on FP8 options, LoRA's base weights and 8-bit optimizer states.
#pragma once
#include "llmc/result.h"
#include "llmc/scenario.h"

namespace llmc::detail {

Status resolve_precision(Resolved& r);

}  // namespace llmc::detail
