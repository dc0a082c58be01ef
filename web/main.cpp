// The web page's platform layer: SDL2 window + WebGL2 (GL ES 3.0) context, the Dear ImGui SDL2 and
// OpenGL3 backends, and llmc::ui::App driven by Emscripten's main loop (requestAnimationFrame).
// Modelled on Dear ImGui's examples/example_sdl_opengl3 and example_emscripten_opengl3.
//
// Browser services for the UI (llmc::ui::Platform) are small EM_JS functions below; the HTML shell
// (site/index.html, site/embed.html, site/shell.js) provides the elements they use:
//   <canvas id="canvas">                                   SDL's window ("#canvas")
//   <div id="llmcalc-live" role="status" aria-live="polite"> announce()
//   <input type="file" id="llmcalc-file">                   open_file_picker()
// and calls the exported C functions at the end of this file.
//
// Coordinates: SDL_WINDOW_ALLOW_HIGHDPI makes the canvas backing store CSS size × devicePixelRatio;
// ImGui's DisplaySize is in CSS pixels and DisplayFramebufferScale = devicePixelRatio, so widget
// rectangles (App::widget_rect) are canvas CSS pixels, as page.mouse.click() expects.
#include <GLES3/gl3.h>
#include <SDL.h>
#include <emscripten.h>
#include <emscripten/html5.h>
#include <imgui.h>
#include <imgui_impl_opengl3.h>
#include <imgui_impl_sdl.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "llmc_ui/app.h"

// ---------------------------------------------------------------------------------------------
// JavaScript side. Strings returned to C++ are malloc'ed UTF-8 (freed by take_js_string).
// Every call is wrapped in try/catch where the browser may refuse (clipboard permissions,
// localStorage in sandboxed iframes or with storage disabled): failures are warnings, never errors.

// clang-format off
EM_JS(void, js_copy_text, (const char* text), {
  var s = UTF8ToString(text);
  function fallback() {
    try {
      var ta = document.createElement('textarea');
      ta.value = s;
      ta.setAttribute('readonly', "");
      ta.style.position = 'fixed';
      ta.style.left = '-9999px';
      document.body.appendChild(ta);
      ta.select();
      document.execCommand('copy');
      document.body.removeChild(ta);
    } catch (e) {
      console.warn('llmcalc: copy to clipboard failed: ' + e);
    }
  }
  if (navigator.clipboard && navigator.clipboard.writeText) {
    navigator.clipboard.writeText(s).catch(fallback);
  } else {
    fallback();
  }
});

EM_JS(char*, js_base_url, (), {
  var s = location.href.split('#')[0];
  var n = lengthBytesUTF8(s) + 1;
  var p = _malloc(n);
  stringToUTF8(s, p, n);
  return p;
});

EM_JS(char*, js_url_fragment, (), {
  var s = location.hash || "";
  var n = lengthBytesUTF8(s) + 1;
  var p = _malloc(n);
  stringToUTF8(s, p, n);
  return p;
});

EM_JS(void, js_set_url_fragment, (const char* fragment), {
  var f = UTF8ToString(fragment);
  if (f.length && f.charAt(0) !== '#') f = '#' + f;
  var url = location.pathname + location.search + f;
  try {
    if (location.hash !== f) history.replaceState(history.state, "", url);
  } catch (e) {
    console.warn('llmcalc: cannot update the URL: ' + e);
  }
});

EM_JS(void, js_open_file_picker, (), {
  var input = document.getElementById('llmcalc-file');
  if (input) input.click();
  else console.warn('llmcalc: no <input id="llmcalc-file"> in the page');
});

EM_JS(void, js_store, (const char* key, const char* value), {
  try {
    localStorage.setItem('llmcalc:' + UTF8ToString(key), UTF8ToString(value));
  } catch (e) {
    console.warn('llmcalc: localStorage unavailable: ' + e);
  }
});

// Returns NULL when the key is absent or storage is unavailable.
EM_JS(char*, js_load, (const char* key), {
  var s = null;
  try {
    s = localStorage.getItem('llmcalc:' + UTF8ToString(key));
  } catch (e) {
    s = null;
  }
  if (s === null) return 0;
  var n = lengthBytesUTF8(s) + 1;
  var p = _malloc(n);
  stringToUTF8(s, p, n);
  return p;
});

EM_JS(void, js_announce, (const char* text), {
  var el = document.getElementById('llmcalc-live');
  var s = UTF8ToString(text);
  if (el && el.textContent !== s) el.textContent = s;
});

// The results as exact numbers (JSON) in <body data-llmcalc-figures>: for tests and scripts, so
// the live region's text is words only.
EM_JS(void, js_publish_figures, (const char* json), {
  document.body.setAttribute('data-llmcalc-figures', UTF8ToString(json));
});

// An export: the text as a file the browser downloads (a Blob behind a temporary link).
EM_JS(void, js_save_file, (const char* name, const char* text), {
  try {
    var n = UTF8ToString(name);
    var type = n.slice(-4) === '.csv' ? 'text/csv' : 'application/json';
    var url = URL.createObjectURL(new Blob([UTF8ToString(text)], {type: type + ';charset=utf-8'}));
    var a = document.createElement('a');
    a.href = url;
    a.download = n;
    document.body.appendChild(a);
    a.click();
    document.body.removeChild(a);
    setTimeout(function () { URL.revokeObjectURL(url); }, 10000);
  } catch (e) {
    console.warn('llmcalc: download failed: ' + e);
  }
});

// A documentation page in a new tab (relative to the page).
EM_JS(void, js_open_url, (const char* url), {
  try {
    window.open(UTF8ToString(url), '_blank', 'noopener');
  } catch (e) {
    console.warn('llmcalc: cannot open ' + UTF8ToString(url) + ': ' + e);
  }
});

// A background fetch for the UI (Platform::fetch_text): the answer comes back through
// _llmcalc_fetched(tag, status, text, sha256) (status 0 and the error's text when no answer came;
// sha256: the body's SHA-256 in hex where crypto.subtle exists, i.e. in secure contexts, else "").
// The text is copied to the heap (a profile is ~110 KB, too large for the wasm stack).
EM_JS(void, js_fetch, (const char* url, const char* tag), {
  var u = UTF8ToString(url), t = UTF8ToString(tag);
  function deliver(status, text, sha) {
    sha = sha || "";
    var pt = _malloc(lengthBytesUTF8(t) + 1), px = _malloc(lengthBytesUTF8(text) + 1), ps = _malloc(sha.length + 1);
    stringToUTF8(t, pt, lengthBytesUTF8(t) + 1);
    stringToUTF8(text, px, lengthBytesUTF8(text) + 1);
    stringToUTF8(sha, ps, sha.length + 1);
    try { _llmcalc_fetched(pt, status, px, ps); } finally { _free(pt); _free(px); _free(ps); }
  }
  var abs;
  try { abs = new URL(u, location.href).href; } catch (e) { deliver(0, 'not a URL: ' + u); return; }
  fetch(abs, {credentials: 'omit', headers: {'Accept': 'application/json'}}).then(function (r) {
    return r.arrayBuffer().then(function (buf) {
      var text = new TextDecoder('utf-8').decode(buf);
      var subtle = typeof crypto !== 'undefined' && crypto.subtle;
      if (!subtle || !r.ok) { deliver(r.status, text, ""); return; }
      return subtle.digest('SHA-256', buf).then(function (d) {
        deliver(r.status, text, Array.prototype.map.call(new Uint8Array(d), function (b) { return (b < 16 ? '0' : '') + b.toString(16); }).join(''));
      }, function () { deliver(r.status, text, ""); });
    });
  }).catch(function (e) { deliver(0, String((e && e.message) || e) + ' (' + abs + ')'); });
});

// A query parameter of the page's address, or NULL.
EM_JS(char*, js_query_param, (const char* name), {
  var v = null;
  try { v = new URLSearchParams(location.search).get(UTF8ToString(name)); } catch (e) { v = null; }
  if (v === null) return 0;
  var n = lengthBytesUTF8(v) + 1;
  var p = _malloc(n);
  stringToUTF8(v, p, n);
  return p;
});

// Called once per rendered frame: Module.llmcalcFrame counts frames (tests wait on it),
// Module.llmcalcFrameMs keeps the CPU milliseconds of the last 600 frames; the first
// frame also hides the loading message, records Module.llmcalcFirstFrameMs (performance.now()),
// sets <body data-llmcalc-ready="1"> and dispatches the 'llmcalc-ready' event on window.
EM_JS(void, js_frame_done, (int frame, double frame_ms), {
  Module.llmcalcFrame = frame;
  // CPU time of the frame (input, recompute, ImGui, GL submission): benchmarks read the last 600.
  (Module.llmcalcFrameMs = Module.llmcalcFrameMs || []).push(frame_ms);
  if (Module.llmcalcFrameMs.length > 600) Module.llmcalcFrameMs.shift();
  if (frame === 1) {
    Module.llmcalcFirstFrameMs = performance.now();
    var status = document.getElementById('llmcalc-status');
    if (status) status.hidden = true;
    document.body.setAttribute('data-llmcalc-ready', '1');
    window.dispatchEvent(new Event('llmcalc-ready'));
  }
});

EM_JS(void, js_fatal, (const char* message), {
  var s = UTF8ToString(message);
  console.error('llmcalc: ' + s);
  var status = document.getElementById('llmcalc-status');
  if (status) {
    status.hidden = false;
    status.textContent = 'llmcalc cannot start: ' + s;
  }
});
// clang-format on

namespace {

std::string take_js_string(char* p) {
  if (!p) return {};
  std::string s(p);
  std::free(p);
  return s;
}

struct PendingFetch {
  std::string tag, text, sha256;
  int status = 0;
};

struct PendingFile {
  std::string name, text;
  bool bundled = false;  // a profile shipped with the site (site/profiles/), not the user's
};

struct WebState {
  SDL_Window* window = nullptr;
  SDL_GLContext gl = nullptr;
  llmc::ui::App* app = nullptr;
  llmc::ui::Platform platform;
  std::string last_announcement;
  bool announced_once = false;
  std::vector<PendingFile> pending_files;     // delivered inside the next frame
  std::vector<std::string> pending_pastes;    // clipboard text from the browser's paste events
  std::vector<PendingFetch> pending_fetches;  // answers to Platform::fetch_text, delivered inside the next frame
  std::vector<SDL_Event> deferred_keyups;     // key releases handed to ImGui one frame late (main_loop)
  bool embedded = false;
  int frame = 0;
  float rect[4] = {0, 0, 0, 0};  // llmcalc_widget_rect's result
};

WebState g;

// ImGui's own clipboard (Ctrl+C in a text field, ImGui::SetClipboardText) also reaches the system
// clipboard. Pasting from it comes through the browser's paste event (llmcalc_paste below).
void (*g_sdl_set_clipboard)(void*, const char*) = nullptr;
void set_clipboard_text(void* user, const char* text) {
  if (g_sdl_set_clipboard) g_sdl_set_clipboard(user, text);
  js_copy_text(text);
}

void make_platform(llmc::ui::Platform& p) {
  p.copy_text = [](const std::string& s) {
    SDL_SetClipboardText(s.c_str());  // so Ctrl+V inside the page pastes it too
    js_copy_text(s.c_str());
  };
  p.base_url = [] { return take_js_string(js_base_url()); };
  p.set_url_fragment = [](const std::string& f) { js_set_url_fragment(f.c_str()); };
  p.open_file_picker = [] { js_open_file_picker(); };
  p.store = [](const std::string& k, const std::string& v) { js_store(k.c_str(), v.c_str()); };
  p.load = [](const std::string& k) { return take_js_string(js_load(k.c_str())); };
  p.publish_figures = [](const std::string& json) { js_publish_figures(json.c_str()); };
  p.save_file = [](const std::string& name, const std::string& text) {
    js_save_file(name.c_str(), text.c_str());
    return "Downloaded " + name + " (your browser's downloads).";
  };
  p.open_url = [](const std::string& url) { js_open_url(url.c_str()); };
  p.fetch_text = [](const std::string& url, const std::string& tag) { js_fetch(url.c_str(), tag.c_str()); };
  p.query_param = [](const std::string& name) { return take_js_string(js_query_param(name.c_str())); };
  p.announce = [](const std::string& text) {
    // The live region changes only when the text does (screen readers speak every change).
    if (g.announced_once && text == g.last_announcement) return;
    g.last_announcement = text;
    g.announced_once = true;
    js_announce(text.c_str());
  };
}

void main_loop(void*) {
  const double t0 = emscripten_get_now();
  // ImGui 1.86 reads key state once per frame (no input queue before 1.87): a key pressed and
  // released between two frames (Enter on a slow frame, a scripted key press) would be lost.
  // Such a release waits a frame, as in native/desktop/main.cpp.
  for (const SDL_Event& up : g.deferred_keyups) ImGui_ImplSDL2_ProcessEvent(&up);
  g.deferred_keyups.clear();
  std::vector<SDL_Scancode> pressed_now;
  SDL_Event event;
  while (SDL_PollEvent(&event)) {
    if (event.type == SDL_KEYDOWN) pressed_now.push_back(event.key.keysym.scancode);
    if (event.type == SDL_KEYUP &&
        std::find(pressed_now.begin(), pressed_now.end(), event.key.keysym.scancode) != pressed_now.end()) {
      g.deferred_keyups.push_back(event);
      continue;
    }
    ImGui_ImplSDL2_ProcessEvent(&event);
  }

  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplSDL2_NewFrame();
  // The UI font follows devicePixelRatio (browser zoom, a window moved to another screen).
  if (llmc::ui::update_fonts(ImGui::GetIO().DisplayFramebufferScale.x)) {
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    ImGui_ImplOpenGL3_CreateFontsTexture();
  }
  ImGui::NewFrame();
  // Files arrive from JavaScript between frames; the App sees them inside a frame, so it may
  // open popups or show errors with ImGui calls.
  if (!g.pending_files.empty()) {
    std::vector<PendingFile> files;
    files.swap(g.pending_files);
    for (auto& f : files) {
      if (f.bundled)
        g.app->add_bundled_profile(f.name, f.text);
      else
        g.app->load_file(g.platform, f.name, f.text);
    }
  }
  if (!g.pending_fetches.empty()) {
    std::vector<PendingFetch> answers;
    answers.swap(g.pending_fetches);
    for (const PendingFetch& a : answers) g.app->fetched(g.platform, a.tag, a.status, a.text, a.sha256);
  }
  if (!g.pending_pastes.empty()) {
    std::vector<std::string> pastes;
    pastes.swap(g.pending_pastes);
    for (const std::string& t : pastes) g.app->paste_text(t);
  }
  g.app->frame(g.platform);
  ImGui::Render();

  ImGuiIO& io = ImGui::GetIO();
  const int fb_w = static_cast<int>(io.DisplaySize.x * io.DisplayFramebufferScale.x);
  const int fb_h = static_cast<int>(io.DisplaySize.y * io.DisplayFramebufferScale.y);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);  // the UI may have rendered into its own framebuffers
  glViewport(0, 0, fb_w, fb_h);
  glClearColor(0.10f, 0.10f, 0.11f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  SDL_GL_SwapWindow(g.window);

  js_frame_done(++g.frame, emscripten_get_now() - t0);
}

}  // namespace

int main(int, char**) {
  if (SDL_Init(SDL_INIT_VIDEO | SDL_INIT_TIMER) != 0) {
    js_fatal((std::string("SDL_Init: ") + SDL_GetError()).c_str());
    return 1;
  }
  // GL ES 3.0 = WebGL2 (the link allows WebGL2 only). No depth/stencil buffers: ImGui and the
  // UI's 2-D drawing need neither.
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_FLAGS, 0);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_ES);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 0);
  SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
  SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 0);
  SDL_GL_SetAttribute(SDL_GL_STENCIL_SIZE, 0);
  // Size is a placeholder: the canvas is sized by CSS (full window), which SDL picks up
  // (RESIZABLE + the CSS size differing from the element size) and follows on window resizes.
  const auto flags = static_cast<SDL_WindowFlags>(SDL_WINDOW_OPENGL | SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
  g.window = SDL_CreateWindow("llmcalc", SDL_WINDOWPOS_UNDEFINED, SDL_WINDOWPOS_UNDEFINED, 1280, 800, flags);
  if (!g.window) {
    js_fatal((std::string("SDL_CreateWindow: ") + SDL_GetError()).c_str());
    return 1;
  }
  g.gl = SDL_GL_CreateContext(g.window);
  if (!g.gl) {
    js_fatal((std::string("cannot create a WebGL2 context: ") + SDL_GetError()).c_str());
    return 1;
  }
  SDL_GL_MakeCurrent(g.window, g.gl);
  SDL_GL_SetSwapInterval(1);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // no file system; window layout is not persisted
  io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
  ImGui::StyleColorsDark();
  ImGui_ImplSDL2_InitForOpenGL(g.window, g.gl);
  ImGui_ImplOpenGL3_Init("#version 300 es");
  llmc::ui::update_fonts(
      static_cast<float>(emscripten_get_device_pixel_ratio()));  // before the first frame builds an atlas
  g_sdl_set_clipboard = io.SetClipboardTextFn;
  io.SetClipboardTextFn = set_clipboard_text;

  make_platform(g.platform);
  g.app = new llmc::ui::App();  // lives for the page's lifetime
  if (g.embedded) g.app->set_embedded(true);
  g.app->start(g.platform, take_js_string(js_url_fragment()));

  // fps 0 = requestAnimationFrame; simulate_infinite_loop: main returns control to the browser.
  emscripten_set_main_loop_arg(main_loop, nullptr, 0, true);
  return 0;
}

// ---------------------------------------------------------------------------------------------
// Exported to JavaScript (-sEXPORTED_FUNCTIONS in web/CMakeLists.txt; docs/web.md).
extern "C" {

// A file the user picked or dropped (its text, UTF-8). Delivered to App::load_file in the next
// frame. Safe to call before main() ran: the file waits for the first frame.
EMSCRIPTEN_KEEPALIVE void llmcalc_load_file(const char* name, const char* text) {
  g.pending_files.push_back({name ? name : "", text ? text : ""});
}

// A profile shipped with the site (site/profiles/index.json lists them; site/shell.js fetches
// them): listed in the Hardware screen, labelled, but not selected.
EMSCRIPTEN_KEEPALIVE void llmcalc_add_bundled_profile(const char* name, const char* text) {
  g.pending_files.push_back({name ? name : "", text ? text : "", true});
}

// Rectangle (x, y, w, h; canvas CSS pixels) of a labelled widget as drawn in the last frame, as a
// pointer to 4 floats valid until the next call; NULL when the UI does not know the id.
EMSCRIPTEN_KEEPALIVE const float* llmcalc_widget_rect(const char* id) {
  if (!g.app || !id) return nullptr;
  return g.app->widget_rect(id, g.rect) ? g.rect : nullptr;
}

// Text from the browser's paste event (site/shell.js: the only way a page reads the system
// clipboard). The app puts it into the field being edited, in the next frame.
EMSCRIPTEN_KEEPALIVE void llmcalc_paste(const char* text) {
  if (text) g.pending_pastes.emplace_back(text);
}

// The answer to a js_fetch (Platform::fetch_text): handed to App::fetched in the next frame.
EMSCRIPTEN_KEEPALIVE void llmcalc_fetched(const char* tag, int status, const char* text, const char* sha256) {
  g.pending_fetches.push_back({tag ? tag : "", text ? text : "", sha256 ? sha256 : "", status});
}

// Compact mode (embed.html). Before main() (e.g. from Module.onRuntimeInitialized) it is applied
// before App::start; afterwards it switches the running App.
EMSCRIPTEN_KEEPALIVE void llmcalc_set_embedded(int embedded) {
  g.embedded = embedded != 0;
  if (g.app) g.app->set_embedded(g.embedded);
}

}  // extern "C"
