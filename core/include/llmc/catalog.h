// Presets shipped as data (core/data/models/*.json, core/data/gpus/*.json), embedded at build time.
#pragma once
#include <string>
#include <vector>

#include "llmc/hardware.h"
#include "llmc/model.h"
#include "llmc/result.h"

namespace llmc {

struct ModelPreset {
  std::string id, name, source;
  ModelSpec model;
  double published_total = 0, published_active = 0;
  int published_digits = 0;  // significant digits of the published total (0: exact)
  std::string published_source;
};

std::vector<std::string> model_preset_ids();
std::vector<std::string> gpu_ids();
Result<ModelPreset> find_model_preset(const std::string& id);
Result<GpuSpec> find_gpu(const std::string& id);

// Where a GPU preset's figures come from (its file's `sources`; empty where it has none, and
// in the embed module, whose catalog copy leaves the citations out).
struct GpuSources {
  std::string peaks, memory, interconnect, price, max_achievable_matmul, sm_count, compute_capability, boost_clock_mhz,
      host_link;
};
Result<GpuSources> gpu_sources(const std::string& id);

// A model file in the preset format ({"model": {...}} with optional id/name/source).
Result<ModelPreset> parse_model_file(const std::string& json_text);
// A Hugging Face config.json (llama, mistral, mixtral, qwen2, gemma2, deepseek_v3).
Result<ModelSpec> model_from_hf_config(const std::string& json_text);

}  // namespace llmc
