// `llmcalc serve`: the registry API and the built site over HTTP (or HTTPS with a certificate),
// on cpp-httplib. Routes and headers: docs/registry.md.
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "llmc/result.h"
#include "llmc_registry/store.h"

namespace httplib {
class Server;
}

namespace llmc::registry {

struct ServerConfig {
  std::string host = "127.0.0.1";         // loopback unless told otherwise
  int port = 8080;                        // 0: any free port (tests)
  std::string site_dir;                   // "" = API only
  std::vector<std::string> cors_origins;  // exact origins ("https://team.example") allowed to call the API from a page
  std::string cert_file, key_file;        // both: HTTPS (PEM files)
  size_t max_body_bytes = size_t(4) << 20;  // uploads; a measured profile is ~110 KB
  int threads = 64;        // one per open connection (cpp-httplib keeps a thread per keep-alive connection)
  bool log_writes = true;  // one stderr line per upload/delete and per server error
};

// Puts the registry's handlers on `svr` (the server below, or a test/fuzz harness's own
// httplib::Server). `site_root` "" = no site; else an absolute canonical directory.
void install_routes(httplib::Server& svr, Store& store, const ServerConfig& cfg, const std::string& site_root);

class RegistryServer {
 public:
  RegistryServer(Store& store, ServerConfig cfg);
  ~RegistryServer();
  // Checks the configuration (site directory, certificate) and binds; returns the port.
  Result<int> bind();
  // Serves until stop() (from any thread); false if the listening socket failed.
  bool run();
  // True once run() accepts connections (stop() before that has no effect).
  bool running() const;
  void stop();

 private:
  Store& store_;
  ServerConfig cfg_;
  std::unique_ptr<httplib::Server> svr_;
};

}  // namespace llmc::registry
