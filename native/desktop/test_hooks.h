// Hooks that let tests/desktop/ drive the real app with real X11 input (xdotool) and check what
// it did. Both are off unless their option is given; neither changes what the app computes.
//
// --report FILE   After every frame, FILE is replaced (write + rename, so readers never see half
//                 a file) by one JSON object:
//                   {"frame": N, "window": [w, h], "fragment": "#s=...", "summary": "<ARIA text>",
//                    "figures": {the UI's figures JSON: "time.step_s": ..., "stale": ..., ...},
//                    "clipboard": "<read back after the last Copy link>", "notices": [...],
//                    "dialog_open": bool (the Open file dialog),
//                    "input": {"mouse": [x, y], "mouse_down": bool, "mouse_focus": bool, "keyboard_focus": bool},
//                    "rects": {"<widget id>": [x, y, w, h], ...}}
//                 rects are App::widget_rect() in window pixels, for the ids asked for with `rect`
//                 commands (and, always, the tab ids of test_hooks.cpp's constructor); ids the
//                 app does not know are asked of the desktop's own windows (set_extra).
//                 "registry": the Registry menu's jobs (RegistryWindow::report()).
// --control FILE  Polled before every frame; when it exists it is read, deleted, and each line run:
//                   rect <widget id>     add the id to the report's rects
//                   drop <path>          push an SDL_DROPFILE event (the drag-and-drop code path;
//                                        X11 drag-and-drop itself cannot be scripted with xdotool)
//                   quit                 leave the main loop (exit status 0)
#pragma once
#include <functional>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "desktop_platform.h"
#include "llmc_ui/app.h"

namespace llmc::desktop {

class TestHooks {
 public:
  TestHooks(std::string report_file, std::string control_file);
  // The desktop's own windows: their widget rectangles and their state for the report.
  void set_extra(std::function<bool(const std::string&, float[4])> rect, std::function<nlohmann::json()> state) {
    extra_rect_ = std::move(rect);
    extra_state_ = std::move(state);
  }
  // Runs pending control commands. Returns false when asked to quit.
  bool poll_control();
  void write_report(const llmc::ui::App& app, const DesktopPlatform& platform, const std::vector<std::string>& notices,
                    bool dialog_open, int frame, int width, int height);

 private:
  std::string report_, control_;
  std::set<std::string> rect_ids_;
  std::function<bool(const std::string&, float[4])> extra_rect_;
  std::function<nlohmann::json()> extra_state_;
};

}  // namespace llmc::desktop
