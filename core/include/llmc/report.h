// The Estimate as JSON: the stable contract of the CLI, the JS module and the docs
// (docs/json-contract.md). Keys carry units; NaN never appears (non-finite values are null).
#pragma once
#include <string>

#include "llmc/estimate.h"

namespace llmc {

constexpr const char* kVersion = "0.1.0";

std::string estimate_to_json(const Estimate& e, bool include_terms, int indent = 2);

}  // namespace llmc
