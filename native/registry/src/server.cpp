#include "llmc_registry/server.h"

#include <httplib.h>

#include <filesystem>

namespace llmc::registry {

RegistryServer::RegistryServer(Store& store, ServerConfig cfg) : store_(store), cfg_(std::move(cfg)) {}
RegistryServer::~RegistryServer() = default;

Result<int> RegistryServer::bind() {
  std::string site_root;
  if (!cfg_.site_dir.empty()) {
    std::error_code ec;
    const auto root = std::filesystem::canonical(cfg_.site_dir, ec);
    if (ec || !std::filesystem::is_directory(root)) return make_error("--site", "not a directory: " + cfg_.site_dir);
    site_root = root.string();
  }
  if (cfg_.cert_file.empty() != cfg_.key_file.empty())
    return make_error("--cert", "give both --cert and --key for HTTPS, or neither");
  if (!cfg_.cert_file.empty()) {
    auto tls = std::make_unique<httplib::SSLServer>(cfg_.cert_file.c_str(), cfg_.key_file.c_str());
    if (!tls->is_valid())
      return make_error("--cert", "cannot load the certificate " + cfg_.cert_file + " and key " + cfg_.key_file +
                                      " (PEM files; the key must match)");
    svr_ = std::move(tls);
  } else {
    svr_ = std::make_unique<httplib::Server>();
  }
  const int threads = cfg_.threads;
  svr_->new_task_queue = [threads] { return new httplib::ThreadPool(size_t(threads)); };
  svr_->set_keep_alive_max_count(1000);  // the default (5) would reconnect a page every 5 requests
  // cpp-httplib writes headers and body separately: with Nagle's algorithm on, the body waits
  // for the client's delayed ACK, 40 ms per response on Linux (seen: every GET took 44 ms).
  svr_->set_tcp_nodelay(true);
  install_routes(*svr_, store_, cfg_, site_root);
  int port = cfg_.port;
  if (port == 0) {
    port = svr_->bind_to_any_port(cfg_.host);
    if (port < 0) return make_error("--host", "cannot bind to " + cfg_.host);
  } else if (!svr_->bind_to_port(cfg_.host, port)) {
    return make_error("--port", "cannot bind to " + cfg_.host + ":" + std::to_string(port) +
                                    " (in use, or not an address of this machine)");
  }
  return port;
}

bool RegistryServer::run() { return svr_ && svr_->listen_after_bind(); }

bool RegistryServer::running() const { return svr_ && svr_->is_running(); }

void RegistryServer::stop() {
  if (svr_) svr_->stop();
}

}  // namespace llmc::registry
