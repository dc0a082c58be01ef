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
  std::string figures;         // last publish_figures() (JSON)
  std::string clipboard_read;  // SDL_GetClipboardText() right after the last copy_text()
};

// `store_dir` "" = no saved state. `open_dialog` is called for the UI's "Load profile..." button.
// Exports are written into `save_dir` ("" = default_save_dir()).
void make_platform(DesktopPlatform& p, const std::string& base_url, const std::string& store_dir,
                   const std::string& save_dir, std::function<void()> open_dialog);

// ~/Downloads when it exists, else the current directory.
std::string default_save_dir();

// $XDG_CONFIG_HOME/llmcalc, else $HOME/.config/llmcalc, else "" (nothing saved).
std::string default_store_dir();

}  // namespace llmc::desktop
