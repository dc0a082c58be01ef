#pragma once
#include <string>
#include <vector>

namespace llmc::ui {

// Draws a grid of (value, status) cells through shaders/heatmap.{vert,frag} into a texture.
class HeatmapRenderer {
 public:
  HeatmapRenderer() = default;
  ~HeatmapRenderer();
  HeatmapRenderer(const HeatmapRenderer&) = delete;
  HeatmapRenderer& operator=(const HeatmapRenderer&) = delete;
  bool init(std::string& err);  // needs a current GL context
  // Returns the GL texture holding the picture (0 on failure).
  unsigned render(const std::vector<float>& value_status, int cols, int rows, int width, int height);

 private:
  unsigned program_ = 0, vao_ = 0, cells_ = 0, target_ = 0, fbo_ = 0;
  int width_ = 0, height_ = 0;
};

}  // namespace llmc::ui
