// The registry client: `llmcalc profile push|list|pull`, llmcalc-bench --upload and the desktop
// app's "Upload profile…". Network errors and 5xx answers are retried with exponential back-off
// (bounded); 4xx answers are final (the profile, the token or the request is wrong, and asking
// again will not change that). Uploads are safe to repeat: the id is the content's hash.
#pragma once
#include <functional>
#include <memory>
#include <string>

#include "llmc/result.h"

namespace llmc::registry {

struct RegistryUrl {
  std::string origin;     // "http://host:port" or "https://host[:port]"
  std::string base_path;  // "" or "/prefix" (a registry behind a reverse proxy under a path)
  std::string text() const { return origin + base_path; }
};
// http(s)://host[:port][/prefix], as given to --registry; Error names --registry.
Result<RegistryUrl> parse_registry_url(const std::string& url);

struct RetryPolicy {
  int attempts = 5;            // tries in all (first + retries)
  double first_delay_s = 0.5;  // before the 2nd try; doubled each time after
  double max_delay_s = 8;
};
// Seconds to wait before try `attempt` (2, 3, ...): first_delay × 2^(attempt−2), capped.
double backoff_delay_s(const RetryPolicy& p, int attempt);

struct Outcome {
  int status = 0;    // HTTP status of the last try; 0 = no answer
  std::string body;  // its body
  int attempts = 0;
  std::string error;  // "" for 2xx/304; else one line saying what went wrong (the server's message for 4xx)
  bool ok() const { return error.empty(); }
  // The server refused (4xx): a problem of the input or the token, not of the network.
  bool refused() const { return status >= 400 && status < 500; }
};

class RegistryClient {
 public:
  // `token` "" = none (list and pull need none). `ca_file` "" = the system's CA certificates.
  RegistryClient(RegistryUrl url, std::string token = "", RetryPolicy retry = {}, std::string ca_file = "");
  ~RegistryClient();
  // Retry notices ("attempt 2 of 5 failed: ...; retrying in 1.0 s") go here; default: none.
  void set_log(std::function<void(const std::string&)> log) { log_ = std::move(log); }
  // Waiting between tries (tests replace it); default: sleeps.
  void set_sleep(std::function<void(double)> sleep) { sleep_ = std::move(sleep); }
  const RegistryUrl& url() const { return url_; }

  // POST /api/v1/profiles: 201 stored, 200 already there; the body is the list entry.
  Outcome push(const std::string& profile_text, const std::string& label = "", const std::string& notes = "");
  // GET /api/v1/profiles[?gpu=ID]: the list document.
  Outcome list(const std::string& gpu = "");
  // GET /api/v1/profiles/ID; the body's SHA-256 is checked against the id.
  Outcome pull(const std::string& id);

 private:
  Outcome send(const std::string& method, const std::string& path, const std::string& body);
  RegistryUrl url_;
  std::string token_;
  RetryPolicy retry_;
  std::string ca_file_;
  std::function<void(const std::string&)> log_;
  std::function<void(double)> sleep_;
};

// The upload token: the file's first line when `token_file` is given, else $LLMCALC_TOKEN.
// Error (field --token-file) when neither gives one.
Result<std::string> resolve_token(const std::string& token_file);

// Percent-encoding of a query parameter value (RFC 3986 unreserved characters kept).
std::string url_encode(const std::string& s);

}  // namespace llmc::registry
