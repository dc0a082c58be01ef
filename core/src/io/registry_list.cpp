#include "llmc/registry_list.h"

#include <cmath>

#include "common/json_util.h"

namespace llmc {

namespace {

using detail::json;

Result<std::string> string_key(const json& e, const std::string& where, const char* key, bool nullable) {
  auto it = e.find(key);
  if (it == e.end()) return make_error(where + "." + key, "missing");
  if (it->is_null() && nullable) return std::string();
  if (!it->is_string()) return make_error(where + "." + key, std::string("must be a string; got ") + it->type_name());
  return it->get<std::string>();
}

// A figure of the list: a non-negative finite number, or null (nullopt). Absent counts as null
// (older registries may not list every figure).
Result<std::optional<double>> figure_key(const json& e, const std::string& where, const char* key) {
  auto it = e.find(key);
  if (it == e.end() || it->is_null()) return std::optional<double>();
  if (!it->is_number())
    return make_error(where + "." + key, std::string("must be a number or null; got ") + it->type_name());
  const double v = it->get<double>();
  if (!std::isfinite(v) || v < 0)
    return make_error(where + "." + key, "must be a non-negative finite number; got " + detail::safe_dump(*it));
  return std::optional<double>(v);
}

}  // namespace

bool is_registry_id(const std::string& id) {
  if (id.size() != 64) return false;
  for (char c : id)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

Result<std::vector<RegistryEntry>> parse_registry_list(const std::string& text) {
  Result<json> parsed = detail::parse_json(text, "registry list");
  if (!parsed) return parsed.error();
  const json& doc = *parsed;
  if (!doc.is_object())
    return make_error("registry list", std::string("must be a JSON object; got ") + doc.type_name());
  auto ver = doc.find("api_version");
  if (ver == doc.end() || !ver->is_number_integer())
    return make_error("registry list: api_version", "missing or not an integer");
  if (ver->get<long long>() != 1)
    return make_error("registry list: api_version", "this page reads version 1; got " + detail::safe_dump(*ver));
  auto list = doc.find("profiles");
  if (list == doc.end() || !list->is_array()) return make_error("registry list: profiles", "missing or not an array");
  std::vector<RegistryEntry> out;
  for (size_t i = 0; i < list->size(); ++i) {
    const json& e = (*list)[i];
    const std::string where = "registry list: profiles[" + std::to_string(i) + "]";
    if (!e.is_object()) return make_error(where, std::string("must be an object; got ") + e.type_name());
    RegistryEntry r;
    struct S {
      const char* key;
      std::string RegistryEntry::*dst;
      bool nullable;
    } strings[] = {{"id", &RegistryEntry::id, false},
                   {"path", &RegistryEntry::path, false},
                   {"gpu", &RegistryEntry::gpu, false},
                   {"source", &RegistryEntry::source, false},
                   {"description", &RegistryEntry::description, true},
                   {"device", &RegistryEntry::device, true},
                   {"measured_at", &RegistryEntry::measured_at, true},
                   {"label", &RegistryEntry::label, true},
                   {"notes", &RegistryEntry::notes, true},
                   {"uploaded_at", &RegistryEntry::uploaded_at, false},
                   {"uploader", &RegistryEntry::uploader, false}};
    for (const S& s : strings) {
      Result<std::string> v = string_key(e, where, s.key, s.nullable);
      if (!v) return v.error();
      r.*(s.dst) = *v;
    }
    if (!is_registry_id(r.id))
      return make_error(where + ".id",
                        "must be 64 lower-case hex digits (a SHA-256); got '" + r.id.substr(0, 80) + "'");
    if (r.path != "profiles/" + r.id + ".json")
      return make_error(where + ".path",
                        "must be 'profiles/<id>.json' for this entry's id; got '" + r.path.substr(0, 120) + "'");
    struct F {
      const char* key;
      std::optional<double> RegistryEntry::*dst;
    } figures[] = {{"gemm_bf16_max_tflops", &RegistryEntry::gemm_bf16_max_tflops},
                   {"gemm_fp8_max_tflops", &RegistryEntry::gemm_fp8_max_tflops},
                   {"hbm_copy_tbps", &RegistryEntry::hbm_copy_tbps},
                   {"all_reduce_busbw_gbps", &RegistryEntry::all_reduce_busbw_gbps}};
    for (const F& f : figures) {
      Result<std::optional<double>> v = figure_key(e, where, f.key);
      if (!v) return v.error();
      r.*(f.dst) = *v;
    }
    if (auto g = e.find("all_reduce_group"); g != e.end() && !g->is_null()) {
      if (!g->is_number_integer() || g->get<long long>() < 1)
        return make_error(where + ".all_reduce_group",
                          "must be a positive integer or null; got " + detail::safe_dump(*g));
      r.all_reduce_group = g->get<long long>();
    }
    if (auto b = e.find("bytes"); b != e.end()) {
      if (!b->is_number_integer() || b->get<long long>() < 0)
        return make_error(where + ".bytes", "must be a non-negative integer; got " + detail::safe_dump(*b));
      r.bytes = b->get<long long>();
    }
    out.push_back(std::move(r));
  }
  return out;
}

std::vector<RegistryEntry> registry_entries_for_gpu(const std::vector<RegistryEntry>& all, const std::string& gpu_id) {
  std::vector<RegistryEntry> out;
  for (const RegistryEntry& e : all)
    if (e.gpu == gpu_id) out.push_back(e);
  return out;
}

Result<std::string> check_registry_base(const std::string& base) {
  if (base.empty()) return make_error("registry", "empty; give the registry's base URL, e.g. https://host/api/v1");
  if (base.size() > 2000) return make_error("registry", "longer than 2000 characters");
  for (unsigned char c : base)
    if (c <= 0x20 || c == 0x7F)
      return make_error("registry", "contains a space or a control character: '" + base.substr(0, 80) + "'");
  if (base.find('#') != std::string::npos || base.find('?') != std::string::npos)
    return make_error("registry", "must not carry a query or fragment ('?', '#'): '" + base.substr(0, 80) + "'");
  const size_t scheme = base.find("://");
  if (scheme != std::string::npos) {
    const std::string s = base.substr(0, scheme);
    if (s != "http" && s != "https")
      return make_error("registry", "must be an http:// or https:// URL; got '" + base.substr(0, 80) + "'");
    if (base.size() == scheme + 3) return make_error("registry", "has no host: '" + base + "'");
  } else if (base.find(':') != std::string::npos && base.find(':') < base.find('/')) {
    return make_error("registry", "must be an http:// or https:// URL or a path; got '" + base.substr(0, 80) +
                                      "'");  // javascript:, data:
  }
  std::string out = base;
  while (out.size() > 1 && out.back() == '/') out.pop_back();
  return out;
}

std::string registry_url(const std::string& base, const std::string& rel) {
  std::string b = base;
  while (!b.empty() && b.back() == '/') b.pop_back();
  size_t i = 0;
  while (i < rel.size() && rel[i] == '/') ++i;
  return b + "/" + rel.substr(i);
}

}  // namespace llmc
