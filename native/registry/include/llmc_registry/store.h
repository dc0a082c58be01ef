// The registry's storage: one SQLite file (WAL, synchronous=FULL) holding profiles under their
// content hash, upload tokens (hashed) and an audit log. Thread-safe: every call takes its own
// connection from a pool. Errors name the database file.
#pragma once
#include <cstdint>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "llmc/result.h"
#include "llmc_registry/profile_intake.h"

namespace llmc::registry {

namespace sql {
class Pool;
}

struct ProfileEntry {
  std::string id, gpu, label, notes, uploaded_at, uploader;
  int64_t bytes = 0;
  nlohmann::ordered_json summary;      // summary_fields()
  std::string deleted_at, deleted_by;  // "" unless deleted
};

// One entry of the list (docs/registry.md, "List entry").
nlohmann::ordered_json entry_json(const ProfileEntry& e);
// The list document: GET /api/v1/profiles and the static export's index.json, byte for byte.
std::string list_json(const std::vector<ProfileEntry>& entries);

struct TokenInfo {
  std::string name;
  bool admin = false;
  std::string created_at, revoked_at;  // revoked_at "" while valid
};

struct AuditRecord {
  int64_t seq = 0;
  std::string at, actor, action, target, detail;
};

class Store {
 public:
  // DIR/registry.sqlite3, created with DIR when absent, migrated to the current schema.
  static Result<std::unique_ptr<Store>> open(const std::string& data_dir);
  // A database file by path (a backup, or a test's older schema).
  static Result<std::unique_ptr<Store>> open_file(const std::string& db_path);
  ~Store();

  const std::string& path() const;
  Result<int> schema_version();

  struct Put {
    ProfileEntry entry;
    bool created = false;  // false: the same content was already there (idempotent upload)
  };
  // Stores a checked profile. The same content again returns the stored entry unchanged; a
  // soft-deleted one is restored with this upload's label, notes and uploader.
  Result<Put> put_profile(const Intake& in, const std::string& label, const std::string& notes,
                          const std::string& uploader);
  // The entry and its stored bytes; nothing when the id is unknown (deleted ones are returned,
  // with deleted_at set).
  Result<std::optional<std::pair<ProfileEntry, std::string>>> get_profile(const std::string& id);
  // Profiles not deleted, newest upload first; `gpu` "" = all.
  Result<std::vector<ProfileEntry>> list_profiles(const std::string& gpu = "");
  // Soft delete, audited. False when the id is unknown or already deleted.
  Result<bool> delete_profile(const std::string& id, const std::string& actor, const std::string& reason);

  // A new token for NAME, returned once (only its SHA-256 is stored). Names are never reused,
  // so the uploader of an old profile always means one token.
  Result<std::string> add_token(const std::string& name, bool admin);
  Status revoke_token(const std::string& name);
  Result<std::vector<TokenInfo>> list_tokens();
  // The token whose secret is `presented`, revoked or not; every stored hash is compared in
  // constant time (no early exit). Nothing when none matches.
  Result<std::optional<TokenInfo>> find_token(const std::string& presented);

  Result<std::vector<AuditRecord>> audit_log();
  // Changes whenever anything was committed to the database since the last call, by this
  // process or another (PRAGMA data_version on a connection kept for this): read caches use it.
  Result<int64_t> data_version();
  // SQLite's online backup into FILE (written to FILE.partial, then renamed): a consistent copy
  // while the server keeps running.
  Status backup_to(const std::string& file);

 private:
  explicit Store(std::string path);
  std::unique_ptr<sql::Pool> pool_;
  // data_version(): one connection and its prepared statement, kept, used under watch_mutex_.
  struct Watch;
  std::unique_ptr<Watch> watch_;
  std::mutex watch_mutex_;
};

// Token names: 1-64 of [A-Za-z0-9._@-].
std::optional<std::string> token_name_problem(const std::string& name);

}  // namespace llmc::registry
