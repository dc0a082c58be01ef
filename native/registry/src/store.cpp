#include "llmc_registry/store.h"

#include <sys/stat.h>

#include <cctype>
#include <cstdio>
#include <filesystem>

#include "schema.h"
#include "sqlite_db.h"

namespace llmc::registry {

using ojson = nlohmann::ordered_json;
using sql::Stmt;

namespace {

constexpr const char* kEntryColumns =
    "id, gpu, summary, label, notes, uploaded_at, uploader, length(body), deleted_at, deleted_by";

ProfileEntry read_entry(const Stmt& st) {
  ProfileEntry e;
  e.id = st.text(0);
  e.gpu = st.text(1);
  e.summary = ojson::parse(st.text(2), nullptr, false);
  e.label = st.text(3);
  e.notes = st.text(4);
  e.uploaded_at = st.text(5);
  e.uploader = st.text(6);
  e.bytes = st.integer(7);
  e.deleted_at = st.text(8);
  e.deleted_by = st.text(9);
  return e;
}

Status audit(sqlite3* db, const std::string& actor, const std::string& action, const std::string& target,
             const std::string& detail) {
  Stmt st(db, "INSERT INTO audit (at, actor, action, target, detail) VALUES (?, ?, ?, ?, ?)");
  if (!st.ok()) return sql::db_error(db, "cannot write the audit log");
  st.bind(1, sql::utc_now()).bind(2, actor).bind(3, action).bind(4, target).bind(5, detail);
  if (st.step() != SQLITE_DONE) return sql::db_error(db, "cannot write the audit log");
  return ok_status();
}

}  // namespace

ojson entry_json(const ProfileEntry& e) {
  ojson j;
  j["id"] = e.id;
  j["path"] = "profiles/" + e.id + ".json";
  if (e.summary.is_object())
    for (auto it = e.summary.begin(); it != e.summary.end(); ++it) j[it.key()] = it.value();
  j["label"] = e.label;
  j["notes"] = e.notes;
  j["uploaded_at"] = e.uploaded_at;
  j["uploader"] = e.uploader;
  j["bytes"] = e.bytes;
  return j;
}

std::string list_json(const std::vector<ProfileEntry>& entries) {
  ojson j;
  j["api_version"] = 1;
  j["count"] = entries.size();
  j["profiles"] = ojson::array();
  for (const ProfileEntry& e : entries) j["profiles"].push_back(entry_json(e));
  return j.dump(-1, ' ', false, ojson::error_handler_t::replace);
}

std::optional<std::string> token_name_problem(const std::string& name) {
  if (name.empty() || name.size() > 64) return "must be 1 to 64 characters; got " + std::to_string(name.size());
  for (char c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '@' || c == '-'))
      return "may hold letters, digits and . _ @ - only; got '" + name + "'";
  return std::nullopt;
}

struct Store::Watch {
  explicit Watch(const std::string& path) : pool(path) {}
  sql::Pool pool;  // holds the one connection
  std::shared_ptr<sql::Pool::Lease> lease;
  std::unique_ptr<Stmt> version;  // PRAGMA data_version, prepared once: asked on every read
};

Store::Store(std::string path) : pool_(std::make_unique<sql::Pool>(path)), watch_(std::make_unique<Watch>(path)) {}
Store::~Store() {
  if (watch_) {
    watch_->version.reset();  // before its connection goes back and is closed
    watch_->lease.reset();
  }
}
const std::string& Store::path() const { return pool_->path(); }

Result<std::unique_ptr<Store>> Store::open(const std::string& data_dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::exists(data_dir, ec)) {
    fs::create_directories(data_dir, ec);
    if (ec) return make_error(data_dir, "cannot create the registry directory: " + ec.message());
    ::chmod(data_dir.c_str(), 0700);  // token hashes and unpublished profiles: the owner's only
  } else if (!fs::is_directory(data_dir, ec)) {
    return make_error(data_dir, "not a directory");
  }
  return open_file((fs::path(data_dir) / "registry.sqlite3").string());
}

Result<std::unique_ptr<Store>> Store::open_file(const std::string& db_path) {
  std::unique_ptr<Store> s(new Store(db_path));
  auto lease = s->pool_->acquire();
  if (!lease) return lease.error();
  sqlite3* db = (*lease)->get();
  // WAL is a property of the file (kept once set): readers never wait for the writer.
  {
    Stmt wal(db, "PRAGMA journal_mode=WAL");
    if (!wal.ok() || wal.step() != SQLITE_ROW || wal.text(0) != "wal")
      return sql::db_error(db, "cannot switch to WAL mode");
  }
  if (Status st = sql::migrate(db); !st) return st.error();
  return s;
}

Result<int> Store::schema_version() {
  auto lease = pool_->acquire();
  if (!lease) return lease.error();
  return sql::schema_version((*lease)->get());
}

Result<Store::Put> Store::put_profile(const Intake& in, const std::string& label, const std::string& notes,
                                      const std::string& uploader) {
  auto lease = pool_->acquire();
  if (!lease) return lease.error();
  sqlite3* db = (*lease)->get();
  sql::Transaction tx(db);
  if (Status st = tx.begin(); !st) return st.error();
  const std::string sel = std::string("SELECT ") + kEntryColumns + " FROM profiles WHERE id = ?";
  Stmt find(db, sel.c_str());
  if (!find.ok()) return sql::db_error(db, "cannot look up a profile");
  find.bind(1, in.id);
  const int rc = find.step();
  if (rc != SQLITE_ROW && rc != SQLITE_DONE) return sql::db_error(db, "cannot look up a profile");
  const bool exists = rc == SQLITE_ROW;
  if (exists) {
    ProfileEntry have = read_entry(find);
    find.reset();
    if (have.deleted_at.empty()) return Put{have, false};  // idempotent: first upload's metadata kept
  }
  const std::string now = sql::utc_now();
  const char* write = exists ? "UPDATE profiles SET label = ?2, notes = ?3, uploaded_at = ?4, uploader = ?5, "
                               "deleted_at = NULL, deleted_by = NULL WHERE id = ?1"
                             : "INSERT INTO profiles (id, label, notes, uploaded_at, uploader, body, gpu, summary) "
                               "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)";
  Stmt st(db, write);
  if (!st.ok()) return sql::db_error(db, "cannot store a profile");
  st.bind(1, in.id).bind(2, label).bind(3, notes).bind(4, now).bind(5, uploader);
  // The body as a BLOB: length(body) is then its byte count, read from the record header (as
  // TEXT, length() would count characters by scanning every overflow page of the profile).
  if (!exists) st.bind_blob(6, in.canonical).bind(7, in.gpu).bind(8, in.summary.dump());
  if (st.step() != SQLITE_DONE) return sql::db_error(db, "cannot store a profile");
  if (Status a = audit(db, uploader, exists ? "restore" : "upload", in.id, label); !a) return a.error();
  if (Status c = tx.commit(); !c) return c.error();
  ProfileEntry e;
  e.id = in.id;
  e.gpu = in.gpu;
  e.summary = in.summary;
  e.label = label;
  e.notes = notes;
  e.uploaded_at = now;
  e.uploader = uploader;
  e.bytes = int64_t(in.canonical.size());
  return Put{e, true};
}

Result<std::optional<std::pair<ProfileEntry, std::string>>> Store::get_profile(const std::string& id) {
  auto lease = pool_->acquire();
  if (!lease) return lease.error();
  sqlite3* db = (*lease)->get();
  const std::string sel = std::string("SELECT ") + kEntryColumns + ", body FROM profiles WHERE id = ?";
  Stmt st(db, sel.c_str());
  if (!st.ok()) return sql::db_error(db, "cannot read a profile");
  st.bind(1, id);
  const int rc = st.step();
  if (rc == SQLITE_DONE) return std::optional<std::pair<ProfileEntry, std::string>>();
  if (rc != SQLITE_ROW) return sql::db_error(db, "cannot read a profile");
  return std::optional(std::pair(read_entry(st), st.text(10)));
}

Result<std::vector<ProfileEntry>> Store::list_profiles(const std::string& gpu) {
  auto lease = pool_->acquire();
  if (!lease) return lease.error();
  sqlite3* db = (*lease)->get();
  const std::string sel =
      std::string("SELECT ") + kEntryColumns +
      " FROM profiles WHERE deleted_at IS NULL AND (?1 = '' OR gpu = ?1) ORDER BY uploaded_at DESC, rowid DESC";
  Stmt st(db, sel.c_str());
  if (!st.ok()) return sql::db_error(db, "cannot list profiles");
  st.bind(1, gpu);
  std::vector<ProfileEntry> out;
  int rc;
  while ((rc = st.step()) == SQLITE_ROW) out.push_back(read_entry(st));
  if (rc != SQLITE_DONE) return sql::db_error(db, "cannot list profiles");
  return out;
}

Result<bool> Store::delete_profile(const std::string& id, const std::string& actor, const std::string& reason) {
  auto lease = pool_->acquire();
  if (!lease) return lease.error();
  sqlite3* db = (*lease)->get();
  sql::Transaction tx(db);
  if (Status st = tx.begin(); !st) return st.error();
  Stmt st(db, "UPDATE profiles SET deleted_at = ?, deleted_by = ? WHERE id = ? AND deleted_at IS NULL");
  if (!st.ok()) return sql::db_error(db, "cannot delete a profile");
  st.bind(1, sql::utc_now()).bind(2, actor).bind(3, id);
  if (st.step() != SQLITE_DONE) return sql::db_error(db, "cannot delete a profile");
  if (sqlite3_changes(db) == 0) return false;
  if (Status a = audit(db, actor, "delete", id, reason); !a) return a.error();
  if (Status c = tx.commit(); !c) return c.error();
  return true;
}

Result<int64_t> Store::data_version() {
  std::lock_guard<std::mutex> lock(watch_mutex_);
  if (!watch_->version) {
    auto lease = watch_->pool.acquire();
    if (!lease) return lease.error();
    watch_->lease = *lease;
    watch_->version = std::make_unique<Stmt>(watch_->lease->get(), "PRAGMA data_version");
    if (!watch_->version->ok()) {
      watch_->version.reset();
      return sql::db_error(watch_->lease->get(), "cannot prepare PRAGMA data_version");
    }
  }
  Stmt& st = *watch_->version;
  const int rc = st.step();
  const int64_t v = st.integer(0);
  st.reset();
  if (rc != SQLITE_ROW) return sql::db_error(watch_->lease->get(), "cannot read data_version");
  return v;
}

Result<std::vector<AuditRecord>> Store::audit_log() {
  auto lease = pool_->acquire();
  if (!lease) return lease.error();
  sqlite3* db = (*lease)->get();
  Stmt st(db, "SELECT seq, at, actor, action, target, detail FROM audit ORDER BY seq");
  if (!st.ok()) return sql::db_error(db, "cannot read the audit log");
  std::vector<AuditRecord> out;
  int rc;
  while ((rc = st.step()) == SQLITE_ROW)
    out.push_back({st.integer(0), st.text(1), st.text(2), st.text(3), st.text(4), st.text(5)});
  if (rc != SQLITE_DONE) return sql::db_error(db, "cannot read the audit log");
  return out;
}

Status Store::backup_to(const std::string& file) {
  auto lease = pool_->acquire();
  if (!lease) return lease.error();
  const std::string partial = file + ".partial";
  std::remove(partial.c_str());
  sqlite3* dest = nullptr;
  if (sqlite3_open_v2(partial.c_str(), &dest, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) != SQLITE_OK) {
    Error e =
        make_error(file, std::string("cannot create the backup: ") + (dest ? sqlite3_errmsg(dest) : "out of memory"));
    sqlite3_close_v2(dest);
    return e;
  }
  sqlite3_backup* b = sqlite3_backup_init(dest, "main", (*lease)->get(), "main");
  int rc = SQLITE_OK;
  if (b) {
    // Pages in steps, so the source stays writable in between (a busy step is retried).
    while ((rc = sqlite3_backup_step(b, 256)) == SQLITE_OK || rc == SQLITE_BUSY || rc == SQLITE_LOCKED)
      if (rc != SQLITE_OK) sqlite3_sleep(20);
    sqlite3_backup_finish(b);
  }
  const bool ok = b && rc == SQLITE_DONE && sqlite3_errcode(dest) == SQLITE_OK;
  Error e = make_error(file, std::string("backup failed: ") + sqlite3_errmsg(dest));
  sqlite3_close_v2(dest);
  if (!ok) {
    std::remove(partial.c_str());
    return e;
  }
  if (std::rename(partial.c_str(), file.c_str()) != 0) {
    std::remove(partial.c_str());
    return make_error(file, "cannot rename the finished backup into place");
  }
  return ok_status();
}

}  // namespace llmc::registry
