#include "llmc_bench/overheads_import.h"

#include <map>
#include <nlohmann/json.hpp>

namespace llmc::bench {

namespace {
using json = nlohmann::json;

// A run's forward + backward: host seconds and kernels issued.
struct Sample {
  double layers = 0, host_s = 0, items = 0;
};

Result<double> positive(const json& obj, const char* key, const std::string& path, double hi) {
  if (!obj.is_object() || !obj.contains(key) || !obj.at(key).is_number())
    return make_error(path + "." + key, "must be a number");
  const double v = obj.at(key).get<double>();
  if (!(v > 0 && v < hi))
    return make_error(path + "." + key, "must be in (0, " + std::to_string(hi) + "); got " + std::to_string(v));
  return v;
}
}  // namespace

Result<HostIssue> import_overheads(const std::string& text) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception& e) {
    return make_error("overheads-json", std::string("not valid JSON: ") + e.what());
  }
  if (!j.is_object() || !j.contains("runs") || !j.at("runs").is_array())
    return make_error("overheads-json", "must be an object with a \"runs\" array (gpu/groundtruth/overheads.py)");
  std::map<std::string, std::map<double, Sample>> by_mode;  // elementwise → layers → sample
  for (std::size_t i = 0; i < j.at("runs").size(); ++i) {
    const json& run = j.at("runs")[i];
    const std::string path = "overheads-json.runs[" + std::to_string(i) + "]";
    if (!run.is_object()) return make_error(path, "must be an object");
    if (run.value("optimizer", "") != "fused") continue;  // the foreach AdamW's extra kernels are not per layer
    const std::string mode = run.value("elementwise", "");
    if (mode != "eager" && mode != "compiled")
      return make_error(path + ".elementwise", "must be eager or compiled; got '" + mode + "'");
    Result<double> layers = positive(run, "layers", path, 10000);
    if (!layers) return layers.error();
    Sample s{*layers, 0, 0};
    for (const char* phase : {"forward", "backward"}) {
      // Bounds: a step's phase takes under 10 s and issues under a million kernels.
      if (!run.contains("host_s") || !run.contains("device_items"))
        return make_error(path, "needs host_s and device_items");
      Result<double> h = positive(run.at("host_s"), phase, path + ".host_s", 10);
      if (!h) return h.error();
      Result<double> n = positive(run.at("device_items"), phase, path + ".device_items", 1e6);
      if (!n) return n.error();
      s.host_s += *h, s.items += *n;
    }
    by_mode[mode][s.layers] = s;
  }
  HostIssue out;
  for (const auto& [mode, runs] : by_mode) {
    if (runs.size() < 2) continue;
    const Sample &lo = runs.begin()->second, &hi = runs.rbegin()->second;
    if (!(hi.items > lo.items && hi.host_s > lo.host_s))
      return make_error("overheads-json.runs",
                        mode + ": the deeper run must issue more kernels and take longer than the shallower one");
    (mode == "eager" ? out.python_eager_us : out.python_fused_us) =
        (hi.host_s - lo.host_s) / (hi.items - lo.items) * 1e6;
  }
  if (out.python_eager_us <= 0 && out.python_fused_us <= 0)
    return make_error("overheads-json.runs", "no mode with two depths of the fused AdamW (eager or compiled)");
  return out;
}

}  // namespace llmc::bench
