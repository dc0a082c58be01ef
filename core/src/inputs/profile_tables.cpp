// The measured tables of a hardware profile (docs/profile-schema.md, "Measured tables"):
// validation against the GPU's spec (no throughput above the spec peak, no zero or negative
// time, size or bandwidth, p10 <= median <= p90) and writing them back.
#include <cmath>
#include <utility>

#include "inputs/profile_reader.h"
#include "llmc/scenario.h"

namespace llmc::detail {

namespace {

// The profile's host_issue keys and the fields they fill (read and written alike).
constexpr std::pair<const char*, double HostIssue::*> kHostIssueKeys[] = {
    {"python_eager_us", &HostIssue::python_eager_us},
    {"python_fused_us", &HostIssue::python_fused_us},
    {"native_us", &HostIssue::native_us}};

constexpr double kMaxDim = 2147483648.0;       // 2^31: a GEMM dimension or sequence length
constexpr double kMaxBytes = 1099511627776.0;  // 1 TiB: a message or buffer
constexpr double kMaxOverheadUs = 10000;       // a fixed cost above 10 ms is a broken fit

std::string idx(const std::string& path, size_t i) { return path + "[" + std::to_string(i) + "]."; }

Status require_object(const json& j, const std::string& key, const std::string& path) {
  if (!j.contains(key) || !j.at(key).is_object())
    return make_error("profile: " + path + key, "missing or not an object");
  return ok_status();
}

// Median with its spread: p10 <= median <= p90 when both are given (0 = not measured).
Status spread(const json& pt, const std::string& path, const char* median_key, double median, double hi, double& p10,
              double& p90, double& cv) {
  for (const char* k : {"p10", "p90"}) {
    if (!pt.contains(k)) continue;
    Result<double> v = profile_number(pt, k, path, 0, hi, true);
    if (!v) return v.error();
    (std::string(k) == "p10" ? p10 : p90) = *v;
  }
  if (p10 > 0 && p10 > median)
    return make_error("profile: " + path + "p10", "must not exceed " + std::string(median_key) + " (" +
                                                      std::to_string(median) + "); got " + std::to_string(p10));
  if (p90 > 0 && p90 < median)
    return make_error("profile: " + path + "p90", "must not be below " + std::string(median_key) + " (" +
                                                      std::to_string(median) + "); got " + std::to_string(p90));
  if (pt.contains("cv")) {
    Result<double> v = profile_number(pt, "cv", path, 0, 10, false);
    if (!v) return v.error();
    cv = *v;
  }
  return ok_status();
}

Result<ThroughputFit> fit(const json& j, const std::string& path, const char* peak_key, double peak_hi) {
  ThroughputFit f;
  Result<double> peak = profile_number(j, peak_key, path, 0, peak_hi, true);
  if (!peak) return peak.error();
  Result<double> over = profile_number(j, "overhead_us", path, 0, kMaxOverheadUs, false);
  if (!over) return over.error();
  f.peak = *peak;
  f.overhead_us = *over;
  return f;
}

const json& array_at(const json& j, const std::string& key) {
  static const json empty = json::array();
  return j.contains(key) && j.at(key).is_array() ? j.at(key) : empty;
}

Status not_array(const json& j, const std::string& key, const std::string& path) {
  if (j.contains(key) && !j.at(key).is_array()) return make_error("profile: " + path + key, "must be an array");
  return ok_status();
}

Status read_gemm(const json& all, const GpuSpec& gpu, HardwareProfile& p) {
  for (auto it = all.begin(); it != all.end(); ++it) {
    const std::string path = "gemm." + it.key() + ".";
    Dtype d;
    if (it.key() == "fp32")
      d = Dtype::fp32;
    else if (it.key() == "tf32")
      d = Dtype::tf32;
    else if (it.key() == "bf16")
      d = Dtype::bf16;
    else if (it.key() == "fp16")
      d = Dtype::fp16;
    else if (it.key() == "fp8")
      d = Dtype::fp8;
    else
      return make_error("profile: gemm." + it.key(), "unknown dtype (known: fp32, tf32, bf16, fp16, fp8)");
    const double peak = gpu.peak_tflops(d);
    if (peak <= 0)
      return make_error("profile: gemm." + it.key(), gpu.id + " has no " + it.key() + " tensor peak in the catalog");
    const json& t = it.value();
    if (!t.is_object()) return make_error("profile: gemm." + it.key(), "must be an object");
    GemmTable g;
    Result<double> mx = profile_number(t, "max_tflops", path, 0, peak, true);
    if (!mx) return mx.error();
    g.max_tflops = *mx;
    if (Status s = require_object(t, "fit", path); !s) return s;
    Result<ThroughputFit> f = fit(t.at("fit"), path + "fit.", "peak_tflops", peak);
    if (!f) return f.error();
    g.fit = *f;
    if (Status s = not_array(t, "points", path); !s) return s;
    const json& pts = array_at(t, "points");
    for (size_t i = 0; i < pts.size(); ++i) {
      const std::string pp = idx(path + "points", i);
      if (!pts[i].is_object()) return make_error("profile: " + pp.substr(0, pp.size() - 1), "must be an object");
      GemmPoint pt;
      for (auto [key, dst] : {std::pair{"m", &pt.m}, {"n", &pt.n}, {"k", &pt.k}}) {
        Result<double> v = profile_number(pts[i], key, pp, 1, kMaxDim, false);
        if (!v) return v.error();
        *dst = std::floor(*v);
      }
      Result<double> tf = profile_number(pts[i], "tflops", pp, 0, peak, true);
      if (!tf) return tf.error();
      pt.tflops = *tf;
      if (Status s = spread(pts[i], pp, "tflops", pt.tflops, peak, pt.p10, pt.p90, pt.cv); !s) return s;
      g.points.push_back(pt);
    }
    p.gemm[it.key()] = std::move(g);
  }
  return ok_status();
}

// A fused attention backend's name (training.attention_backend), or false.
bool parse_backend(const std::string& name, AttentionBackend& out) {
  for (AttentionBackend b : kFusedAttentionBackends)
    if (name == to_string(b)) return out = b, true;
  return false;
}

Status read_attention(const json& all, const GpuSpec& gpu, HardwareProfile& p) {
  for (auto it = all.begin(); it != all.end(); ++it) {
    const std::string path = "attention." + it.key() + ".";
    // "<dtype>" or "<dtype>.<backend>"; a "backend" field names the kernel of a "<dtype>" table.
    const size_t dot = it.key().find('.');
    const std::string dtype = it.key().substr(0, dot);
    std::string backend = dot == std::string::npos ? "" : it.key().substr(dot + 1);
    Dtype d;
    if (dtype == "bf16")
      d = Dtype::bf16;
    else if (dtype == "fp16")
      d = Dtype::fp16;
    else if (dtype == "fp8")
      d = Dtype::fp8;
    else
      return make_error("profile: attention." + it.key(),
                        "unknown dtype (known: bf16, fp16, fp8, each optionally .fa2, .fa3 or .cudnn)");
    const double peak = gpu.peak_tflops(d);
    if (peak <= 0)
      return make_error("profile: attention." + it.key(), gpu.id + " has no " + dtype + " tensor peak in the catalog");
    const json& t = it.value();
    if (!t.is_object()) return make_error("profile: attention." + it.key(), "must be an object");
    if (t.contains("backend")) {
      if (!t.at("backend").is_string())
        return make_error("profile: " + path + "backend", "must be a string (fa2, fa3 or cudnn)");
      const std::string named = t.at("backend").get<std::string>();
      if (!backend.empty() && named != backend)
        return make_error("profile: " + path + "backend",
                          "'" + named + "' contradicts the key's backend '" + backend + "'");
      backend = named;
    }
    AttentionBackend b{};
    if (!backend.empty() && !parse_backend(backend, b))
      return make_error("profile: attention." + it.key(),
                        "unknown attention backend '" + backend + "' (known: fa2, fa3, cudnn)");
    const std::string key = backend.empty() ? dtype : dtype + "." + backend;
    if (p.attention.count(key)) return make_error("profile: attention." + it.key(), "a second table for " + key);
    AttentionTable a;
    if (Status s = require_object(t, "fit", path); !s) return s;
    for (auto [dir, dst] : {std::pair{"fwd", &a.fwd_fit}, {"bwd", &a.bwd_fit}}) {
      if (Status s = require_object(t.at("fit"), dir, path + "fit."); !s) return s;
      Result<ThroughputFit> f = fit(t.at("fit").at(dir), path + "fit." + dir + ".", "peak_tflops", peak);
      if (!f) return f.error();
      *dst = *f;
    }
    // Optional: the exponential rate the fit's times include (absent: a flat rate). The special
    // function units run an eighth of the fp32 FMA rate, so the fp32 peak bounds it.
    if (t.at("fit").contains("exp_tera_per_s")) {
      Result<double> e = profile_number(t.at("fit"), "exp_tera_per_s", path + "fit.", 0,
                                        gpu.peak_fp32_tflops > 0 ? gpu.peak_fp32_tflops : peak, true);
      if (!e) return e.error();
      a.exp_tera_per_s = *e;
    }
    if (Status s = not_array(t, "points", path); !s) return s;
    const json& pts = array_at(t, "points");
    for (size_t i = 0; i < pts.size(); ++i) {
      const std::string pp = idx(path + "points", i);
      if (!pts[i].is_object()) return make_error("profile: " + pp.substr(0, pp.size() - 1), "must be an object");
      AttentionPoint pt;
      for (auto [key, dst] : {std::pair{"batch", &pt.batch},
                              {"seq_len", &pt.seq_len},
                              {"heads", &pt.heads},
                              {"kv_heads", &pt.kv_heads},
                              {"head_dim", &pt.head_dim}}) {
        Result<double> v = profile_number(pts[i], key, pp, 1, kMaxDim, false);
        if (!v) return v.error();
        *dst = std::floor(*v);
      }
      if (std::fmod(pt.heads, pt.kv_heads) != 0)
        return make_error("profile: " + pp + "kv_heads", "must divide heads (" + std::to_string(int64_t(pt.heads)) +
                                                             "); got " + std::to_string(int64_t(pt.kv_heads)));
      if (!pts[i].contains("causal") || !pts[i].at("causal").is_boolean())
        return make_error("profile: " + pp + "causal", "missing or not a boolean");
      pt.causal = pts[i].at("causal").get<bool>();
      for (auto [key, dst] : {std::pair{"fwd_tflops", &pt.fwd_tflops}, {"bwd_tflops", &pt.bwd_tflops}}) {
        Result<double> v = profile_number(pts[i], key, pp, 0, peak, true);
        if (!v) return v.error();
        *dst = *v;
      }
      if (pts[i].contains("cv")) {
        Result<double> v = profile_number(pts[i], "cv", pp, 0, 10, false);
        if (!v) return v.error();
        pt.cv = *v;
      }
      a.points.push_back(pt);
    }
    p.attention[key] = std::move(a);
  }
  return ok_status();
}

Status read_memory_bound(const json& all, const GpuSpec& gpu, HardwareProfile& p) {
  std::string known;
  for (int k = 0; k < kMemKernels; ++k) known += std::string(k ? ", " : "") + to_string(MemKernel(k));
  const double hbm = gpu.hbm_bandwidth_gbps;
  for (auto it = all.begin(); it != all.end(); ++it) {
    bool ok = false;
    for (int k = 0; k < kMemKernels; ++k) ok |= it.key() == to_string(MemKernel(k));
    if (!ok) return make_error("profile: memory_bound." + it.key(), "unknown kernel (known: " + known + ")");
    const std::string path = "memory_bound." + it.key() + ".";
    const json& t = it.value();
    if (!t.is_object()) return make_error("profile: memory_bound." + it.key(), "must be an object");
    BandwidthTable b;
    if (Status s = require_object(t, "fit", path); !s) return s;
    Result<ThroughputFit> f = fit(t.at("fit"), path + "fit.", "peak_gbps", hbm);
    if (!f) return f.error();
    b.fit = *f;
    if (Status s = not_array(t, "points", path); !s) return s;
    const json& pts = array_at(t, "points");
    for (size_t i = 0; i < pts.size(); ++i) {
      const std::string pp = idx(path + "points", i);
      if (!pts[i].is_object()) return make_error("profile: " + pp.substr(0, pp.size() - 1), "must be an object");
      BandwidthPoint pt;
      Result<double> by = profile_number(pts[i], "bytes", pp, 1, kMaxBytes, false);
      if (!by) return by.error();
      Result<double> bw = profile_number(pts[i], "gbps", pp, 0, hbm, true);
      if (!bw) return bw.error();
      pt.bytes = *by;
      pt.gbps = *bw;
      if (Status s = spread(pts[i], pp, "gbps", pt.gbps, hbm, pt.p10, pt.p90, pt.cv); !s) return s;
      b.points.push_back(pt);
    }
    p.memory_bound[it.key()] = std::move(b);
  }
  return ok_status();
}

Status read_collectives(const json& arr, HardwareProfile& p) {
  const std::string path = "collectives.measured";
  for (size_t i = 0; i < arr.size(); ++i) {
    const std::string cp = idx(path, i);
    const json& c = arr[i];
    if (!c.is_object()) return make_error("profile: " + cp.substr(0, cp.size() - 1), "must be an object");
    CollectiveTable t;
    if (!c.contains("op") || !c.at("op").is_string())
      return make_error("profile: " + cp + "op",
                        "missing (all_reduce, all_gather, reduce_scatter, all_to_all or send_recv)");
    t.op = c.at("op").get<std::string>();
    if (t.op != "all_reduce" && t.op != "all_gather" && t.op != "reduce_scatter" && t.op != "all_to_all" &&
        t.op != "send_recv")
      return make_error(
          "profile: " + cp + "op",
          "must be one of {all_reduce, all_gather, reduce_scatter, all_to_all, send_recv}; got '" + t.op + "'");
    Result<double> g = profile_number(c, "group", cp, 2, 1 << 20, false);
    if (!g) return g.error();
    t.group = int64_t(*g);
    if (!c.contains("tier") || !c.at("tier").is_string() ||
        (c.at("tier") != "intra_node" && c.at("tier") != "inter_node"))
      return make_error("profile: " + cp + "tier", "must be intra_node or inter_node");
    t.tier = c.at("tier").get<std::string>();
    Result<double> alpha = profile_number(c, "alpha_us", cp, 0, 10000, false);
    if (!alpha) return alpha.error();
    Result<double> bw = profile_number(c, "busbw_gbps", cp, 0, 10000, true);
    if (!bw) return bw.error();
    t.fit = AlphaBeta{*alpha * 1e-6, *bw};
    if (Status s = not_array(c, "points", cp); !s) return s;
    const json& pts = array_at(c, "points");
    for (size_t k = 0; k < pts.size(); ++k) {
      const std::string pp = idx(cp + "points", k);
      if (!pts[k].is_object()) return make_error("profile: " + pp.substr(0, pp.size() - 1), "must be an object");
      BandwidthPoint pt;
      Result<double> by = profile_number(pts[k], "bytes", pp, 1, kMaxBytes, false);
      if (!by) return by.error();
      Result<double> v = profile_number(pts[k], "gbps", pp, 0, 10000, true);
      if (!v) return v.error();
      pt.bytes = *by;
      pt.gbps = *v;
      if (Status s = spread(pts[k], pp, "gbps", pt.gbps, 10000, pt.p10, pt.p90, pt.cv); !s) return s;
      t.points.push_back(pt);
    }
    p.collectives.push_back(std::move(t));
  }
  return ok_status();
}

json fit_json(const ThroughputFit& f, const char* peak_key) {
  return json{{peak_key, f.peak}, {"overhead_us", f.overhead_us}};
}

json spread_json(json j, double p10, double p90, double cv) {
  if (p10 > 0) j["p10"] = p10;
  if (p90 > 0) j["p90"] = p90;
  j["cv"] = cv;
  return j;
}

}  // namespace

Status read_profile_tables(const json& doc, const GpuSpec& gpu, HardwareProfile& p) {
  if (doc.contains("gemm")) {
    if (!doc.at("gemm").is_object()) return make_error("profile: gemm", "must be an object keyed by dtype");
    if (Status s = read_gemm(doc.at("gemm"), gpu, p); !s) return s;
  }
  if (doc.contains("attention")) {
    if (!doc.at("attention").is_object()) return make_error("profile: attention", "must be an object keyed by dtype");
    if (Status s = read_attention(doc.at("attention"), gpu, p); !s) return s;
  }
  if (doc.contains("memory_bound")) {
    if (!doc.at("memory_bound").is_object())
      return make_error("profile: memory_bound", "must be an object keyed by kernel");
    if (Status s = read_memory_bound(doc.at("memory_bound"), gpu, p); !s) return s;
  }
  const json& coll = doc.at("collectives");  // presence checked by the caller
  if (coll.contains("measured")) {
    if (!coll.at("measured").is_array()) return make_error("profile: collectives.measured", "must be an array");
    if (Status s = read_collectives(coll.at("measured"), p); !s) return s;
  }
  if (doc.contains("host_device")) {
    const json& h = doc.at("host_device");
    if (!h.is_object()) return make_error("profile: host_device", "must be an object");
    for (auto [key, dst] : {std::pair{"h2d_gbps", &p.h2d_gbps}, {"d2h_gbps", &p.d2h_gbps}}) {
      Result<double> v = profile_number(h, key, "host_device.", 0, 1000, true);
      if (!v) return v.error();
      *dst = *v;
    }
  }
  if (doc.contains("host_issue")) {
    const json& h = doc.at("host_issue");
    if (!h.is_object()) return make_error("profile: host_issue", "must be an object");
    for (auto [key, member] : kHostIssueKeys) {
      if (!h.contains(key)) continue;  // not measured: the datasheet's value holds
      Result<double> v = profile_number(h, key, "host_issue.", 0, kMaxHostIssueUs, true);
      if (!v) return v.error();
      p.host_issue.*member = *v;
    }
  }
  if (doc.contains("usable_memory_bytes")) {
    Result<double> v = profile_number(doc, "usable_memory_bytes", "", 0, gpu.memory_gib * 1073741824.0, true);
    if (!v) return v.error();
    p.usable_memory_bytes = *v;
  }
  return ok_status();
}

void write_profile_tables(const HardwareProfile& p, json& doc) {
  if (!p.gemm.empty()) {
    json& g = doc["gemm"];
    for (const auto& [dtype, t] : p.gemm) {
      json pts = json::array();
      for (const GemmPoint& pt : t.points)
        pts.push_back(
            spread_json({{"m", pt.m}, {"n", pt.n}, {"k", pt.k}, {"tflops", pt.tflops}}, pt.p10, pt.p90, pt.cv));
      g[dtype] = {{"max_tflops", t.max_tflops}, {"fit", fit_json(t.fit, "peak_tflops")}, {"points", pts}};
    }
  }
  if (!p.attention.empty()) {
    json& a = doc["attention"];
    for (const auto& [dtype, t] : p.attention) {
      json pts = json::array();
      for (const AttentionPoint& pt : t.points)
        pts.push_back({{"batch", pt.batch},
                       {"seq_len", pt.seq_len},
                       {"heads", pt.heads},
                       {"kv_heads", pt.kv_heads},
                       {"head_dim", pt.head_dim},
                       {"causal", pt.causal},
                       {"fwd_tflops", pt.fwd_tflops},
                       {"bwd_tflops", pt.bwd_tflops},
                       {"cv", pt.cv}});
      json fit = {{"fwd", fit_json(t.fwd_fit, "peak_tflops")}, {"bwd", fit_json(t.bwd_fit, "peak_tflops")}};
      if (t.exp_tera_per_s > 0) fit["exp_tera_per_s"] = t.exp_tera_per_s;
      a[dtype] = {{"fit", fit}, {"points", pts}};
    }
  }
  if (!p.memory_bound.empty()) {
    json& m = doc["memory_bound"];
    for (const auto& [kernel, t] : p.memory_bound) {
      json pts = json::array();
      for (const BandwidthPoint& pt : t.points)
        pts.push_back(spread_json({{"bytes", pt.bytes}, {"gbps", pt.gbps}}, pt.p10, pt.p90, pt.cv));
      m[kernel] = {{"fit", fit_json(t.fit, "peak_gbps")}, {"points", pts}};
    }
  }
  if (!p.collectives.empty()) {
    json arr = json::array();
    for (const CollectiveTable& c : p.collectives) {
      json pts = json::array();
      for (const BandwidthPoint& pt : c.points)
        pts.push_back(spread_json({{"bytes", pt.bytes}, {"gbps", pt.gbps}}, pt.p10, pt.p90, pt.cv));
      arr.push_back({{"op", c.op},
                     {"group", c.group},
                     {"tier", c.tier},
                     {"alpha_us", seconds_to_us(c.fit.alpha_s)},
                     {"busbw_gbps", c.fit.busbw_gbps},
                     {"points", pts}});
    }
    doc["collectives"]["measured"] = arr;
  }
  if (p.h2d_gbps > 0 || p.d2h_gbps > 0) doc["host_device"] = {{"h2d_gbps", p.h2d_gbps}, {"d2h_gbps", p.d2h_gbps}};
  if (p.usable_memory_bytes > 0) doc["usable_memory_bytes"] = p.usable_memory_bytes;
  json out = json::object();
  for (auto [key, member] : kHostIssueKeys)
    if (p.host_issue.*member > 0) out[key] = p.host_issue.*member;
  if (!out.empty()) doc["host_issue"] = std::move(out);
}

}  // namespace llmc::detail
