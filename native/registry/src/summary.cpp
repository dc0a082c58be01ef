#include "llmc_registry/summary.h"

#include <string>

namespace llmc::registry {
namespace {

using ojson = nlohmann::ordered_json;

// Free-form metadata strings are shown in a list: at most this many bytes, cut at a UTF-8
// character boundary.
constexpr size_t kMaxShownBytes = 200;

ojson shown_string(const std::string& s) {
  if (s.size() <= kMaxShownBytes) return s;
  size_t cut = kMaxShownBytes;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;  // not inside a character
  return s.substr(0, cut) + "…";
}

ojson meta_string(const nlohmann::json& meta, const char* key) {
  if (!meta.is_object()) return nullptr;
  auto it = meta.find(key);
  if (it == meta.end() || !it->is_string()) return nullptr;
  return shown_string(it->get<std::string>());
}

ojson positive_or_null(double v) { return v > 0 ? ojson(v) : ojson(nullptr); }

}  // namespace

ojson summary_fields(const HardwareProfile& p) {
  // metadata_json was validated by the loader as an object (or is empty).
  const nlohmann::json meta =
      p.metadata_json.empty() ? nlohmann::json() : nlohmann::json::parse(p.metadata_json, nullptr, false);
  ojson s;
  s["gpu"] = p.gpu_id;
  s["source"] = p.source;
  s["description"] = shown_string(p.description);
  s["device"] = meta_string(meta, "device");
  s["measured_at"] = meta_string(meta, "date");
  s["bench_version"] = meta_string(meta, "tool_version");
  s["bench_git_sha"] = meta_string(meta, "git_sha");
  s["driver"] = meta_string(meta, "driver");
  ojson cuda = meta_string(meta, "cuda_runtime");  // the bench writes cuda_runtime; hand-written files "cuda"
  s["cuda"] = cuda.is_null() ? meta_string(meta, "cuda") : cuda;
  auto gemm = [&](const char* dtype) {
    auto it = p.gemm.find(dtype);
    return it == p.gemm.end() ? ojson(nullptr) : positive_or_null(it->second.max_tflops);
  };
  s["gemm_bf16_max_tflops"] = gemm("bf16");
  s["gemm_fp8_max_tflops"] = gemm("fp8");
  auto hbm = p.memory_bound.find("hbm_copy");
  s["hbm_copy_tbps"] = hbm == p.memory_bound.end() ? ojson(nullptr) : positive_or_null(hbm->second.fit.peak / 1000.0);
  // The measured all-reduce of the largest group, inside a node if measured there (the tier the
  // bench measures on one machine); the profile's required intra_node/inter_node pair may be a
  // datasheet default, so it is not shown as a measurement.
  const CollectiveTable* best = nullptr;
  for (const CollectiveTable& c : p.collectives) {
    if (c.op != "all_reduce" || c.fit.busbw_gbps <= 0) continue;
    auto rank = [](const CollectiveTable& t) { return std::pair(t.tier == "intra_node" ? 1 : 0, t.group); };
    if (!best || rank(c) > rank(*best)) best = &c;
  }
  s["all_reduce_busbw_gbps"] = best ? ojson(best->fit.busbw_gbps) : ojson(nullptr);
  s["all_reduce_group"] = best ? ojson(best->group) : ojson(nullptr);
  return s;
}

}  // namespace llmc::registry
