// The tp × pp heatmap that the Plots screen (step time of each layout) and the Search screen
// (best step time with tp and pp fixed) both draw: the GL texture of heatmap_gl.cpp with pp
// labels down its left side and tp labels under it.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "state.h"

namespace llmc::ui {

// Whether the heatmap shader can draw; if not, shows one line saying why.
bool heatmap_ready(State& st);

// Draws `data` (cols × rows cells of two floats: value in [0, 1], status; shaders/heatmap.frag)
// at the cursor, `tp` labelling the columns and `pp` the rows; remembers its rect as `rect_id`.
// Returns the index of the cell under the mouse, or -1.
int draw_tp_pp_heatmap(State& st, const std::vector<float>& data, const std::vector<int64_t>& tp, const std::vector<int64_t>& pp,
                       const std::string& rect_id);

}  // namespace llmc::ui
