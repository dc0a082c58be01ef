#include "open_dialog.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>

namespace llmc::desktop {

namespace fs = std::filesystem;

OpenDialog::OpenDialog(std::function<void(const std::string&)> open_path) : open_path_(std::move(open_path)) {}

void OpenDialog::list_dir() {
  entries_.clear();
  list_error_.clear();
  std::error_code ec;
  fs::directory_iterator it(dir_, fs::directory_options::skip_permission_denied, ec);
  if (ec) {
    list_error_ = "cannot list " + dir_ + ": " + ec.message();
    return;
  }
  for (const fs::directory_entry& e : it) {
    const std::string name = e.path().filename().string();
    if (name.empty() || name[0] == '.') continue;
    if (e.is_directory(ec))
      entries_.push_back(name + "/");
    else if (e.path().extension() == ".json")
      entries_.push_back(name);
  }
  std::sort(entries_.begin(), entries_.end());
}

void OpenDialog::draw() {
  if (requested_) {
    requested_ = false;
    if (dir_.empty()) {
      std::error_code ec;
      dir_ = fs::current_path(ec).string();
    }
    list_dir();
    ImGui::OpenPopup("Open file");
  }
  const ImVec2 centre = ImGui::GetMainViewport()->GetCenter();
  ImGui::SetNextWindowPos(centre, ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(ImVec2(560, 420), ImGuiCond_Appearing);
  open_ = ImGui::BeginPopupModal("Open file");
  if (!open_) return;
  ImGui::TextWrapped(
      "A hardware profile, a scenario or a Hugging Face config.json. Files can also be dropped onto the window.");
  ImGui::TextUnformatted(dir_.c_str());
  if (ImGui::SmallButton("up")) {
    dir_ = fs::path(dir_).parent_path().string();
    list_dir();
  }
  std::string chosen;
  ImGui::BeginChild("entries", ImVec2(0, -ImGui::GetFrameHeightWithSpacing() * 2), true);
  if (!list_error_.empty()) ImGui::TextWrapped("%s", list_error_.c_str());
  std::string enter;
  for (const std::string& e : entries_) {
    if (ImGui::Selectable(e.c_str(), false, ImGuiSelectableFlags_AllowDoubleClick)) {
      const std::string full = (fs::path(dir_) / e).string();
      if (e.back() == '/')
        enter = full;
      else
        std::snprintf(path_, sizeof path_, "%s", full.c_str());
      if (e.back() != '/' && ImGui::IsMouseDoubleClicked(0)) chosen = full;
    }
  }
  ImGui::EndChild();
  if (!enter.empty()) {
    dir_ = fs::path(enter).lexically_normal().parent_path().string();  // "a/b/" → "a/b"
    list_dir();
  }
  ImGui::SetNextItemWidth(-140);
  if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();  // type a path right away
  const bool enter_pressed = ImGui::InputText("##path", path_, sizeof path_, ImGuiInputTextFlags_EnterReturnsTrue);
  ImGui::SameLine();
  if ((ImGui::Button("Open") || enter_pressed) && path_[0]) chosen = path_;
  ImGui::SameLine();
  if (ImGui::Button("Cancel") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) ImGui::CloseCurrentPopup();
  if (!chosen.empty()) {
    ImGui::CloseCurrentPopup();
    open_path_(chosen);
  }
  ImGui::EndPopup();
}

void Notices::add(const std::string& text) {
  std::fprintf(stderr, "llmcalc-desktop: %s\n", text.c_str());
  items_.push_back(text);
}

void Notices::draw() {
  if (items_.empty()) return;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(vp->WorkPos.x + vp->WorkSize.x - 16, vp->WorkPos.y + vp->WorkSize.y - 16),
                          ImGuiCond_Always, ImVec2(1, 1));
  ImGui::SetNextWindowSizeConstraints(ImVec2(200, 0), ImVec2(vp->WorkSize.x * 0.6f, vp->WorkSize.y * 0.5f));
  ImGui::Begin("File problems", nullptr,
               ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings);
  ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.5f, 0.5f, 1));
  for (const std::string& s : items_) ImGui::TextWrapped("%s", s.c_str());
  ImGui::PopStyleColor();
  if (ImGui::Button("dismiss")) items_.clear();
  ImGui::End();
}

}  // namespace llmc::desktop
