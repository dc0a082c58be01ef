#include "registry_window.h"

#include <imgui.h>

#include <cfloat>
#include <cstdlib>
#include <ctime>
#include <filesystem>

namespace llmc::desktop {

namespace {

constexpr const char* kSettingsKey = "llmcalc.registry";  // {"url": ..., "token_file": ...}; never a token

void copy_into(char* dst, size_t n, const std::string& s) { std::snprintf(dst, n, "%s", s.c_str()); }

std::string stamp() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y%m%d-%H%M%S", &tm);
  return buf;
}

}  // namespace

RegistryWindow::RegistryWindow(llmc::ui::Platform& platform, RegistryOptions opt,
                               std::function<void(const std::string&)> load_file)
    : platform_(platform),
      opt_(std::move(opt)),
      load_file_(std::move(load_file)),
      picker_([this](const std::string& path) { copy_into(profile_, sizeof profile_, path); }) {
  if (platform_.load) {
    const nlohmann::json saved = nlohmann::json::parse(platform_.load(kSettingsKey), nullptr, false);
    if (saved.is_object()) {
      copy_into(url_, sizeof url_, saved.value("url", std::string()));
      copy_into(token_file_, sizeof token_file_, saved.value("token_file", std::string()));
    }
  }
  if (!opt_.url.empty()) copy_into(url_, sizeof url_, opt_.url);
  if (!opt_.token_file.empty()) copy_into(token_file_, sizeof token_file_, opt_.token_file);
}

void RegistryWindow::remember(const std::string& id) {
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectSize();
  rects_[id] = {a.x, a.y, b.x, b.y};
}

bool RegistryWindow::widget_rect(const std::string& id, float out[4]) const {
  auto it = rects_.find(id);
  if (it == rects_.end()) return false;
  for (int i = 0; i < 4; ++i) out[i] = it->second[size_t(i)];
  return true;
}

void RegistryWindow::save_settings() {
  if (platform_.store) platform_.store(kSettingsKey, nlohmann::json{{"url", url_}, {"token_file", token_file_}}.dump());
}

void RegistryWindow::draw_menu_bar() {
  if (!ImGui::BeginMainMenuBar()) return;
  const bool open = ImGui::BeginMenu("Registry");
  remember("menu:Registry");
  if (open) {
    if (ImGui::MenuItem("Upload profile...")) show_upload_ = true;
    remember("menu:Upload profile");
    if (ImGui::MenuItem("Calibrate this GPU...", nullptr, false, !opt_.bench.empty())) show_calibrate_ = true;
    remember("menu:Calibrate this GPU");
    if (opt_.bench.empty() && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
      ImGui::SetTooltip("llmcalc-bench is not installed next to this program (or give --bench PATH)");
    ImGui::EndMenu();
  }
  ImGui::EndMainMenuBar();
}

void RegistryWindow::draw_windows() {
  if (show_upload_) draw_upload();
  if (show_calibrate_) draw_calibrate();
  ImGui::PushID("registry");  // its own popup id: the app's Open dialog is another instance
  picker_.draw();
  ImGui::PopID();
}

void RegistryWindow::draw_upload() {
  const ImVec2 work = ImGui::GetMainViewport()->WorkPos;
  ImGui::SetNextWindowPos(ImVec2(work.x + 40, work.y + 40), ImGuiCond_Appearing);
  ImGui::SetNextWindowSizeConstraints(ImVec2(620, 0), ImVec2(620, FLT_MAX));
  if (!ImGui::Begin("Upload profile", &show_upload_, ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_AlwaysAutoResize)) {
    ImGui::End();
    return;
  }
  const UploadJob::State st = upload_.state();
  ImGui::PushItemWidth(440);  // wide enough for a path; the window sizes itself around it
  ImGui::TextWrapped(
      "Sends a hardware profile to a team registry (`llmcalc serve`), where the web page and others can use it. The "
      "file itself is not changed.");
  ImGui::InputTextWithHint("Registry", "https://llmcalc.team.example", url_, sizeof url_);
  remember("upload:registry");
  ImGui::InputTextWithHint("Token file", "empty: $LLMCALC_TOKEN", token_file_, sizeof token_file_);
  remember("upload:token file");
  ImGui::InputTextWithHint("Profile", "a profile file (llmcalc-bench output)", profile_, sizeof profile_);
  remember("upload:profile");
  ImGui::SameLine();
  if (ImGui::Button("Browse...")) picker_.request();
  remember("upload:Browse");
  ImGui::InputTextWithHint("Label", "cluster or host group (optional)", label_, sizeof label_);
  remember("upload:label");
  ImGui::PopItemWidth();
  ImGui::BeginDisabled(st.running);
  if (ImGui::Button(st.running ? "Uploading..." : "Upload")) {
    save_settings();
    upload_.start({url_, token_file_, profile_, label_});
  }
  remember("upload:Upload");
  ImGui::EndDisabled();
  if (!st.message.empty()) {
    const ImVec4 colour = st.done && !st.ok ? ImVec4(1.0f, 0.45f, 0.4f, 1.0f) : ImVec4(0.6f, 0.9f, 0.6f, 1.0f);
    ImGui::PushStyleColor(ImGuiCol_Text, st.running ? ImGui::GetStyleColorVec4(ImGuiCol_Text) : colour);
    ImGui::TextWrapped("%s", st.message.c_str());
    ImGui::PopStyleColor();
  }
  if (st.ok && !st.id.empty()) {
    if (ImGui::Button("Copy id")) platform_.copy_text(st.id);
    remember("upload:Copy id");
  }
  ImGui::End();
}

void RegistryWindow::draw_calibrate() {
  const ImVec2 work = ImGui::GetMainViewport()->WorkPos;
  ImGui::SetNextWindowPos(ImVec2(work.x + 100, work.y + 280), ImGuiCond_Appearing);
  ImGui::SetNextWindowSizeConstraints(ImVec2(660, 0), ImVec2(660, FLT_MAX));
  if (!ImGui::Begin("Calibrate this GPU", &show_calibrate_,
                    ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_AlwaysAutoResize)) {
    ImGui::End();
    return;
  }
  const BenchJob::State st = bench_.state();
  ImGui::TextWrapped("Runs %s on this machine's GPU and loads the profile it writes (docs/bench.md).",
                     opt_.bench.c_str());
  ImGui::BeginDisabled(st.running);
  ImGui::Checkbox("Quick run (about 2 minutes on one H100; full: about 10)", &quick_);
  remember("calibrate:quick");
  ImGui::Checkbox("Upload to the registry when it passes", &upload_after_);
  remember("calibrate:upload");
  if (upload_after_) ImGui::TextDisabled("registry: %s", *url_ ? url_ : "(none set: Registry > Upload profile...)");
  if (ImGui::Button("Start")) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path dir =
        fs::path(opt_.work_dir.empty() ? fs::temp_directory_path() : fs::path(opt_.work_dir)) / "calibrations";
    fs::create_directories(dir, ec);
    bench_out_ = (dir / ("profile-" + stamp() + ".json")).string();
    std::vector<std::string> args{"--out", bench_out_};
    if (quick_) args.push_back("--quick");
    if (upload_after_ && *url_) {
      args.insert(args.end(), {"--upload", url_});
      if (*token_file_) args.insert(args.end(), {"--token-file", token_file_});
      save_settings();
    }
    start_error_.clear();
    bench_loaded_ = false;
    if (!bench_.start(opt_.bench, args, start_error_)) bench_out_.clear();
  }
  remember("calibrate:Start");
  ImGui::EndDisabled();
  if (st.running) {
    ImGui::SameLine();
    if (ImGui::Button("Cancel")) bench_.cancel();
    remember("calibrate:Cancel");
  }
  if (!start_error_.empty()) ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "%s", start_error_.c_str());
  if (st.started) {
    char overlay[96];
    std::snprintf(overlay, sizeof overlay, "%d%%%s%s", st.progress.percent, st.progress.eta.empty() ? "" : "  ETA ",
                  st.progress.eta.c_str());
    ImGui::ProgressBar(float(st.progress.percent) / 100.0f, ImVec2(-1, 0), overlay);
    remember("calibrate:progress");
    ImGui::TextUnformatted(st.progress.label.c_str());
    ImGui::BeginChild("bench output", ImVec2(0, ImGui::GetTextLineHeightWithSpacing() * 8), true,
                      ImGuiWindowFlags_HorizontalScrollbar);
    for (const std::string& line : st.tail) ImGui::TextUnformatted(line.c_str());
    ImGui::SetScrollHereY(1.0f);
    ImGui::EndChild();
  }
  if (st.started && !st.running) {
    if (st.exit_code == 0 || st.exit_code == 4) {  // 4: measured and written, only the upload failed
      if (!bench_loaded_) {
        load_file_(bench_out_);
        bench_loaded_ = true;
      }
      ImGui::TextColored(ImVec4(0.6f, 0.9f, 0.6f, 1.0f), "Profile written to %s and loaded%s", bench_out_.c_str(),
                         st.exit_code == 4 ? " (the upload failed: see above)" : "");
      if (ImGui::Button("Upload it...")) {
        copy_into(profile_, sizeof profile_, bench_out_);
        show_upload_ = true;
      }
      remember("calibrate:Upload it");
    } else {
      ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f),
                         "llmcalc-bench exited with status %d (1: a check failed, 3: no usable GPU); nothing loaded",
                         st.exit_code);
    }
  }
  ImGui::End();
}

nlohmann::json RegistryWindow::report() const {
  const UploadJob::State u = upload_.state();
  const BenchJob::State b = bench_.state();
  return {{"bench", opt_.bench},
          {"url", url_},
          {"upload", {{"running", u.running}, {"done", u.done}, {"ok", u.ok}, {"message", u.message}, {"id", u.id}}},
          {"calibration",
           {{"started", b.started},
            {"running", b.running},
            {"exit_code", b.exit_code},
            {"percent", b.progress.percent},
            {"label", b.progress.label},
            {"eta", b.progress.eta},
            {"out", bench_out_},
            {"loaded", bench_loaded_},
            {"tail", b.tail}}}};
}

}  // namespace llmc::desktop
