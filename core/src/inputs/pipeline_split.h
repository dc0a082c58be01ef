// Internal: how a pipeline splits the layers (resolve() checks the split; placement, memory and
// time use it). Inline: memory searches call these in their loops.
#pragma once
#include <algorithm>
#include <cstdint>

#include "llmc/scenario.h"

namespace llmc::detail {

// Transformer layers on pipeline stage `stage` (0 … pp − 1): as even as they go; when pp does not
// divide them, the first and last stages give up the shortfall (Llama 3 §3.3.2), the first the
// larger half. Time and memory both use it (inline: memory searches call it in their loops).
inline double stage_layers(const Resolved& r, int64_t stage) {
  const int64_t pp = r.s.parallel.pp, L = r.layers_per_stage;
  if (pp == 1 || (stage > 0 && stage < pp - 1)) return double(L);
  const int64_t short_by = L * pp - r.m.layers;  // layers the end stages give up
  const int64_t given_up = stage == 0 ? (short_by + 1) / 2 : short_by / 2;
  return double(L > given_up ? L - given_up : 0);
}

// Layers in the first j of a stage's v chunks, in 1/v-layer units (exact integers): each chunk
// holds per_stage/v layers, except that the layers an end stage gave up (stage_layers) come out
// of its first chunks (the first stage) or its last ones (the last stage).
inline int64_t first_chunks_units(int64_t per_stage, int64_t v, int64_t given_up, bool first_stage, int64_t j) {
  const int64_t all = j * per_stage, removed = given_up * v;
  return all - (first_stage ? std::min(removed, all) : std::clamp(removed - (v - j) * per_stage, int64_t(0), all));
}

// Fewest transformer layers pp stages of v chunks take: every chunk holds a layer, except that
// the first may hold only the embedding and the last only the output layer and loss (Llama 3
// §3.3.2; Megatron-LM's --account-for-embedding/loss-in-pipeline-split), which stage_layers
// models as the end stages giving up layers (at least one layer in all).
inline int64_t fewest_layers(int64_t pp, int64_t v) { return pp >= 2 ? std::max<int64_t>(pp * v - 2, 1) : v; }

// Layers on a full pipeline stage (Resolved::layers_per_stage): ⌈layers/pp⌉, the end stages giving
// up the shortfall (stage_layers). With pp = 2 that split is even whenever the layers are, so
// where layers + 2 is a multiple of 2v (Megatron-LM accepts such a split only with the
// embedding and the loss accounted as layers, Llama 3 §3.3.2) a full stage is (layers + 2)/2 and
// each stage gives up one layer, from its first chunk (the first stage) or its last (the last).
inline int64_t full_stage_layers(int64_t layers, int64_t pp, int64_t v) {
  if (pp == 2 && v > 1 && (layers + 2) % (2 * v) == 0) return (layers + 2) / 2;
  return (layers + pp - 1) / pp;
}

}  // namespace llmc::detail
