// Thin RAII over SQLite's C API for the registry store: connections from a small pool (one per
// request thread at a time; WAL lets readers run beside the one writer), prepared statements,
// and errors as llmc::Error. Internal to native/registry.
#pragma once
#include <sqlite3.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "llmc/result.h"

namespace llmc::registry::sql {

// An Error naming the database file and SQLite's message.
Error db_error(sqlite3* db, const std::string& what);

class Stmt {
 public:
  Stmt(sqlite3* db, const char* sql);  // check ok() before use
  ~Stmt();
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;
  bool ok() const { return stmt_ != nullptr; }
  Stmt& bind(int i, const std::string& v);  // as TEXT
  Stmt& bind_blob(int i, const std::string& v);
  Stmt& bind(int i, int64_t v);
  Stmt& bind_null(int i);
  // SQLITE_ROW (a row is ready), SQLITE_DONE, or an error code.
  int step();
  std::string text(int col) const;  // "" for NULL
  bool is_null(int col) const;
  int64_t integer(int col) const;
  // Ends the current run (a statement still on a row keeps a transaction from committing).
  void reset();

 private:
  sqlite3_stmt* stmt_ = nullptr;
};

// Runs SQL without results (one or more statements); Error on failure.
Status exec(sqlite3* db, const char* sql);

// A database file's connections. Each is opened with busy_timeout, synchronous=FULL (a commit
// is on disk when it returns: WAL is fsync'd) and foreign keys on.
class Pool {
 public:
  explicit Pool(std::string path) : path_(std::move(path)) {}
  ~Pool();
  class Lease {
   public:
    Lease(Pool* p, sqlite3* db) : pool_(p), db_(db) {}
    Lease(Lease&& o) noexcept : pool_(o.pool_), db_(o.db_) { o.db_ = nullptr; }
    ~Lease() {
      if (db_) pool_->give_back(db_);
    }
    sqlite3* get() const { return db_; }

   private:
    Pool* pool_;
    sqlite3* db_;
  };
  // A free connection, or a new one; Error when the file cannot be opened.
  Result<std::shared_ptr<Lease>> acquire();
  const std::string& path() const { return path_; }

 private:
  void give_back(sqlite3* db);
  std::string path_;
  std::mutex mutex_;
  std::vector<sqlite3*> free_;
};

// BEGIN IMMEDIATE ... COMMIT, rolled back when destroyed uncommitted.
class Transaction {
 public:
  explicit Transaction(sqlite3* db) : db_(db) {}
  Status begin();
  Status commit();
  ~Transaction();

 private:
  sqlite3* db_;
  bool open_ = false;
};

// "2026-11-25T10:04:05Z" (UTC, seconds).
std::string utc_now();

}  // namespace llmc::registry::sql
