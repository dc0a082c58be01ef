// The UI font, generated at build time by ui/font/subset.py (ui/CMakeLists.txt): DejaVu Sans from
// Debian's fonts-dejavu-core, subset by pyftsubset to the characters the UI shows.
#pragma once

namespace llmc::ui {

extern const unsigned char kUiFontTtf[];
extern const unsigned kUiFontTtfSize;
extern const unsigned short kUiFontRanges[];  // ImGui glyph ranges (first, last pairs, 0-terminated)

}  // namespace llmc::ui
