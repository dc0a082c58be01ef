// Human-readable tables for the CLI (the JSON contract is in core/report.cpp).
#pragma once
#include <ostream>

#include "llmc/estimate.h"

namespace llmc::cli {

void print_estimate_table(const Estimate& e, std::ostream& out);

}  // namespace llmc::cli
