// llmc::ui::Platform for the desktop: the system clipboard through SDL, saved state in files under
// $XDG_CONFIG_HOME/llmcalc (or ~/.config/llmcalc), the Open dialog, and the URL fragment and
// accessible summary kept in memory (the test hooks report them; there is no address bar).
#pragma once
#include <functional>
#include <string>

#include "llmc_ui/app.h"

namespace llmc::desktop {

struct DesktopPlatform {
  llmc::ui::Platform ui;       // what App uses
  std::string fragment;        // last set_url_fragment()
  std::string summary;         // last announce()
  std::string clipboard_read;  // SDL_GetClipboardText() right after the last copy_text()
};

// `store_dir` "" = no saved state. `open_dialog` is called for the UI's "Load profile..." button.
void make_platform(DesktopPlatform& p, const std::string& base_url, const std::string& store_dir,
                   std::function<void()> open_dialog);

// $XDG_CONFIG_HOME/llmcalc, else $HOME/.config/llmcalc, else "" (nothing saved).
std::string default_store_dir();

}  // namespace llmc::desktop
