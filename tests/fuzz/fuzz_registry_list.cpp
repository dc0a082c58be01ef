// libFuzzer target: bytes → parse_registry_list() (the registry's list document the page reads
// from any registry a link names) and check_registry_base() (the `?registry=` / `&r=` a person or
// a link gives). Must never crash; a refusal names the entry and key; every accepted entry has a
// 64-hex id, the path profiles/<id>.json and finite non-negative figures; an accepted base has
// no '?', '#' or whitespace and is http(s) or a relative path.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_common.h"
#include "llmc/registry_list.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 65536) return 0;
  const std::string text(reinterpret_cast<const char*>(data), size);
  llmc::Result<std::vector<llmc::RegistryEntry>> list = llmc::parse_registry_list(text);
  if (!list) {
    if (list.error().message.empty() || list.error().field.empty())
      llmc::fuzz::fail("list refused without a field or message");
  } else {
    for (const llmc::RegistryEntry& e : *list) {
      if (!llmc::is_registry_id(e.id)) llmc::fuzz::fail("an accepted entry's id is not 64 hex digits");
      if (e.path != "profiles/" + e.id + ".json")
        llmc::fuzz::fail("an accepted entry's path is not profiles/<id>.json");
      for (const auto& v : {e.gemm_bf16_max_tflops, e.gemm_fp8_max_tflops, e.hbm_copy_tbps, e.all_reduce_busbw_gbps})
        if (v && (!std::isfinite(*v) || *v < 0)) llmc::fuzz::fail("an accepted figure is negative or not finite");
    }
    if (!list->empty()) (void)llmc::registry_entries_for_gpu(*list, list->front().gpu);
  }
  llmc::Result<std::string> base = llmc::check_registry_base(text);
  if (base) {
    if (base->empty()) llmc::fuzz::fail("an accepted registry base is empty");
    for (char c : *base)
      if (c == '?' || c == '#' || c == ' ' || c == '\n' || c == '\t' || (unsigned char)c < 0x20)
        llmc::fuzz::fail("an accepted base holds ?, # or whitespace");
    const bool absolute = base->find("://") != std::string::npos;
    if (absolute && base->rfind("http://", 0) != 0 && base->rfind("https://", 0) != 0)
      llmc::fuzz::fail("an accepted absolute base is not http(s)");
    (void)llmc::registry_url(*base, "index.json");
  } else if (base.error().message.empty()) {
    llmc::fuzz::fail("a base refused without a message");
  }
  return 0;
}
