#include "upload_job.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "llmc/profile.h"
#include "llmc_registry/client.h"

namespace llmc::desktop {

UploadJob::~UploadJob() {
  if (thread_.joinable()) thread_.join();
}

bool UploadJob::start(UploadRequest request) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (state_.running) return false;
    state_ = State{};
    state_.running = true;
    state_.message = "uploading " + request.profile_path + " to " + request.registry_url + " ...";
  }
  if (thread_.joinable()) thread_.join();
  thread_ = std::thread([this, r = std::move(request)] { run(r); });
  return true;
}

UploadJob::State UploadJob::state() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return state_;
}

void UploadJob::run(UploadRequest r) {
  auto finish = [this](bool ok, std::string message, std::string id = "", bool created = false) {
    std::lock_guard<std::mutex> lock(mutex_);
    state_.running = false;
    state_.done = true;
    state_.ok = ok;
    state_.message = std::move(message);
    state_.id = std::move(id);
    state_.created = created;
  };
  auto url = registry::parse_registry_url(r.registry_url);
  if (!url) return finish(false, "Registry URL: " + url.error().message);
  auto token = registry::resolve_token(r.token_file);
  if (!token) return finish(false, "Token file: " + token.error().message);
  std::ifstream in(r.profile_path, std::ios::binary);
  if (!in) return finish(false, "cannot read " + r.profile_path);
  std::ostringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  // The same check the registry makes, before any network: the same message as a dropped file.
  if (Result<HardwareProfile> p = profile_from_json(text); !p)
    return finish(false, r.profile_path + ": " + p.error().text());
  registry::RegistryClient client(*url, *token);
  client.set_log([this](const std::string& s) {
    std::lock_guard<std::mutex> lock(mutex_);
    state_.message = s;
  });
  registry::Outcome o = client.push(text, r.label);
  if (!o.ok()) return finish(false, o.error);
  const nlohmann::json j = nlohmann::json::parse(o.body, nullptr, false);
  const std::string id = j.is_object() ? j.value("id", std::string()) : "";
  finish(true, (o.status == 201 ? "stored as " : "already there as ") + id, id, o.status == 201);
}

}  // namespace llmc::desktop
