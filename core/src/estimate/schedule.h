// Internal: pipeline schedules (AFAB, 1F1B, interleaved, zero bubble): the micro-batches a stage
// holds at its peak (memory) and the bubble (time).
#pragma once
#include <cstdint>

#include "llmc/scenario.h"

namespace llmc::detail {

// Micro-batches whose activations pipeline stage `stage` holds at its peak, with
// `micro_batches` per step, in micro-batches of the whole stage.
double in_flight(const Resolved& r, int64_t micro_batches, int64_t stage);

// Pipeline bubble ÷ ideal compute time for the scenario's schedule: (p − 1)/m for AFAB and 1F1B,
// ÷ v interleaved, ÷ 3 zero bubble H1 (Narayanan et al. 2021 §2.2; Qi et al. 2023).
double bubble_fraction(const Resolved& r);

}  // namespace llmc::detail
