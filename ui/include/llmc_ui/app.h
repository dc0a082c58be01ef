// The llmcalc UI: ImGui screens shared by the web page and the desktop app. No SDL, no
// platform code: the platform layer (web/main.cpp, native/desktop/main.cpp) owns the window, the GL
// context and the ImGui backends, and calls App::frame() once per frame inside
// ImGui::NewFrame()/ImGui::Render(). Platform services (clipboard, URL, file picker, ARIA
// live region) come in through Platform.
#pragma once
#include <functional>
#include <memory>
#include <string>

namespace llmc::ui {

struct Platform {
  // Copy text to the system clipboard (web: navigator.clipboard).
  std::function<void(const std::string&)> copy_text;
  // The page URL without its fragment, used to build share links ("" on desktop).
  std::function<std::string()> base_url;
  // Replace the URL fragment without reloading (web: history.replaceState); may be empty.
  std::function<void(const std::string&)> set_url_fragment;
  // Ask the user for a file; the platform later calls App::load_file(name, text).
  std::function<void()> open_file_picker;
  // Persist / read a small string (web: localStorage; desktop: a file); may be empty.
  std::function<void(const std::string& key, const std::string& value)> store;
  std::function<std::string(const std::string& key)> load;
  // Mirror the key results into an accessible text region (web: an ARIA live region), in words.
  std::function<void(const std::string& text)> announce;
  // The same results as numbers, a JSON object of figures (web: a data attribute of the live
  // region; desktop: the test report), for tests and scripts; may be empty.
  std::function<void(const std::string& json)> publish_figures;
  // Hand a file to the user (web: a download; desktop: a file in the downloads folder). Returns
  // a sentence saying where it went, or "" when it failed. May be empty (no exports offered).
  std::function<std::string(const std::string& file_name, const std::string& text)> save_file;
  // Open a documentation page (a path relative to the page, e.g. "docs/index.html") in a new
  // tab; may be empty (no links shown).
  std::function<void(const std::string& relative_url)> open_url;
  // Fetch a URL (absolute, or relative to the page) as text, in the background; the platform later
  // calls App::fetched(tag, status, text, sha256) inside a frame: status is the HTTP status, or 0
  // when no answer came (then text says why); sha256 is the body's SHA-256 (hex) when the platform
  // can compute it (web: crypto.subtle, in secure contexts: https and loopback), else "". May be empty (no registry:
  // the desktop has its own menu).
  std::function<void(const std::string& url, const std::string& tag)> fetch_text;
  // A query parameter of the page URL ("" when absent), e.g. "registry"; may be empty.
  std::function<std::string(const std::string& name)> query_param;
};

// Puts the UI font (DejaVu Sans, subset at build time to the characters the UI shows) into
// ImGui's atlas, rasterised for `pixel_ratio` device pixels per window pixel so text stays crisp
// on high-DPI screens, and sets the UI's style. Call before ImGui::NewFrame(), after the
// platform backends' NewFrame (which sets DisplayFramebufferScale), every frame: it returns true
// only when the atlas was rebuilt, and then the platform re-creates its font texture.
bool update_fonts(float pixel_ratio);

class App {
 public:
  App();
  ~App();
  App(const App&) = delete;
  App& operator=(const App&) = delete;

  // Restore state at start-up: the URL fragment (if any) wins over the stored last scenario.
  // A malformed fragment shows a message and keeps defaults; it never fails.
  void start(Platform& platform, const std::string& url_fragment);
  // Draw every window; recomputes the estimate when an input changed (within this frame).
  void frame(Platform& platform);
  // A file the user picked or dropped: a hardware profile, a scenario, or a HF config.json
  // (detected from content). Errors are shown in the UI; nothing else is lost.
  void load_file(Platform& platform, const std::string& name, const std::string& text);
  // A profile shipped with the site: listed (labelled with its source) but not selected, not
  // stored. A bad one is reported in the banner like a user's file.
  void add_bundled_profile(const std::string& name, const std::string& text);
  // The answer to a Platform::fetch_text request (see there).
  void fetched(Platform& platform, const std::string& tag, int status, const std::string& text,
               const std::string& sha256 = "");
  // Compact mode for embed.html: results only, scenario from the URL.
  void set_embedded(bool embedded);
  // Text the user pasted from the system clipboard (web: the browser's paste event, which is the
  // only way a page may read it). Goes into the text field being edited; with none, a Hugging
  // Face config.json is imported and anything else is ignored.
  void paste_text(const std::string& text);

  // The scenario as a URL fragment ("#s=<url-encoded JSON>", with "&a=..." when one is pinned for
  // Compare, and "&p=<registry id>[&r=<registry>]" or "&pl=<file name>" for the profile in use).
  std::string url_fragment() const;

  // Screen rectangle (x, y, w, h in canvas CSS pixels) of a labelled widget as drawn in the last
  // frame, so browser tests can click and type on the canvas like a person. False if unknown.
  // Ids are field keys ("hardware.gpu_count"), "tab:<name>", "preset:<id>" and the like (docs/web.md).
  bool widget_rect(const std::string& id, float out[4]) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace llmc::ui
