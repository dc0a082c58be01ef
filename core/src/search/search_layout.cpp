// apply_layout(): one layout of the search written into a resolved scenario, with the
// layout-dependent rules of resolve() (core/src/scenario.cpp). Copying and re-resolving the whole
// scenario per candidate costs more than the formulas themselves; this only touches integers.
#include "inputs/pipeline_split.h"
#include "search/search_internal.h"

namespace llmc::detail {

bool apply_layout(Resolved& r, const LayoutBase& base, const Layout& l) {
  const ModelSpec& m = r.m;
  ParallelSpec& p = r.s.parallel;
  TrainingSpec& t = r.s.training;
  p.tp = l.tp;
  p.pp = l.pp;
  p.cp = l.cp;
  p.ep = l.ep;
  p.etp = base.etp;
  p.virtual_stages = l.v;
  p.schedule = l.v > 1 ? Schedule::interleaved : base.schedule_v1;
  t.micro_batch = l.b;
  t.recompute = l.rec;
  r.recompute_modules = l.rec == Recompute::selective ? base.selective_modules : 0;
  t.recompute_layers = l.recompute_layers;
  t.zero_stage = l.zero;
  t.zero_shard_group = base.zero_shard_group;
  r.grad_reduce_per_micro_batch = reduces_every_micro_batch(t.grad_reduce, l.zero);
  t.global_batch_seqs = base.global_batch_seqs;

  // Tensor, pipeline and context parallel rules (resolve(): "Tensor parallel rules").
  if (m.has_shape()) {
    if (m.heads % l.tp != 0 || m.kv_heads % l.tp != 0 || m.ffn_hidden % l.tp != 0) return false;
    if (m.layers < fewest_layers(l.pp, l.v)) return false;
    r.layers_per_stage = full_stage_layers(m.layers, l.pp, l.v);
    if (l.cp > 1 && t.seq_len % (2 * l.cp) != 0) return false;
  } else {
    r.layers_per_stage = 0;
  }
  if (p.schedule == Schedule::interleaved && l.pp < 2) return false;

  // Experts.
  r.etp = base.etp > 0 ? base.etp : l.tp;
  if (l.ep > 1 && !m.is_moe()) return false;
  if (m.is_moe() && (m.experts % l.ep != 0 || m.expert_ffn_hidden % r.etp != 0)) return false;

  // GPU count and data parallelism.
  const int64_t model_parallel = l.tp * l.pp * l.cp;
  if (l.gpus % model_parallel != 0) return false;
  p.dp = l.gpus / model_parallel;
  r.gpu_count = l.gpus;
  r.s.hardware.gpu_count = l.gpus;
  if ((l.tp * l.cp * p.dp) % (r.etp * l.ep) != 0) return false;

  // Global batch G = b · m · dp (sequences), fixed by the user.
  const int64_t per_step = l.b * p.dp;
  if (base.global_batch_seqs % per_step != 0) return false;
  r.micro_batches = base.global_batch_seqs / per_step;
  if (p.schedule == Schedule::interleaved && r.micro_batches % l.pp != 0) return false;

  // ZeRO shard group and partial recompute.
  if (base.zero_shard_group > 0 && (p.dp * l.cp) % base.zero_shard_group != 0) return false;
  if (l.recompute_layers > 0 && l.rec != Recompute::full) return false;
  if (m.has_shape() && l.recompute_layers > r.layers_per_stage) return false;
  return true;
}

}  // namespace llmc::detail
