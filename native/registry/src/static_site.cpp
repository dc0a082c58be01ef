#include "llmc_registry/static_site.h"

#include <openssl/evp.h>

#include <filesystem>
#include <regex>

namespace llmc::registry {
namespace {

namespace fs = std::filesystem;

ApiError not_found(const std::string& path) { return ApiError{404, "not_found", "no such file: " + path, ""}; }

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// 'sha256-<base64>' of `bytes`, the CSP hash-source form.
std::string csp_hash(const std::string& bytes) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_Digest(bytes.data(), bytes.size(), md, &len, EVP_sha256(), nullptr);
  unsigned char b64[4 * ((EVP_MAX_MD_SIZE + 2) / 3) + 1];
  const int n = EVP_EncodeBlock(b64, md, int(len));
  return "'sha256-" + std::string(reinterpret_cast<char*>(b64), size_t(n)) + "'";
}

std::string lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

std::optional<ApiError> resolve_site_file(const std::string& root, const std::string& request_path, SiteFile& out) {
  if (request_path.empty() || request_path[0] != '/') return not_found(request_path);
  std::string rel = request_path.substr(1);
  if (rel.empty() || rel.back() == '/') rel += "index.html";
  if (rel.find('\\') != std::string::npos || rel.find('\0') != std::string::npos) return not_found(request_path);
  size_t start = 0;
  while (start <= rel.size()) {
    const size_t slash = rel.find('/', start);
    const std::string seg = rel.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
    if (seg.empty() || seg[0] == '.') return not_found(request_path);  // "", ".", "..", dot-files
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  std::error_code ec;
  const fs::path full = fs::weakly_canonical(fs::path(root) / rel, ec);
  if (ec) return not_found(request_path);
  // Symlinks are followed by weakly_canonical: the target must still be under the root.
  const std::string full_s = full.string();
  if (full_s.size() <= root.size() || full_s.compare(0, root.size(), root) != 0 || full_s[root.size()] != '/')
    return not_found(request_path);
  if (!fs::is_regular_file(full, ec)) return not_found(request_path);
  out.path = full_s;
  out.content_type = content_type_for(full_s);
  return std::nullopt;
}

std::string content_type_for(const std::string& path) {
  const std::string p = lower(path);
  static const std::pair<const char*, const char*> types[] = {{".html", "text/html; charset=utf-8"},
                                                              {".js", "text/javascript; charset=utf-8"},
                                                              {".mjs", "text/javascript; charset=utf-8"},
                                                              {".css", "text/css; charset=utf-8"},
                                                              {".json", "application/json"},
                                                              {".wasm", "application/wasm"},
                                                              {".svg", "image/svg+xml"},
                                                              {".png", "image/png"},
                                                              {".jpg", "image/jpeg"},
                                                              {".ico", "image/x-icon"},
                                                              {".txt", "text/plain; charset=utf-8"},
                                                              {".md", "text/plain; charset=utf-8"},
                                                              {".woff2", "font/woff2"},
                                                              {".ttf", "font/ttf"}};
  for (const auto& [ext, type] : types)
    if (ends_with(p, ext)) return type;
  return "application/octet-stream";
}

std::string csp_for_html(const std::string& html) {
  std::string script_hashes;
  const std::string lo = lower(html);
  size_t pos = 0;
  while ((pos = lo.find("<script", pos)) != std::string::npos) {
    const size_t tag_end = lo.find('>', pos);
    if (tag_end == std::string::npos) break;
    const size_t close = lo.find("</script", tag_end);
    if (close == std::string::npos) break;
    const std::string tag = lo.substr(pos, tag_end - pos);
    if (tag.find(" src") == std::string::npos && close > tag_end + 1)
      script_hashes += " " + csp_hash(html.substr(tag_end + 1, close - tag_end - 1));
    pos = close;
  }
  // Inline event handlers (oncontextmenu="event.preventDefault()" on the canvas): CSP hashes them
  // only with 'unsafe-hashes', which still admits exactly these handler texts and no others.
  static const std::regex handler(R"re(\son[a-z]+\s*=\s*(?:"([^"]*)"|'([^']*)'))re", std::regex::icase);
  std::string handler_hashes;
  for (auto it = std::sregex_iterator(html.begin(), html.end(), handler); it != std::sregex_iterator(); ++it) {
    const std::string h = " " + csp_hash((*it)[1].matched ? (*it)[1].str() : (*it)[2].str());
    if (handler_hashes.find(h) == std::string::npos) handler_hashes += h;
  }
  if (!handler_hashes.empty()) script_hashes += " 'unsafe-hashes'" + handler_hashes;
  return "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'" + script_hashes +
         "; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:"
         "; connect-src 'self' https: http://127.0.0.1:* http://localhost:*; worker-src 'self' blob:"
         "; object-src 'none'; base-uri 'self'; form-action 'none'";
}

}  // namespace llmc::registry
