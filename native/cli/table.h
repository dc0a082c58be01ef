// Human-readable tables for the CLI (the JSON contract is in core/report.cpp).
#pragma once
#include <ostream>

#include "llmc/estimate.h"
#include "llmc/format.h"

namespace llmc::cli {

// Numbers in format.h's style; memory in GiB unless `units` says GB.
void print_estimate_table(const Estimate& e, std::ostream& out, MemoryUnits units = MemoryUnits::gib);

}  // namespace llmc::cli
