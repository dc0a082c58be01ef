// The desktop's registry menu (desktop only; the shared screens in ui/ know nothing of it): a
// menu bar with "Registry" → "Upload profile…" (a profile file to the configured registry) and,
// where llmcalc-bench is installed beside the program, "Calibrate this GPU…" (the bench as a
// child process, its progress bar in the window, the profile it writes loaded into the app when
// it passes). docs/desktop.md, docs/registry.md.
#pragma once
#include <array>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "bench_job.h"
#include "llmc_ui/app.h"
#include "open_dialog.h"
#include "upload_job.h"

namespace llmc::desktop {

struct RegistryOptions {
  std::string url;         // --registry: overrides the saved one
  std::string token_file;  // --token-file: overrides the saved one
  std::string bench;       // llmcalc-bench to run ("" = none found: the item is disabled)
  std::string work_dir;    // where calibrations write their profiles (the app's config dir)
};

class RegistryWindow {
 public:
  // `load_file` hands a finished calibration's profile to the app (as a dropped file).
  RegistryWindow(llmc::ui::Platform& platform, RegistryOptions opt, std::function<void(const std::string&)> load_file);
  // Before App::frame(): the menu bar (the app's window takes the space below it).
  void draw_menu_bar();
  // After App::frame(): the Upload and Calibrate windows, when open.
  void draw_windows();

  // Test hooks: rectangles of this window's widgets ("menu:Registry", "upload:Upload", ...) as
  // drawn in the last frame, and the jobs' state.
  bool widget_rect(const std::string& id, float out[4]) const;
  nlohmann::json report() const;

 private:
  void draw_upload();
  void draw_calibrate();
  void save_settings();
  void remember(const std::string& id);  // the last item's rectangle under `id`

  llmc::ui::Platform& platform_;
  RegistryOptions opt_;
  std::function<void(const std::string&)> load_file_;
  UploadJob upload_;
  BenchJob bench_;
  OpenDialog picker_;
  char url_[512] = "", token_file_[1024] = "", profile_[1024] = "", label_[128] = "";
  bool show_upload_ = false, show_calibrate_ = false, quick_ = true, upload_after_ = false;
  std::string bench_out_, start_error_;
  bool bench_loaded_ = false;
  std::map<std::string, std::array<float, 4>> rects_;
};

}  // namespace llmc::desktop
