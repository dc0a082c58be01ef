// The UI font and style. Text is rasterised at the screen's pixel ratio (15 px × devicePixelRatio)
// and drawn at 1/ratio, so on a 2× screen glyphs are sharp instead of a 1× atlas scaled up.
#include <imgui.h>

#include <cmath>

#include "llmc_ui/app.h"
#include "ui_font.h"

namespace llmc::ui {

namespace {
constexpr float kFontPx = 15.0f;  // window (CSS) pixels

void set_style() {
  ImGuiStyle& s = ImGui::GetStyle();
  s.FramePadding = ImVec2(6, 4);
  s.ItemSpacing = ImVec2(8, 5);
  s.ItemInnerSpacing = ImVec2(5, 4);
  s.FrameRounding = 3;
  s.GrabRounding = 3;
  s.TabRounding = 3;
  s.ChildRounding = 4;
  s.WindowPadding = ImVec2(8, 8);
  s.ScrollbarSize = 13;
}
}  // namespace

bool update_fonts(float pixel_ratio) {
  static float built_for = 0;
  // Ratios are clamped to [1, 3] and rounded to quarters: a window dragged between screens
  // rebuilds once per screen, not once per fractional zoom step.
  const float ratio = std::round(std::fmin(3.0f, std::fmax(1.0f, pixel_ratio)) * 4) / 4;
  if (ratio == built_for) return false;
  if (built_for == 0) set_style();
  built_for = ratio;
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  ImFontConfig cfg;
  cfg.FontDataOwnedByAtlas = false;  // the bytes are a constant array
  // One rasterisation per glyph, snapped to whole pixels: crisp UI text, and half the start-up
  // rasterising of ImGui's default 3× horizontal oversampling (the first frame is budgeted).
  cfg.OversampleH = 1;
  cfg.OversampleV = 1;
  cfg.PixelSnapH = true;
  io.Fonts->AddFontFromMemoryTTF(const_cast<unsigned char*>(kUiFontTtf), static_cast<int>(kUiFontTtfSize),
                                 kFontPx * ratio, &cfg, reinterpret_cast<const ImWchar*>(kUiFontRanges));
  io.Fonts->Build();
  io.FontGlobalScale = 1.0f / ratio;
  return true;
}

}  // namespace llmc::ui
