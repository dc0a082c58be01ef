// The registry's list document as the page reads it (docs/registry.md): entries and their
// figures, the GPU filter, and clear errors for answers that are not a registry list.
#include "llmc/registry_list.h"
#include "test_util.h"

using namespace llmc;
using namespace llmc::test;

namespace {
const std::string kId = "542908c92f0efc2ab9b2c633d43f4a2cc44896144a318c9e855f988d1f0222e9";

std::string entry(const std::string& id, const std::string& gpu, const std::string& extra = "") {
  return R"({"id": ")" + id + R"(", "path": "profiles/)" + id + R"(.json", "gpu": ")" + gpu +
         R"(", "source": "measured", "description": "measured on NVIDIA H100 80GB HBM3", "device": "NVIDIA H100 80GB HBM3",
         "measured_at": "2026-11-22T19:54:18Z", "bench_version": "0.1.0", "bench_git_sha": null, "driver": "580.159.04", "cuda": "13.0",
         "gemm_bf16_max_tflops": 808.3123340576076, "gemm_fp8_max_tflops": 1549.0398886577823, "hbm_copy_tbps": 2.8757869856015477,
         "all_reduce_busbw_gbps": null, "all_reduce_group": null, "label": "cluster-a", "notes": "", "uploaded_at": "2026-11-25T22:22:38Z",
         "uploader": "alice", "bytes": 66487, "a_key_from_later": [1, 2])" +
         extra + "}";
}
std::string list(const std::string& entries, int count = 1) {
  return R"({"api_version": 1, "count": )" + std::to_string(count) + R"(, "profiles": [)" + entries + "]}";
}
}  // namespace

TEST_CASE("a registry list reads into entries with their figures; the GPU filter keeps the order") {
  const std::string other = std::string(63, '0') + "1";
  Result<std::vector<RegistryEntry>> l = parse_registry_list(
      list(entry(kId, "h100-sxm") + "," + entry(other, "h200") + "," +
               entry(std::string(64, 'f'), "h100-sxm", R"(, "all_reduce_busbw_gbps": 360.5, "all_reduce_group": 8)"),
           3));
  REQUIRE(l.ok());
  REQUIRE(l->size() == 3);
  const RegistryEntry& e = (*l)[0];
  CHECK(e.id == kId);
  CHECK(e.path == "profiles/" + kId + ".json");
  CHECK(e.label == "cluster-a");
  CHECK(e.uploader == "alice");
  CHECK(e.uploaded_at == "2026-11-25T22:22:38Z");
  CHECK(*e.gemm_bf16_max_tflops == doctest::Approx(808.3123340576076));
  CHECK(*e.hbm_copy_tbps == doctest::Approx(2.8757869856015477));
  CHECK_FALSE(e.all_reduce_busbw_gbps.has_value());
  CHECK((*l)[2].all_reduce_busbw_gbps.value() == 360.5);
  CHECK((*l)[2].all_reduce_group.value() == 8);
  const std::vector<RegistryEntry> h100 = registry_entries_for_gpu(*l, "h100-sxm");
  REQUIRE(h100.size() == 2);
  CHECK(h100[0].id == kId);
  CHECK(h100[1].id == std::string(64, 'f'));
  CHECK(registry_entries_for_gpu(*l, "b200").empty());
  CHECK(parse_registry_list(list("", 0))->empty());
}

TEST_CASE("answers that are not a registry list are refused with the reason") {
  auto message = [](const std::string& text) {
    Result<std::vector<RegistryEntry>> l = parse_registry_list(text);
    REQUIRE_FALSE(l.ok());
    return l.error().text();
  };
  CHECK(contains(message("<!doctype html><p>not found"), "not valid JSON"));
  CHECK(contains(message("[]"), "must be a JSON object"));
  CHECK(contains(message(R"({"profiles": []})"), "api_version"));
  CHECK(contains(message(R"({"api_version": 2, "profiles": []})"), "reads version 1; got 2"));
  CHECK(contains(message(R"({"api_version": 1})"), "profiles: missing or not an array"));
  CHECK(contains(message(list("7")), "profiles[0]: must be an object"));
  CHECK(contains(message(list(entry("ABC", "h100-sxm"))), "profiles[0].id: must be 64 lower-case hex digits"));
  CHECK(contains(message(list(entry(kId, "h100-sxm", R"(, "path": "../../etc/passwd")"))), "profiles[0].path"));
  CHECK(contains(message(list(entry(kId, "h100-sxm", R"(, "hbm_copy_tbps": -1)"))),
                 "profiles[0].hbm_copy_tbps: must be a non-negative"));
  CHECK(contains(message(list(entry(kId, "h100-sxm", R"(, "gemm_bf16_max_tflops": "fast")"))),
                 "must be a number or null; got string"));
  CHECK(
      contains(message(list(entry(kId, "h100-sxm", R"(, "uploader": 3)"))), "profiles[0].uploader: must be a string"));
  CHECK(contains(message(list(entry(kId, "h100-sxm", R"(, "all_reduce_group": 0)"))), "all_reduce_group"));
  CHECK(
      contains(message(R"({"api_version": 1, "profiles": [{"id": ")" + kId + R"("}]})"), "profiles[0].path: missing"));
}

TEST_CASE("registry bases and ids: what a link or ?registry= may name") {
  CHECK(is_registry_id(kId));
  CHECK_FALSE(is_registry_id(kId.substr(1)));
  CHECK_FALSE(is_registry_id(std::string(64, 'g')));
  CHECK(*check_registry_base("https://reg.example/api/v1/") == "https://reg.example/api/v1");
  CHECK(*check_registry_base("http://127.0.0.1:8080/api/v1") == "http://127.0.0.1:8080/api/v1");
  CHECK(*check_registry_base("api/v1") == "api/v1");
  CHECK(*check_registry_base("/registry") == "/registry");
  CHECK(contains(check_registry_base("").error().message, "empty"));
  CHECK(contains(check_registry_base("javascript:alert(1)").error().message, "http:// or https://"));
  CHECK(contains(check_registry_base("file:///etc").error().message, "http:// or https://"));
  CHECK(contains(check_registry_base("https://").error().message, "no host"));
  CHECK(contains(check_registry_base("https://x/a b").error().message, "space"));
  CHECK(contains(check_registry_base("https://x/?gpu=a").error().message, "query or fragment"));
  CHECK(registry_url("api/v1", "index.json") == "api/v1/index.json");
  CHECK(registry_url("https://x/api/v1/", "/profiles/a.json") == "https://x/api/v1/profiles/a.json");
}
