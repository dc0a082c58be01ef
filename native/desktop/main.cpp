// llmcalc-desktop: the shared llmcalc UI (ui/, llmc::ui::App) in a native window. SDL2 window +
// OpenGL 3.3 core context, Dear ImGui's SDL2 and OpenGL3 backends (Debian's libimgui.a). The web
// page's web/main.cpp is the model; the differences are the platform services (desktop_platform.h),
// files from the command line and drag-and-drop (files.h), an ImGui Open dialog (open_dialog.h),
// and a frame loop that sleeps while nothing happens (the web page has requestAnimationFrame).
#define GL_GLEXT_PROTOTYPES 1  // glBindFramebuffer (GL 3.0): libGL exports it
#include <SDL.h>
#include <SDL_opengl.h>
#include <imgui.h>
#include <imgui_impl_opengl3.h>
#include <imgui_impl_sdl.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "desktop_platform.h"
#include "files.h"
#include "llmc_ui/app.h"
#include "open_dialog.h"
#include "options.h"
#include "registry_window.h"
#include "test_hooks.h"

namespace {

using namespace llmc::desktop;

struct Pending {
  NamedText file;
  bool bundled = false;
};

// The URL fragment from a share link: "https://x/index.html#s=..." → "#s=...".
std::string fragment_of(const std::string& link) {
  const auto hash = link.find('#');
  return hash == std::string::npos ? (link.empty() ? "" : "#" + link) : link.substr(hash);
}

// ImGui's SDL backend (1.86) takes the pointer from SDL_GetGlobalMouseState(), which SDL on X11
// refreshes only on XInput2 raw events: pointers moved by XTest/XWarpPointer (xdotool, Xvfb) or
// some remote X servers send none, and hover would lag until the next click. While the pointer is
// over our window, the window-relative position SDL keeps from ordinary motion events is exact.
void use_window_mouse_position(SDL_Window* window) {
  if (SDL_GetMouseFocus() != window) return;  // outside (e.g. dragging): keep the backend's value
  int x = 0, y = 0;
  SDL_GetMouseState(&x, &y);
  ImGui::GetIO().MousePos = ImVec2(float(x), float(y));
}

int fail(const std::string& what) {
  std::fprintf(stderr, "llmcalc-desktop: %s\n", what.c_str());
  return 1;
}

// Frame pacing: render continuously (≤ 60 fps) for a moment after any input so ImGui can finish
// hover/press/animation transitions, then sleep in SDL_WaitEventTimeout. Vsync is not reliable
// (Xvfb ignores it), and software GL at full speed would take a whole CPU core for nothing.
constexpr Uint32 kActiveMs = 500, kIdleWaitMs = 250, kMinFrameMs = 16;

}  // namespace

int main(int argc, char** argv) {
  int exit_code = 0;
  const std::optional<Options> opt = parse_options(argc, argv, exit_code);
  if (!opt) return exit_code;

  if (SDL_Init(SDL_INIT_VIDEO | SDL_INIT_TIMER) != 0) return fail(std::string("SDL_Init: ") + SDL_GetError());
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_FLAGS, SDL_GL_CONTEXT_FORWARD_COMPATIBLE_FLAG);  // required on macOS
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
  SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
  SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 0);  // ImGui and the UI's 2-D drawing need no depth/stencil
  SDL_GL_SetAttribute(SDL_GL_STENCIL_SIZE, 0);
  const auto flags = static_cast<SDL_WindowFlags>(SDL_WINDOW_OPENGL | SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
  SDL_Window* window =
      SDL_CreateWindow("llmcalc", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, opt->width, opt->height, flags);
  if (!window) return fail(std::string("SDL_CreateWindow: ") + SDL_GetError());
  SDL_GLContext gl = SDL_GL_CreateContext(window);
  if (!gl) {
    return fail(std::string("cannot create an OpenGL 3.3 core context: ") + SDL_GetError() +
                " (without a GPU driver, try LIBGL_ALWAYS_SOFTWARE=1 for Mesa's llvmpipe)");
  }
  SDL_GL_MakeCurrent(window, gl);
  SDL_GL_SetSwapInterval(1);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // the layout is fixed by the UI; nothing to persist
  io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
  ImGui::StyleColorsDark();
  ImGui_ImplSDL2_InitForOpenGL(window, gl);  // also routes ImGui's clipboard to SDL's
  ImGui_ImplOpenGL3_Init("#version 330 core");
  {  // the UI font, rasterised for the window's pixel ratio before the first frame builds an atlas
    int win_w = 0, win_h = 0, fb_w = 0, fb_h = 0;
    SDL_GetWindowSize(window, &win_w, &win_h);
    SDL_GL_GetDrawableSize(window, &fb_w, &fb_h);
    llmc::ui::update_fonts(win_w > 0 ? float(fb_w) / float(win_w) : 1.0f);
  }

  // Destroyed before the GL context (its heatmap owns GL objects).
  auto app_owner = std::make_unique<llmc::ui::App>();
  llmc::ui::App& app = *app_owner;
  std::vector<Pending> pending;  // handed to the App inside the next frame (it may draw popups)
  Notices notices;
  auto queue_path = [&](const std::string& path) {
    Pending p;
    std::string err;
    if (read_text_file(path, p.file, err))
      pending.push_back(std::move(p));
    else
      notices.add(err);
  };
  OpenDialog dialog(queue_path);
  DesktopPlatform platform;
  make_platform(platform, opt->base_url, opt->no_store ? "" : default_store_dir(), opt->save_dir,
                [&dialog] { dialog.request(); });
  TestHooks hooks(opt->report_file, opt->control_file);
  char* base = SDL_GetBasePath();
  const std::string program_dir = base ? base : "";
  SDL_free(base);
  RegistryOptions reg_opt{opt->registry, opt->token_file, find_bench(opt->bench, program_dir),
                          opt->no_store ? "" : default_store_dir()};
  if (!opt->bench.empty() && reg_opt.bench.empty())
    notices.add("--bench " + opt->bench + ": not an executable file; Calibrate this GPU is unavailable");
  RegistryWindow registry(platform.ui, reg_opt, queue_path);
  hooks.set_extra([&registry](const std::string& id, float r[4]) { return registry.widget_rect(id, r); },
                  [&registry] { return registry.report(); });

  std::vector<std::string> bundled_errors;
  for (NamedText& f : read_bundled_profiles(opt->profiles_dir, bundled_errors)) pending.push_back({std::move(f), true});
  for (const std::string& e : bundled_errors) std::fprintf(stderr, "llmcalc-desktop: %s\n", e.c_str());
  app.start(platform.ui, fragment_of(opt->link));
  for (const std::string& path : opt->files) queue_path(path);

  std::vector<SDL_Event> deferred_keyups;  // key releases handed to ImGui one frame late
  bool running = true;
  int frame = 0;
  Uint32 active_until = SDL_GetTicks() + kActiveMs;
  while (running) {
    const Uint32 frame_start = SDL_GetTicks();
    SDL_Event event;
    // Idle: block until an event (or the timeout, so the control file is still polled).
    const bool idle = SDL_TICKS_PASSED(frame_start, active_until) && pending.empty() && deferred_keyups.empty();
    // Key releases held back from the last frame come first (see below).
    for (const SDL_Event& up : deferred_keyups) ImGui_ImplSDL2_ProcessEvent(&up);
    deferred_keyups.clear();
    std::vector<SDL_Scancode> pressed_now;  // keys that went down in this frame's events
    bool have = idle ? SDL_WaitEventTimeout(&event, kIdleWaitMs) != 0 : SDL_PollEvent(&event) != 0;
    for (; have; have = SDL_PollEvent(&event) != 0) {
      active_until = SDL_GetTicks() + kActiveMs;
      // ImGui 1.86 reads key state once per frame (io.KeysDown; no input queue before 1.87): a key
      // pressed and released between two frames would be lost. Such a release waits a frame.
      if (event.type == SDL_KEYDOWN) pressed_now.push_back(event.key.keysym.scancode);
      if (event.type == SDL_KEYUP &&
          std::find(pressed_now.begin(), pressed_now.end(), event.key.keysym.scancode) != pressed_now.end()) {
        deferred_keyups.push_back(event);
        continue;
      }
      ImGui_ImplSDL2_ProcessEvent(&event);
      if (event.type == SDL_QUIT) running = false;
      if (event.type == SDL_WINDOWEVENT && event.window.event == SDL_WINDOWEVENT_CLOSE &&
          event.window.windowID == SDL_GetWindowID(window))
        running = false;
      if (event.type == SDL_KEYDOWN && event.key.keysym.sym == SDLK_q && (event.key.keysym.mod & KMOD_CTRL))
        running = false;
      if (event.type == SDL_DROPFILE) {
        queue_path(event.drop.file);
        SDL_free(event.drop.file);
      }
    }
    if (!hooks.poll_control()) running = false;
    if (!running) break;
    if (SDL_GetWindowFlags(window) & SDL_WINDOW_MINIMIZED) {  // nothing visible to draw
      SDL_Delay(kMinFrameMs);
      continue;
    }

    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplSDL2_NewFrame();
    // The UI font follows the window's pixel ratio (a HiDPI screen, or the window moved to one).
    if (llmc::ui::update_fonts(ImGui::GetIO().DisplayFramebufferScale.x)) {
      ImGui_ImplOpenGL3_DestroyFontsTexture();
      ImGui_ImplOpenGL3_CreateFontsTexture();
    }
    use_window_mouse_position(window);
    ImGui::NewFrame();
    if (!pending.empty()) {
      std::vector<Pending> files;
      files.swap(pending);
      for (Pending& p : files) {
        if (p.bundled)
          app.add_bundled_profile(p.file.name, p.file.text);
        else
          app.load_file(platform.ui, p.file.name, p.file.text);
      }
    }
    registry.draw_menu_bar();  // first: the app's window fits below the bar from the next frame on
    app.frame(platform.ui);
    registry.draw_windows();
    dialog.draw();
    notices.draw();
    ImGui::Render();

    int fb_w = 0, fb_h = 0;
    SDL_GL_GetDrawableSize(window, &fb_w, &fb_h);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);  // the UI may have rendered into its own framebuffers
    glViewport(0, 0, fb_w, fb_h);
    glClearColor(0.10f, 0.10f, 0.11f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    SDL_GL_SwapWindow(window);

    int win_w = 0, win_h = 0;
    SDL_GetWindowSize(window, &win_w, &win_h);
    hooks.write_report(app, platform, notices.items(), dialog.is_open(), ++frame, win_w, win_h);
    const Uint32 spent = SDL_GetTicks() - frame_start;
    if (spent < kMinFrameMs) SDL_Delay(kMinFrameMs - spent);
  }

  app_owner.reset();
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplSDL2_Shutdown();
  ImGui::DestroyContext();
  SDL_GL_DeleteContext(gl);
  SDL_DestroyWindow(window);
  SDL_Quit();
  return 0;
}
