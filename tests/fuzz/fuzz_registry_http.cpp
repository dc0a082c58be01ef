// libFuzzer target: raw bytes → one HTTP request through cpp-httplib's request parsing and the
// registry's handlers (`llmcalc serve`: upload, list, fetch, delete, CORS preflight, the static
// site), against a real store in a scratch directory. "TOKEN" and "ADMIN" in the input are
// replaced by a valid upload token and an admin token, so mutations reach the upload and delete
// paths behind authentication. Checks on every response: it is a complete HTTP response with
// nosniff, an error from the API is JSON, and nothing outside the site root is ever served.
#include <httplib.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "fuzz_common.h"
#include "llmc_registry/server.h"
#include "llmc_registry/store.h"

namespace {

namespace fs = std::filesystem;

class BytesStream : public httplib::Stream {
 public:
  explicit BytesStream(std::string in) : in_(std::move(in)) {}
  bool is_readable() const override { return true; }
  bool is_writable() const override { return true; }
  ssize_t read(char* ptr, size_t size) override {
    const size_t n = std::min(size, in_.size() - pos_);
    std::copy_n(in_.data() + pos_, n, ptr);
    pos_ += n;
    return ssize_t(n);
  }
  ssize_t write(const char* ptr, size_t size) override {
    out_.append(ptr, size);
    return ssize_t(size);
  }
  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    ip = "127.0.0.1";
    port = 40000;
  }
  void get_local_ip_and_port(std::string& ip, int& port) const override {
    ip = "127.0.0.1";
    port = 8080;
  }
  socket_t socket() const override { return 0; }
  const std::string& out() const { return out_; }

 private:
  std::string in_, out_;
  size_t pos_ = 0;
};

// process_request() is protected: the harness is a server that feeds it one stream.
class FuzzServer : public httplib::Server {
 public:
  void handle(httplib::Stream& s) {
    bool closed = false;
    process_request(s, false, closed, nullptr);
  }
};

struct World {
  std::string dir, token, admin;
  std::unique_ptr<llmc::registry::Store> store;
  FuzzServer server;
};

World* world = nullptr;

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (size_t p = 0; (p = s.find(from, p)) != std::string::npos; p += to.size()) s.replace(p, from.size(), to);
  return s;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // A RAM-backed scratch directory when there is one: the store fsyncs every upload.
  std::string tmpl = (fs::exists("/dev/shm") ? std::string("/dev/shm") : fs::temp_directory_path().string()) +
                     "/llmc-fuzz-registry-XXXXXX";
  if (!mkdtemp(tmpl.data())) llmc::fuzz::fail("cannot create a scratch directory");
  world = new World;
  world->dir = tmpl;
  std::atexit([] {
    std::error_code ec;
    fs::remove_all(world->dir, ec);
  });
  fs::create_directories(world->dir + "/site/docs");
  std::ofstream(world->dir + "/site/index.html") << "<!doctype html><script>go();</script>";
  std::ofstream(world->dir + "/site/docs/a.json") << "{}";
  std::ofstream(world->dir + "/outside.txt") << "SECRET-OUTSIDE-ROOT";
  fs::create_symlink(world->dir + "/outside.txt", world->dir + "/site/link.txt");
  auto s = llmc::registry::Store::open(world->dir + "/data");
  if (!s) llmc::fuzz::fail("store: " + s.error().text());
  world->store = std::move(s).value();
  world->token = *world->store->add_token("fuzz", false);
  world->admin = *world->store->add_token("fuzz-admin", true);
  llmc::registry::ServerConfig cfg;
  cfg.cors_origins = {"https://team.example"};
  cfg.max_body_bytes = 256 * 1024;
  cfg.log_writes = false;
  llmc::registry::install_routes(world->server, *world->store, cfg, fs::canonical(world->dir + "/site").string());
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 300 * 1024) return 0;
  std::string in(reinterpret_cast<const char*>(data), size);
  in = replace_all(replace_all(in, "ADMIN", world->admin), "TOKEN", world->token);
  // Error messages quote the input (the JSON parser's "last read"): the marker counts only when
  // the request did not carry it itself.
  const bool marker_in_input = in.find("SECRET-OUTSIDE-ROOT") != std::string::npos;
  BytesStream s(std::move(in));
  world->server.handle(s);
  std::string out = s.out();
  const std::string interim = "HTTP/1.1 100 Continue\r\n\r\n";  // Expect: 100-continue's first answer
  if (out.rfind(interim, 0) == 0) out.erase(0, interim.size());
  if (out.empty()) return 0;  // the connection "closed" before a request line
  if (out.rfind("HTTP/1.1 ", 0) != 0) llmc::fuzz::fail("response without a status line: " + out.substr(0, 80));
  const size_t head_end = out.find("\r\n\r\n");
  if (head_end == std::string::npos) llmc::fuzz::fail("response headers not terminated");
  const std::string head = out.substr(0, head_end);
  if (head.find("\r\nX-Content-Type-Options: nosniff") == std::string::npos)
    llmc::fuzz::fail("response without nosniff:\n" + head);
  if (!marker_in_input && out.find("SECRET-OUTSIDE-ROOT") != std::string::npos)
    llmc::fuzz::fail("a file outside the site root was served:\n" + head);
  const int status = std::atoi(out.c_str() + 9);
  const bool has_body = out.size() > head_end + 4;
  if (status >= 400 && has_body && head.find("\r\nContent-Type: application/json") == std::string::npos)
    llmc::fuzz::fail("an error that is not JSON:\n" + head);
  return 0;
}
