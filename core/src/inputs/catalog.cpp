// Model and GPU presets: JSON data embedded at build time (cmake/embed_data.cmake → presets_data.cpp).

#include "common/json_util.h"
#include "llmc/catalog.h"
#include "llmc/fields.h"

namespace llmc {
namespace data {
struct File {
  const char* name;  // file name without .json: the preset id
  const char* text;
};
extern const File kModels[];
extern const size_t kModelsCount;
extern const File kGpus[];
extern const size_t kGpusCount;
}  // namespace data

using detail::json;

static std::string joined(const std::vector<std::string>& v) {
  std::string out;
  for (const std::string& s : v) out += (out.empty() ? "" : ", ") + s;
  return out;
}

std::vector<std::string> model_preset_ids() {
  std::vector<std::string> ids;
  for (size_t i = 0; i < data::kModelsCount; ++i) ids.emplace_back(data::kModels[i].name);
  return ids;  // already sorted: cmake/embed_data.cmake sorts the files (a test checks the order)
}

std::vector<std::string> gpu_ids() {
  std::vector<std::string> ids;
  for (size_t i = 0; i < data::kGpusCount; ++i) ids.emplace_back(data::kGpus[i].name);
  return ids;  // already sorted, as above
}

Result<ModelPreset> parse_model_file(const std::string& text) {
  Result<json> doc = detail::parse_json(text, "model file");
  if (!doc) return doc.error();
  const json& j = *doc;
  if (!j.is_object() || !j.contains("model") || !j.at("model").is_object())
    return make_error("model file", "must be an object with a \"model\" object (see core/data/models/*.json)");
  ModelPreset p;
  Scenario s;
  for (auto it = j.at("model").begin(); it != j.at("model").end(); ++it) {
    const std::string key = "model." + it.key();
    Result<std::string> t = detail::leaf_text(it.value(), key);
    if (!t) return t.error();
    if (auto st = set_field(s, key, *t); !st) return st.error();
  }
  p.model = s.model;
  auto str = [&](const char* k) {
    return j.contains(k) && j.at(k).is_string() ? j.at(k).get<std::string>() : std::string();
  };
  p.id = str("id");
  p.name = str("name");
  p.source = str("source");
  if (p.model.name.empty()) p.model.name = p.name.empty() ? p.id : p.name;
  if (p.model.source.empty()) p.model.source = p.source;
  if (j.contains("published") && j.at("published").is_object()) {
    const json& pub = j.at("published");
    auto num = [&](const char* k) { return pub.contains(k) && pub.at(k).is_number() ? pub.at(k).get<double>() : 0.0; };
    p.published_total = num("total_params");
    p.published_active = num("active_params");
    p.published_digits = static_cast<int>(num("digits"));
    if (pub.contains("source") && pub.at("source").is_string())
      p.published_source = pub.at("source").get<std::string>();
  }
  return p;
}

Result<ModelPreset> find_model_preset(const std::string& id) {
  for (size_t i = 0; i < data::kModelsCount; ++i)
    if (id == data::kModels[i].name) return parse_model_file(data::kModels[i].text);
  return make_error("model", "unknown preset '" + id + "' (known: " + joined(model_preset_ids()) + ")");
}

namespace {
// The parsed GPU file of `id`, or the unknown-GPU error naming the known ones.
Result<json> gpu_file(const std::string& id) {
  for (size_t i = 0; i < data::kGpusCount; ++i)
    if (id == data::kGpus[i].name) return detail::parse_json(data::kGpus[i].text, "gpu " + id);
  return make_error("hardware.gpu", "unknown GPU '" + id + "' (known: " + joined(gpu_ids()) + ")");
}
}  // namespace

Result<GpuSpec> find_gpu(const std::string& id) {
  Result<json> doc = gpu_file(id);
  if (!doc) return doc.error();
  const json& j = *doc;
  GpuSpec g;
  auto num = [](const json& o, const char* k) {
    return o.contains(k) && o.at(k).is_number() ? o.at(k).get<double>() : 0.0;
  };
  auto str = [](const json& o, const char* k) {
    return o.contains(k) && o.at(k).is_string() ? o.at(k).get<std::string>() : std::string();
  };
  g.id = id;
  g.name = str(j, "name");
  if (!j.contains("peak_dense_tflops") || !j.at("peak_dense_tflops").is_object())
    return make_error("hardware.gpu", "GPU file " + id + ".json has no peak_dense_tflops object");
  const json& pk = j.at("peak_dense_tflops");
  g.peak_fp32_tflops = num(pk, "fp32");
  g.peak_tf32_tflops = num(pk, "tf32");
  g.peak_bf16_tflops = num(pk, "bf16");
  g.peak_fp16_tflops = num(pk, "fp16");
  g.peak_fp8_tflops = num(pk, "fp8");
  g.peak_fp4_tflops = num(pk, "fp4");
  g.peak_int8_tflops = num(pk, "int8");
  g.memory_gib = num(j, "memory_gib");
  g.hbm_bandwidth_gbps = num(j, "hbm_bandwidth_gbps");
  g.scale_up_bandwidth_gbps = num(j, "scale_up_bandwidth_gbps");
  g.tdp_w = num(j, "tdp_w");
  g.gpus_per_node = static_cast<int64_t>(num(j, "gpus_per_node"));
  g.intra_node_bandwidth_gbps = num(j, "intra_node_bandwidth_gbps");
  g.inter_node_bandwidth_gbps = num(j, "inter_node_bandwidth_gbps");
  g.price_per_gpu_hour_usd = num(j, "price_per_gpu_hour_usd");
  g.sm_count = static_cast<int64_t>(num(j, "sm_count"));
  g.compute_capability = num(j, "compute_capability");
  g.boost_clock_mhz = num(j, "boost_clock_mhz");
  g.host_link_gbps = num(j, "host_link_gbps");
  if (j.contains("max_achievable_matmul_tflops") && j.at("max_achievable_matmul_tflops").is_object()) {
    const json& mm = j.at("max_achievable_matmul_tflops");
    g.mamf_bf16_tflops = num(mm, "bf16");
    g.mamf_fp8_tflops = num(mm, "fp8");
  }
  return g;
}

Result<GpuSources> gpu_sources(const std::string& id) {
  Result<json> doc = gpu_file(id);
  if (!doc) return doc.error();
  GpuSources out;
  if (!doc->contains("sources") || !doc->at("sources").is_object()) return out;
  const json& s = doc->at("sources");
  auto str = [&](const char* k) {
    return s.contains(k) && s.at(k).is_string() ? s.at(k).get<std::string>() : std::string();
  };
  out.peaks = str("peaks");
  out.memory = str("memory");
  out.interconnect = str("interconnect");
  out.price = str("price");
  out.max_achievable_matmul = str("max_achievable_matmul");
  out.sm_count = str("sm_count");
  out.compute_capability = str("compute_capability");
  out.boost_clock_mhz = str("boost_clock_mhz");
  out.host_link = str("host_link");
  return out;
}

}  // namespace llmc
