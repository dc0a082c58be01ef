// Internal: the generated error-bar table (error_bars_data.cpp) behind llmc/error_bars.h.
#pragma once
#include <vector>

#include "llmc/error_bars.h"

namespace llmc::detail {

extern const std::vector<ErrorBar> kErrorBars;
extern const char* const kErrorBarsProvenance;

}  // namespace llmc::detail
