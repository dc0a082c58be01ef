// Reading the files the user hands to the app (command line, drag-and-drop, the Open dialog) and
// the bundled profiles. Only I/O lives here: what a file *is* (profile, scenario, config.json) is
// decided by App::load_file from its content.
#pragma once
#include <string>
#include <vector>

namespace llmc::desktop {

struct NamedText {
  std::string name;  // shown in the UI's messages: the file name without its directory
  std::string text;
};

// The whole file as text, at most 16 MiB (the web page's limit). On failure returns false and sets
// `error` to one line naming the file ("cannot read /x/y.json: No such file or directory").
bool read_text_file(const std::string& path, NamedText& out, std::string& error);

// The bundled hardware profiles (site/profiles/: index.json lists the files, as for the web page).
// Directory: `dir` when not empty; else the first existing of
//   <program dir>/profiles, <program dir>/../share/llmcalc/profiles   (installed layouts)
//   LLMC_SOURCE_PROFILES_DIR                                        (compiled in: the source tree)
// Problems (no directory, a missing listed file) go to `errors`; bad profile *content* is left to
// App::add_bundled_profile, which reports it in the banner.
std::vector<NamedText> read_bundled_profiles(const std::string& dir, std::vector<std::string>& errors);

}  // namespace llmc::desktop
