#include "files.h"

#include <SDL.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace llmc::desktop {

namespace fs = std::filesystem;

namespace {
constexpr std::uintmax_t kMaxFileBytes = 16u << 20;  // same limit as site/shell.js

// Directory of the running program (SDL knows it portably), "" if unknown.
std::string program_dir() {
  char* base = SDL_GetBasePath();
  if (!base) return {};
  std::string dir(base);
  SDL_free(base);
  return dir;
}

std::string find_profiles_dir() {
  std::vector<fs::path> candidates;
  if (const std::string exe = program_dir(); !exe.empty()) {
    candidates.push_back(fs::path(exe) / "profiles");
    candidates.push_back(fs::path(exe) / ".." / "share" / "llmcalc" / "profiles");
  }
  candidates.push_back(LLMC_SOURCE_PROFILES_DIR);
  std::error_code ec;
  for (const fs::path& c : candidates)
    if (fs::is_regular_file(c / "index.json", ec)) return c.lexically_normal().string();
  return {};
}
}  // namespace

bool read_text_file(const std::string& path, NamedText& out, std::string& error) {
  std::error_code ec;
  const fs::path p(path);
  out.name = p.filename().string();
  if (fs::is_directory(p, ec)) {
    error = "cannot read " + path + ": it is a directory";
    return false;
  }
  const std::uintmax_t size = fs::file_size(p, ec);
  if (!ec && size > kMaxFileBytes) {
    error = "cannot read " + path + ": " + std::to_string(size) + " bytes (at most 16 MiB)";
    return false;
  }
  std::ifstream in(p, std::ios::binary);
  if (!in) {
    error = "cannot read " + path + ": " + std::strerror(errno);
    return false;
  }
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) {
    error = "cannot read " + path + ": read error";
    return false;
  }
  out.text = text.str();
  return true;
}

std::vector<NamedText> read_bundled_profiles(const std::string& dir_opt, std::vector<std::string>& errors) {
  const std::string dir = dir_opt.empty() ? find_profiles_dir() : dir_opt;
  if (dir.empty()) {
    errors.push_back("no bundled profiles: site/profiles/index.json not found next to the program or in " +
                     std::string(LLMC_SOURCE_PROFILES_DIR));
    return {};
  }
  NamedText index;
  std::string err;
  if (!read_text_file((fs::path(dir) / "index.json").string(), index, err)) {
    errors.push_back("bundled profiles: " + err);
    return {};
  }
  const nlohmann::json names = nlohmann::json::parse(index.text, nullptr, false);
  if (!names.is_array()) {
    errors.push_back("bundled profiles: " + dir + "/index.json is not a JSON array of file names");
    return {};
  }
  std::vector<NamedText> out;
  for (const nlohmann::json& n : names) {
    if (!n.is_string()) continue;
    NamedText f;
    if (read_text_file((fs::path(dir) / n.get<std::string>()).string(), f, err))
      out.push_back(std::move(f));
    else
      errors.push_back("bundled profiles: " + err);
  }
  return out;
}

}  // namespace llmc::desktop
