#include "context.h"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "llmc_bench/stats.h"

namespace llmc::bench {
namespace {

struct Events {
  cudaEvent_t a = nullptr, b = nullptr;
  Events() {
    CUDA_CHECK(cudaEventCreate(&a));
    CUDA_CHECK(cudaEventCreate(&b));
  }
  ~Events() {
    cudaEventDestroy(a);
    cudaEventDestroy(b);
  }
};

double sample_once(cudaStream_t s, const Events& ev, const std::function<void(cudaStream_t)>& launch) {
  CUDA_CHECK(cudaEventRecord(ev.a, s));
  launch(s);
  CUDA_CHECK(cudaEventRecord(ev.b, s));
  CUDA_CHECK(cudaEventSynchronize(ev.b));
  CUDA_CHECK(cudaGetLastError());
  float ms = 0;
  CUDA_CHECK(cudaEventElapsedTime(&ms, ev.a, ev.b));
  return double(ms) * 1e-3;
}

}  // namespace

void BenchContext::flush() {
  if (l2_flush.bytes()) CUDA_CHECK(cudaMemsetAsync(l2_flush.get(), 0, l2_flush.bytes(), stream));
}

void BenchContext::note(const std::string& s) {
  std::fprintf(stderr, "\nllmcalc-bench: %s\n", s.c_str());
  meta.notes.push_back(s);
}

double BenchContext::quick_median(const std::function<void(cudaStream_t)>& launch, int reps) {
  Events ev;
  launch(stream);  // warm-up (first-call setup, instruction cache)
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    flush();
    t.push_back(sample_once(stream, ev, launch));
  }
  return summarize(t).median;
}

std::vector<double> BenchContext::time(const std::string& suite, const std::string& label,
                                       const std::function<void(cudaStream_t)>& launch, const nlohmann::json& params,
                                       bool flush_l2) {
  Events ev;
  for (int i = 0; i < policy.warmup; ++i) launch(stream);
  CUDA_CHECK(cudaStreamSynchronize(stream));
  CUDA_CHECK(cudaGetLastError());
  std::vector<double> t;
  const auto start = std::chrono::steady_clock::now();
  while (t.size() < policy.max_samples) {
    if (flush_l2) flush();
    t.push_back(sample_once(stream, ev, launch));
    const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (median_is_stable(t, policy.rel_halfwidth, policy.min_samples)) break;
    if (spent > policy.budget_s && t.size() >= 3) break;  // noisy: keep what we have
  }
  const Telemetry tel = nvml ? nvml->read() : Telemetry{};
  meta.telemetry.push_back({suite, label, tel});
  const SampleStats st = summarize(t);
  nlohmann::json rec{{"suite", suite},
                     {"label", label},
                     {"params", params},
                     {"seconds", t},
                     {"median_s", st.median},
                     {"p10_s", st.p10},
                     {"p90_s", st.p90},
                     {"cv", st.cv},
                     {"stable", median_is_stable(t, policy.rel_halfwidth, policy.min_samples)}};
  if (tel.valid)
    rec["telemetry"] = {{"sm_clock_mhz", tel.sm_clock_mhz},
                        {"mem_clock_mhz", tel.mem_clock_mhz},
                        {"power_w", tel.power_w},
                        {"temperature_c", tel.temperature_c},
                        {"throttle_reasons", throttle_reason_names(tel.throttle_reasons)}};
  raw.push_back(std::move(rec));
  return t;
}

std::string read_flag_file(const std::string& suite, const std::string& flag, const std::string& path) {
  std::ifstream f(path);
  if (!f) throw BenchError(suite + ": cannot read " + flag + " " + path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

}  // namespace llmc::bench
