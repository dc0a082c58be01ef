#include "llmc/profile.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "common/json_util.h"
#include "inputs/profile_reader.h"
#include "llmc/catalog.h"

namespace llmc {

using detail::json;

namespace detail {

Result<double> profile_number(const json& obj, const std::string& key, const std::string& path, double lo, double hi,
                              bool lo_open) {
  const std::string field = "profile: " + path + key;
  if (!obj.contains(key)) return make_error(field, "missing");
  const json& v = obj.at(key);
  if (!v.is_number()) return make_error(field, std::string("must be a number; got ") + safe_dump(v));
  const double x = v.get<double>();
  const bool below = lo_open ? !(x > lo) : !(x >= lo);
  if (!std::isfinite(x) || below || x > hi) {
    char range[96];
    std::snprintf(range, sizeof range, "%s%g, %g]", lo_open ? "(" : "[", lo, hi);
    return make_error(field, std::string("must be in ") + range + "; got " + safe_dump(v));
  }
  return x;
}

}  // namespace detail

namespace {

using detail::profile_number;

Result<AlphaBeta> tier(const json& coll, const char* name) {
  const std::string path = std::string("collectives.") + name + ".";
  if (!coll.contains(name) || !coll.at(name).is_object())
    return make_error("profile: collectives." + std::string(name), "missing (an object with alpha_us and busbw_gbps)");
  const json& t = coll.at(name);
  // Latency: NCCL's smallest collectives take ~5-50 µs; above 10 ms something is wrong.
  Result<double> alpha = profile_number(t, "alpha_us", path, 0, 10000, false);
  if (!alpha) return alpha.error();
  // Bus bandwidth: no link today exceeds ~2 TB/s per GPU one way; 10 TB/s is implausible.
  Result<double> bw = profile_number(t, "busbw_gbps", path, 0, 10000, true);
  if (!bw) return bw.error();
  return AlphaBeta{*alpha * 1e-6, *bw};
}

}  // namespace

Result<HardwareProfile> profile_from_json(const std::string& text) {
  Result<json> doc = detail::parse_json(text, "profile");
  if (!doc) return doc.error();
  const json& j = *doc;
  if (!j.is_object()) return make_error("profile", std::string("must be a JSON object; got ") + j.type_name());
  static const char* known[] = {
      "schema_version", "gpu",  "source",    "description",  "metadata",    "citations",           "compute_efficiency",
      "collectives",    "gemm", "attention", "memory_bound", "host_device", "usable_memory_bytes", "host_issue"};
  for (auto it = j.begin(); it != j.end(); ++it) {
    bool ok = false;
    for (const char* k : known) ok |= it.key() == k;
    if (!ok)
      return make_error(
          "profile: " + it.key(),
          "unknown key in schema v1 (known: schema_version, gpu, source, description, metadata, citations, "
          "compute_efficiency, collectives, gemm, attention, memory_bound, host_device, usable_memory_bytes, "
          "host_issue)");
  }
  if (!j.contains("schema_version") || !j.at("schema_version").is_number_integer())
    return make_error("profile: schema_version", "missing or not an integer; this llmcalc reads schema_version 1");
  const int64_t version = j.at("schema_version").get<int64_t>();
  if (version != kProfileSchemaVersion)
    return make_error("profile: schema_version",
                      "unknown version " + std::to_string(version) + "; this llmcalc reads schema_version 1");
  HardwareProfile p;
  if (!j.contains("gpu") || !j.at("gpu").is_string())
    return make_error("profile: gpu", "missing (a GPU id such as h100-sxm)");
  p.gpu_id = j.at("gpu").get<std::string>();
  Result<GpuSpec> gpu = find_gpu(p.gpu_id);
  if (!gpu) return make_error("profile: gpu", gpu.error().message);
  if (!j.contains("source") || !j.at("source").is_string())
    return make_error("profile: source", "missing (measured, published or datasheet)");
  p.source = j.at("source").get<std::string>();
  if (p.source != "measured" && p.source != "published" && p.source != "datasheet")
    return make_error("profile: source", "must be one of {measured, published, datasheet}; got '" + p.source + "'");
  if (j.contains("description")) {
    if (!j.at("description").is_string()) return make_error("profile: description", "must be a string");
    p.description = j.at("description").get<std::string>();
  }
  if (p.source != "measured" &&
      (!j.contains("citations") || !j.at("citations").is_array() || j.at("citations").empty()))
    return make_error("profile: citations",
                      "a " + p.source + " profile must cite its sources (a non-empty array of strings)");
  if (j.contains("citations")) {
    if (!j.at("citations").is_array()) return make_error("profile: citations", "must be an array of strings");
    for (const auto& c : j.at("citations")) {
      if (!c.is_string())
        return make_error("profile: citations", "must be an array of strings; got " + detail::safe_dump(c));
      p.citations.push_back(c.get<std::string>());
    }
  }
  if (j.contains("metadata")) {
    if (!j.at("metadata").is_object()) return make_error("profile: metadata", "must be an object");
    p.metadata_json = detail::safe_dump(j.at("metadata"));
  }
  Result<double> eff = profile_number(j, "compute_efficiency", "", 0, 1, true);
  if (!eff) return eff.error();
  p.compute_efficiency = *eff;
  p.compute_efficiency_source = p.source + " profile";
  if (!j.contains("collectives") || !j.at("collectives").is_object())
    return make_error("profile: collectives", "missing (intra_node and inter_node objects)");
  Result<AlphaBeta> intra = tier(j.at("collectives"), "intra_node");
  if (!intra) return intra.error();
  Result<AlphaBeta> inter = tier(j.at("collectives"), "inter_node");
  if (!inter) return inter.error();
  p.intra_node = *intra;
  p.inter_node = *inter;
  p.comm_source = p.source + " profile";
  if (Status st = detail::read_profile_tables(j, *gpu, p); !st) return st.error();
  if (p.description.empty()) p.description = p.source + " profile for " + p.gpu_id;
  return p;
}

std::string profile_to_json(const HardwareProfile& p) {
  detail::json j;
  j["schema_version"] = p.schema_version;
  j["gpu"] = p.gpu_id;
  j["source"] = p.source;
  j["description"] = p.description;
  if (!p.citations.empty())
    j["citations"] = p.citations;
  else
    j["citations"] = detail::json::array({p.compute_efficiency_source, p.comm_source});
  if (!p.metadata_json.empty()) {
    if (Result<json> m = detail::parse_json(p.metadata_json, "metadata"); m && m->is_object()) j["metadata"] = *m;
  }
  j["compute_efficiency"] = p.compute_efficiency;
  j["collectives"] = {
      {"intra_node",
       {{"alpha_us", detail::seconds_to_us(p.intra_node.alpha_s)}, {"busbw_gbps", p.intra_node.busbw_gbps}}},
      {"inter_node",
       {{"alpha_us", detail::seconds_to_us(p.inter_node.alpha_s)}, {"busbw_gbps", p.inter_node.busbw_gbps}}}};
  detail::write_profile_tables(p, j);
  return detail::safe_dump(j, 2);
}

void attach_profile(Scenario& s, const HardwareProfile& p) {
  s.hardware.profile = std::make_shared<const HardwareProfile>(p);
  s.hardware.profile_loaded = true;
}

}  // namespace llmc
