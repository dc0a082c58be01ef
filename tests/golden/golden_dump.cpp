// golden_dump: prints every figure of a fixed scenario set as hexadecimal floats, so the native
// and wasm builds can be compared byte for byte (scripts/wasm-test.sh runs both and cmp's them).
//
// Usage: golden_dump [scenarios.json]   (default: LLMC_SOURCE_DIR/tests/golden/scenarios.json)
//
// The file holds a JSON array of scenario documents (the format apply_scenario_json accepts).
// For scenario i the output is, one item per line:
//   i scenario <n terms> <n warnings>
//   i <term key> <value>                     every explanation term, in trace order
//   i result.<field> <value>                 the Estimate's fields (params, flops, memory, time, comm)
//   i warning <text>
//   i json.fnv1a64 <hash>                    FNV-1a of estimate_to_json(e, true, -1)
// or `i error <message>` when the scenario is rejected. Then a compute-optimal sweep, the one
// place core calls libm's pow (glibc's and musl's may round differently):
//   optimal.<k> <term key> <value>           C = 1e18 × 1.2^k, k = 0..199 (multiplications only)
//
// Doubles are printed in C99 %a style by our own formatter (from the bit pattern), so no libc
// difference (glibc vs Emscripten's musl: subnormals, NaN sign) can hide or fake a bit difference.
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "llmc/estimate.h"
#include "llmc/fields.h"
#include "llmc/report.h"
#include "llmc/scaling.h"

#ifndef LLMC_SOURCE_DIR
#define LLMC_SOURCE_DIR "."
#endif

namespace {

// Exact hexadecimal form of a double: [-]0x1.<hex>p<exp> for normals, [-]0x0.<hex>p-1022 for
// subnormals, [-]0x0p+0, inf, nan (with its payload bits, since %a would drop them).
std::string hex(double v) {
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  const bool neg = bits >> 63;
  const int exp = static_cast<int>((bits >> 52) & 0x7ff);
  uint64_t mant = bits & ((uint64_t{1} << 52) - 1);
  char buf[64];
  const char* sign = neg ? "-" : "";
  if (exp == 0x7ff) {
    if (mant == 0) {
      std::snprintf(buf, sizeof buf, "%sinf", sign);
    } else {
      std::snprintf(buf, sizeof buf, "%snan:%013" PRIx64, sign, mant);
    }
    return buf;
  }
  if (exp == 0 && mant == 0) {
    std::snprintf(buf, sizeof buf, "%s0x0p+0", sign);
    return buf;
  }
  char frac[16];
  std::snprintf(frac, sizeof frac, "%013" PRIx64, mant);
  size_t n = std::strlen(frac);
  while (n > 0 && frac[n - 1] == '0') frac[--n] = '\0';
  const char lead = exp == 0 ? '0' : '1';
  const int e = exp == 0 ? -1022 : exp - 1023;
  if (n == 0) {
    std::snprintf(buf, sizeof buf, "%s0x%cp%+d", sign, lead, e);
  } else {
    std::snprintf(buf, sizeof buf, "%s0x%c.%sp%+d", sign, lead, frac, e);
  }
  return buf;
}

uint64_t fnv1a64(const std::string& s) {
  uint64_t h = 14695981039346656037ull;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

// One line per item; text fields have newlines folded so every item stays one line.
struct Out {
  size_t index;
  void num(const std::string& key, double v) const { std::printf("%zu %s %s\n", index, key.c_str(), hex(v).c_str()); }
  void i64(const std::string& key, int64_t v) const { std::printf("%zu %s %" PRId64 "\n", index, key.c_str(), v); }
  void text(const std::string& key, std::string v) const {
    for (char& c : v) {
      if (c == '\n' || c == '\r') c = ' ';
    }
    std::printf("%zu %s %s\n", index, key.c_str(), v.c_str());
  }
};

void dump_result(const Out& o, const llmc::Estimate& e) {
  const auto& p = e.params;
#define P(f) o.num("result.params." #f, p.f)
  P(total);
  P(active);
  P(embedding);
  P(non_embedding);
  P(trainable);
  P(attention_per_layer);
  P(mlp_per_dense_layer);
  P(moe_per_layer);
  P(router_per_layer);
  P(norm_per_layer);
  P(expert_params);
  P(per_gpu);
#undef P
  o.i64("result.params.dense_layers", p.dense_layers);
  o.i64("result.params.moe_layers", p.moe_layers);
  o.i64("result.params.from_shape", p.from_shape);

  const auto& f = e.flops;
#define F(x) o.num("result.flops." #x, f.x)
  F(six_nd);
  F(model_per_token);
  F(forward_per_token);
  F(backward_per_token);
  F(attention_per_token);
  F(logits_per_token);
  F(model_total);
  F(hardware_per_token);
  F(hardware_total);
  F(pflop_days);
#undef F

  const auto& m = e.mem;
#define M(x) o.num("result.mem." #x, m.x)
  M(weights_bytes);
  M(gradients_bytes);
  M(optimizer_bytes);
  M(master_weights_bytes);
  M(reference_model_bytes);
  M(model_states_bytes);
  M(activations_bytes);
  M(activations_per_layer_bytes);
  M(logits_bytes);
  M(comm_buffers_bytes);
  M(cuda_context_bytes);
  M(fragmentation_bytes);
  M(total_bytes);
  M(capacity_bytes);
  M(headroom_bytes);
  M(cpu_offload_bytes);
#undef M
  o.i64("result.mem.in_flight_micro_batches", m.in_flight_micro_batches);
  o.i64("result.fits", e.fits);
  o.i64("result.max_micro_batch", e.max_micro_batch);
  o.i64("result.min_gpus", e.min_gpus);
  o.num("result.dataset_bytes", e.dataset_bytes);

  for (size_t i = 0; i < e.comm.size(); ++i) {
    const llmc::CommItem& c = e.comm[i];
    const std::string k = "result.comm." + std::to_string(i) + ".";
    o.text(k + "what", c.name + " " + c.collective + " " + c.tier);
    o.i64(k + "group", c.group);
    o.num(k + "bytes_per_step", c.bytes_per_step);
    o.num(k + "time_s", c.time_s);
    o.i64(k + "overlapped", c.overlapped);
    o.num(k + "exposed_s", c.exposed_s);
  }

  const auto& t = e.time;
#define T(x) o.num("result.time." #x, t.x)
  T(step_s);
  T(compute_s);
  T(bubble_s);
  T(comm_exposed_s);
  T(bubble_fraction);
  T(tokens_per_s);
  T(tokens_per_gpu_per_step);
  T(steps);
  T(total_s);
  T(total_days);
  T(gpu_hours);
  T(cost_usd);
  T(energy_kwh);
  T(mfu);
  T(hfu);
  T(peak_tflops);
  T(achieved_model_tflops_per_gpu);
#undef T
  o.text("result.time.basis", t.basis);

  const llmc::Resolved& r = e.r;
  o.i64("result.resolved.gpu_count", r.gpu_count);
  o.i64("result.resolved.gpus_per_node", r.gpus_per_node);
  o.i64("result.resolved.micro_batches", r.micro_batches);
  o.i64("result.resolved.layers_per_stage", r.layers_per_stage);
  o.num("result.resolved.tokens", r.s.training.tokens);
  o.i64("result.resolved.dp", r.s.parallel.dp);
  o.i64("result.resolved.global_batch_seqs", r.s.training.global_batch_seqs);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string path = argc > 1 ? argv[1] : std::string(LLMC_SOURCE_DIR) + "/tests/golden/scenarios.json";
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "golden_dump: cannot read %s\n", path.c_str());
    return 2;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  const nlohmann::json doc = nlohmann::json::parse(ss.str(), nullptr, /*allow_exceptions=*/false);
  if (!doc.is_array()) {
    std::fprintf(stderr, "golden_dump: %s: expected a JSON array of scenario documents\n", path.c_str());
    return 2;
  }

  for (size_t i = 0; i < doc.size(); ++i) {
    const Out o{i};
    llmc::Scenario s = llmc::default_scenario();
    // The document goes back to text for apply_scenario_json, exactly as a scenario file would.
    if (auto st = llmc::apply_scenario_json(s, doc[i].dump()); !st) {
      o.text("error", st.error().text());
      continue;
    }
    const llmc::Result<llmc::Estimate> e = llmc::estimate(s);
    if (!e) {
      o.text("error", e.error().text());
      continue;
    }
    const auto& terms = e->trace.terms();
    std::printf("%zu scenario %zu %zu\n", i, terms.size(), e->warnings.size());
    for (const llmc::Term& t : terms) o.num(t.key, t.value);
    dump_result(o, *e);
    for (const std::string& w : e->warnings) o.text("warning", w);
    char h[32];
    std::snprintf(h, sizeof h, "%016" PRIx64, fnv1a64(llmc::estimate_to_json(*e, true, -1)));
    o.text("json.fnv1a64", h);
  }
  // Compute-optimal sizing over 2e2 budgets from 1e18 to ~6e33 FLOPs: std::pow and std::sqrt.
  double c = 1e18;
  for (int k = 0; k < 200; ++k, c *= 1.2) {
    llmc::Trace t;
    const llmc::ComputeOptimal p = llmc::optimal_parametric(c, &t);
    const llmc::ComputeOptimal r = llmc::optimal_20_tokens_per_param(c, &t);
    const llmc::ComputeOptimal b = llmc::budget_for_params(c * 1e-12, &t);
    llmc::gpus_for_deadline(c, 86400.0 * 30, 4e14, &t);
    const std::string idx = "optimal." + std::to_string(k);
    auto line = [&](const std::string& key, double v) {
      std::printf("%s %s %s\n", idx.c_str(), key.c_str(), hex(v).c_str());
    };
    for (const llmc::Term& term : t.terms()) line(term.key, term.value);
    line("parametric.tokens_per_param", p.tokens_per_param);
    line("rule20.loss", r.loss);
    line("budget.loss", b.loss);
  }
  return std::fflush(stdout) == 0 ? 0 : 1;
}
