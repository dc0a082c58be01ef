#include "llmc_registry/read_cache.h"

#include "llmc_registry/sha256.h"

namespace llmc::registry {
namespace {

// Profiles are ~10-110 KB: this keeps a few hundred, and a registry's whole working set.
constexpr size_t kMaxCachedProfileBytes = size_t(64) << 20;

}  // namespace

Status ReadCache::sync() {
  auto v = store_.data_version();
  if (!v) return v.error();
  if (*v != version_) {
    lists_.clear();
    profiles_.clear();
    profile_bytes_ = 0;
    version_ = *v;
  }
  return ok_status();
}

Result<std::shared_ptr<const ReadCache::ListDoc>> ReadCache::list(const std::string& gpu) {
  int64_t seen = 0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (Status st = sync(); !st) return st.error();
    if (auto it = lists_.find(gpu); it != lists_.end()) return it->second;
    seen = version_;
  }
  // Built outside the lock. Kept only if no other request saw a newer version meanwhile: a copy
  // read before a write is then either dropped at the next sync or never stored.
  auto entries = store_.list_profiles(gpu);
  if (!entries) return entries.error();
  auto doc = std::make_shared<ListDoc>();
  doc->body = list_json(*entries);
  doc->etag = "\"" + sha256_hex(doc->body).substr(0, 32) + "\"";
  doc->count = entries->size();
  std::lock_guard<std::mutex> lock(mutex_);
  if (version_ == seen) lists_[gpu] = doc;
  return std::shared_ptr<const ListDoc>(doc);
}

Result<std::shared_ptr<const ReadCache::ProfileDoc>> ReadCache::profile(const std::string& id) {
  int64_t seen = 0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (Status st = sync(); !st) return st.error();
    if (auto it = profiles_.find(id); it != profiles_.end()) return it->second;
    seen = version_;
  }
  auto got = store_.get_profile(id);
  if (!got) return got.error();
  if (!*got) return std::shared_ptr<const ProfileDoc>();
  auto doc = std::make_shared<ProfileDoc>(ProfileDoc{std::move((*got)->first), std::move((*got)->second)});
  std::lock_guard<std::mutex> lock(mutex_);
  if (version_ != seen) return std::shared_ptr<const ProfileDoc>(doc);
  if (profile_bytes_ + doc->body.size() > kMaxCachedProfileBytes) {
    profiles_.clear();
    profile_bytes_ = 0;
  }
  profile_bytes_ += doc->body.size();
  profiles_[id] = doc;
  return std::shared_ptr<const ProfileDoc>(doc);
}

}  // namespace llmc::registry
