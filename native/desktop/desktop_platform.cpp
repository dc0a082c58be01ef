#include "desktop_platform.h"

#include <SDL.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace llmc::desktop {

namespace fs = std::filesystem;

namespace {
// Keys are fixed names chosen by the UI ("llmcalc.scenario"): safe as file names.
fs::path key_file(const std::string& dir, const std::string& key) { return fs::path(dir) / (key + ".json"); }

// Written to a temporary file and renamed, so a crash mid-write never leaves half a scenario.
void store_file(const std::string& dir, const std::string& key, const std::string& value) {
  static bool warned = false;  // one warning, not one per edit
  std::error_code ec;
  fs::create_directories(dir, ec);
  const fs::path target = key_file(dir, key);
  const fs::path tmp = target.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << value;
    if (!out) {
      if (!warned) std::fprintf(stderr, "llmcalc-desktop: cannot save %s (state is not kept)\n", target.c_str());
      warned = true;
      return;
    }
  }
  fs::rename(tmp, target, ec);
  if (ec && !warned) {
    std::fprintf(stderr, "llmcalc-desktop: cannot save %s: %s\n", target.c_str(), ec.message().c_str());
    warned = true;
  }
}

std::string load_stored(const std::string& dir, const std::string& key) {
  std::ifstream in(key_file(dir, key), std::ios::binary);
  if (!in) return {};
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}
}  // namespace

std::string default_save_dir() {
  std::error_code ec;
  if (const char* home = std::getenv("HOME"); home && *home && fs::is_directory(fs::path(home) / "Downloads", ec))
    return (fs::path(home) / "Downloads").string();
  return fs::current_path(ec).string();
}

std::string default_store_dir() {
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg) return (fs::path(xdg) / "llmcalc").string();
  if (const char* home = std::getenv("HOME"); home && *home) return (fs::path(home) / ".config" / "llmcalc").string();
  return {};
}

void make_platform(DesktopPlatform& p, const std::string& base_url, const std::string& store_dir,
                   const std::string& save_dir, std::function<void()> open_dialog) {
  p.ui.copy_text = [&p](const std::string& text) {
    if (SDL_SetClipboardText(text.c_str()) != 0) {
      std::fprintf(stderr, "llmcalc-desktop: copy to clipboard failed: %s\n", SDL_GetError());
    }
    // Read back what the system clipboard now holds (the tests check it).
    char* got = SDL_GetClipboardText();
    p.clipboard_read = got ? got : "";
    SDL_free(got);
  };
  p.ui.base_url = [base_url] { return base_url; };
  p.ui.set_url_fragment = [&p](const std::string& f) { p.fragment = f; };
  p.ui.open_file_picker = std::move(open_dialog);
  if (!store_dir.empty()) {
    p.ui.store = [store_dir](const std::string& k, const std::string& v) { store_file(store_dir, k, v); };
    p.ui.load = [store_dir](const std::string& k) { return load_stored(store_dir, k); };
  }
  p.ui.announce = [&p](const std::string& text) { p.summary = text; };
  p.ui.publish_figures = [&p](const std::string& json) { p.figures = json; };
  // Exports: written whole to a temporary name, then renamed (no half files in the folder).
  p.ui.save_file = [dir = save_dir.empty() ? default_save_dir() : save_dir](const std::string& name,
                                                                            const std::string& text) -> std::string {
    const fs::path target = fs::path(dir) / fs::path(name).filename();
    const fs::path tmp = target.string() + ".tmp";
    {
      std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
      out << text;
      if (!out) return "";
    }
    std::error_code ec;
    fs::rename(tmp, target, ec);
    return ec ? std::string() : "Saved " + target.string();
  };
}

}  // namespace llmc::desktop
