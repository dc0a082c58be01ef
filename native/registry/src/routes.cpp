// The registry's HTTP handlers (docs/registry.md, "API"). Everything a request can reach is here:
// routing by path, authentication, uploads, the list, single profiles, deletes, CORS, the site,
// and the JSON bodies of errors cpp-httplib raises itself (413, 400, ...).
#include <httplib.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <variant>

#include "llmc_registry/profile_intake.h"
#include "llmc_registry/read_cache.h"
#include "llmc_registry/server.h"
#include "llmc_registry/static_site.h"

namespace llmc::registry {
namespace {

using httplib::Request;
using httplib::Response;

struct Ctx {
  Ctx(Store& s, ServerConfig c, std::string root) : store(s), cfg(std::move(c)), site_root(std::move(root)), cache(s) {}
  Store& store;
  ServerConfig cfg;
  std::string site_root;
  ReadCache cache;
};

// ---- responses

void send_json(Response& res, int status, std::string body) {
  res.status = status;
  res.set_content(std::move(body), "application/json");
}

// A cached document, written straight from the cache (no copy of a 100 KB profile per request);
// `owner` keeps it alive until the response is sent.
template <class Doc>
void send_cached_json(Response& res, std::shared_ptr<const Doc> owner, const std::string& body) {
  res.status = 200;
  const char* data = body.data();
  res.set_content_provider(body.size(), "application/json",
                           [owner, data](size_t offset, size_t length, httplib::DataSink& sink) {
                             return sink.write(data + offset, length);
                           });
}

void send_error(Response& res, const ApiError& e) {
  if (e.status == 401) res.set_header("WWW-Authenticate", "Bearer realm=\"llmcalc\"");
  send_json(res, e.status, error_body(e));
}

ApiError db_failure(const Error& e) {
  std::fprintf(stderr, "llmcalc serve: database error: %s\n", e.text().c_str());
  return ApiError{500, "internal", "the registry database failed: " + e.message, ""};
}

// ---- request helpers

bool starts_with_ci(const std::string& s, const std::string& prefix) {
  if (s.size() < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(s[i])) != std::tolower(static_cast<unsigned char>(prefix[i])))
      return false;
  return true;
}

bool is_profile_id(const std::string& s) {
  if (s.size() != 64) return false;
  for (char c : s)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

// Does If-None-Match (a list of entity tags, or *) name `etag`?
bool etag_matches(const Request& req, const std::string& etag) {
  const std::string inm = req.get_header_value("If-None-Match");
  if (inm.empty()) return false;
  if (inm == "*") return true;
  std::stringstream ss(inm);
  std::string tag;
  while (std::getline(ss, tag, ',')) {
    const size_t b = tag.find_first_not_of(" \t"), e = tag.find_last_not_of(" \t");
    if (b == std::string::npos) continue;
    tag = tag.substr(b, e - b + 1);
    if (tag.rfind("W/", 0) == 0) tag = tag.substr(2);  // weak comparison (RFC 9110 13.1.2)
    if (tag == etag) return true;
  }
  return false;
}

// ---- routes

enum class Kind { healthz, list, profile, api_unknown, site };
struct Route {
  Kind kind;
  std::string id;  // Kind::profile: the path's id (maybe malformed)
};

Route route_of(const std::string& path) {
  if (path == "/healthz") return {Kind::healthz, ""};
  static const std::string api = "/api/v1", profiles = "/api/v1/profiles";
  if (path == profiles || path == profiles + "/" || path == api + "/index.json") return {Kind::list, ""};
  if (path.rfind(profiles + "/", 0) == 0) {
    std::string id = path.substr(profiles.size() + 1);
    if (id.size() > 5 && id.compare(id.size() - 5, 5, ".json") == 0)
      id.resize(id.size() - 5);  // the static export's file name
    return {Kind::profile, id};
  }
  if (path == "/api" || path.rfind("/api/", 0) == 0) return {Kind::api_unknown, ""};
  return {Kind::site, ""};
}

bool is_api(const std::string& path) { return route_of(path).kind != Kind::site; }

// The token of `Authorization: Bearer <token>`, checked against the store.
std::variant<TokenInfo, ApiError> authenticate(Ctx& c, const Request& req) {
  const std::string h = req.get_header_value("Authorization");
  if (h.empty())
    return ApiError{401, "unauthorized",
                    "missing 'Authorization: Bearer <token>' header; a token comes from `llmcalc serve token add NAME` "
                    "on the server",
                    ""};
  if (!starts_with_ci(h, "Bearer "))
    return ApiError{401, "unauthorized", "the Authorization header must be 'Bearer <token>'", ""};
  std::string token = h.substr(7);
  while (!token.empty() && (token.back() == ' ' || token.back() == '\t')) token.pop_back();
  auto found = c.store.find_token(token);
  if (!found) return db_failure(found.error());
  if (!*found) return ApiError{401, "unauthorized", "unknown token (not issued by this registry)", ""};
  if (!(*found)->revoked_at.empty())
    return ApiError{401, "unauthorized", "token '" + (*found)->name + "' was revoked on " + (*found)->revoked_at, ""};
  return **found;
}

void handle_healthz(Ctx& c, Response& res) {
  auto v = c.store.schema_version();
  auto list = c.cache.list("");
  if (!v) return send_error(res, db_failure(v.error()));
  if (!list) return send_error(res, db_failure(list.error()));
  nlohmann::ordered_json j{{"status", "ok"}, {"schema_version", *v}, {"profiles", (*list)->count}};
  res.set_header("Cache-Control", "no-store");
  send_json(res, 200, j.dump());
}

void handle_list(Ctx& c, const Request& req, Response& res) {
  const std::string gpu = req.get_param_value("gpu");
  for (char ch : gpu)
    if (!(std::islower(static_cast<unsigned char>(ch)) || std::isdigit(static_cast<unsigned char>(ch)) || ch == '-' ||
          ch == '.' || ch == '_') ||
        gpu.size() > 64)
      return send_error(
          res,
          ApiError{400, "bad_request",
                   "gpu: expects a GPU id such as h100-sxm (lower-case letters, digits, '-', '.', '_'; at most 64)",
                   "gpu"});
  auto doc = c.cache.list(gpu);
  if (!doc) return send_error(res, db_failure(doc.error()));
  res.set_header("ETag", (*doc)->etag);
  res.set_header("Cache-Control", "no-cache");  // may be cached, but revalidated (cheap: 304)
  if (etag_matches(req, (*doc)->etag)) {
    res.status = 304;
    return;
  }
  send_cached_json(res, *doc, (*doc)->body);
}

void handle_profile(Ctx& c, const Request& req, Response& res, const std::string& id) {
  if (!is_profile_id(id))
    return send_error(
        res, ApiError{404, "not_found", "not a profile id: a profile id is 64 lower-case hex digits (SHA-256)", ""});
  auto got = c.cache.profile(id);
  if (!got) return send_error(res, db_failure(got.error()));
  if (!*got) return send_error(res, ApiError{404, "not_found", "no profile " + id + " in this registry", ""});
  const ProfileEntry& e = (*got)->entry;
  if (!e.deleted_at.empty())
    return send_error(
        res, ApiError{410, "gone", "profile " + id + " was deleted on " + e.deleted_at + " by " + e.deleted_by, ""});
  // The id is the SHA-256 of these bytes: the content at this URL never changes.
  const std::string etag = "\"" + id + "\"";
  res.set_header("ETag", etag);
  res.set_header("Cache-Control", "public, max-age=31536000, immutable");
  if (etag_matches(req, etag)) {
    res.status = 304;
    return;
  }
  send_cached_json(res, *got, (*got)->body);
}

void handle_upload(Ctx& c, const Request& req, Response& res) {
  auto who = authenticate(c, req);
  if (auto* e = std::get_if<ApiError>(&who)) return send_error(res, *e);
  const TokenInfo& token = std::get<TokenInfo>(who);
  if (!starts_with_ci(req.get_header_value("Content-Type"), "application/json"))
    return send_error(
        res, ApiError{415, "unsupported_media_type", "send the profile with 'Content-Type: application/json'", ""});
  const std::string label = req.get_param_value("label"), notes = req.get_param_value("notes");
  if (auto e = check_metadata_text("label", label, kMaxLabelChars)) return send_error(res, *e);
  if (auto e = check_metadata_text("notes", notes, kMaxNotesChars)) return send_error(res, *e);
  Intake in;
  if (auto e = take_in_profile(req.body, in)) return send_error(res, *e);
  auto put = c.store.put_profile(in, label, notes, token.name);
  if (!put) return send_error(res, db_failure(put.error()));
  nlohmann::ordered_json j = entry_json(put->entry);
  j["created"] = put->created;
  res.set_header("Location", "/api/v1/profiles/" + in.id);
  send_json(res, put->created ? 201 : 200, j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace));
}

void handle_delete(Ctx& c, const Request& req, Response& res, const std::string& id) {
  auto who = authenticate(c, req);
  if (auto* e = std::get_if<ApiError>(&who)) return send_error(res, *e);
  const TokenInfo& token = std::get<TokenInfo>(who);
  if (!token.admin)
    return send_error(
        res,
        ApiError{
            403, "forbidden",
            "token '" + token.name +
                "' may upload but not delete; deleting needs an admin token (`llmcalc serve token add NAME --admin`)",
            ""});
  if (!is_profile_id(id))
    return send_error(
        res, ApiError{404, "not_found", "not a profile id: a profile id is 64 lower-case hex digits (SHA-256)", ""});
  const std::string reason = req.get_param_value("reason");
  if (auto e = check_metadata_text("reason", reason, kMaxLabelChars)) return send_error(res, *e);
  auto got = c.store.get_profile(id);
  if (!got) return send_error(res, db_failure(got.error()));
  if (!*got) return send_error(res, ApiError{404, "not_found", "no profile " + id + " in this registry", ""});
  if (!(*got)->first.deleted_at.empty())
    return send_error(res, ApiError{410, "gone",
                                    "profile " + id + " was already deleted on " + (*got)->first.deleted_at + " by " +
                                        (*got)->first.deleted_by,
                                    ""});
  auto done = c.store.delete_profile(id, token.name, reason);
  if (!done) return send_error(res, db_failure(done.error()));
  if (!*done)
    return send_error(res, ApiError{410, "gone", "profile " + id + " was deleted by another request just now", ""});
  send_json(res, 200, nlohmann::ordered_json{{"id", id}, {"deleted", true}, {"deleted_by", token.name}}.dump());
}

void handle_site(Ctx& c, const Request& req, Response& res) {
  if (c.site_root.empty())
    return send_error(res, ApiError{404, "not_found", "this registry serves no site (start it with --site DIR)", ""});
  SiteFile f;
  if (auto e = resolve_site_file(c.site_root, req.path, f)) return send_error(res, *e);
  std::ifstream in(f.path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  if (!in) return send_error(res, ApiError{404, "not_found", "cannot read " + req.path, ""});
  std::string body = ss.str();
  if (f.content_type.rfind("text/html", 0) == 0) res.set_header("Content-Security-Policy", csp_for_html(body));
  res.set_header("Cache-Control", "no-cache");
  res.status = 200;
  res.set_content(std::move(body), f.content_type.c_str());
}

ApiError method_not_allowed(Response& res, const std::string& allow) {
  res.set_header("Allow", allow);
  return ApiError{405, "method_not_allowed", "this path answers " + allow, ""};
}

void handle_get(Ctx& c, const Request& req, Response& res) {
  const Route r = route_of(req.path);
  switch (r.kind) {
    case Kind::healthz:
      return handle_healthz(c, res);
    case Kind::list:
      return handle_list(c, req, res);
    case Kind::profile:
      return handle_profile(c, req, res, r.id);
    case Kind::api_unknown:
      return send_error(res, ApiError{404, "not_found", "no such API path: " + req.path + " (docs/registry.md)", ""});
    case Kind::site:
      return handle_site(c, req, res);
  }
}

void handle_post(Ctx& c, const Request& req, Response& res) {
  const Route r = route_of(req.path);
  if (r.kind == Kind::list && req.path != "/api/v1/index.json") return handle_upload(c, req, res);
  if (r.kind == Kind::profile) return send_error(res, method_not_allowed(res, "GET, HEAD, DELETE"));
  if (r.kind == Kind::site || r.kind == Kind::healthz) return send_error(res, method_not_allowed(res, "GET, HEAD"));
  send_error(res, ApiError{404, "not_found", "no such API path: " + req.path, ""});
}

void handle_delete_route(Ctx& c, const Request& req, Response& res) {
  const Route r = route_of(req.path);
  if (r.kind == Kind::profile) return handle_delete(c, req, res, r.id);
  if (r.kind == Kind::list) return send_error(res, method_not_allowed(res, "GET, HEAD, POST"));
  if (r.kind == Kind::api_unknown)
    return send_error(res, ApiError{404, "not_found", "no such API path: " + req.path, ""});
  send_error(res, method_not_allowed(res, "GET, HEAD"));
}

bool origin_allowed(const Ctx& c, const std::string& origin) {
  for (const std::string& o : c.cfg.cors_origins)
    if (o == origin) return true;
  return false;
}

// CORS preflight. The Access-Control-Allow-Origin itself is added to every API response by
// add_common_headers for an allowed origin.
void handle_options(Ctx& c, const Request& req, Response& res) {
  const std::string origin = req.get_header_value("Origin");
  if (!is_api(req.path) || origin.empty()) {
    res.set_header("Allow", "GET, HEAD, POST, DELETE, OPTIONS");
    res.status = 204;
    return;
  }
  if (!origin_allowed(c, origin))
    return send_error(
        res,
        ApiError{403, "cors_origin_not_allowed",
                 "origin " + origin +
                     " may not call this registry from a page; the server's operator allows origins with --cors-origin",
                 ""});
  res.set_header("Access-Control-Allow-Methods", "GET, HEAD, POST, DELETE");
  res.set_header("Access-Control-Allow-Headers", "Authorization, Content-Type, If-None-Match");
  res.set_header("Access-Control-Max-Age", "600");
  res.status = 204;
}

void add_common_headers(const Ctx& c, const Request& req, Response& res) {
  res.set_header("X-Content-Type-Options", "nosniff");  // uploaded text is only ever JSON, never sniffed as HTML
  res.set_header("Referrer-Policy", "no-referrer");
  if (!is_api(req.path) || c.cfg.cors_origins.empty()) return;
  res.set_header("Vary", "Origin");
  const std::string origin = req.get_header_value("Origin");
  if (!origin.empty() && origin_allowed(c, origin)) {
    res.set_header("Access-Control-Allow-Origin", origin);
    res.set_header("Access-Control-Expose-Headers", "ETag, Location");
  }
}

// JSON bodies for the errors cpp-httplib answers itself (no handler ran, or it returned an
// empty body): a body over the limit (413), a malformed request (400), ...
ApiError error_for_status(const Ctx& c, int status) {
  switch (status) {
    case 400:
      return {400, "bad_request", "malformed HTTP request", ""};
    case 404:
      return {404, "not_found", "not found", ""};
    case 413:
      return {413, "too_large",
              "request body over the limit of " + std::to_string(c.cfg.max_body_bytes) +
                  " bytes (a measured profile is about 110 KB)",
              ""};
    case 414:
      return {414, "uri_too_long", "request line over 8192 bytes", ""};
    case 416:
      return {416, "bad_range", "unsatisfiable Range header", ""};
    default:
      return {status, status >= 500 ? "internal" : "http_" + std::to_string(status),
              "HTTP status " + std::to_string(status), ""};
  }
}

}  // namespace

void install_routes(httplib::Server& svr, Store& store, const ServerConfig& cfg, const std::string& site_root) {
  auto c = std::make_shared<Ctx>(store, cfg, site_root);
  svr.set_payload_max_length(cfg.max_body_bytes);
  // Uploads must say how long they are: a body of unknown length (chunked, or until close) has
  // no limit cpp-httplib can enforce before buffering it.
  svr.set_pre_routing_handler([c](const Request& req, Response& res) {
    const bool has_body_method = req.method == "POST" || req.method == "PUT" || req.method == "PATCH";
    if (has_body_method && (!req.has_header("Content-Length") || req.has_header("Transfer-Encoding"))) {
      send_error(res, ApiError{411, "length_required",
                               "send the body with a Content-Length (no chunked transfer encoding)", ""});
      return httplib::Server::HandlerResponse::Handled;
    }
    return httplib::Server::HandlerResponse::Unhandled;
  });
  // A client that asks first (Expect: 100-continue, as curl does for large bodies) hears 413
  // before it sends an oversized body.
  svr.set_expect_100_continue_handler([c](const Request& req, Response& res) {
    const std::string len = req.get_header_value("Content-Length");
    if (!len.empty() && std::strtoull(len.c_str(), nullptr, 10) > c->cfg.max_body_bytes) {
      send_error(res, error_for_status(*c, 413));
      // This early answer is written without the usual Content-Length step (cpp-httplib 0.11).
      res.set_header("Content-Length", std::to_string(res.body.size()));
      return 413;
    }
    return 100;
  });
  svr.Get(".*", [c](const Request& req, Response& res) { handle_get(*c, req, res); });
  svr.Post(".*", [c](const Request& req, Response& res) { handle_post(*c, req, res); });
  svr.Delete(".*", [c](const Request& req, Response& res) { handle_delete_route(*c, req, res); });
  svr.Options(".*", [c](const Request& req, Response& res) { handle_options(*c, req, res); });
  svr.Put(".*",
          [](const Request&, Response& res) { send_error(res, method_not_allowed(res, "GET, HEAD, POST, DELETE")); });
  svr.Patch(".*",
            [](const Request&, Response& res) { send_error(res, method_not_allowed(res, "GET, HEAD, POST, DELETE")); });
  svr.set_error_handler(httplib::Server::HandlerWithResponse([c](const Request&, Response& res) {
    if (!res.body.empty()) return httplib::Server::HandlerResponse::Unhandled;  // a handler's own JSON error
    send_error(res, error_for_status(*c, res.status));
    return httplib::Server::HandlerResponse::Handled;
  }));
  svr.set_exception_handler([](const Request&, Response& res, std::exception_ptr ep) {
    std::string what = "unknown exception";
    try {
      std::rethrow_exception(ep);
    } catch (const std::exception& e) {
      what = e.what();
    } catch (...) {
    }
    std::fprintf(stderr, "llmcalc serve: internal error: %s\n", what.c_str());
    send_error(res, ApiError{500, "internal", "internal error: " + what, ""});
  });
  svr.set_post_routing_handler([c](const Request& req, Response& res) { add_common_headers(*c, req, res); });
  if (cfg.log_writes) {
    svr.set_logger([](const Request& req, const Response& res) {
      if (req.method == "POST" || req.method == "DELETE" || res.status >= 500)
        std::fprintf(stderr, "llmcalc serve: %s %s %s -> %d\n", req.remote_addr.c_str(), req.method.c_str(),
                     req.path.c_str(), res.status);
    });
  }
}

}  // namespace llmc::registry
