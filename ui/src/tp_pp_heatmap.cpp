#include "tp_pp_heatmap.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "colormap.h"
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

int draw_tp_pp_heatmap(State& st, const HeatmapView& v, bool& clicked) {
  clicked = false;
  const int cols = int(v.tp->size()), rows = int(v.pp->size());
  const float label_w = ImGui::CalcTextSize("pp 128 ").x;
  const float w = std::min(ImGui::GetContentRegionAvail().x - label_w - 8, ImGui::GetFontSize() * 30);
  const float h = ImGui::GetFrameHeightWithSpacing() * float(rows);
  const float scale = ImGui::GetIO().DisplayFramebufferScale.x;
  const unsigned tex = st.heatmap->render(*v.data, cols, rows, int(w * scale), int(h * scale));
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::Dummy(ImVec2(label_w, 0));
  ImGui::SameLine(0, 0);
  const ImVec2 img = ImGui::GetCursorScreenPos();
  ImGui::Image(reinterpret_cast<ImTextureID>(static_cast<intptr_t>(tex)), ImVec2(w, h), ImVec2(0, 1), ImVec2(1, 0));
  remember_rect(st, v.rect_id);
  int hovered = -1;
  if (ImGui::IsItemHovered()) {
    const ImVec2 m = ImGui::GetIO().MousePos;
    const int cx = std::clamp(int((m.x - img.x) / w * float(cols)), 0, cols - 1),
              cy = std::clamp(int((m.y - img.y) / h * float(rows)), 0, rows - 1);
    hovered = cy * cols + cx;
    clicked = ImGui::IsItemClicked();
  }
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float cw = w / float(cols), ch = h / float(rows);
  for (int r = 0; r < rows; ++r) {
    char lab[24];
    std::snprintf(lab, sizeof lab, "pp %lld", (long long)(*v.pp)[size_t(r)]);
    dl->AddText(ImVec2(origin.x, img.y + (float(r) + 0.5f) * ch - ImGui::GetTextLineHeight() * 0.5f),
                IM_COL32(200, 200, 200, 255), lab);
    for (int c = 0; c < cols; ++c) {
      const Rect cell{img.x + float(c) * cw, img.y + float(r) * ch, cw, ch};
      st.rects[v.rect_id + ":tp" + std::to_string((*v.tp)[size_t(c)]) + ",pp" + std::to_string((*v.pp)[size_t(r)])] =
          cell;
    }
  }
  for (int c = 0; c < cols; ++c) {
    char lab[24];
    std::snprintf(lab, sizeof lab, "tp %lld", (long long)(*v.tp)[size_t(c)]);
    const float tw = ImGui::CalcTextSize(lab).x;
    dl->AddText(ImVec2(img.x + (float(c) + 0.5f) * cw - tw * 0.5f, img.y + h + 2), IM_COL32(200, 200, 200, 255), lab);
  }
  for (int idx : {v.marked, hovered}) {  // the scenario's own cell, and the one under the mouse
    if (idx < 0) continue;
    const float x = img.x + float(idx % cols) * cw, y = img.y + float(idx / cols) * ch;
    dl->AddRect(ImVec2(x + 1, y + 1), ImVec2(x + cw - 1, y + ch - 1),
                idx == v.marked ? IM_COL32(255, 255, 255, 255) : IM_COL32(255, 200, 80, 255), 0, 0, 2.5f);
  }
  ImGui::Dummy(ImVec2(w, ImGui::GetTextLineHeight() + 4));
  // Colour scale: faster (bright) to slower (dark), log-spaced between the ends.
  if (!v.best_label.empty()) {
    ImGui::Dummy(ImVec2(label_w, 0));
    ImGui::SameLine(0, 0);
    const std::string left = "faster " + v.best_label, right = v.worst_label + " slower";
    ImGui::TextUnformatted(left.c_str());
    ImGui::SameLine();
    const float bar_w =
        std::max(40.0f, w - ImGui::CalcTextSize(left.c_str()).x - ImGui::CalcTextSize(right.c_str()).x - 24);
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float bh = ImGui::GetTextLineHeight();
    const int steps = 32;
    for (int i = 0; i < steps; ++i) {
      const float x0 = p.x + bar_w * float(i) / steps, x1 = p.x + bar_w * float(i + 1) / steps;
      dl->AddRectFilled(ImVec2(x0, p.y), ImVec2(x1 + 0.5f, p.y + bh), viridis(1.0f - float(i) / float(steps - 1)));
    }
    ImGui::Dummy(ImVec2(bar_w, bh));
    remember_rect(st, v.rect_id + ":scale");
    ImGui::SameLine();
    ImGui::TextUnformatted(right.c_str());
  }
  return hovered;
}

}  // namespace llmc::ui
