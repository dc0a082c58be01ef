#include "llmc_bench/attention_import.h"

#include <nlohmann/json.hpp>

#include "llmc_bench/profile_builder.h"

namespace llmc::bench {

size_t ImportedAttention::points() const {
  size_t n = 0;
  for (const auto& [key, pts] : tables) n += pts.size();
  return n;
}

namespace {
// llmcalc's name of the kernel that ran a point (training.attention_backend), or "" for kernels
// llmcalc does not name (SDPA's memory-efficient attention, or a point PyTorch chose itself).
std::string backend_name(const std::string& ran) {
  if (ran == "cudnn") return "cudnn";
  if (ran == "flash" || ran == "fa2") return "fa2";  // PyTorch SDPA's flash backend is FlashAttention-2
  if (ran == "fa3") return "fa3";
  if (ran == "flex") return "flex";  // PyTorch's FlexAttention
  return "";
}
}  // namespace

Result<ImportedAttention> import_attention_samples(const std::string& text) {
  using json = nlohmann::json;
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception& e) {
    return make_error("attention-json", std::string("not valid JSON: ") + e.what());
  }
  if (!j.is_object() || !j.contains("points") || !j["points"].is_array())
    return make_error("attention-json", "must be an object with a \"points\" array");
  ImportedAttention out;
  out.dtype = j.value("dtype", std::string("bf16"));
  if (out.dtype != "bf16" && out.dtype != "fp16")
    return make_error("attention-json.dtype", "must be bf16 or fp16; got " + out.dtype);
  out.backend = j.value("backend", std::string("unknown"));
  for (std::size_t i = 0; i < j["points"].size(); ++i) {
    const json& p = j["points"][i];
    const std::string path = "attention-json.points[" + std::to_string(i) + "]";
    int64_t v[5];
    const char* keys[5] = {"batch", "seq_len", "heads", "kv_heads", "head_dim"};
    for (int k = 0; k < 5; ++k) {
      if (!p.contains(keys[k]) || !p[keys[k]].is_number_integer() || p[keys[k]].get<int64_t>() < 1)
        return make_error(path + "." + keys[k], "must be a positive integer");
      v[k] = p[keys[k]].get<int64_t>();
    }
    if (v[2] % v[3]) return make_error(path + ".kv_heads", "must divide heads");
    if (!p.contains("causal") || !p["causal"].is_boolean())
      return make_error(path + ".causal", "must be true or false");
    std::vector<double> fwd, bwd;
    for (const char* key : {"fwd_seconds", "bwd_seconds"}) {
      if (!p.contains(key) || !p[key].is_array() || p[key].empty())
        return make_error(path + "." + key, "must be a non-empty array of seconds");
      for (const json& x : p[key]) {
        if (!x.is_number() || !(x.get<double>() > 0))
          return make_error(path + "." + key, "every sample must be a positive number");
        (key[0] == 'f' ? fwd : bwd).push_back(x.get<double>());
      }
    }
    if (p.contains("backend") && !p["backend"].is_string()) return make_error(path + ".backend", "must be a string");
    const std::string backend = backend_name(p.value("backend", std::string()));
    out.tables[backend.empty() ? out.dtype : out.dtype + "." + backend].push_back(
        attention_point(v[0], v[1], v[2], v[3], v[4], p["causal"].get<bool>(), fwd, bwd));
  }
  return out;
}

}  // namespace llmc::bench
