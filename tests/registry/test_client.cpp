// The registry client: URL parsing, token sources, retries with exponential back-off on network
// errors and 5xx (bounded), no retry on 4xx, the id checked on pull.
#include <atomic>
#include <cstdlib>

#include "fixture.h"
#include "llmc_registry/client.h"
#include "llmc_registry/sha256.h"

using namespace llmc::registry;
using namespace llmc::registry::test;

namespace {

// A stand-in registry that fails the first `failures` requests with `fail_status`, then answers
// 201 with `body`.
struct Flaky {
  httplib::Server svr;
  std::thread thread;
  int port = 0;
  std::atomic<int> seen{0};
  Flaky(int failures, int fail_status, std::string body) {
    auto handler = [this, failures, fail_status, body](const httplib::Request&, httplib::Response& res) {
      const int n = ++seen;
      res.status = n <= failures ? fail_status : 201;
      res.set_content(n <= failures ? R"({"error":"x","message":"try later"})" : body, "application/json");
    };
    svr.Post(".*", handler);
    svr.Get(".*", handler);
    port = svr.bind_to_any_port("127.0.0.1");
    thread = std::thread([this] { svr.listen_after_bind(); });
  }
  ~Flaky() {
    while (!svr.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    svr.stop();
    thread.join();
  }
  RegistryUrl url() const { return *parse_registry_url("http://127.0.0.1:" + std::to_string(port)); }
};

}  // namespace

TEST_CASE("registry URLs: scheme, host, port and a path prefix") {
  auto a = parse_registry_url("https://llmcalc.team.example/registry/");
  REQUIRE(a.ok());
  CHECK(a->origin == "https://llmcalc.team.example");
  CHECK(a->base_path == "/registry");
  auto b = parse_registry_url("http://127.0.0.1:8080");
  REQUIRE(b.ok());
  CHECK(b->origin == "http://127.0.0.1:8080");
  CHECK(b->base_path.empty());
  for (const char* bad : {"127.0.0.1:8080", "ftp://x", "http://", "http://x/?a=1", "http://user@x/"}) {
    INFO(bad);
    auto r = parse_registry_url(bad);
    REQUIRE(!r.ok());
    CHECK(r.error().field == "--registry");
  }
}

TEST_CASE("back-off: 0.5 s, 1 s, 2 s, 4 s, then capped at 8 s") {
  RetryPolicy p;
  CHECK(backoff_delay_s(p, 2) == 0.5);
  CHECK(backoff_delay_s(p, 3) == 1.0);
  CHECK(backoff_delay_s(p, 4) == 2.0);
  CHECK(backoff_delay_s(p, 5) == 4.0);
  CHECK(backoff_delay_s(p, 6) == 8.0);
  CHECK(backoff_delay_s(p, 9) == 8.0);
}

TEST_CASE("5xx answers are retried with back-off until one succeeds") {
  Flaky f(2, 503, R"({"id":"abc"})");
  RegistryClient c(f.url(), "t", RetryPolicy{5, 0.5, 8});
  std::vector<double> slept;
  std::vector<std::string> log;
  c.set_sleep([&](double s) { slept.push_back(s); });
  c.set_log([&](const std::string& s) { log.push_back(s); });
  Outcome o = c.push("{}");
  CHECK(o.ok());
  CHECK(o.status == 201);
  CHECK(o.attempts == 3);
  CHECK(f.seen == 3);
  CHECK(slept == std::vector<double>{0.5, 1.0});
  REQUIRE(log.size() == 2);
  CHECK(log[0] == "try 1 of 5 failed: HTTP 503 x: try later; retrying in 0.5 s");
}

TEST_CASE("retries are bounded: a registry that keeps failing is given up after the last try") {
  Flaky f(100, 500, "");
  RegistryClient c(f.url(), "t", RetryPolicy{4, 0.5, 8});
  std::vector<double> slept;
  c.set_sleep([&](double s) { slept.push_back(s); });
  Outcome o = c.list();
  CHECK(!o.ok());
  CHECK(!o.refused());
  CHECK(o.status == 500);
  CHECK(o.attempts == 4);
  CHECK(f.seen == 4);
  CHECK(slept == std::vector<double>{0.5, 1.0, 2.0});
  CHECK(o.error == "HTTP 500 x: try later (4 tries)");
}

TEST_CASE("network errors are retried; 4xx are not") {
  // A port nothing listens on: bound (so no one else gets it meanwhile) but never listened on.
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
  socklen_t len = sizeof addr;
  REQUIRE(::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0);
  const int dead_port = ntohs(addr.sin_port);
  RegistryClient c(*parse_registry_url("http://127.0.0.1:" + std::to_string(dead_port)), "", RetryPolicy{3, 0.5, 8});
  int sleeps = 0;
  c.set_sleep([&](double) { ++sleeps; });
  Outcome o = c.list();
  CHECK(o.status == 0);
  CHECK(o.attempts == 3);
  CHECK(sleeps == 2);
  CHECK(o.error.find("cannot connect") == 0);
  ::close(fd);

  Flaky f(100, 401, "");
  RegistryClient d(f.url(), "t", RetryPolicy{5, 0.5, 8});
  d.set_sleep([&](double) { ++sleeps; });
  Outcome u = d.push("{}");
  CHECK(u.refused());
  CHECK(u.attempts == 1);
  CHECK(f.seen == 1);
}

TEST_CASE("pull checks that the bytes hash to the id") {
  Flaky f(0, 0, R"({"schema_version":1})");
  RegistryClient c(f.url());
  const std::string good_id = sha256_hex(R"({"schema_version":1})");
  CHECK(c.pull(good_id).ok());
  Outcome bad = c.pull(std::string(64, 'a'));
  CHECK(!bad.ok());
  CHECK(bad.error.find("does not hash to its id") != std::string::npos);
}

TEST_CASE("the token: --token-file's first line wins over LLMCALC_TOKEN; neither is an error naming both") {
  TempDir d;
  std::ofstream(d.str("tok")) << "  llmc_fromfile \nsecond line\n";
  setenv("LLMCALC_TOKEN", "llmc_fromenv", 1);
  CHECK(*resolve_token(d.str("tok")) == "llmc_fromfile");
  CHECK(*resolve_token("") == "llmc_fromenv");
  unsetenv("LLMCALC_TOKEN");
  auto none = resolve_token("");
  REQUIRE(!none.ok());
  CHECK(none.error().field == "--token-file");
  CHECK(none.error().message.find("LLMCALC_TOKEN") != std::string::npos);
  CHECK(!resolve_token(d.str("missing")).ok());
}

TEST_CASE("push and pull against the real server round-trip the profile") {
  Registry r;
  RegistryClient c(*parse_registry_url(r.url()), r.token);
  const std::string text = source_file("site/profiles/h100-sxm.published.json");
  Outcome pushed = c.push(text, "lab A", "notes & more");
  REQUIRE(pushed.ok());
  CHECK(pushed.status == 201);
  const nlohmann::json j = nlohmann::json::parse(pushed.body);
  CHECK(j["label"] == "lab A");
  CHECK(j["notes"] == "notes & more");
  Outcome pulled = c.pull(j["id"]);
  REQUIRE(pulled.ok());
  CHECK(nlohmann::json::parse(pulled.body) == nlohmann::json::parse(text));
  CHECK(c.push(text).status == 200);
}
