#include "sqlite_db.h"

#include <ctime>

namespace llmc::registry::sql {

Error db_error(sqlite3* db, const std::string& what) {
  const char* file = db ? sqlite3_db_filename(db, "main") : nullptr;
  return make_error(file && *file ? file : "registry database",
                    what + ": " + (db ? sqlite3_errmsg(db) : "no connection"));
}

Stmt::Stmt(sqlite3* db, const char* sql) {
  if (sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr) != SQLITE_OK) stmt_ = nullptr;
}
Stmt::~Stmt() { sqlite3_finalize(stmt_); }
Stmt& Stmt::bind(int i, const std::string& v) {
  sqlite3_bind_text(stmt_, i, v.data(), int(v.size()), SQLITE_TRANSIENT);
  return *this;
}
Stmt& Stmt::bind_blob(int i, const std::string& v) {
  sqlite3_bind_blob(stmt_, i, v.data(), int(v.size()), SQLITE_TRANSIENT);
  return *this;
}
Stmt& Stmt::bind(int i, int64_t v) {
  sqlite3_bind_int64(stmt_, i, v);
  return *this;
}
Stmt& Stmt::bind_null(int i) {
  sqlite3_bind_null(stmt_, i);
  return *this;
}
int Stmt::step() { return sqlite3_step(stmt_); }
std::string Stmt::text(int col) const {
  const auto* p = static_cast<const char*>(sqlite3_column_blob(stmt_, col));
  return p ? std::string(p, size_t(sqlite3_column_bytes(stmt_, col))) : std::string();
}
bool Stmt::is_null(int col) const { return sqlite3_column_type(stmt_, col) == SQLITE_NULL; }
int64_t Stmt::integer(int col) const { return sqlite3_column_int64(stmt_, col); }
void Stmt::reset() { sqlite3_reset(stmt_); }

Status exec(sqlite3* db, const char* sql) {
  char* msg = nullptr;
  if (sqlite3_exec(db, sql, nullptr, nullptr, &msg) != SQLITE_OK) {
    Error e = db_error(db, std::string("cannot run '") + std::string(sql).substr(0, 60) + "'");
    sqlite3_free(msg);
    return e;
  }
  return ok_status();
}

Pool::~Pool() {
  for (sqlite3* db : free_) sqlite3_close_v2(db);
}

Result<std::shared_ptr<Pool::Lease>> Pool::acquire() {
  sqlite3* db = nullptr;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!free_.empty()) {
      db = free_.back();
      free_.pop_back();
    }
  }
  if (!db) {
    // NOMUTEX: a connection is used by one thread at a time (the lease).
    const int rc =
        sqlite3_open_v2(path_.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr);
    if (rc != SQLITE_OK) {
      Error e = make_error(
          path_, std::string("cannot open the registry database: ") + (db ? sqlite3_errmsg(db) : sqlite3_errstr(rc)));
      sqlite3_close_v2(db);
      return e;
    }
    sqlite3_busy_timeout(db, 10000);
    if (Status st = exec(db, "PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;"); !st) {
      sqlite3_close_v2(db);
      return st.error();
    }
  }
  return std::make_shared<Lease>(this, db);
}

void Pool::give_back(sqlite3* db) {
  std::lock_guard<std::mutex> lock(mutex_);
  free_.push_back(db);
}

Status Transaction::begin() {
  if (Status st = exec(db_, "BEGIN IMMEDIATE"); !st) return st;
  open_ = true;
  return ok_status();
}
Status Transaction::commit() {
  if (Status st = exec(db_, "COMMIT"); !st) return st;
  open_ = false;
  return ok_status();
}
Transaction::~Transaction() {
  if (open_) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
}

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace llmc::registry::sql
