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

// Known core bugs that a long run can step over (LLMC_FUZZ_SKIP_KNOWN=1; docs/fuzzing.md), so
// that it looks for new ones. Without the variable the fuzzers stop on them, as they should.
inline bool skip_known() {
  static const bool skip = [] {
    const char* v = std::getenv("LLMC_FUZZ_SKIP_KNOWN");
    return v && *v && std::string(v) != "0";
  }();
  return skip;
}

// Known bug 1 (docs/fuzzing.md): detail::parse_json() (core/src/json_util.h) catches only
// json::parse_error, but a number beyond the double range ("1e400") makes nlohmann throw
// json::out_of_range (406), which escapes apply_scenario_json() / model_from_hf_config() and
// terminates the program. True when `text` is such an input.
inline bool known_json_number_overflow(const std::string& text) {
  try {
    (void)nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error&) {
    return false;
  } catch (const nlohmann::json::exception&) {
    return true;
  }
  return false;
}

// Known bug 2: a text field (model.name) holding bytes that are not UTF-8 (set_field() accepts
// any bytes) makes nlohmann's dump() throw json::type_error (316) inside scenario_to_json() /
// estimate_to_json(), which terminates the program. Strict UTF-8 as nlohmann checks it.
inline bool valid_utf8(const std::string& s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const size_t n = s.size();
  for (size_t i = 0; i < n;) {
    const unsigned c = p[i];
    size_t len = 0;
    unsigned lo = 0x80, hi = 0xBF;  // allowed range of the second byte
    if (c < 0x80) { ++i; continue; }
    if (c >= 0xC2 && c <= 0xDF) len = 2;
    else if (c == 0xE0) { len = 3; lo = 0xA0; }
    else if (c == 0xED) { len = 3; hi = 0x9F; }
    else if (c >= 0xE1 && c <= 0xEF) len = 3;
    else if (c == 0xF0) { len = 4; lo = 0x90; }
    else if (c >= 0xF1 && c <= 0xF3) len = 4;
    else if (c == 0xF4) { len = 4; hi = 0x8F; }
    else return false;
    if (i + len > n) return false;
    if (p[i + 1] < lo || p[i + 1] > hi) return false;
    for (size_t k = 2; k < len; ++k)
      if (p[i + k] < 0x80 || p[i + k] > 0xBF) return false;
    i += len;
  }
  return true;
}

// Known bug 3: max_micro_batch_that_fits() (core/src/memory.cpp) tries every integer from the
// per-replica batch down to 1, so a large global batch that does not fit takes seconds
// (global_batch_seqs = 1e9: 2.5 s natively) or hours (global_batch_tokens = 1e12 with seq_len 1).
// True when the per-replica batch is large enough to time out a fuzzer.
inline bool known_slow_batch_search(const Scenario& s) {
  Result<Resolved> r = resolve(s);
  if (!r) return false;
  return r->s.training.global_batch_seqs / r->s.parallel.dp > 1000000;
}

// Known bug 4: a tiny positive hardware.mfu, hardware.achieved_tflops or
// hardware.compute_efficiency (the fields accept any value above 0, e.g. 1e-300) gives an
// infinite step or total time, and from it inf/NaN in the time and cost figures.
inline bool known_tiny_rate(const Scenario& s) {
  auto tiny = [](double v) { return v > 0 && v < 1e-6; };
  return tiny(s.hardware.mfu) || tiny(s.hardware.achieved_tflops) || tiny(s.hardware.compute_efficiency);
}

// Every double of the Estimate (report.cpp writes non-finite values as null, so the JSON check
// below would only say "null"; this names the field).
inline void check_estimate_finite(const Estimate& e) {
#define F(x) finite(#x, e.x)
  F(params.total); F(params.active); F(params.embedding); F(params.non_embedding); F(params.trainable);
  F(params.attention_per_layer); F(params.mlp_per_dense_layer); F(params.moe_per_layer);
  F(params.router_per_layer); F(params.norm_per_layer); F(params.expert_params); F(params.per_gpu);
  F(flops.six_nd); F(flops.model_per_token); F(flops.forward_per_token); F(flops.backward_per_token);
  F(flops.attention_per_token); F(flops.logits_per_token); F(flops.model_total); F(flops.hardware_per_token);
  F(flops.hardware_total); F(flops.pflop_days);
  F(mem.weights_bytes); F(mem.gradients_bytes); F(mem.optimizer_bytes); F(mem.master_weights_bytes);
  F(mem.reference_model_bytes); F(mem.model_states_bytes); F(mem.activations_bytes);
  F(mem.activations_per_layer_bytes); F(mem.logits_bytes); F(mem.comm_buffers_bytes); F(mem.cuda_context_bytes);
  F(mem.fragmentation_bytes); F(mem.total_bytes); F(mem.capacity_bytes); F(mem.headroom_bytes);
  F(mem.cpu_offload_bytes);
  F(time.step_s); F(time.compute_s); F(time.bubble_s); F(time.comm_exposed_s); F(time.bubble_fraction);
  F(time.tokens_per_s); F(time.tokens_per_gpu_per_step); F(time.steps); F(time.total_s); F(time.total_days);
  F(time.gpu_hours); F(time.cost_usd); F(time.energy_kwh); F(time.mfu); F(time.hfu); F(time.peak_tflops);
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
  if (skip_known() && (!valid_utf8(s.model.name) || known_slow_batch_search(s))) return;
  Result<Estimate> e = estimate(s);
  if (!e) {
    if (e.error().message.empty()) fail("estimate() error without a message (field '" + e.error().field + "')");
    return;
  }
  if (skip_known() && known_tiny_rate(s)) return;
  check_estimate_finite(*e);
  const std::string text = estimate_to_json(*e, true);
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded()) fail("estimate_to_json() wrote invalid JSON");
  check_json_finite(j, "$");
}

}  // namespace llmc::fuzz
