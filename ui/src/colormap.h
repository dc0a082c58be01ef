// Viridis, the heatmap's colour scale, for the legend drawn on the CPU. The same polynomial as
// shaders/heatmap.frag (Matt Zucker's fit, shadertoy WlfXRN, CC0): keep the two in step.
#pragma once
#include <imgui.h>

namespace llmc::ui {

// t in [0, 1]; the heatmap maps its best value (0) to viridis(1), bright yellow.
inline ImU32 viridis(float t) {
  static const float c[7][3] = {{0.2777273272234177f, 0.005407344544966578f, 0.3340998053353061f},
                                {0.1050930431085774f, 1.404613529898575f, 1.384590162594685f},
                                {-0.3308618287255563f, 0.214847559468213f, 0.09509516302823659f},
                                {-4.634230498983486f, -5.799100973351585f, -19.33244095627987f},
                                {6.228269936347081f, 14.17993336680509f, 56.69055260068105f},
                                {4.776384997670288f, -13.74514537774601f, -65.35303263337234f},
                                {-5.435455855934631f, 4.645852612178535f, 26.3124352495832f}};
  float rgb[3];
  for (int k = 0; k < 3; ++k) {
    float v = c[6][k];
    for (int i = 5; i >= 0; --i) v = c[i][k] + t * v;
    rgb[k] = v < 0 ? 0 : v > 1 ? 1 : v;
  }
  return ImGui::ColorConvertFloat4ToU32(ImVec4(rgb[0], rgb[1], rgb[2], 1));
}

}  // namespace llmc::ui
