// "Upload profile…": a profile file pushed to the configured registry on a thread, so the window
// stays live through the client's retries (native/registry's RegistryClient). No SDL, no ImGui.
#pragma once
#include <mutex>
#include <string>
#include <thread>

namespace llmc::desktop {

struct UploadRequest {
  std::string registry_url;
  std::string token_file;  // "" = $LLMCALC_TOKEN
  std::string profile_path;
  std::string label;
};

class UploadJob {
 public:
  UploadJob() = default;
  ~UploadJob();
  UploadJob(const UploadJob&) = delete;
  UploadJob& operator=(const UploadJob&) = delete;

  // False when one is still running.
  bool start(UploadRequest request);

  struct State {
    bool running = false, done = false, ok = false;
    std::string message;   // progress ("try 1 of 5 failed: ...") or the result, one line
    std::string id;        // the profile's id in the registry, when ok
    bool created = false;  // false: it was there already
  };
  State state() const;

 private:
  void run(UploadRequest request);
  mutable std::mutex mutex_;
  State state_;
  std::thread thread_;
};

}  // namespace llmc::desktop
