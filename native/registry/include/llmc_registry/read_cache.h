// What the server answers to reads, kept in memory until the database changes: the list
// documents (per ?gpu=) with their ETags, and recently fetched profiles. Checked against the
// store's data_version on every request, so an upload, a delete, or `llmcalc serve import` from
// another process is seen at once. Thread-safe.
#pragma once
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "llmc/result.h"
#include "llmc_registry/store.h"

namespace llmc::registry {

class ReadCache {
 public:
  explicit ReadCache(Store& store) : store_(store) {}

  struct ListDoc {
    std::string body;  // list_json()
    std::string etag;  // "\"<first 32 hex of SHA-256(body)>\""
    size_t count = 0;  // profiles listed
  };
  Result<std::shared_ptr<const ListDoc>> list(const std::string& gpu);

  struct ProfileDoc {
    ProfileEntry entry;
    std::string body;
  };
  // nullptr when the id is unknown.
  Result<std::shared_ptr<const ProfileDoc>> profile(const std::string& id);

 private:
  Status sync();  // drops everything when the database changed; call with mutex_ held
  Store& store_;
  std::mutex mutex_;
  int64_t version_ = -1;
  std::map<std::string, std::shared_ptr<const ListDoc>> lists_;
  std::unordered_map<std::string, std::shared_ptr<const ProfileDoc>> profiles_;
  size_t profile_bytes_ = 0;
};

}  // namespace llmc::registry
