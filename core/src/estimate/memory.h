// Internal: memory per GPU at the peak of a step, and the searches over it (memory_fit.cpp).
#pragma once
#include <array>
#include <cstdint>

#include "estimate/estimate_parts.h"
#include "estimate/placement.h"

namespace llmc::detail {

// What memory searches vary without copying the scenario: micro-batch, micro-batches per step, dp.
struct MemoryKnobs {
  int64_t b = 1, m = 1, dp = 1;
  // What a stage holds that depends on neither b nor dp (its parameters, its in-flight
  // micro-batches), kept while a search over dp reuses these knobs (min_gpus_that_fit). Slots:
  // stages 0 and 1 and the last stage, the three peak_memory weighs; m = 0 marks an empty slot.
  struct StageFacts {
    int64_t m = 0;
    double in_flight = 0;
    StageParams params;
  };
  mutable std::array<StageFacts, 3> stages{};
};

// The most loaded pipeline stage's memory (its index in *peak_stage when asked), with `act` the
// activations of micro-batches of k.b sequences.
MemoryPerGpu peak_memory(const Resolved& r, const ParamCounts& p, const MemoryKnobs& k, const LayerActivations& act,
                         Trace* t, int64_t* peak_stage);
// What a stage of L layers stores per micro-batch from a layer's forward to its backward, under the
// recompute policy, and the working layer a recomputing backward re-materialises.
struct StoredActivations {
  double per_micro = 0, working = 0;
};
StoredActivations stored_activations(const Resolved& r, const LayerActivations& act, double L);
// Activation offloading (torchtune's OffloadActivations on a side stream) keeps on the GPU the
// stored tensors of the layer being copied out or back and of the one in use: two layers' worth.
inline double offload_kept_bytes(double per_micro, double L) { return L > 2 ? per_micro * 2.0 / L : per_micro; }
// The activations of micro-batches of b sequences, from a plan of the layers' ops only.
LayerActivations layer_activations(const Resolved& r, const ParamCounts& p, int64_t b);
// The same at micro-batches of `to` sequences from `a`, those of `from`: every tensor the plan keeps
// is proportional to the micro-batch's tokens (tests/test_layer_plan.cpp holds it to rebuilt
// plans), so the micro-batch search scales instead of building a plan per candidate.
LayerActivations at_micro_batch(const LayerActivations& a, int64_t from, int64_t to);

}  // namespace llmc::detail
