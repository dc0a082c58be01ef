#include "schema.h"

#include <string>

#include "sqlite_db.h"

namespace llmc::registry::sql {
namespace {

// Step N takes a database from version N-1 to N. Append only: a released step never changes.
const char* const kSteps[] = {
    // 1: profiles stored under their content hash, and upload tokens (SHA-256 of the secret).
    "CREATE TABLE profiles ("
    "  id TEXT PRIMARY KEY,"  // SHA-256 hex of body
    "  body BLOB NOT NULL,"   // canonical JSON, served as is
    "  gpu TEXT NOT NULL,"
    "  summary TEXT NOT NULL,"  // JSON object: summary_fields()
    "  label TEXT NOT NULL DEFAULT '',"
    "  notes TEXT NOT NULL DEFAULT '',"
    "  uploaded_at TEXT NOT NULL,"  // RFC 3339 UTC
    "  uploader TEXT NOT NULL);"    // token name
    "CREATE TABLE tokens ("
    "  name TEXT PRIMARY KEY,"
    "  sha256 TEXT NOT NULL,"
    "  admin INTEGER NOT NULL,"
    "  created_at TEXT NOT NULL,"
    "  revoked_at TEXT);",
    // 2: soft delete (a deleted profile stays, hidden, with who and when) and the audit log.
    "ALTER TABLE profiles ADD COLUMN deleted_at TEXT;"
    "ALTER TABLE profiles ADD COLUMN deleted_by TEXT;"
    "CREATE TABLE audit ("
    "  seq INTEGER PRIMARY KEY AUTOINCREMENT,"
    "  at TEXT NOT NULL, actor TEXT NOT NULL, action TEXT NOT NULL, target TEXT NOT NULL, detail TEXT NOT NULL DEFAULT "
    "'');"
    "CREATE INDEX profiles_by_gpu ON profiles (gpu, uploaded_at);",
};
constexpr int kCurrent = int(sizeof kSteps / sizeof kSteps[0]);

}  // namespace

int current_schema_version() { return kCurrent; }

Result<int> schema_version(sqlite3* db) {
  Stmt st(db, "PRAGMA user_version");
  if (!st.ok() || st.step() != SQLITE_ROW) return db_error(db, "cannot read the schema version");
  return int(st.integer(0));
}

Status migrate(sqlite3* db, int target) {
  if (target < 0) target = kCurrent;
  Transaction tx(db);
  if (Status st = tx.begin(); !st) return st;
  Result<int> have = schema_version(db);
  if (!have) return have.error();
  if (*have > kCurrent)
    return db_error(db, "schema version " + std::to_string(*have) + " is newer than this llmcalc's (" +
                            std::to_string(kCurrent) + "); use the llmcalc that wrote it, or a newer one");
  for (int v = *have + 1; v <= target; ++v) {
    if (Status st = exec(db, kSteps[v - 1]); !st)
      return make_error(st.error().field, "migration to schema " + std::to_string(v) + ": " + st.error().message);
  }
  if (target > *have) {
    const std::string set = "PRAGMA user_version=" + std::to_string(target);
    if (Status st = exec(db, set.c_str()); !st) return st;
  }
  return tx.commit();
}

}  // namespace llmc::registry::sql
