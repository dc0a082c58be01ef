#include "llmc_bench/profile_builder.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <nlohmann/json.hpp>
#include <tuple>

#include "llmc_bench/fit.h"
#include "llmc_bench/stats.h"

namespace llmc::bench {
namespace {

using json = nlohmann::json;

SampleStats rate_stats(double work, const std::vector<double>& seconds, double unit) {
  std::vector<double> rates;
  for (double s : seconds)
    if (s > 0) rates.push_back(work / s / unit);
  return summarize(rates);
}

std::string lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool has(const std::string& s, const char* needle) { return s.find(needle) != std::string::npos; }

std::string fmt(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

// Keep points at or below `cap`; clamp p90 to cap. Returns the number dropped.
template <class Point>
int cap_points(std::vector<Point>& pts, double Point::*median, double cap, const std::string& what,
               std::vector<std::string>& notes) {
  int dropped = 0;
  std::vector<Point> kept;
  for (Point p : pts) {
    if (!(p.*median > 0) || p.*median > cap) {
      notes.push_back(what + ": dropped a point at " + fmt(p.*median) + " (spec limit " + fmt(cap) + ")");
      ++dropped;
      continue;
    }
    kept.push_back(p);
  }
  pts = std::move(kept);
  return dropped;
}

void clamp_p(BandwidthPoint& p, double cap) {
  p.p90 = std::min(p.p90, cap);
  p.p10 = std::min(p.p10, p.gbps);
}
void clamp_p(GemmPoint& p, double cap) {
  p.p90 = std::min(p.p90, cap);
  p.p10 = std::min(p.p10, p.tflops);
}

}  // namespace

GemmPoint gemm_point(const GemmShape& s, const std::vector<double>& seconds) {
  const SampleStats st = rate_stats(s.flops(), seconds, 1e12);
  return GemmPoint{double(s.m), double(s.n), double(s.k), st.median, st.p10, st.p90, st.cv};
}

BandwidthPoint bandwidth_point(double bytes, const std::vector<double>& seconds) {
  const SampleStats st = rate_stats(bytes, seconds, 1e9);
  return BandwidthPoint{bytes, st.median, st.p10, st.p90, st.cv};
}

BandwidthPoint collective_point(const std::string& op, int64_t ranks, double bytes,
                                const std::vector<double>& seconds) {
  BandwidthPoint p = bandwidth_point(busbw_factor(op, ranks) * bytes, seconds);  // rate of the bus bytes = busbw
  p.bytes = bytes;
  return p;
}

double attention_score_elements(int64_t b, int64_t s, int64_t h, bool causal) {
  const double n = double(b) * double(s) * double(s) * double(h);
  return causal ? n / 2 : n;
}

// Backward FLOPs over forward FLOPs (10·head_dim against 4·head_dim per score element:
// FlashAttention's benchmark convention, the profile's).
constexpr double kAttentionBwdOverFwdFlops = 2.5;

double attention_fwd_flops(int64_t b, int64_t s, int64_t h, int64_t d, bool causal) {
  return 4.0 * double(d) * attention_score_elements(b, s, h, causal);
}

AttentionPoint attention_point(int64_t b, int64_t s, int64_t h, int64_t kv, int64_t d, bool causal,
                               const std::vector<double>& fwd, const std::vector<double>& bwd) {
  const double f = attention_fwd_flops(b, s, h, d, causal);
  const SampleStats sf = rate_stats(f, fwd, 1e12), sb = rate_stats(kAttentionBwdOverFwdFlops * f, bwd, 1e12);
  AttentionPoint p;
  p.batch = double(b);
  p.seq_len = double(s);
  p.heads = double(h);
  p.kv_heads = double(kv);
  p.head_dim = double(d);
  p.causal = causal;
  p.fwd_tflops = sf.median;
  p.bwd_tflops = sb.median;
  p.cv = std::max(sf.cv, sb.cv);
  return p;
}

Result<std::string> gpu_id_for_device(const std::string& name, double memory_bytes) {
  const std::string n = lower(name);
  const double gib = memory_bytes / double(int64_t(1) << 30);
  if (has(n, "gb200")) return std::string("gb200");
  if (has(n, "b200")) return std::string("b200");
  if (has(n, "h200")) return std::string("h200");
  if (has(n, "h100")) {
    if (has(n, "nvl")) return std::string("h100-nvl");
    if (has(n, "pcie")) return std::string("h100-pcie");
    return std::string("h100-sxm");  // "NVIDIA H100 80GB HBM3" is the SXM5 part
  }
  if (has(n, "h800")) return std::string("h800");
  if (has(n, "a800") && !has(n, "pcie")) return std::string("a800-sxm-80gb");
  if (has(n, "a100")) {
    const bool big = has(n, "80gb") || gib > 48;
    if (has(n, "pcie")) return std::string(big ? "a100-pcie-80gb" : "a100-pcie-40gb");
    return std::string(big ? "a100-sxm-80gb" : "a100-sxm-40gb");
  }
  if (has(n, "l40s")) return std::string("l40s");
  if (has(n, "4090")) return std::string("rtx4090");
  return make_error("--gpu", "device '" + name + "' is not a GPU of the catalog; pass --gpu ID (see `llmcalc gpus`)");
}

std::vector<std::string> throttle_reason_names(uint64_t mask) {
  // Bits of nvmlClocksEventReasons (nvml.h): stable since NVML 3.x.
  static const std::pair<uint64_t, const char*> bits[] = {{0x1, "gpu_idle"},
                                                          {0x2, "applications_clocks_setting"},
                                                          {0x4, "sw_power_cap"},
                                                          {0x8, "hw_slowdown"},
                                                          {0x10, "sync_boost"},
                                                          {0x20, "sw_thermal_slowdown"},
                                                          {0x40, "hw_thermal_slowdown"},
                                                          {0x80, "hw_power_brake_slowdown"},
                                                          {0x100, "display_clock_setting"}};
  std::vector<std::string> out;
  for (const auto& [bit, name] : bits)
    if (mask & bit) out.push_back(name);
  return out;
}

std::string metadata_to_json(const RunMetadata& m) {
  json j;
  j["tool"] = "llmcalc-bench";
  j["tool_version"] = m.tool_version;
  j["git_sha"] = m.git_sha;
  j["date"] = m.date_utc;
  j["argv"] = m.argv;
  j["quick"] = m.quick;
  j["device"] = m.device_name;
  j["gpu_count"] = m.gpu_count;
  j["sm_count"] = m.sm_count;
  j["compute_capability"] = m.compute_capability;
  j["memory_bytes"] = m.memory_bytes;
  j["l2_bytes"] = m.l2_bytes;
  j["driver"] = m.driver;
  j["cuda_runtime"] = m.cuda_runtime;
  j["cuda_driver_api"] = m.cuda_driver_api;
  j["cublas"] = m.cublas;
  j["cudnn"] = m.cudnn;
  j["nccl"] = m.nccl;
  j["clock_policy"] = m.clock_policy;
  j["model_shapes"] = m.model_shapes;
  j["notes"] = m.notes;
  json tel = json::array();
  for (const TelemetryRecord& r : m.telemetry) {
    json t{{"suite", r.suite}, {"label", r.label}};
    if (r.t.valid) {
      t["sm_clock_mhz"] = r.t.sm_clock_mhz;
      t["mem_clock_mhz"] = r.t.mem_clock_mhz;
      t["power_w"] = r.t.power_w;
      t["temperature_c"] = r.t.temperature_c;
      t["throttle_reasons"] = throttle_reason_names(r.t.throttle_reasons);
    }
    tel.push_back(std::move(t));
  }
  j["telemetry"] = std::move(tel);
  return j.dump();
}

HardwareProfile finalize_profile(HardwareProfile p, const GpuSpec& gpu, const std::vector<GemmShape>& model_shapes,
                                 std::vector<std::string>& notes) {
  const HardwareProfile base = datasheet_profile(gpu);
  p.schema_version = 1;
  p.gpu_id = gpu.id;
  p.source = "measured";
  p.compute_efficiency = base.compute_efficiency;
  p.compute_efficiency_source = "datasheet (no bf16 GEMM of the model's shapes measured)";
  p.intra_node = base.intra_node;
  p.inter_node = base.inter_node;
  p.comm_source = "datasheet (no collective measured)";

  static const std::pair<const char*, Dtype> dtypes[] = {
      {"fp32", Dtype::fp32}, {"tf32", Dtype::tf32}, {"bf16", Dtype::bf16}, {"fp16", Dtype::fp16}, {"fp8", Dtype::fp8}};
  for (auto it = p.gemm.begin(); it != p.gemm.end();) {
    double peak = 0;
    for (const auto& [name, d] : dtypes)
      if (it->first == name) peak = gpu.peak_tflops(d);
    GemmTable& t = it->second;
    if (peak > 0) cap_points(t.points, &GemmPoint::tflops, peak, "gemm." + it->first, notes);
    for (GemmPoint& pt : t.points) clamp_p(pt, peak > 0 ? peak : pt.p90);
    if (t.points.empty() || !(peak > 0)) {
      notes.push_back("gemm." + it->first + ": no usable points; table left out");
      it = p.gemm.erase(it);
      continue;
    }
    std::vector<WorkTime> wt;
    t.max_tflops = 0;
    for (const GemmPoint& pt : t.points) {
      t.max_tflops = std::max(t.max_tflops, pt.tflops);
      const double flops = 2 * pt.m * pt.n * pt.k;
      wt.push_back({flops, flops / (pt.tflops * 1e12)});
    }
    if (Result<ThroughputFit> f = fit_throughput(wt, 1e12)) {
      t.fit = *f;
      t.fit.peak = std::min(t.fit.peak, peak);  // a fit may extrapolate past the spec
    } else {
      notes.push_back("gemm." + it->first + ".fit: " + f.error().message);
    }
    ++it;
  }

  // compute_efficiency: the FLOP-weighted bf16 GEMM rate over the chosen model's shapes.
  if (auto g = p.gemm.find("bf16"); g != p.gemm.end() && gpu.peak_bf16_tflops > 0) {
    double flops = 0, secs = 0;
    for (const GemmShape& s : model_shapes)
      for (const GemmPoint& pt : g->second.points)
        if (pt.m == double(s.m) && pt.n == double(s.n) && pt.k == double(s.k)) {
          flops += s.flops();
          secs += s.flops() / (pt.tflops * 1e12);
          break;
        }
    if (secs > 0) {
      p.compute_efficiency = std::min(1.0, flops / secs / 1e12 / gpu.peak_bf16_tflops);
      p.compute_efficiency_source = "measured: bf16 cuBLASLt GEMMs of the model's layer shapes, FLOP-weighted";
    }
  }

  for (auto it = p.attention.begin(); it != p.attention.end(); ++it) {
    AttentionTable& t = it->second;
    std::vector<AttentionPoint> kept;
    const std::string dtype = it->first.substr(0, it->first.find('.'));  // "bf16" of "bf16.cudnn"
    const double peak = gpu.peak_tflops(dtype == "fp8" ? Dtype::fp8 : dtype == "fp16" ? Dtype::fp16 : Dtype::bf16);
    for (const AttentionPoint& pt : t.points) {
      if (pt.fwd_tflops > 0 && pt.bwd_tflops > 0 && pt.fwd_tflops <= peak && pt.bwd_tflops <= peak)
        kept.push_back(pt);
      else
        notes.push_back("attention." + it->first + ": dropped a point at fwd " + fmt(pt.fwd_tflops) + ", bwd " +
                        fmt(pt.bwd_tflops) + " TFLOP/s");
    }
    t.points = kept;
    // The fit is of the matmul part: each point's time less its softmax exponentials at the
    // GPU's rate (one per score element; docs/formulas.md, Kernel times, "Head dimension"), so
    // that head dims the grid did not measure follow the exponentials' share. A GPU without an
    // exponential rate in the catalog, or points faster than their exponentials allow, keep a
    // flat rate.
    double exp_rate = gpu.exp_tera_per_s();
    auto fits = [&](double rate) {
      std::vector<WorkTime> fw, bw;
      for (const AttentionPoint& pt : t.points) {
        const auto b = int64_t(pt.batch), seq = int64_t(pt.seq_len), heads = int64_t(pt.heads);
        const double f = attention_fwd_flops(b, seq, heads, int64_t(pt.head_dim), pt.causal);
        const double exp_s = rate > 0 ? attention_score_elements(b, seq, heads, pt.causal) / (rate * 1e12) : 0;
        fw.push_back({f, f / (pt.fwd_tflops * 1e12) - exp_s});
        bw.push_back({kAttentionBwdOverFwdFlops * f, kAttentionBwdOverFwdFlops * f / (pt.bwd_tflops * 1e12) - exp_s});
      }
      return std::pair{fw, bw};
    };
    auto [fw, bw] = fits(exp_rate);
    auto positive = [](const std::vector<WorkTime>& w) {
      return std::all_of(w.begin(), w.end(), [](const WorkTime& x) { return x.seconds > 0; });
    };
    if (exp_rate > 0 && !(positive(fw) && positive(bw))) {
      notes.push_back("attention." + it->first + ": points faster than " + fmt(exp_rate) +
                      " T exponentials/s allow; fitted as a flat rate");
      exp_rate = 0;
      std::tie(fw, bw) = fits(0);
    }
    t.exp_tera_per_s = exp_rate;
    if (Result<ThroughputFit> f = fit_throughput(fw, 1e12))
      t.fwd_fit = *f, t.fwd_fit.peak = std::min(t.fwd_fit.peak, peak);
    if (Result<ThroughputFit> f = fit_throughput(bw, 1e12))
      t.bwd_fit = *f, t.bwd_fit.peak = std::min(t.bwd_fit.peak, peak);
  }

  for (auto it = p.memory_bound.begin(); it != p.memory_bound.end();) {
    BandwidthTable& t = it->second;
    cap_points(t.points, &BandwidthPoint::gbps, gpu.hbm_bandwidth_gbps, "memory_bound." + it->first, notes);
    for (BandwidthPoint& pt : t.points) clamp_p(pt, gpu.hbm_bandwidth_gbps);
    if (t.points.empty()) {
      it = p.memory_bound.erase(it);
      continue;
    }
    std::vector<WorkTime> wt;
    for (const BandwidthPoint& pt : t.points) wt.push_back({pt.bytes, pt.bytes / (pt.gbps * 1e9)});
    if (Result<ThroughputFit> f = fit_throughput(wt, 1e9))
      t.fit = *f, t.fit.peak = std::min(t.fit.peak, gpu.hbm_bandwidth_gbps);
    ++it;
  }

  int64_t best_group = 0;
  for (CollectiveTable& c : p.collectives) {
    std::vector<WorkTime> wt;
    const double factor = busbw_factor(c.op, c.group);
    for (const BandwidthPoint& pt : c.points) wt.push_back({pt.bytes, factor * pt.bytes / (pt.gbps * 1e9)});
    if (Result<AlphaBeta> f = fit_alpha_beta(c.op, c.group, wt)) {
      c.fit = *f;
      c.fit.alpha_s = std::min(c.fit.alpha_s, 0.01);  // schema bound: 10 ms
      if (c.op == "all_reduce" && c.group > best_group) {
        best_group = c.group;
        (c.tier == "inter_node" ? p.inter_node : p.intra_node) = c.fit;
        p.comm_source = "measured: NCCL all-reduce alpha-beta fit, " + std::to_string(c.group) + " GPUs";
      }
    } else {
      notes.push_back("collectives." + c.op + ": " + f.error().message);
    }
  }
  if (p.h2d_gbps > 1000 || p.d2h_gbps > 1000)
    notes.push_back("host_device: implausible bandwidth dropped"), p.h2d_gbps = p.d2h_gbps = 0;
  for (double* us : {&p.host_issue.python_eager_us, &p.host_issue.python_fused_us, &p.host_issue.native_us})
    if (*us > kMaxHostIssueUs) notes.push_back("host_issue: implausible time per kernel dropped"), *us = 0;
  p.usable_memory_bytes = std::min(p.usable_memory_bytes, gpu.memory_gib * double(int64_t(1) << 30));
  return p;
}

}  // namespace llmc::bench
