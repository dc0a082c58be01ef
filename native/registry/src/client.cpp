#include "llmc_registry/client.h"

#include <httplib.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "llmc_registry/sha256.h"

namespace llmc::registry {
namespace {

std::string transport_error(httplib::Error e) {
  switch (e) {
    case httplib::Error::Connection:
      return "cannot connect";
    case httplib::Error::ConnectionTimeout:
      return "connection timed out";
    case httplib::Error::Read:
      return "the connection broke while reading the answer";
    case httplib::Error::Write:
      return "the connection broke while sending the request";
    case httplib::Error::SSLConnection:
      return "TLS connection failed";
    case httplib::Error::SSLLoadingCerts:
      return "cannot load CA certificates";
    case httplib::Error::SSLServerVerification:
      return "the server's TLS certificate does not verify";
    case httplib::Error::BindIPAddress:
      return "cannot bind the local address";
    default:
      return "HTTP client error: " + httplib::to_string(e);
  }
}

// The server's one-line message from a JSON error body, else the status line.
std::string server_message(int status, const std::string& body) {
  const nlohmann::json j = nlohmann::json::parse(body, nullptr, false);
  if (j.is_object() && j.contains("message") && j["message"].is_string()) {
    std::string code = j.contains("error") && j["error"].is_string() ? j["error"].get<std::string>() : "";
    return "HTTP " + std::to_string(status) + (code.empty() ? "" : " " + code) + ": " + j["message"].get<std::string>();
  }
  return "HTTP " + std::to_string(status) + (body.empty() ? "" : ": " + body.substr(0, 200));
}

}  // namespace

Result<RegistryUrl> parse_registry_url(const std::string& url) {
  const auto scheme_end = url.find("://");
  if (scheme_end == std::string::npos)
    return make_error("--registry", "expects http://HOST[:PORT][/PATH] or https://...; got '" + url + "'");
  const std::string scheme = url.substr(0, scheme_end);
  if (scheme != "http" && scheme != "https")
    return make_error("--registry", "scheme must be http or https; got '" + scheme + "'");
  const auto path_start = url.find('/', scheme_end + 3);
  const std::string host =
      url.substr(scheme_end + 3, path_start == std::string::npos ? std::string::npos : path_start - scheme_end - 3);
  if (host.empty() || host.find_first_of("?#@ ") != std::string::npos)
    return make_error("--registry", "no host (or a bad one) in '" + url + "'");
  std::string path = path_start == std::string::npos ? "" : url.substr(path_start);
  if (path.find_first_of("?#") != std::string::npos)
    return make_error("--registry", "no query or fragment allowed in '" + url + "'");
  while (!path.empty() && path.back() == '/') path.pop_back();
  return RegistryUrl{scheme + "://" + host, path};
}

double backoff_delay_s(const RetryPolicy& p, int attempt) {
  if (attempt < 2) return 0;
  return std::min(p.max_delay_s, p.first_delay_s * std::pow(2.0, attempt - 2));
}

std::string url_encode(const std::string& s) {
  static const char hex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~')
      out += char(c);
    else
      out += {'%', hex[c >> 4], hex[c & 15]};
  }
  return out;
}

RegistryClient::RegistryClient(RegistryUrl url, std::string token, RetryPolicy retry, std::string ca_file)
    : url_(std::move(url)), token_(std::move(token)), retry_(retry), ca_file_(std::move(ca_file)), sleep_([](double s) {
        std::this_thread::sleep_for(std::chrono::duration<double>(s));
      }) {}
RegistryClient::~RegistryClient() = default;

Outcome RegistryClient::send(const std::string& method, const std::string& path, const std::string& body) {
  httplib::Client cli(url_.origin);
  cli.set_tcp_nodelay(true);  // headers and body go out as two writes (see server.cpp)
  cli.set_connection_timeout(5);
  cli.set_read_timeout(60);
  cli.set_write_timeout(60);
  if (!ca_file_.empty()) cli.set_ca_cert_path(ca_file_);
  httplib::Headers headers{{"Accept", "application/json"}};
  if (!token_.empty()) headers.emplace("Authorization", "Bearer " + token_);
  const std::string full = url_.base_path + path;
  Outcome out;
  const int tries = std::max(1, retry_.attempts);
  for (int attempt = 1; attempt <= tries; ++attempt) {
    if (attempt > 1) sleep_(backoff_delay_s(retry_, attempt));
    out.attempts = attempt;
    httplib::Result r = method == "POST" ? cli.Post(full, headers, body, "application/json") : cli.Get(full, headers);
    std::string why;
    if (!r) {
      out.status = 0;
      out.body.clear();
      why = transport_error(r.error()) + " (" + url_.text() + ")";
    } else {
      out.status = r->status;
      out.body = r->body;
      if (r->status < 500) {
        out.error = (r->status >= 200 && r->status < 300) || r->status == 304 ? "" : server_message(r->status, r->body);
        return out;
      }
      why = server_message(r->status, r->body);
    }
    out.error = why + (tries > 1 ? " (" + std::to_string(attempt) + " tries)" : "");
    if (attempt < tries && log_) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "; retrying in %.1f s", backoff_delay_s(retry_, attempt + 1));
      log_("try " + std::to_string(attempt) + " of " + std::to_string(tries) + " failed: " + why + buf);
    }
  }
  return out;
}

Outcome RegistryClient::push(const std::string& profile_text, const std::string& label, const std::string& notes) {
  std::string path = "/api/v1/profiles";
  std::string query;
  if (!label.empty()) query += "label=" + url_encode(label);
  if (!notes.empty()) query += std::string(query.empty() ? "" : "&") + "notes=" + url_encode(notes);
  if (!query.empty()) path += "?" + query;
  return send("POST", path, profile_text);
}

Outcome RegistryClient::list(const std::string& gpu) {
  return send("GET", "/api/v1/profiles" + (gpu.empty() ? std::string() : "?gpu=" + url_encode(gpu)), "");
}

Outcome RegistryClient::pull(const std::string& id) {
  Outcome out = send("GET", "/api/v1/profiles/" + url_encode(id), "");
  if (out.ok() && sha256_hex(out.body) != id) {
    out.error =
        "the profile received does not hash to its id " + id + " (corrupted in transit, or not an llmcalc registry)";
  }
  return out;
}

Result<std::string> resolve_token(const std::string& token_file) {
  std::string token;
  if (!token_file.empty()) {
    std::ifstream in(token_file);
    if (!in) return make_error("--token-file", "cannot read " + token_file);
    std::getline(in, token);
  } else if (const char* env = std::getenv("LLMCALC_TOKEN")) {
    token = env;
  }
  while (!token.empty() && (token.back() == '\r' || token.back() == ' ' || token.back() == '\t')) token.pop_back();
  while (!token.empty() && (token.front() == ' ' || token.front() == '\t')) token.erase(token.begin());
  if (token.empty())
    return make_error("--token-file", token_file.empty()
                                          ? "no upload token: set LLMCALC_TOKEN or give --token-file FILE (the "
                                            "registry's operator makes one with `llmcalc serve token add NAME`)"
                                          : token_file + " is empty");
  return token;
}

}  // namespace llmc::registry
