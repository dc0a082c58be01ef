// Internal: memory per GPU at the peak of a step, and the searches over it (memory_fit.cpp).
#pragma once
#include <cstdint>

#include "estimate/estimate_parts.h"

namespace llmc::detail {

// What memory searches vary without copying the scenario: micro-batch, micro-batches per step, dp.
struct MemoryKnobs {
  int64_t b = 1, m = 1, dp = 1;
  // The last stage's in-flight count, which depends on neither b nor dp: kept while a search
  // over dp reuses these knobs (min_gpus_that_fit), valid for the m it was computed for.
  mutable double last_stage_in_flight = 0;
  mutable int64_t last_stage_in_flight_m = 0;
};

// The most loaded pipeline stage's memory (its index in *peak_stage when asked), with `act` the
// activations of micro-batches of k.b sequences.
MemoryPerGpu peak_memory(const Resolved& r, const ParamCounts& p, const MemoryKnobs& k, const LayerActivations& act,
                         Trace* t, int64_t* peak_stage);
// The activations of micro-batches of b sequences, from a plan of the layers' ops only.
LayerActivations layer_activations(const Resolved& r, const ParamCounts& p, int64_t b);

}  // namespace llmc::detail
