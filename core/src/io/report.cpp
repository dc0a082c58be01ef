#include "llmc/report.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "common/json_util.h"
#include "io/scenario_json.h"

#include "llmc/fields.h"

namespace llmc {

using ojson = detail::json;

namespace {

ojson num(double v) { return std::isfinite(v) ? ojson(v) : ojson(nullptr); }

// Fills one JSON object key by key. Chained calls instead of nested initializer lists keep the
// code small (the embed module's size budget is 100 KB gzipped).
struct Obj {
  ojson& j;
  Obj& n(const char* k, double v) {
    j[k] = num(v);
    return *this;
  }
  Obj& i(const char* k, int64_t v) {
    j[k] = v;
    return *this;
  }
  Obj& b(const char* k, bool v) {
    j[k] = v;
    return *this;
  }
  Obj& s(const char* k, const std::string& v) {
    j[k] = v;
    return *this;
  }
};

}  // namespace

std::string estimate_to_json(const Estimate& e, bool include_terms, int indent) {
  ojson j = ojson::object();
  j["llmcalc_version"] = kVersion;
  j["scenario"] = detail::scenario_json_value(e.r.s);
  const ParamCounts& p = e.params;
  Obj{j["params"]}
      .n("total", p.total)
      .n("active", p.active)
      .n("embedding", p.embedding)
      .n("non_embedding", p.non_embedding)
      .n("trainable", p.trainable)
      .n("per_gpu", p.per_gpu)
      .n("per_gpu_linear", p.per_gpu_linear)
      .i("dense_layers", p.dense_layers)
      .i("moe_layers", p.moe_layers)
      .b("from_shape", p.from_shape);
  Obj{j["params"]["per_layer"]}
      .n("attention", p.attention_per_layer)
      .n("mlp", p.mlp_per_dense_layer)
      .n("moe", p.moe_per_layer)
      .n("router", p.router_per_layer)
      .n("norm", p.norm_per_layer)
      .n("expert", p.expert_params);
  const FlopCounts& f = e.flops;
  Obj{j["flops"]}
      .n("six_nd", f.six_nd)
      .n("model_per_token", f.model_per_token)
      .n("forward_per_token", f.forward_per_token)
      .n("backward_per_token", f.backward_per_token)
      .n("attention_per_token", f.attention_per_token)
      .n("logits_per_token", f.logits_per_token)
      .n("model_total", f.model_total)
      .n("hardware_per_token", f.hardware_per_token)
      .n("hardware_total", f.hardware_total)
      .n("pflop_days", f.pflop_days)
      .s("basis", to_string(e.r.s.training.flops_formula));
  const MemoryPerGpu& m = e.mem;
  Obj{j["memory"]["per_gpu"]}
      .n("weights_bytes", m.weights_bytes)
      .n("gradients_bytes", m.gradients_bytes)
      .n("optimizer_bytes", m.optimizer_bytes)
      .n("master_weights_bytes", m.master_weights_bytes)
      .n("reference_model_bytes", m.reference_model_bytes)
      .n("model_states_bytes", m.model_states_bytes)
      .n("activations_bytes", m.activations_bytes)
      .n("activations_per_layer_bytes", m.activations_per_layer_bytes)
      .n("logits_bytes", m.logits_bytes)
      .n("comm_buffers_bytes", m.comm_buffers_bytes)
      .n("cuda_context_bytes", m.cuda_context_bytes)
      .n("fragmentation_bytes", m.fragmentation_bytes)
      .n("total_bytes", m.total_bytes)
      .n("capacity_bytes", m.capacity_bytes)
      .n("headroom_bytes", m.headroom_bytes);
  Obj{j["memory"]}
      .b("fits", e.fits)
      .i("in_flight_micro_batches", m.in_flight_micro_batches)
      .i("max_micro_batch", e.max_micro_batch)
      .i("min_gpus", e.min_gpus)
      .n("cpu_offload_bytes", m.cpu_offload_bytes)
      .n("activations_offloaded_bytes", m.activations_offloaded_bytes);
  const TimeEstimate& t = e.time;
  Obj{j["time"]}
      .s("basis", t.basis)
      .n("step_s", t.step_s)
      .n("step_low_s", t.step_low_s)
      .n("step_high_s", t.step_high_s)
      .n("compute_s", t.compute_s)
      .n("gemm_s", t.gemm_s)
      .n("attention_s", t.attention_s)
      .n("memory_bound_s", t.memory_bound_s)
      .n("optimizer_s", t.optimizer_s)
      .i("kernels_from_table", t.kernels_from_table)
      .i("kernels_from_fit", t.kernels_from_fit)
      .i("kernels_from_spec", t.kernels_from_spec)
      .n("bubble_s", t.bubble_s)
      .n("comm_exposed_s", t.comm_exposed_s)
      .n("comm_contention_s", t.comm_contention_s)
      .n("host_issue_s", t.host_issue_s)
      .n("host_wait_s", t.host_wait_s)
      .n("bubble_fraction", t.bubble_fraction)
      .i("micro_batches", e.r.micro_batches)
      .n("tokens_per_s", t.tokens_per_s)
      .n("tokens_per_gpu_per_step", t.tokens_per_gpu_per_step)
      .n("steps", t.steps)
      .n("total_s", t.total_s)
      .n("total_days", t.total_days)
      .n("total_days_low", t.total_days_low)
      .n("total_days_high", t.total_days_high)
      .n("gpu_hours", t.gpu_hours)
      .n("cost_usd", t.cost_usd)
      .n("cost_usd_low", t.cost_usd_low)
      .n("cost_usd_high", t.cost_usd_high)
      .n("energy_kwh", t.energy_kwh)
      .n("mfu", t.mfu)
      .n("hfu", t.hfu)
      .n("peak_tflops", t.peak_tflops)
      .n("achieved_model_tflops_per_gpu", t.achieved_model_tflops_per_gpu);
  ojson& comm = j["comm"] = ojson::array();
  for (const CommItem& c : e.comm) {
    ojson item = ojson::object();
    Obj{item}
        .s("name", c.name)
        .s("collective", c.collective)
        .i("group", c.group)
        .s("tier", c.tier)
        .n("bytes_per_step", c.bytes_per_step)
        .n("calls", c.calls)
        .n("latency_s", c.latency_s)
        .n("time_s", c.time_s)
        .b("overlapped", c.overlapped)
        .n("exposed_s", c.exposed_s);
    comm.push_back(std::move(item));
  }
  Obj{j["data"]}.n("dataset_bytes", e.dataset_bytes);
  Obj{j["hardware"]}
      .s("gpu", e.r.s.hardware.gpu.id)
      .s("gpu_name", e.r.s.hardware.gpu.name)
      .i("gpu_count", e.r.gpu_count)
      .s("compute_dtype", to_string(e.r.compute_dtype))
      .s("profile_source", e.r.s.hardware.profile->source)
      .s("profile_description", e.r.s.hardware.profile->description);
  ojson& warnings = j["warnings"] = ojson::array();
  for (const std::string& w : e.warnings) warnings.push_back(w);
  if (include_terms) {
    ojson& terms = j["terms"] = ojson::array();
    for (const Term& term : e.trace.terms()) {
      ojson item = ojson::object();
      Obj{item}.s("key", term.key).s("formula", term.formula).s("unit", term.unit).n("value", term.value);
      ojson& inputs = item["inputs"] = ojson::object();
      for (int i = 0; i < term.n_inputs; ++i) inputs[term.inputs[i].name] = num(term.inputs[i].value);
      item["source"] = term.source;
      terms.push_back(std::move(item));
    }
  }
  return detail::safe_dump(j, indent);
}

}  // namespace llmc
