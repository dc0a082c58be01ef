#include "tp_pp_heatmap.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "heatmap_gl.h"

namespace llmc::ui {

bool heatmap_ready(State& st) {
  if (!st.heatmap) {
    ImGui::TextDisabled("(heatmap needs GL)");
    return false;
  }
  static std::string gl_error;
  if (!st.heatmap->init(gl_error)) {
    ImGui::TextWrapped("heatmap shader failed: %s", gl_error.c_str());
    return false;
  }
  return true;
}

int draw_tp_pp_heatmap(State& st, const std::vector<float>& data, const std::vector<int64_t>& tp, const std::vector<int64_t>& pp,
                       const std::string& rect_id) {
  const int cols = int(tp.size()), rows = int(pp.size());
  const float w = std::min(ImGui::GetContentRegionAvail().x - 60, 420.0f), h = 22.0f * float(rows);
  const float scale = ImGui::GetIO().DisplayFramebufferScale.x;
  const unsigned tex = st.heatmap->render(data, cols, rows, int(w * scale), int(h * scale));
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::Dummy(ImVec2(40, 0));
  ImGui::SameLine();
  const ImVec2 img = ImGui::GetCursorScreenPos();
  ImGui::Image(reinterpret_cast<ImTextureID>(static_cast<intptr_t>(tex)), ImVec2(w, h), ImVec2(0, 1), ImVec2(1, 0));
  remember_rect(st, rect_id);
  int hovered = -1;
  if (ImGui::IsItemHovered()) {
    const ImVec2 m = ImGui::GetIO().MousePos;
    const int cx = std::clamp(int((m.x - img.x) / w * float(cols)), 0, cols - 1), cy = std::clamp(int((m.y - img.y) / h * float(rows)), 0, rows - 1);
    hovered = cy * cols + cx;
  }
  ImDrawList* dl = ImGui::GetWindowDrawList();
  for (int r = 0; r < rows; ++r) {
    char lab[16];
    std::snprintf(lab, sizeof lab, "pp %lld", (long long)pp[size_t(r)]);
    dl->AddText(ImVec2(origin.x, img.y + (float(r) + 0.25f) * h / float(rows)), IM_COL32(200, 200, 200, 255), lab);
  }
  for (int c = 0; c < cols; ++c) {
    char lab[16];
    std::snprintf(lab, sizeof lab, "tp %lld", (long long)tp[size_t(c)]);
    dl->AddText(ImVec2(img.x + (float(c) + 0.3f) * w / float(cols), img.y + h + 2), IM_COL32(200, 200, 200, 255), lab);
  }
  ImGui::Dummy(ImVec2(w, 18));
  return hovered;
}

}  // namespace llmc::ui
