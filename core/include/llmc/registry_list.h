// The profile registry's list document (docs/registry.md, "GET /api/v1/profiles"), as the page
// reads it: entries with the figures the list carries, checked so that a bad answer is one clear
// error instead of a half-drawn table. Also the registry's URL rules shared by the page and links:
// a registry id is 64 lower-case hex digits, a registry base is an http(s) URL or a path.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "llmc/result.h"

namespace llmc {

struct RegistryEntry {
  std::string id;    // SHA-256 hex of the stored profile bytes
  std::string path;  // "profiles/<id>.json", relative to the registry base
  std::string gpu, source, description;
  std::string device, measured_at;  // "" when the list says null
  std::string label, notes, uploaded_at, uploader;
  // The list's summary figures; nullopt where the list says null (not measured).
  std::optional<double> gemm_bf16_max_tflops, gemm_fp8_max_tflops, hbm_copy_tbps, all_reduce_busbw_gbps;
  std::optional<long long> all_reduce_group;
  long long bytes = 0;
};

// Parses a list document. Refuses, naming the entry and key: not JSON, not an object, an
// api_version other than 1, a missing or mistyped key, an id that is not 64 lower-case hex
// digits, a path other than "profiles/<id>.json", a figure that is negative, NaN or infinite.
// Keys it does not know are ignored (the registry may add keys).
Result<std::vector<RegistryEntry>> parse_registry_list(const std::string& text);

// The entries for one GPU id, in the list's order (newest upload first).
std::vector<RegistryEntry> registry_entries_for_gpu(const std::vector<RegistryEntry>& all, const std::string& gpu_id);

// True for 64 lower-case hex digits.
bool is_registry_id(const std::string& id);

// Checks a registry base given by a person or a link: "" is refused; an absolute URL must be
// http:// or https://, without a fragment, query or whitespace; anything else must be a relative
// path without "://", '?', '#', whitespace or control characters. Returns it without trailing '/'.
Result<std::string> check_registry_base(const std::string& base);

// "<base>/<rel>" (exactly one '/' between them).
std::string registry_url(const std::string& base, const std::string& rel);

}  // namespace llmc
