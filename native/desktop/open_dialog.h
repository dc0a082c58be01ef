// The desktop's "Open file" dialog, drawn with ImGui (SDL2 has no native file dialog and the app
// takes no other GUI dependency): a path field and the folders and .json files of one directory.
// Also the notices window for file problems the UI's banner cannot express (unreadable files).
#pragma once
#include <functional>
#include <string>
#include <vector>

namespace llmc::desktop {

class OpenDialog {
 public:
  // `open_path` is called with the chosen file's path (from inside draw()).
  explicit OpenDialog(std::function<void(const std::string&)> open_path);
  void request() { requested_ = true; }   // open it in the next draw()
  void draw();                            // once per frame, between ImGui::NewFrame and Render
  bool is_open() const { return open_; }  // as of the last draw()

 private:
  void list_dir();
  std::function<void(const std::string&)> open_path_;
  bool requested_ = false;
  bool open_ = false;
  char path_[1024] = "";
  std::string dir_;
  std::vector<std::string> entries_;  // "name/" for folders, "name" for .json files
  std::string list_error_;
};

// File problems (cannot read, too big) as a small window until dismissed; also on stderr.
class Notices {
 public:
  void add(const std::string& text);
  void draw();
  const std::vector<std::string>& items() const { return items_; }

 private:
  std::vector<std::string> items_;
};

}  // namespace llmc::desktop
