// The built site (build/site) served next to the API: request paths mapped to files under one
// root with traversal refused, content types the page needs (.wasm as application/wasm), and a
// Content-Security-Policy for HTML pages that admits their own inline scripts by hash.
#pragma once
#include <optional>
#include <string>

#include "llmc_registry/api_error.h"

namespace llmc::registry {

struct SiteFile {
  std::string path;          // absolute, inside the root
  std::string content_type;  // with "; charset=utf-8" for text
};

// `root` must be an absolute, canonical directory (std::filesystem::canonical). "/" and paths
// ending in "/" mean index.html there. Refused with 404: any "..", "." or empty segment, a
// backslash, a NUL, a name starting with "." (no dot-files), anything that resolves outside the
// root through a symlink, and anything that is not a regular file.
std::optional<ApiError> resolve_site_file(const std::string& root, const std::string& request_path, SiteFile& out);

std::string content_type_for(const std::string& path);

// The CSP sent with an HTML page whose bytes are `html`: scripts from the site itself plus the
// page's inline <script> blocks and inline event handlers (with 'unsafe-hashes') by SHA-256 (so a
// page edit never needs this code changed; handler values are hashed as written, without
// decoding HTML character references), wasm
// compilation, connections to this origin and to registries elsewhere (https, or loopback), no
// plugins, no <base> tricks, no form posts.
std::string csp_for_html(const std::string& html);

}  // namespace llmc::registry
