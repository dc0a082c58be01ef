// A hand-written parser: the desktop app has a handful of options, and core/CLI's CLI11 headers
// are only copied into the build when the CLI is built (cmake/deps.cmake).
#include "options.h"

#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace llmc::desktop {

namespace {
constexpr const char* kUsage =
    "usage: llmcalc-desktop [options] [FILE.json ...]\n"
    "The llmcalc calculator in a window (the same screens as the web page).\n"
    "\n"
    "  FILE.json          scenario, hardware profile or HF config.json files to load at start\n"
    "                     (detected from content); more can be dropped onto the window\n"
    "  --link LINK        start from a share link (\"Copy link\"): the URL or just its #s=... part\n"
    "  --base-url URL     address of the web page, put in front of copied links (default: none)\n"
    "  --profiles DIR     bundled hardware profiles (a directory with index.json; default: next to\n"
    "                     the program, then the source tree's site/profiles)\n"
    "  --no-store         do not restore or save the last scenario and loaded profiles\n"
    "  --save-dir DIR     where Export writes its files (default: ~/Downloads if it exists, else\n"
    "                     the current directory)\n"
    "  --registry URL     profile registry for Registry > Upload profile (default: the last one used)\n"
    "  --token-file FILE  its upload token (default: the last one used, else $LLMCALC_TOKEN)\n"
    "  --bench PATH       llmcalc-bench for Registry > Calibrate this GPU (default: next to the program)\n"
    "  --width N, --height N   window size (default 1280 x 800)\n"
    "  -h, --help         this text\n"
    "Testing (tests/desktop/, native/desktop/test_hooks.h):\n"
    "  --report FILE      rewrite FILE with the app's state (JSON) after every frame\n"
    "  --control FILE     poll FILE for commands (rect ID, drop PATH, quit)\n";

bool parse_size(const std::string& s, int lo, int hi, int& out) {
  char* end = nullptr;
  const long v = std::strtol(s.c_str(), &end, 10);
  if (s.empty() || *end || v < lo || v > hi) return false;
  out = int(v);
  return true;
}
}  // namespace

std::optional<Options> parse_options(int argc, char** argv, int& exit_code) {
  Options o;
  auto usage_error = [&](const std::string& msg) {
    std::fprintf(stderr, "llmcalc-desktop: %s\n%s", msg.c_str(), kUsage);
    exit_code = 2;  // as the CLI: usage errors exit 2
    return std::nullopt;
  };
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "-h" || a == "--help") {
      std::fputs(kUsage, stdout);
      exit_code = 0;
      return std::nullopt;
    }
    if (a.size() < 2 || a.substr(0, 2) != "--") {
      o.files.emplace_back(a);
      continue;
    }
    // Every option takes a value: "--opt VALUE" or "--opt=VALUE".
    std::string name(a), value;
    bool has_value = false;
    if (const auto eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name.resize(eq);
      has_value = true;
    }
    if (name == "--no-store") {
      if (has_value) return usage_error("--no-store takes no value");
      o.no_store = true;
      continue;
    }
    if (!has_value) {
      if (i + 1 >= argc) return usage_error(name + " needs a value");
      value = argv[++i];
    }
    if (name == "--link")
      o.link = value;
    else if (name == "--base-url")
      o.base_url = value;
    else if (name == "--profiles")
      o.profiles_dir = value;
    else if (name == "--save-dir")
      o.save_dir = value;
    else if (name == "--registry")
      o.registry = value;
    else if (name == "--token-file")
      o.token_file = value;
    else if (name == "--bench")
      o.bench = value;
    else if (name == "--report")
      o.report_file = value;
    else if (name == "--control")
      o.control_file = value;
    else if (name == "--width") {
      if (!parse_size(value, 320, 16384, o.width)) return usage_error("--width: expected 320..16384, got " + value);
    } else if (name == "--height") {
      if (!parse_size(value, 240, 16384, o.height)) return usage_error("--height: expected 240..16384, got " + value);
    } else {
      return usage_error("unknown option " + name);
    }
  }
  return o;
}

}  // namespace llmc::desktop
