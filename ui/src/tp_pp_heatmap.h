// The tp × pp heatmap that the Layouts screen (step time of each layout) and the Search screen
// (best step time with tp and pp fixed) both draw: the GL texture of heatmap_gl.cpp with pp
// labels down its left side, tp labels under it, the current layout outlined, and a colour scale.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "state.h"

namespace llmc::ui {

// Whether the heatmap shader can draw; if not, shows one line saying why.
bool heatmap_ready(State& st);

struct HeatmapView {
  const std::vector<float>*
      data;  // cols × rows cells of two floats: value in [0, 1] (0 = best), status (shaders/heatmap.frag)
  const std::vector<int64_t>* tp;       // column labels
  const std::vector<int64_t>* pp;       // row labels
  int marked = -1;                      // cell to outline (the scenario's own tp and pp), or -1
  std::string best_label, worst_label;  // the colour scale's ends ("2.41 s", "9.8 s")
  std::string rect_id;
};

// Draws the heatmap at the cursor and remembers its rect as view.rect_id (and each cell's as
// rect_id + ":tp<N>,pp<M>"). Returns the index of the cell under the mouse, or -1; `clicked` is
// set when that cell was clicked.
int draw_tp_pp_heatmap(State& st, const HeatmapView& view, bool& clicked);

}  // namespace llmc::ui
