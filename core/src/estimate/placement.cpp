// What each GPU holds (placement.h).
#include "estimate/placement.h"

#include <algorithm>

#include "inputs/pipeline_split.h"

namespace llmc::detail {

StageParams stage_params(const Resolved& r, const ParamCounts& p, int64_t stage) {
  const ParallelSpec& par = r.s.parallel;
  StageParams s;
  if (!p.from_shape) {
    s.dense = p.total / double(par.tp * par.pp);
    s.max_layer = 0;     // size-only: layer sizes unknown, so no ZeRO-3 gather buffer is counted
    s.linear = s.dense;  // and every parameter counts as a linear weight
    return s;
  }
  const ModelSpec& m = r.m;
  const double tp = double(par.tp);
  const double layers = stage_layers(r, stage);
  const double moe_share = m.layers > 0 ? double(p.moe_layers) / double(m.layers) : 0;
  const double attn = p.attention_per_layer / tp + p.norm_per_layer;
  double dense_layer = attn + p.mlp_per_dense_layer / tp;
  double moe_dense_part = attn, moe_expert_part = 0;
  if (m.is_moe()) {
    const double shared = p.moe_per_layer - m.experts * p.expert_params - p.router_per_layer;
    moe_dense_part += shared / tp + p.router_per_layer;
    moe_expert_part = double(m.experts) / double(par.ep) * p.expert_params / double(r.etp);
  }
  s.dense = layers * ((1 - moe_share) * dense_layer + moe_share * moe_dense_part);
  s.expert = layers * moe_share * moe_expert_part;
  // The norms and the router stay out of the linear weights; the output layer too (Megatron's
  // is a plain ColumnParallelLinear, run in 16 bits).
  const double norms_router = m.is_moe() ? moe_share * p.router_per_layer : 0;
  s.linear = s.dense - layers * (p.norm_per_layer + norms_router) + s.expert;
  const double moe_layer = m.is_moe() ? moe_dense_part + moe_expert_part : 0.0;
  if (moe_layer > dense_layer)
    s.max_layer = moe_layer, s.max_layer_linear = moe_layer - p.norm_per_layer - p.router_per_layer;
  else
    s.max_layer = dense_layer, s.max_layer_linear = dense_layer - p.norm_per_layer;
  // model.params overrides the shape's count: scale the shards so N is the same everywhere.
  const double scale = m.params_override > 0 ? p.total / (p.non_embedding + p.embedding) : 1.0;
  const double V = double(m.vocab), h = double(m.hidden);
  const double pos = m.position == PositionKind::learned ? double(m.max_positions) * h : 0;
  const bool first_stage = stage == 0, last_stage = stage == par.pp - 1;
  if (first_stage) s.dense += (V * h + pos) / tp;
  // The output layer lives on the last stage; tied embeddings need a copy there when pp > 1.
  if (last_stage && (!m.tied_embeddings || par.pp > 1)) s.dense += V * h / tp;
  if (last_stage) s.dense += m.norm == NormKind::layernorm ? 2 * h : h;
  s.dense *= scale;
  s.expert *= scale;
  s.max_layer *= scale;
  s.max_layer_linear *= scale;
  s.linear *= scale;
  return s;
}

}  // namespace llmc::detail
