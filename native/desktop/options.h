// Command line of llmcalc-desktop (llmcalc-desktop --help).
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace llmc::desktop {

struct Options {
  std::vector<std::string> files;  // scenario / profile / config.json files, loaded in order
  std::string link;                // a share link or its fragment ("#s=..."): the starting scenario
  std::string base_url;            // prefix of copied links (the web page's address), "" = fragment only
  std::string profiles_dir;        // bundled profiles; "" = search (bundled_profiles.h)
  bool no_store = false;           // neither read nor write the saved scenario and profiles
  std::string save_dir;            // where exports go; "" = ~/Downloads, else the current directory
  std::string registry;            // registry URL for "Upload profile…" (else the saved one)
  std::string token_file;          // upload token file (else the saved one, else $LLMCALC_TOKEN)
  std::string bench;               // llmcalc-bench for "Calibrate this GPU" (else next to the program)
  int width = 1280, height = 800;
  // Test hooks (tests/desktop/): see test_hooks.h.
  std::string report_file;
  std::string control_file;
};

// Parses argv. Returns the options, or nothing after printing help / an error; `exit_code` is
// then what main returns (0 for --help, 2 for a usage error, as the CLI).
std::optional<Options> parse_options(int argc, char** argv, int& exit_code);

}  // namespace llmc::desktop
