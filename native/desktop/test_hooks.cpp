#include "test_hooks.h"

#include <SDL.h>
#include <imgui.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace llmc::desktop {

namespace fs = std::filesystem;

TestHooks::TestHooks(std::string report_file, std::string control_file)
    : report_(std::move(report_file)), control_(std::move(control_file)) {
  for (const char* t : {"Model", "Training", "Parallelism", "Hardware", "Results", "Scaling", "Layouts"})
    rect_ids_.insert(std::string("tab:") + t);
}

bool TestHooks::poll_control() {
  if (control_.empty()) return true;
  std::error_code ec;
  if (!fs::exists(control_, ec)) return true;
  std::ifstream in(control_);
  std::stringstream text;
  text << in.rdbuf();
  in.close();
  fs::remove(control_, ec);
  bool keep_running = true;
  std::string line;
  while (std::getline(text, line)) {
    if (line.rfind("rect ", 0) == 0) {
      rect_ids_.insert(line.substr(5));
    } else if (line.rfind("drop ", 0) == 0) {
      SDL_Event e{};
      e.type = SDL_DROPFILE;
      e.drop.file = SDL_strdup(line.substr(5).c_str());  // freed by the event loop, as SDL's own
      SDL_PushEvent(&e);
    } else if (line == "quit") {
      keep_running = false;
    } else if (!line.empty()) {
      std::fprintf(stderr, "llmcalc-desktop: unknown control command: %s\n", line.c_str());
    }
  }
  return keep_running;
}

void TestHooks::write_report(const llmc::ui::App& app, const DesktopPlatform& platform,
                             const std::vector<std::string>& notices, bool dialog_open, int frame, int width,
                             int height) {
  if (report_.empty()) return;
  nlohmann::json rects = nlohmann::json::object();
  for (const std::string& id : rect_ids_) {
    float r[4];
    if (app.widget_rect(id, r) || (extra_rect_ && extra_rect_(id, r))) rects[id] = {r[0], r[1], r[2], r[3]};
  }
  // Where ImGui believes the mouse is, and which SDL windows have mouse / keyboard focus: what a
  // click that did nothing needs explaining.
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const nlohmann::json input = {{"mouse", {mouse.x, mouse.y}},
                                {"mouse_down", ImGui::GetIO().MouseDown[0]},
                                {"mouse_focus", SDL_GetMouseFocus() != nullptr},
                                {"keyboard_focus", SDL_GetKeyboardFocus() != nullptr}};
  const nlohmann::json figures = nlohmann::json::parse(platform.figures, nullptr, false);
  const nlohmann::json j = {{"frame", frame},
                            {"window", {width, height}},
                            {"input", input},
                            {"figures", figures},
                            {"fragment", platform.fragment},
                            {"summary", platform.summary},
                            {"clipboard", platform.clipboard_read},
                            {"notices", notices},
                            {"dialog_open", dialog_open},
                            {"rects", rects},
                            {"registry", extra_state_ ? extra_state_() : nlohmann::json()}};
  const std::string tmp = report_ + ".tmp";
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";  // file names may not be UTF-8
  }
  std::error_code ec;
  fs::rename(tmp, report_, ec);
}

}  // namespace llmc::desktop
