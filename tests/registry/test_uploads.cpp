// Uploads: what is stored, what is refused (each refusal: its status, a JSON error that says
// what is wrong, and nothing stored), idempotency.
#include "fixture.h"
#include "llmc/profile.h"
#include "llmc_registry/sha256.h"

using namespace llmc::registry;
using namespace llmc::registry::test;

namespace {

const std::string kPublished = "site/profiles/h100-sxm.published.json";

// A refusal: status, error code, and the registry unchanged (no profile, no audit record).
void check_refused(Registry& r, const httplib::Result& res, int status, const std::string& code) {
  REQUIRE(res);
  CHECK(res->status == status);
  CHECK(res->get_header_value("Content-Type") == "application/json");
  CHECK(res->get_header_value("X-Content-Type-Options") == "nosniff");
  const nlohmann::json j = body_json(res);
  CHECK(j["error"] == code);
  CHECK(j["status"] == status);
  CHECK(j["message"].get<std::string>().size() > 10);
  CHECK(r.listed() == 0);
  auto audit = r.store->audit_log();
  REQUIRE(audit.ok());
  for (const AuditRecord& a : *audit) CHECK(a.action != "upload");
}

}  // namespace

TEST_CASE("an upload is stored under the SHA-256 of its canonical JSON and served byte for byte") {
  Registry r;
  const std::string text = source_file(kPublished);
  auto res = r.upload(text, r.token, "?label=cluster-a&notes=8%C3%97H100%20node%0Asecond%20line");
  REQUIRE(res);
  CHECK(res->status == 201);
  const nlohmann::json j = body_json(res);
  const std::string canonical = nlohmann::json::parse(text).dump();  // std::map: keys sorted, no spaces
  CHECK(j["id"] == sha256_hex(canonical));
  CHECK(j["created"] == true);
  CHECK(j["gpu"] == "h100-sxm");
  CHECK(j["source"] == "published");
  CHECK(j["label"] == "cluster-a");
  CHECK(j["notes"] == "8×H100 node\nsecond line");
  CHECK(j["uploader"] == "uploader");
  CHECK(j["bytes"] == canonical.size());
  CHECK(j["path"] == "profiles/" + j["id"].get<std::string>() + ".json");
  CHECK(res->get_header_value("Location") == "/api/v1/profiles/" + j["id"].get<std::string>());
  // Summary figures, from the file: gemm.bf16.max_tflops 794.5, gemm.fp8.max_tflops 1402.6,
  // memory_bound.hbm_copy.fit.peak_gbps 2900, all-reduce over 8 GPUs in a node 454.18 GB/s.
  CHECK(j["gemm_bf16_max_tflops"].get<double>() == doctest::Approx(794.5));
  CHECK(j["gemm_fp8_max_tflops"].get<double>() == doctest::Approx(1402.6));
  CHECK(j["hbm_copy_tbps"].get<double>() == doctest::Approx(2.9));
  CHECK(j["all_reduce_busbw_gbps"].get<double>() == doctest::Approx(454.184).epsilon(1e-5));
  CHECK(j["all_reduce_group"] == 8);
  CHECK(j["bench_version"].is_null());  // a published profile names no bench run

  auto got = r.client().Get("/api/v1/profiles/" + j["id"].get<std::string>());
  REQUIRE(got);
  CHECK(got->status == 200);
  CHECK(got->body == canonical);
  CHECK(sha256_hex(got->body) == j["id"]);
  CHECK(llmc::profile_from_json(got->body).ok());
  CHECK(r.listed() == 1);
}

TEST_CASE(
    "the same profile again is the same id (200), whatever its spacing and key order; metadata of the first upload "
    "kept") {
  Registry r;
  const std::string text = source_file(kPublished);
  auto first = r.upload(text, r.token, "?label=first");
  REQUIRE(first);
  REQUIRE(first->status == 201);
  // Re-serialised with indentation and reversed key order: the same JSON value.
  nlohmann::ordered_json reordered;
  const nlohmann::ordered_json orig = nlohmann::ordered_json::parse(text);
  for (auto it = orig.rbegin(); it != orig.rend(); ++it) reordered[it.key()] = it.value();
  auto again = r.upload(reordered.dump(4), r.admin_token, "?label=second");
  REQUIRE(again);
  CHECK(again->status == 200);
  const nlohmann::json a = body_json(first), b = body_json(again);
  CHECK(b["id"] == a["id"]);
  CHECK(b["created"] == false);
  CHECK(b["label"] == "first");
  CHECK(b["uploader"] == "uploader");
  CHECK(r.listed() == 1);
  // A different profile is a different id.
  auto other = r.upload(source_file("site/profiles/a100-sxm-80gb.published.json"), r.token);
  REQUIRE(other);
  CHECK(other->status == 201);
  CHECK(body_json(other)["id"] != a["id"]);
  CHECK(r.listed() == 2);
}

TEST_CASE("bad uploads are refused with their status and a JSON error, and nothing is stored") {
  Registry r;
  const std::string good = source_file(kPublished);
  SUBCASE("not JSON") {
    auto res = r.upload("this is not JSON", r.token);
    check_refused(r, res, 400, "not_json");
    CHECK(body_json(res)["message"].get<std::string>().find("parse error at line 1, column 2") != std::string::npos);
  }
  SUBCASE("empty body") { check_refused(r, r.upload("", r.token), 400, "not_json"); }
  SUBCASE("a profile core's loader refuses: the loader's message, as `llmcalc profile --check` prints it") {
    nlohmann::ordered_json p = nlohmann::ordered_json::parse(good);
    p["compute_efficiency"] = 1.5;
    auto res = r.upload(p.dump(), r.token);
    check_refused(r, res, 400, "invalid_profile");
    const nlohmann::json j = body_json(res);
    CHECK(j["message"] == "profile: compute_efficiency: must be in (0, 1]; got 1.5");
    CHECK(j["field"] == "profile: compute_efficiency");
    CHECK(j["message"] == llmc::profile_from_json(p.dump()).error().text());
  }
  SUBCASE("an unknown GPU") {
    nlohmann::ordered_json p = nlohmann::ordered_json::parse(good);
    p["gpu"] = "b300-imaginary";
    auto res = r.upload(p.dump(), r.token);
    check_refused(r, res, 400, "invalid_profile");
    CHECK(body_json(res)["field"] == "profile: gpu");
  }
  SUBCASE("a 100 MB body: 413 (read and discarded, never buffered)") {
    const std::string big(100u << 20, ' ');
    auto res = r.upload(big, r.token);
    check_refused(r, res, 413, "too_large");
    CHECK(body_json(res)["message"].get<std::string>().find("4194304 bytes") != std::string::npos);
  }
  SUBCASE("a 100 MB body announced with Expect: 100-continue is refused before it is sent") {
    const std::string raw = raw_request(
        r.port, "POST /api/v1/profiles HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + r.token +
                    "\r\nContent-Type: application/json\r\nContent-Length: 104857600\r\nExpect: 100-continue\r\n\r\n");
    CHECK(status_of(raw) == 413);
    CHECK(raw.find("\"too_large\"") != std::string::npos);
    CHECK(r.listed() == 0);
  }
  SUBCASE("a body without a length (chunked) is refused before it is read: 411") {
    const std::string raw = raw_request(
        r.port, "POST /api/v1/profiles HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + r.token +
                    "\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{}{}{\r\n0\r\n\r\n");
    CHECK(status_of(raw) == 411);
    CHECK(raw.find("\"length_required\"") != std::string::npos);
    CHECK(r.listed() == 0);
  }
  SUBCASE("10^5-deep nesting") {
    const std::string deep = std::string(100000, '[') + std::string(100000, ']');
    auto res = r.upload(deep, r.token);
    check_refused(r, res, 400, "json_too_deep");
    // Also inside an otherwise valid profile's metadata (free-form: the loader would accept depth).
    nlohmann::ordered_json p = nlohmann::ordered_json::parse(good);
    std::string text = p.dump();
    text.insert(text.size() - 1, ",\"metadata\":" + std::string(70, '[') + std::string(70, ']'));
    check_refused(r, r.upload(text, r.token), 400, "json_too_deep");
  }
  SUBCASE("no token") {
    auto res = r.upload(good, "");
    check_refused(r, res, 401, "unauthorized");
    CHECK(res->get_header_value("WWW-Authenticate") == "Bearer realm=\"llmcalc\"");
    CHECK(body_json(res)["message"].get<std::string>().find("Authorization: Bearer") != std::string::npos);
  }
  SUBCASE("not a Bearer token") {
    httplib::Headers h{{"Authorization", "Basic dXNlcjpwYXNz"}};
    check_refused(r, r.client().Post("/api/v1/profiles", h, good, "application/json"), 401, "unauthorized");
  }
  SUBCASE("a wrong token") {
    auto res = r.upload(good, "llmc_" + std::string(64, '0'));
    check_refused(r, res, 401, "unauthorized");
    CHECK(body_json(res)["message"] == "unknown token (not issued by this registry)");
    // One character off the real token.
    std::string near = r.token;
    near.back() = near.back() == '0' ? '1' : '0';
    check_refused(r, r.upload(good, near), 401, "unauthorized");
  }
  SUBCASE("a revoked token, revoked while the server runs") {
    REQUIRE(r.store->revoke_token("uploader").ok());
    auto res = r.upload(good, r.token);
    check_refused(r, res, 401, "unauthorized");
    CHECK(body_json(res)["message"].get<std::string>().find("token 'uploader' was revoked on ") == 0);
  }
  SUBCASE("a body that is not declared JSON: 415") {
    httplib::Headers h{{"Authorization", "Bearer " + r.token}};
    check_refused(r, r.client().Post("/api/v1/profiles", h, good, "text/plain"), 415, "unsupported_media_type");
  }
  SUBCASE("a label over 100 characters, or with control characters") {
    auto res = r.upload(good, r.token, "?label=" + std::string(101, 'x'));
    check_refused(r, res, 400, "bad_request");
    CHECK(body_json(res)["message"] == "label: at most 100 characters; got 101");
    check_refused(r, r.upload(good, r.token, "?label=a%1Bb"), 400, "bad_request");
    check_refused(r, r.upload(good, r.token, "?notes=%FF"), 400, "bad_request");
  }
}

TEST_CASE("a non-admin DELETE is refused (403) and deletes nothing; an admin's is soft and audited") {
  Registry r;
  auto up = r.upload(source_file(kPublished), r.token);
  REQUIRE(up);
  const std::string id = body_json(up)["id"];
  httplib::Headers user{{"Authorization", "Bearer " + r.token}}, admin{{"Authorization", "Bearer " + r.admin_token}};
  auto res = r.client().Delete("/api/v1/profiles/" + id, user);
  REQUIRE(res);
  CHECK(res->status == 403);
  CHECK(body_json(res)["error"] == "forbidden");
  CHECK(body_json(res)["message"].get<std::string>().find("admin token") != std::string::npos);
  CHECK(r.listed() == 1);
  auto none = r.client().Delete("/api/v1/profiles/" + id);
  REQUIRE(none);
  CHECK(none->status == 401);
  CHECK(r.listed() == 1);

  auto del = r.client().Delete("/api/v1/profiles/" + id + "?reason=wrong%20clocks", admin);
  REQUIRE(del);
  CHECK(del->status == 200);
  CHECK(body_json(del)["deleted_by"] == "boss");
  CHECK(r.listed() == 0);
  auto gone = r.client().Get("/api/v1/profiles/" + id);
  REQUIRE(gone);
  CHECK(gone->status == 410);
  CHECK(body_json(gone)["error"] == "gone");
  // Soft: the row and its bytes are still in the database, with who and when.
  auto kept = r.store->get_profile(id);
  REQUIRE(kept.ok());
  REQUIRE(kept->has_value());
  CHECK((*kept)->first.deleted_by == "boss");
  CHECK(!(*kept)->first.deleted_at.empty());
  auto audit = r.store->audit_log();
  REQUIRE(audit.ok());
  bool logged = false;
  for (const AuditRecord& a : *audit)
    logged |= a.action == "delete" && a.actor == "boss" && a.target == id && a.detail == "wrong clocks";
  CHECK(logged);
  auto twice = r.client().Delete("/api/v1/profiles/" + id, admin);
  REQUIRE(twice);
  CHECK(twice->status == 410);
  // Uploading it again restores it (same id), as a new upload.
  auto back = r.upload(source_file(kPublished), r.token);
  REQUIRE(back);
  CHECK(back->status == 201);
  CHECK(body_json(back)["id"] == id);
  CHECK(r.listed() == 1);
}
