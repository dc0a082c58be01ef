#include "llmc/report.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "json_util.h"

#include "llmc/fields.h"

namespace llmc {

using ojson = nlohmann::ordered_json;

static ojson num(double v) { return std::isfinite(v) ? ojson(v) : ojson(nullptr); }

std::string estimate_to_json(const Estimate& e, bool include_terms, int indent) {
  ojson j;
  j["llmcalc_version"] = kVersion;
  j["scenario"] = ojson::parse(scenario_to_json(e.r.s));
  const ParamCounts& p = e.params;
  j["params"] = {{"total", num(p.total)},
                 {"active", num(p.active)},
                 {"embedding", num(p.embedding)},
                 {"non_embedding", num(p.non_embedding)},
                 {"trainable", num(p.trainable)},
                 {"per_gpu", num(p.per_gpu)},
                 {"dense_layers", p.dense_layers},
                 {"moe_layers", p.moe_layers},
                 {"from_shape", p.from_shape},
                 {"per_layer",
                  {{"attention", num(p.attention_per_layer)},
                   {"mlp", num(p.mlp_per_dense_layer)},
                   {"moe", num(p.moe_per_layer)},
                   {"router", num(p.router_per_layer)},
                   {"norm", num(p.norm_per_layer)},
                   {"expert", num(p.expert_params)}}}};
  const FlopCounts& f = e.flops;
  j["flops"] = {{"six_nd", num(f.six_nd)},
                {"model_per_token", num(f.model_per_token)},
                {"forward_per_token", num(f.forward_per_token)},
                {"backward_per_token", num(f.backward_per_token)},
                {"attention_per_token", num(f.attention_per_token)},
                {"logits_per_token", num(f.logits_per_token)},
                {"model_total", num(f.model_total)},
                {"hardware_per_token", num(f.hardware_per_token)},
                {"hardware_total", num(f.hardware_total)},
                {"pflop_days", num(f.pflop_days)},
                {"basis", to_string(e.r.s.training.flops_formula)}};
  const MemoryPerGpu& m = e.mem;
  j["memory"] = {{"per_gpu",
                  {{"weights_bytes", num(m.weights_bytes)},
                   {"gradients_bytes", num(m.gradients_bytes)},
                   {"optimizer_bytes", num(m.optimizer_bytes)},
                   {"master_weights_bytes", num(m.master_weights_bytes)},
                   {"reference_model_bytes", num(m.reference_model_bytes)},
                   {"model_states_bytes", num(m.model_states_bytes)},
                   {"activations_bytes", num(m.activations_bytes)},
                   {"activations_per_layer_bytes", num(m.activations_per_layer_bytes)},
                   {"logits_bytes", num(m.logits_bytes)},
                   {"comm_buffers_bytes", num(m.comm_buffers_bytes)},
                   {"cuda_context_bytes", num(m.cuda_context_bytes)},
                   {"fragmentation_bytes", num(m.fragmentation_bytes)},
                   {"total_bytes", num(m.total_bytes)},
                   {"capacity_bytes", num(m.capacity_bytes)},
                   {"headroom_bytes", num(m.headroom_bytes)}}},
                 {"fits", e.fits},
                 {"in_flight_micro_batches", m.in_flight_micro_batches},
                 {"max_micro_batch", e.max_micro_batch},
                 {"min_gpus", e.min_gpus},
                 {"cpu_offload_bytes", num(m.cpu_offload_bytes)}};
  const TimeEstimate& t = e.time;
  j["time"] = {{"basis", t.basis},
               {"step_s", num(t.step_s)},
               {"compute_s", num(t.compute_s)},
               {"bubble_s", num(t.bubble_s)},
               {"comm_exposed_s", num(t.comm_exposed_s)},
               {"bubble_fraction", num(t.bubble_fraction)},
               {"micro_batches", e.r.micro_batches},
               {"tokens_per_s", num(t.tokens_per_s)},
               {"tokens_per_gpu_per_step", num(t.tokens_per_gpu_per_step)},
               {"steps", num(t.steps)},
               {"total_s", num(t.total_s)},
               {"total_days", num(t.total_days)},
               {"gpu_hours", num(t.gpu_hours)},
               {"cost_usd", num(t.cost_usd)},
               {"energy_kwh", num(t.energy_kwh)},
               {"mfu", num(t.mfu)},
               {"hfu", num(t.hfu)},
               {"peak_tflops", num(t.peak_tflops)},
               {"achieved_model_tflops_per_gpu", num(t.achieved_model_tflops_per_gpu)}};
  ojson comm = ojson::array();
  for (const CommItem& c : e.comm)
    comm.push_back({{"name", c.name},
                    {"collective", c.collective},
                    {"group", c.group},
                    {"tier", c.tier},
                    {"bytes_per_step", num(c.bytes_per_step)},
                    {"time_s", num(c.time_s)},
                    {"overlapped", c.overlapped},
                    {"exposed_s", num(c.exposed_s)}});
  j["comm"] = comm;
  j["data"] = {{"dataset_bytes", num(e.dataset_bytes)}};
  j["hardware"] = {{"gpu", e.r.s.hardware.gpu.id},
                   {"gpu_name", e.r.s.hardware.gpu.name},
                   {"gpu_count", e.r.gpu_count},
                   {"compute_dtype", to_string(e.r.compute_dtype)},
                   {"profile_source", e.r.s.hardware.profile.source},
                   {"profile_description", e.r.s.hardware.profile.description}};
  j["warnings"] = e.warnings;
  if (include_terms) {
    ojson terms = ojson::array();
    for (const Term& term : e.trace.terms()) {
      ojson inputs = ojson::object();
      for (int i = 0; i < term.n_inputs; ++i) inputs[term.inputs[i].name] = num(term.inputs[i].value);
      terms.push_back({{"key", term.key}, {"formula", term.formula}, {"unit", term.unit}, {"value", num(term.value)}, {"inputs", inputs}, {"source", term.source}});
    }
    j["terms"] = terms;
  }
  return detail::safe_dump(j, indent);
}

}  // namespace llmc
