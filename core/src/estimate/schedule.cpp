// Pipeline schedules: what a stage holds and how long the pipeline idles (schedule.h).
#include "estimate/schedule.h"

#include <algorithm>

#include "inputs/pipeline_split.h"

namespace llmc::detail {

// Micro-batches whose activations pipeline stage i holds at its peak. AFAB, 1F1B: the warm-up
// forwards before the stage's first backward, plus the one in flight. Interleaved (Megatron-LM):
// stage i runs W = 2(p − i − 1) + (v − 1)·p chunk forwards first, then alternates one forward
// and one backward; forwards go p micro-batches through chunk 0, the same p through chunk 1, …,
// then the next p; backwards take the chunks in reverse. With even chunks (L/v layers each) the
// stage holds W + 1 chunks from the first backward on: p + (p − 1 − 2i)/v micro-batches. When an
// end stage gave up layers (stage_layers), the first stage's come out of its first chunks and the
// last stage's out of its last ones, so with pp·v − 2 layers the first chunk holds only the
// embedding and the last only the output layer and loss (Llama 3 §3.3.2); what such a stage
// holds then varies as it alternates, and its peak is taken over the steady state. Returned in
// micro-batches of the whole stage: layer-micro-batches ÷ L.
double in_flight(const Resolved& r, int64_t micro_batches, int64_t stage) {
  const ParallelSpec& par = r.s.parallel;
  const double p = double(par.pp), m = double(micro_batches), i = double(stage), v = double(par.virtual_stages);
  if (par.pp == 1) return 1;
  switch (par.schedule) {
    case Schedule::afab:
      return m;  // GPipe: every forward before any backward
    case Schedule::one_f_one_b:
    case Schedule::zero_bubble:
      return std::min(p - i, m);  // ZB-H1 keeps 1F1B's peak (Qi et al. 2023)
    case Schedule::interleaved:
      break;
  }
  const int64_t chunks = par.virtual_stages, group = std::min(par.pp, micro_batches), period = group * chunks;
  const int64_t passes = micro_batches * chunks, warm = chunks * par.pp - par.pp + 2 * (par.pp - 1 - stage);
  if (warm + 1 >= passes) return m;  // every forward before the first backward
  const double L = stage_layers(r, stage), given_up = double(r.layers_per_stage) - L;
  if (L <= 0 || given_up <= 0) return double(warm + 1) / v;
  // Counted in 1/v-layer units, so that sums of chunks stay exact integers: units in chunks
  // 0 … j − 1 (forward order) and in the last j chunks (backward order).
  const int64_t stage_units = int64_t(L) * chunks;
  auto first_chunks = [&](int64_t j) {
    return first_chunks_units(r.layers_per_stage, chunks, int64_t(given_up), stage == 0, j);
  };
  auto last_chunks = [&](int64_t j) { return stage_units - first_chunks(chunks - j); };
  // Units of the first n forwards (fwd) or backwards: whole periods, whole groups, one partial.
  auto units_of = [&](bool fwd, int64_t n) {
    const int64_t rest = n % period, j = rest / group;
    const int64_t before = fwd ? first_chunks(j) : last_chunks(j);
    const int64_t next = (fwd ? first_chunks(j + 1) : last_chunks(j + 1)) - before;
    return n / period * group * stage_units + group * before + rest % group * next;
  };
  // The first stage's smaller chunks are its first: over any stretch of one period its backwards
  // (largest chunks first) free at least what its forwards add, so its peak is at its first
  // backward.
  if (stage == 0) return double(units_of(true, warm + 1)) / double(stage_units);
  // The last stage: after forward warm + t and backward t − 1 it holds an amount linear in t
  // between the group boundaries of either order, and periodic, so its largest value is at a
  // boundary within one period.
  const int64_t steps = std::min(passes - warm, period);
  int64_t peak = 0;
  auto at = [&](int64_t t) {
    if (t >= 0 && t < steps) peak = std::max(peak, units_of(true, warm + t + 1) - units_of(false, t));
  };
  for (int64_t b = 0; b <= chunks; ++b)
    for (int64_t d = -1; d <= 1; ++d) {
      at(b * group + d);
      if (warm % group) at(b * group - warm % group + d);
    }
  at(steps - 1);
  return double(peak) / double(stage_units);
}

double bubble_fraction(const Resolved& r) {
  const ParallelSpec& par = r.s.parallel;
  const double p = double(par.pp), m = double(r.micro_batches);
  switch (par.schedule) {
    case Schedule::afab:
    case Schedule::one_f_one_b:
      return (p - 1) / m;
    case Schedule::interleaved:
      return (p - 1) / (m * double(par.virtual_stages));
    case Schedule::zero_bubble:
      return (p - 1) / (3 * m);  // ZB-H1 with T_F = T_B = T_W (Qi et al. 2023)
  }
  return 0;
}

}  // namespace llmc::detail
