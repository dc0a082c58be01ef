// Reading the registry: the list (its documented shape, ?gpu=, ETag), single profiles (immutable:
// ETag = id, long cache, 304), the static-export paths the page uses, /healthz.
#include "fixture.h"
#include "llmc_registry/profile_intake.h"
#include "llmc_registry/sha256.h"

using namespace llmc::registry;
using namespace llmc::registry::test;

namespace {

std::string upload_id(Registry& r, const std::string& rel, const std::string& query = "") {
  auto res = r.upload(source_file(rel), r.token, query);
  REQUIRE(res);
  REQUIRE(res->status == 201);
  return body_json(res)["id"];
}

}  // namespace

TEST_CASE("the list: every documented key, newest first, ?gpu= filters") {
  Registry r;
  const std::string a100 = upload_id(r, "site/profiles/a100-sxm-80gb.published.json");
  const std::string h100 = upload_id(r, "site/profiles/h100-sxm.json", "?label=cluster-b");
  auto res = r.client().Get("/api/v1/profiles");
  const nlohmann::json j = body_json(res);
  CHECK(res->status == 200);
  CHECK(j["api_version"] == 1);
  CHECK(j["count"] == 2);
  REQUIRE(j["profiles"].size() == 2);
  const std::vector<std::string> keys{"id",
                                      "path",
                                      "gpu",
                                      "source",
                                      "description",
                                      "device",
                                      "measured_at",
                                      "bench_version",
                                      "bench_git_sha",
                                      "driver",
                                      "cuda",
                                      "gemm_bf16_max_tflops",
                                      "gemm_fp8_max_tflops",
                                      "hbm_copy_tbps",
                                      "all_reduce_busbw_gbps",
                                      "all_reduce_group",
                                      "label",
                                      "notes",
                                      "uploaded_at",
                                      "uploader",
                                      "bytes"};
  for (const auto& p : j["profiles"]) {
    std::vector<std::string> have;
    for (auto it = p.begin(); it != p.end(); ++it) have.push_back(it.key());
    std::sort(have.begin(), have.end());
    std::vector<std::string> want = keys;
    std::sort(want.begin(), want.end());
    CHECK(have == want);
  }
  // Same upload second: ties broken by insertion, newest first.
  CHECK(j["profiles"][0]["id"] == h100);
  CHECK(j["profiles"][1]["id"] == a100);
  // The measured H100 profile (site/profiles/h100-sxm.json): bench 0.1.0 at 1f1492a1e6f0, driver
  // 580.159.04, CUDA 13.0, bf16 808.3 TFLOP/s, fp8 1549.0, HBM copy fit 2875.8 GB/s; its NCCL
  // suite was skipped (one GPU), so no all-reduce figure.
  const auto& m = j["profiles"][0];
  CHECK(m["bench_version"] == "0.1.0");
  CHECK(m["bench_git_sha"] == "1f1492a1e6f0");
  CHECK(m["driver"] == "580.159.04");
  CHECK(m["cuda"] == "13.0");
  CHECK(m["device"] == "NVIDIA H100 80GB HBM3");
  CHECK(m["gemm_bf16_max_tflops"].get<double>() == doctest::Approx(808.312).epsilon(1e-5));
  CHECK(m["gemm_fp8_max_tflops"].get<double>() == doctest::Approx(1549.04).epsilon(1e-5));
  CHECK(m["hbm_copy_tbps"].get<double>() == doctest::Approx(2.87579).epsilon(1e-5));
  CHECK(m["all_reduce_busbw_gbps"].is_null());
  CHECK(m["label"] == "cluster-b");

  const nlohmann::json only = body_json(r.client().Get("/api/v1/profiles?gpu=a100-sxm-80gb"));
  REQUIRE(only["profiles"].size() == 1);
  CHECK(only["profiles"][0]["id"] == a100);
  CHECK(body_json(r.client().Get("/api/v1/profiles?gpu=v100"))["count"] == 0);
  auto bad = r.client().Get("/api/v1/profiles?gpu=%3Cscript%3E");
  REQUIRE(bad);
  CHECK(bad->status == 400);
  CHECK(body_json(bad)["field"] == "gpu");
}

TEST_CASE("a profile is immutable: ETag is its id, cached for a year, If-None-Match gives 304") {
  Registry r;
  const std::string id = upload_id(r, "site/profiles/h100-sxm.published.json");
  auto res = r.client().Get("/api/v1/profiles/" + id);
  REQUIRE(res);
  CHECK(res->status == 200);
  CHECK(res->get_header_value("ETag") == "\"" + id + "\"");
  CHECK(res->get_header_value("Cache-Control") == "public, max-age=31536000, immutable");
  CHECK(res->get_header_value("Content-Type") == "application/json");
  httplib::Headers inm{{"If-None-Match", "\"" + id + "\""}};
  auto not_modified = r.client().Get("/api/v1/profiles/" + id, inm);
  REQUIRE(not_modified);
  CHECK(not_modified->status == 304);
  CHECK(not_modified->body.empty());
  httplib::Headers several{{"If-None-Match", "\"abc\", W/\"" + id + "\""}};
  CHECK(r.client().Get("/api/v1/profiles/" + id, several)->status == 304);
  httplib::Headers other{{"If-None-Match", "\"" + std::string(64, 'a') + "\""}};
  CHECK(r.client().Get("/api/v1/profiles/" + id, other)->status == 200);
  // The list's ETag changes when the list does.
  auto list = r.client().Get("/api/v1/profiles");
  const std::string list_tag = list->get_header_value("ETag");
  CHECK(list->get_header_value("Cache-Control") == "no-cache");
  CHECK(r.client().Get("/api/v1/profiles", {{"If-None-Match", list_tag}})->status == 304);
  upload_id(r, "site/profiles/a100-sxm-80gb.published.json");
  auto changed = r.client().Get("/api/v1/profiles", {{"If-None-Match", list_tag}});
  CHECK(changed->status == 200);
  CHECK(changed->get_header_value("ETag") != list_tag);
}

TEST_CASE("the static export's paths answer too: /api/v1/index.json and /api/v1/profiles/ID.json") {
  Registry r;
  const std::string id = upload_id(r, "site/profiles/h100-sxm.published.json");
  CHECK(r.client().Get("/api/v1/index.json")->body == r.client().Get("/api/v1/profiles")->body);
  CHECK(r.client().Get("/api/v1/profiles/" + id + ".json")->body == r.client().Get("/api/v1/profiles/" + id)->body);
}

TEST_CASE("unknown ids and paths are JSON 404s; wrong methods 405 with Allow") {
  Registry r;
  auto unknown = r.client().Get("/api/v1/profiles/" + std::string(64, 'a'));
  CHECK(unknown->status == 404);
  CHECK(body_json(unknown)["error"] == "not_found");
  auto malformed = r.client().Get("/api/v1/profiles/ABC");
  CHECK(malformed->status == 404);
  CHECK(body_json(malformed)["message"].get<std::string>().find("64 lower-case hex digits") != std::string::npos);
  CHECK(r.client().Get("/api/v2/profiles")->status == 404);
  auto put = r.client().Put("/api/v1/profiles", "{}", "application/json");
  CHECK(put->status == 405);
  CHECK(put->get_header_value("Allow") == "GET, HEAD, POST, DELETE");
  auto post_one = r.client().Post("/api/v1/profiles/" + std::string(64, 'a'), "{}", "application/json");
  CHECK(post_one->status == 405);
  CHECK(body_json(post_one)["error"] == "method_not_allowed");
  // No site configured: "/" says so.
  auto root = r.client().Get("/");
  CHECK(root->status == 404);
  CHECK(body_json(root)["message"].get<std::string>().find("--site") != std::string::npos);
}

TEST_CASE("/healthz: status, schema version, profile count") {
  Registry r;
  upload_id(r, "site/profiles/h100-sxm.published.json");
  const nlohmann::json j = body_json(r.client().Get("/healthz"));
  CHECK(j["status"] == "ok");
  CHECK(j["schema_version"] == 2);
  CHECK(j["profiles"] == 1);
}

TEST_CASE("reads are cached, and see every change at once: an upload, a delete, a write by another process") {
  Registry r;
  const std::string id = upload_id(r, "site/profiles/h100-sxm.published.json");
  CHECK(body_json(r.client().Get("/api/v1/profiles"))["count"] == 1);  // cached now
  CHECK(r.client().Get("/api/v1/profiles/" + id)->status == 200);      // cached now
  // Another process's store on the same file (as `llmcalc serve import` while the server runs).
  auto other = Store::open_file(r.store->path());
  REQUIRE(other.ok());
  Intake in;
  REQUIRE(!take_in_profile(source_file("site/profiles/a100-sxm-80gb.published.json"), in));
  REQUIRE((*other)->put_profile(in, "", "", "local").ok());
  CHECK(body_json(r.client().Get("/api/v1/profiles"))["count"] == 2);
  CHECK(body_json(r.client().Get("/healthz"))["profiles"] == 2);
  REQUIRE(*(*other)->delete_profile(id, "boss", "stale"));
  CHECK(r.client().Get("/api/v1/profiles/" + id)->status == 410);
  CHECK(body_json(r.client().Get("/api/v1/profiles"))["count"] == 1);
}
