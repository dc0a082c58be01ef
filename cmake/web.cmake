# Web platform dependencies (Emscripten only): Dear ImGui and SDL2 from Debian *source* packages,
# unpacked and (SDL2) built for wasm by scripts/setup-web.sh into a cache outside the build tree.
#   imgui       static library: the ImGui core (imgui.cpp, imgui_draw.cpp, imgui_tables.cpp,
#               imgui_widgets.cpp; no imgui_demo.cpp). The SDL2 + OpenGL3 backends are compiled
#               into the web app target (web/CMakeLists.txt), not here.
#   SDL2::SDL2  imported static libSDL2.a (video + events + GL/EGL; no audio), include dir SDL2/.
# LLMC_IMGUI_DIR / LLMC_IMGUI_BACKENDS_DIR are set for web/CMakeLists.txt.
if(NOT EMSCRIPTEN)
  message(FATAL_ERROR "cmake/web.cmake builds the WebAssembly page only (use the wasm preset), "
                      "or configure with -DLLMC_BUILD_WEB=OFF")
endif()

if(NOT "$ENV{XDG_CACHE_HOME}" STREQUAL "")
  set(_llmc_web_cache "$ENV{XDG_CACHE_HOME}/llmcalc")
else()
  set(_llmc_web_cache "$ENV{HOME}/.cache/llmcalc")
endif()
set(LLMC_WEB_DEPS "${_llmc_web_cache}" CACHE PATH
    "Cache of scripts/setup-web.sh: src/imgui (Dear ImGui sources), wasm/sdl2 (libSDL2.a for wasm)")

set(LLMC_IMGUI_DIR "${LLMC_WEB_DEPS}/src/imgui")
set(LLMC_IMGUI_BACKENDS_DIR "${LLMC_IMGUI_DIR}/backends")
set(LLMC_SDL2_WASM_DIR "${LLMC_WEB_DEPS}/wasm/sdl2")

foreach(_f "${LLMC_IMGUI_DIR}/imgui.cpp" "${LLMC_IMGUI_BACKENDS_DIR}/imgui_impl_sdl.cpp"
           "${LLMC_IMGUI_BACKENDS_DIR}/imgui_impl_opengl3.cpp"
           "${LLMC_SDL2_WASM_DIR}/lib/libSDL2.a" "${LLMC_SDL2_WASM_DIR}/include/SDL2/SDL.h")
  if(NOT EXISTS "${_f}")
    message(FATAL_ERROR
      "Web dependencies missing: ${_f} not found (LLMC_WEB_DEPS=${LLMC_WEB_DEPS}).\n"
      "Run scripts/setup-web.sh (or scripts/setup.sh web) to fetch Dear ImGui and SDL2 from "
      "Debian's source packages and build SDL2 for wasm; it caches them in "
      "\${XDG_CACHE_HOME:-~/.cache}/llmcalc. Or configure with -DLLMC_WEB_DEPS=<that cache>, "
      "or -DLLMC_BUILD_WEB=OFF to build without the web page.")
  endif()
endforeach()

# ImGui core. -fwasm-exceptions comes from cmake/platform.cmake (global), so it matches the rest.
add_library(imgui STATIC
  "${LLMC_IMGUI_DIR}/imgui.cpp"
  "${LLMC_IMGUI_DIR}/imgui_draw.cpp"
  "${LLMC_IMGUI_DIR}/imgui_tables.cpp"
  "${LLMC_IMGUI_DIR}/imgui_widgets.cpp")
target_include_directories(imgui SYSTEM PUBLIC "${LLMC_IMGUI_DIR}")
# No file system in the page (-sNO_FILESYSTEM=1): ImGui never opens imgui.ini or font files.
# IMGUI_IMPL_OPENGL_ES3: the OpenGL3 backend (and anything else reading it) targets GL ES 3.0 =
# WebGL2, shaders "#version 300 es".
target_compile_definitions(imgui PUBLIC IMGUI_DISABLE_FILE_FUNCTIONS IMGUI_IMPL_OPENGL_ES3)
target_compile_options(imgui PRIVATE -w)  # third-party code: its warnings are not ours to fix

add_library(SDL2::SDL2 STATIC IMPORTED GLOBAL)
set_target_properties(SDL2::SDL2 PROPERTIES
  IMPORTED_LOCATION "${LLMC_SDL2_WASM_DIR}/lib/libSDL2.a"
  INTERFACE_INCLUDE_DIRECTORIES "${LLMC_SDL2_WASM_DIR}/include/SDL2;${LLMC_SDL2_WASM_DIR}/include")

message(STATUS "llmcalc web: ImGui ${LLMC_IMGUI_DIR}, SDL2 ${LLMC_SDL2_WASM_DIR}/lib/libSDL2.a")
