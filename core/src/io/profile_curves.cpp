#include "llmc/profile_curves.h"

#include <algorithm>
#include <cmath>

namespace llmc {

namespace {

bool usable(double x, double y) { return std::isfinite(x) && std::isfinite(y) && x > 0 && y > 0; }

void finish(std::vector<ProfileCurve>& out, ProfileCurve c) {
  if (c.points.empty()) return;
  std::stable_sort(c.points.begin(), c.points.end(),
                   [](const CurvePoint& a, const CurvePoint& b) { return a.x < b.x; });
  out.push_back(std::move(c));
}

std::string shape_text(double m, double n, double k) {
  auto i = [](double v) { return std::to_string(static_cast<long long>(std::llround(v))); };
  return i(m) + "\xC3\x97" + i(n) + "\xC3\x97" + i(k);
}

std::string kernel_title(const std::string& k) {
  if (k == "hbm_copy") return "HBM copy";
  if (k == "hbm_triad") return "HBM triad";
  return k;
}

std::string op_title(const std::string& op) {
  std::string t = op;
  std::replace(t.begin(), t.end(), '_', '-');
  return t;
}

}  // namespace

std::vector<ProfileCurve> profile_curves(const HardwareProfile& p) {
  std::vector<ProfileCurve> out;
  std::vector<std::string> dtypes;
  for (const char* d : {"bf16", "fp16", "fp8", "tf32"})
    if (p.gemm.count(d)) dtypes.push_back(d);
  for (const auto& [d, t] : p.gemm)
    if (std::find(dtypes.begin(), dtypes.end(), d) == dtypes.end()) dtypes.push_back(d);
  for (const std::string& d : dtypes) {
    const GemmTable& t = p.gemm.find(d)->second;
    ProfileCurve c{"gemm." + d,
                   "GEMM " + d,
                   "FLOPs per GEMM (2\xC2\xB7m\xC2\xB7n\xC2\xB7k)",
                   "TFLOP/s",
                   "gemm." + d + ".points[].tflops",
                   {}};
    for (const GemmPoint& g : t.points) {
      const double flops = 2 * g.m * g.n * g.k;
      if (usable(flops, g.tflops)) c.points.push_back({flops, g.tflops, g.p10, g.p90, shape_text(g.m, g.n, g.k)});
    }
    finish(out, std::move(c));
  }
  std::vector<std::string> kernels;
  if (p.memory_bound.count("hbm_copy")) kernels.push_back("hbm_copy");
  for (const auto& [k, t] : p.memory_bound)
    if (k != "hbm_copy") kernels.push_back(k);
  for (const std::string& k : kernels) {
    const BandwidthTable& t = p.memory_bound.find(k)->second;
    ProfileCurve c{"memory_bound." + k,
                   kernel_title(k),
                   "bytes moved (read + written)",
                   "GB/s",
                   "memory_bound." + k + ".points[].gbps",
                   {}};
    for (const BandwidthPoint& b : t.points)
      if (usable(b.bytes, b.gbps)) c.points.push_back({b.bytes, b.gbps, b.p10, b.p90, ""});
    finish(out, std::move(c));
  }
  std::vector<const CollectiveTable*> colls;
  for (const CollectiveTable& t : p.collectives) colls.push_back(&t);
  std::stable_sort(colls.begin(), colls.end(), [](const CollectiveTable* a, const CollectiveTable* b) {
    if (a->op != b->op) return a->op < b->op;
    if (a->tier != b->tier) return a->tier > b->tier;  // intra_node first
    return a->group < b->group;
  });
  for (const CollectiveTable* t : colls) {
    const std::string key = "collectives." + t->op + "." + t->tier + "." + std::to_string(t->group);
    ProfileCurve c{key,
                   op_title(t->op) + ", " + std::to_string(t->group) + " GPUs, " +
                       (t->tier == "intra_node" ? "intra-node" : "inter-node"),
                   "bytes per rank",
                   "GB/s (bus bandwidth)",
                   "collectives.measured[] (op " + t->op + ", group " + std::to_string(t->group) + ", " + t->tier +
                       ").points[].gbps",
                   {}};
    for (const BandwidthPoint& b : t->points)
      if (usable(b.bytes, b.gbps)) c.points.push_back({b.bytes, b.gbps, b.p10, b.p90, ""});
    finish(out, std::move(c));
  }
  return out;
}

}  // namespace llmc
