# Desktop platform dependencies (native only), all from Debian's archive (scripts/setup.sh desktop):
#   SDL2::SDL2   libsdl2-dev (CMake config package)
#   OpenGL::GL   libgl-dev (Mesa / libglvnd)
#   imgui        libimgui-dev through pkg-config: headers and a static libimgui.a that already
#                holds the SDL2 and OpenGL3 backends, so nothing of ImGui is compiled here.
# Included before option(LLMC_BUILD_DESKTOP) so the option can default to "found".
#   LLMC_DESKTOP_FOUND    TRUE when all three were found
#   LLMC_DESKTOP_MISSING  what was not found (for messages)
# llmc_desktop_targets() then defines the target `imgui` that ui/ links (the web build defines its
# own `imgui` from sources in cmake/web.cmake), or stops with a message naming what is missing.

set(LLMC_DESKTOP_FOUND FALSE)
set(LLMC_DESKTOP_MISSING "")
if(EMSCRIPTEN)
  set(LLMC_DESKTOP_MISSING "a native compiler (this is an Emscripten build)")
else()
  find_package(SDL2 CONFIG QUIET)
  if(NOT TARGET SDL2::SDL2)
    list(APPEND LLMC_DESKTOP_MISSING "SDL2 (libsdl2-dev)")
  endif()
  set(OpenGL_GL_PREFERENCE GLVND)
  find_package(OpenGL QUIET)
  if(NOT TARGET OpenGL::GL)
    list(APPEND LLMC_DESKTOP_MISSING "OpenGL (libgl-dev)")
  endif()
  find_package(PkgConfig QUIET)
  if(PKG_CONFIG_FOUND)
    pkg_check_modules(LLMC_IMGUI QUIET IMPORTED_TARGET imgui)
  endif()
  if(NOT TARGET PkgConfig::LLMC_IMGUI)
    list(APPEND LLMC_DESKTOP_MISSING "Dear ImGui (libimgui-dev, found through pkg-config)")
  endif()
  if(NOT LLMC_DESKTOP_MISSING)
    set(LLMC_DESKTOP_FOUND TRUE)
  endif()
endif()

function(llmc_desktop_targets)
  if(NOT LLMC_DESKTOP_FOUND)
    string(JOIN ", " _missing ${LLMC_DESKTOP_MISSING})
    message(FATAL_ERROR "LLMC_BUILD_DESKTOP=ON but not found: ${_missing}.\n"
                        "Run scripts/setup.sh desktop, or configure with -DLLMC_BUILD_DESKTOP=OFF.")
  endif()
  # Same name as the web build's ImGui target, so ui/CMakeLists.txt links `imgui` on both.
  # Debian's libimgui.a is built with its default imconfig.h: define no IMGUI_* macros here.
  add_library(imgui INTERFACE)
  target_link_libraries(imgui INTERFACE PkgConfig::LLMC_IMGUI)
  # The backend headers (imgui_impl_sdl.h, imgui_impl_opengl3.h) sit in <includedir>/backends.
  pkg_get_variable(_imgui_includedir imgui includedir)
  target_include_directories(imgui SYSTEM INTERFACE "${_imgui_includedir}/backends")
  message(STATUS "llmcalc desktop: ImGui ${LLMC_IMGUI_VERSION} (pkg-config), SDL2 ${SDL2_VERSION}")
endfunction()
