// Shared checks of the libFuzzer targets (tests/fuzz/fuzz_*.cpp, docs/fuzzing.md).
// A check that fails prints what failed and abort()s, which libFuzzer records as a crash.
#pragma once
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>

#include "llmc/estimate.h"
#include "llmc/fields.h"
#include "llmc/report.h"

namespace llmc::fuzz {

[[noreturn]] inline void fail(const std::string& what) {
  std::fprintf(stderr, "llmc fuzz check failed: %s\n", what.c_str());
  std::fflush(stderr);
  std::abort();
}

inline void finite(const char* name, double v) {
  if (!std::isfinite(v)) fail(std::string("non-finite ") + name + " = " + std::to_string(v));
}

// The documented contract of scenario_to_json() (fields.h): its output reads back with
// apply_scenario_json() to the same scenario, field by field (the text of every registry field,
// and the GPU).
inline void check_round_trip(const Scenario& s) {
  const std::string written = scenario_to_json(s);
  Scenario back = default_scenario();
  Status st = apply_scenario_json(back, written);
  if (!st) fail("scenario_to_json() output does not read back: " + st.error().text() + "\n" + written);
  if (back.hardware.gpu.id != s.hardware.gpu.id) fail("round trip changed hardware.gpu:\n" + written);
  for (const FieldInfo& f : scenario_fields()) {
    const std::string a = f.get(s), b = f.get(back);
    if (a != b) fail(std::string("round trip changed ") + f.key + ": '" + a + "' became '" + b + "'\n" + written);
  }
}

// Every double of the Estimate (report.cpp writes non-finite values as null, so the JSON check
// below would only say "null"; this names the field).
inline void check_estimate_finite(const Estimate& e) {
#define F(x) finite(#x, e.x)
  F(params.total);
  F(params.active);
  F(params.embedding);
  F(params.non_embedding);
  F(params.trainable);
  F(params.attention_per_layer);
  F(params.mlp_per_dense_layer);
  F(params.moe_per_layer);
  F(params.router_per_layer);
  F(params.norm_per_layer);
  F(params.expert_params);
  F(params.per_gpu);
  F(flops.six_nd);
  F(flops.model_per_token);
  F(flops.forward_per_token);
  F(flops.backward_per_token);
  F(flops.attention_per_token);
  F(flops.logits_per_token);
  F(flops.model_total);
  F(flops.hardware_per_token);
  F(flops.hardware_total);
  F(flops.pflop_days);
  F(mem.weights_bytes);
  F(mem.gradients_bytes);
  F(mem.optimizer_bytes);
  F(mem.master_weights_bytes);
  F(mem.reference_model_bytes);
  F(mem.model_states_bytes);
  F(mem.activations_bytes);
  F(mem.activations_per_layer_bytes);
  F(mem.logits_bytes);
  F(mem.comm_buffers_bytes);
  F(mem.cuda_context_bytes);
  F(mem.fragmentation_bytes);
  F(mem.total_bytes);
  F(mem.capacity_bytes);
  F(mem.headroom_bytes);
  F(mem.cpu_offload_bytes);
  F(time.step_s);
  F(time.compute_s);
  F(time.bubble_s);
  F(time.comm_exposed_s);
  F(time.bubble_fraction);
  F(time.tokens_per_s);
  F(time.tokens_per_gpu_per_step);
  F(time.steps);
  F(time.total_s);
  F(time.total_days);
  F(time.gpu_hours);
  F(time.cost_usd);
  F(time.energy_kwh);
  F(time.mfu);
  F(time.hfu);
  F(time.peak_tflops);
  F(time.achieved_model_tflops_per_gpu);
  F(dataset_bytes);
#undef F
  for (const CommItem& c : e.comm) {
    finite(("comm." + c.name + ".bytes_per_step").c_str(), c.bytes_per_step);
    finite(("comm." + c.name + ".time_s").c_str(), c.time_s);
    finite(("comm." + c.name + ".exposed_s").c_str(), c.exposed_s);
  }
  for (const Term& t : e.trace.terms()) {
    finite((std::string("term ") + t.key).c_str(), t.value);
    for (int i = 0; i < t.n_inputs; ++i)
      finite((std::string("term ") + t.key + " input " + t.inputs[i].name).c_str(), t.inputs[i].value);
  }
}

// Every number in the JSON is finite and nothing is null (null is how report.cpp writes a
// non-finite number; the contract has no other nulls).
inline void check_json_finite(const nlohmann::json& j, const std::string& path) {
  if (j.is_null()) fail("null (a non-finite number) at " + path);
  if (j.is_number_float() && !std::isfinite(j.get<double>())) fail("non-finite number at " + path);
  if (j.is_object())
    for (auto it = j.begin(); it != j.end(); ++it) check_json_finite(it.value(), path + "." + it.key());
  if (j.is_array())
    for (size_t i = 0; i < j.size(); ++i) check_json_finite(j[i], path + "[" + std::to_string(i) + "]");
}

// estimate(); when it succeeds: every figure finite, the JSON contract (with terms) parses
// back and holds only finite numbers. Errors must carry a message.
inline void estimate_and_check(const Scenario& s) {
  Result<Estimate> e = estimate(s);
  if (!e) {
    if (e.error().message.empty()) fail("estimate() error without a message (field '" + e.error().field + "')");
    return;
  }
  check_estimate_finite(*e);
  const std::string text = estimate_to_json(*e, true);
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded()) fail("estimate_to_json() wrote invalid JSON");
  check_json_finite(j, "$");
}

}  // namespace llmc::fuzz
