// Internal: resolve() into a Resolved the caller owns, so estimate() resolves straight into its
// result instead of moving a Resolved there (docs/benchmarks.md).
#pragma once
#include "llmc/result.h"
#include "llmc/scenario.h"

namespace llmc::detail {

// `r` must be default-constructed; on an error it is left partly filled.
Status resolve_into(const Scenario& in, Resolved& r);

}  // namespace llmc::detail
