// What the server sends and refuses at the HTTP level: path traversal, CORS for configured
// origins only, nosniff everywhere, a CSP on site pages, HTTPS with --cert/--key.
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509v3.h>

#include "fixture.h"
#include "llmc_registry/client.h"
#include "llmc_registry/static_site.h"

using namespace llmc::registry;
using namespace llmc::registry::test;

namespace {

// A site root with a page, a script, an inline script, a dot-file, and a secret beside the root
// (plus a symlink in the root pointing at it).
struct Site {
  TempDir dir;
  std::string root;
  Site() {
    fs::create_directories(dir.path / "site/docs");
    std::ofstream(dir.path / "site/index.html")
        << "<!doctype html><canvas oncontextmenu=\"event.preventDefault()\"></canvas><script "
           "src=\"app.js\"></script><script>run();</script>";
    std::ofstream(dir.path / "site/app.js") << "function run() {}";
    std::ofstream(dir.path / "site/app.wasm") << "\0asm";
    std::ofstream(dir.path / "site/docs/index.html") << "<p>docs</p>";
    std::ofstream(dir.path / "site/.env") << "SECRET=1";
    std::ofstream(dir.path / "secret.txt") << "SECRET=2";
    fs::create_symlink(dir.path / "secret.txt", dir.path / "site/link.txt");
    root = fs::canonical(dir.path / "site").string();
  }
};

ServerConfig with_site(const std::string& root, std::vector<std::string> origins = {}) {
  ServerConfig c;
  c.site_dir = root;
  c.cors_origins = std::move(origins);
  return c;
}

}  // namespace

TEST_CASE("the site is served with its types, and nothing outside it: traversal in every spelling is a 404") {
  Site site;
  Registry r(with_site(site.root));
  auto index = r.client().Get("/");
  REQUIRE(index);
  CHECK(index->status == 200);
  CHECK(index->get_header_value("Content-Type") == "text/html; charset=utf-8");
  CHECK(r.client().Get("/app.wasm")->get_header_value("Content-Type") == "application/wasm");
  CHECK(r.client().Get("/app.js")->get_header_value("Content-Type") == "text/javascript; charset=utf-8");
  CHECK(r.client().Get("/docs/")->body == "<p>docs</p>");
  for (const std::string path :
       {"/../secret.txt", "/docs/../../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E%2Fsecret.txt",
        "/docs/..%2f..%2fsecret.txt", "/..\\secret.txt", "/link.txt", "/.env", "/./index.html", "//etc/passwd",
        "/docs//index.html", "/index.html%00.png", "/docs"}) {
    const std::string raw = raw_request(r.port, "GET " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    INFO(path << " -> " << raw.substr(0, 200));
    CHECK(status_of(raw) == 404);
    CHECK(raw.find("SECRET") == std::string::npos);
    CHECK(raw.find("Content-Type: application/json") != std::string::npos);
  }
}

TEST_CASE("resolve_site_file refuses what would leave the root") {
  Site site;
  SiteFile f;
  CHECK(!resolve_site_file(site.root, "/index.html", f));
  CHECK(f.path == site.root + "/index.html");
  for (const char* p :
       {"/../secret.txt", "/link.txt", "/.env", "/a/../index.html", "", "index.html", "/docs", "/x\\y"}) {
    INFO(p);
    CHECK(resolve_site_file(site.root, p, f).has_value());
  }
}

TEST_CASE("every response says nosniff; pages carry a CSP that admits their inline scripts by hash, API answers none") {
  Site site;
  Registry r(with_site(site.root));
  for (const char* path : {"/", "/app.js", "/api/v1/profiles", "/api/v1/profiles/zzz", "/healthz", "/missing"}) {
    auto res = r.client().Get(path);
    REQUIRE(res);
    INFO(path);
    CHECK(res->get_header_value("X-Content-Type-Options") == "nosniff");
  }
  auto bad = r.upload("nope", r.token);
  CHECK(bad->get_header_value("X-Content-Type-Options") == "nosniff");
  const std::string csp = r.client().Get("/")->get_header_value("Content-Security-Policy");
  CHECK(csp.find("default-src 'self'") != std::string::npos);
  CHECK(csp.find("object-src 'none'") != std::string::npos);
  CHECK(csp.find("'unsafe-eval'") == std::string::npos);  // only 'wasm-unsafe-eval'
  // sha256 of "run();" in base64 (the inline script of index.html above; `printf "run();" | openssl dgst -sha256
  // -binary | base64`).
  CHECK(csp.find("'sha256-" + std::string("vUOElbTHLp1UxxGV/I6teJfpCV5vgaasYjEhPKN2fqQ=") + "'") != std::string::npos);
  // The canvas's inline handler, admitted by its hash only (`printf "event.preventDefault()" | ...`).
  CHECK(csp.find("'unsafe-hashes' 'sha256-" + std::string("cwPror8N/Ds4hiaerviPOQ1rJd1zjNrEPnNZvr5x7Z8=") + "'") !=
        std::string::npos);
  const std::string script_src =
      csp.substr(csp.find("script-src"), csp.find(';', csp.find("script-src")) - csp.find("script-src"));
  CHECK(script_src.find("'unsafe-inline'") == std::string::npos);  // scripts: only what is hashed
  CHECK(r.client().Get("/app.js")->get_header_value("Content-Security-Policy").empty());
  CHECK(r.client().Get("/api/v1/profiles")->get_header_value("Content-Security-Policy").empty());
  // An uploaded label with markup comes back as JSON only.
  auto up = r.upload(source_file("site/profiles/h100-sxm.published.json"), r.token,
                     "?label=%3Cscript%3Ealert(1)%3C%2Fscript%3E");
  REQUIRE(up->status == 201);
  auto list = r.client().Get("/api/v1/profiles");
  CHECK(list->get_header_value("Content-Type") == "application/json");
  CHECK(body_json(list)["profiles"][0]["label"] == "<script>alert(1)</script>");
}

TEST_CASE("CORS: only configured origins, on the API only") {
  Registry r(with_site("", {"https://team.example"}));
  httplib::Headers ok{{"Origin", "https://team.example"}}, evil{{"Origin", "https://evil.example"}};
  auto a = r.client().Get("/api/v1/profiles", ok);
  CHECK(a->get_header_value("Access-Control-Allow-Origin") == "https://team.example");
  CHECK(a->get_header_value("Access-Control-Expose-Headers") == "ETag, Location");
  CHECK(a->get_header_value("Vary") == "Origin");
  auto b = r.client().Get("/api/v1/profiles", evil);
  CHECK(!b->has_header("Access-Control-Allow-Origin"));
  CHECK(b->status == 200);  // the answer is public; the browser just does not hand it to that page
  httplib::Headers pre_ok{{"Origin", "https://team.example"},
                          {"Access-Control-Request-Method", "POST"},
                          {"Access-Control-Request-Headers", "authorization, content-type"}};
  auto p = r.client().Options("/api/v1/profiles", pre_ok);
  CHECK(p->status == 204);
  CHECK(p->get_header_value("Access-Control-Allow-Origin") == "https://team.example");
  CHECK(p->get_header_value("Access-Control-Allow-Methods") == "GET, HEAD, POST, DELETE");
  CHECK(p->get_header_value("Access-Control-Allow-Headers") == "Authorization, Content-Type, If-None-Match");
  httplib::Headers pre_evil{{"Origin", "https://evil.example"}, {"Access-Control-Request-Method", "POST"}};
  auto q = r.client().Options("/api/v1/profiles", pre_evil);
  CHECK(q->status == 403);
  CHECK(!q->has_header("Access-Control-Allow-Origin"));
  CHECK(body_json(q)["error"] == "cors_origin_not_allowed");
  // Without --cors-origin, no origin is allowed.
  Registry closed;
  CHECK(!closed.client().Get("/api/v1/profiles", ok)->has_header("Access-Control-Allow-Origin"));
  CHECK(closed.client().Options("/api/v1/profiles", pre_ok)->status == 403);
}

namespace {

// A self-signed certificate for 127.0.0.1 (OpenSSL's API: no openssl command needed).
void write_self_signed(const std::string& cert_path, const std::string& key_path) {
  EVP_PKEY* key = EVP_RSA_gen(2048);
  REQUIRE(key);
  X509* x = X509_new();
  ASN1_INTEGER_set(X509_get_serialNumber(x), 1);
  X509_gmtime_adj(X509_getm_notBefore(x), -60);
  X509_gmtime_adj(X509_getm_notAfter(x), 3600);
  X509_set_pubkey(x, key);
  X509_NAME* name = X509_get_subject_name(x);
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char*>("127.0.0.1"), -1, -1, 0);
  X509_set_issuer_name(x, name);
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, x, x, nullptr, nullptr, 0);
  X509_EXTENSION* san = X509V3_EXT_conf_nid(nullptr, &ctx, NID_subject_alt_name, "IP:127.0.0.1");
  REQUIRE(san);
  X509_add_ext(x, san, -1);
  X509_EXTENSION_free(san);
  REQUIRE(X509_sign(x, key, EVP_sha256()) > 0);
  FILE* f = std::fopen(cert_path.c_str(), "w");
  PEM_write_X509(f, x);
  std::fclose(f);
  f = std::fopen(key_path.c_str(), "w");
  PEM_write_PrivateKey(f, key, nullptr, nullptr, 0, nullptr, nullptr);
  std::fclose(f);
  X509_free(x);
  EVP_PKEY_free(key);
}

}  // namespace

TEST_CASE("HTTPS with --cert/--key: the client verifies the certificate, and refuses one it cannot verify") {
  TempDir certs;
  write_self_signed(certs.str("cert.pem"), certs.str("key.pem"));
  ServerConfig cfg;
  cfg.cert_file = certs.str("cert.pem");
  cfg.key_file = certs.str("key.pem");
  Registry r(cfg);
  auto url = parse_registry_url("https://127.0.0.1:" + std::to_string(r.port));
  REQUIRE(url.ok());
  RegistryClient trusting(*url, r.token, {1}, certs.str("cert.pem"));
  Outcome pushed = trusting.push(source_file("site/profiles/h100-sxm.published.json"));
  INFO(pushed.error);
  CHECK(pushed.status == 201);
  CHECK(trusting.list().ok());
  RegistryClient system_cas(*url, "", {1});
  Outcome refused = system_cas.list();
  CHECK(refused.status == 0);
  CHECK(refused.error.find("TLS") != std::string::npos);
  // Plain HTTP to the HTTPS port gets no answer.
  httplib::Client plain("127.0.0.1", r.port);
  plain.set_read_timeout(2);
  auto res = plain.Get("/healthz");
  CHECK((!res || res->status == 400));
  // A key that does not match is refused at start.
  TempDir other;
  write_self_signed(other.str("cert.pem"), other.str("key.pem"));
  TempDir data;
  auto store = Store::open(data.str());
  REQUIRE(store.ok());
  ServerConfig bad;
  bad.port = 0;
  bad.cert_file = certs.str("cert.pem");
  bad.key_file = other.str("key.pem");
  RegistryServer s(**store, bad);
  auto bound = s.bind();
  REQUIRE(!bound.ok());
  CHECK(bound.error().field == "--cert");
}
