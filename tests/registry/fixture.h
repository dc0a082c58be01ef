// A registry for one test: a fresh data directory, the store, and `llmcalc serve`'s server in
// this process on an ephemeral 127.0.0.1 port, with an upload token and an admin token. Plus
// raw-socket requests for what an HTTP client library would tidy up (paths with "..", chunked
// bodies, Expect: 100-continue).
#pragma once
#include <doctest/doctest.h>
#include <httplib.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>

#include "llmc_registry/server.h"
#include "llmc_registry/store.h"

namespace llmc::registry::test {

namespace fs = std::filesystem;

inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline std::string source_file(const std::string& rel) { return read_text(std::string(LLMC_SOURCE_DIR) + "/" + rel); }

// A fresh directory under the system's temp dir, removed with the object.
struct TempDir {
  fs::path path;
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "llmc-registry-test-XXXXXX").string();
    REQUIRE(mkdtemp(tmpl.data()) != nullptr);
    path = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  std::string str(const std::string& rel = "") const { return rel.empty() ? path.string() : (path / rel).string(); }
};

struct Registry {
  TempDir dir;
  std::unique_ptr<Store> store;
  std::unique_ptr<RegistryServer> server;
  std::thread thread;
  int port = 0;
  std::string token, admin_token;

  explicit Registry(ServerConfig cfg = {}) {
    auto s = Store::open(dir.str("data"));
    REQUIRE_MESSAGE(s.ok(), (s ? "" : s.error().text()));
    store = std::move(s).value();
    token = *store->add_token("uploader", false);
    admin_token = *store->add_token("boss", true);
    cfg.host = "127.0.0.1";
    cfg.port = 0;
    cfg.log_writes = false;
    server = std::make_unique<RegistryServer>(*store, cfg);
    Result<int> p = server->bind();
    REQUIRE_MESSAGE(p.ok(), (p ? "" : p.error().text()));
    port = *p;
    thread = std::thread([this] { server->run(); });
  }
  ~Registry() {
    // stop() acts on a running server only: wait until the accept loop has started.
    for (int i = 0; i < 5000 && !server->running(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    server->stop();
    thread.join();
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port); }
  httplib::Client client() const {
    httplib::Client c("127.0.0.1", port);
    c.set_read_timeout(30);
    c.set_write_timeout(30);
    return c;
  }
  httplib::Result upload(const std::string& body, const std::string& tok, const std::string& query = "") const {
    httplib::Headers h;
    if (!tok.empty()) h.emplace("Authorization", "Bearer " + tok);
    return client().Post("/api/v1/profiles" + query, h, body, "application/json");
  }
  size_t listed() const {
    auto l = store->list_profiles();
    REQUIRE(l.ok());
    return l->size();
  }
};

// The parsed JSON body of a response (REQUIREs JSON).
inline nlohmann::json body_json(const httplib::Result& r) {
  REQUIRE(r);
  nlohmann::json j = nlohmann::json::parse(r->body, nullptr, false);
  INFO(r->body.substr(0, 300));
  REQUIRE(!j.is_discarded());
  return j;
}

// One request written byte for byte on a fresh connection; returns the first response (status
// line, headers and a Content-Length body), or what came before the server closed or 5 s passed.
// The connection is not half-closed: cpp-httplib takes a half-closed socket for a closed one.
inline std::string raw_request(int port, const std::string& bytes) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  REQUIRE(fd >= 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(uint16_t(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
  timeval tv{5, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  size_t sent = 0;
  while (sent < bytes.size()) {
    const ssize_t n = ::send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) break;
    sent += size_t(n);
  }
  std::string out;
  char buf[4096];
  ssize_t n;
  while ((n = ::recv(fd, buf, sizeof buf, 0)) > 0) {
    out.append(buf, size_t(n));
    const size_t head_end = out.find("\r\n\r\n");
    if (head_end == std::string::npos) continue;
    size_t length = 0;
    const size_t cl = out.find("Content-Length: ");
    if (cl != std::string::npos && cl < head_end) length = std::stoul(out.substr(cl + 16));
    if (out.size() >= head_end + 4 + length) break;
  }
  ::close(fd);
  return out;
}

// "HTTP/1.1 404 Not Found\r\n..." → 404; 0 when there is no status line.
inline int status_of(const std::string& raw) {
  if (raw.rfind("HTTP/1.1 ", 0) != 0 || raw.size() < 12) return 0;
  return std::stoi(raw.substr(9, 3));
}

}  // namespace llmc::registry::test
