// Upload tokens: "llmc_" + 64 hex digits (256 random bits from OpenSSL). The database keeps the
// SHA-256 of the whole token, never the token; a presented token is hashed and compared with
// every stored hash in constant time.
#include "llmc_registry/sha256.h"
#include "llmc_registry/store.h"
#include "sqlite_db.h"

namespace llmc::registry {

using sql::Stmt;

Result<std::string> Store::add_token(const std::string& name, bool admin) {
  if (auto why = token_name_problem(name)) return make_error("token name", *why);
  auto lease = pool_->acquire();
  if (!lease) return lease.error();
  sqlite3* db = (*lease)->get();
  sql::Transaction tx(db);
  if (Status st = tx.begin(); !st) return st.error();
  Stmt find(db, "SELECT revoked_at FROM tokens WHERE name = ?");
  if (!find.ok()) return sql::db_error(db, "cannot read tokens");
  find.bind(1, name);
  if (find.step() == SQLITE_ROW)  // returns: the transaction rolls back
    return make_error("token name", "'" + name + "' is taken" +
                                        (find.is_null(0) ? "" : " (revoked " + find.text(0) + ")") +
                                        "; names are never reused, so every upload names one token: pick another");
  const std::string token = "llmc_" + random_hex(32);
  Stmt ins(db, "INSERT INTO tokens (name, sha256, admin, created_at) VALUES (?, ?, ?, ?)");
  if (!ins.ok()) return sql::db_error(db, "cannot add a token");
  ins.bind(1, name).bind(2, sha256_hex(token)).bind(3, int64_t(admin ? 1 : 0)).bind(4, sql::utc_now());
  if (ins.step() != SQLITE_DONE) return sql::db_error(db, "cannot add a token");
  Stmt log(db, "INSERT INTO audit (at, actor, action, target, detail) VALUES (?, 'local', 'token_add', ?, ?)");
  if (!log.ok()) return sql::db_error(db, "cannot write the audit log");
  log.bind(1, sql::utc_now()).bind(2, name).bind(3, std::string(admin ? "admin" : "upload"));
  if (log.step() != SQLITE_DONE) return sql::db_error(db, "cannot write the audit log");
  if (Status st = tx.commit(); !st) return st.error();
  return token;
}

Status Store::revoke_token(const std::string& name) {
  auto lease = pool_->acquire();
  if (!lease) return lease.error();
  sqlite3* db = (*lease)->get();
  sql::Transaction tx(db);
  if (Status st = tx.begin(); !st) return st;
  Stmt st(db, "UPDATE tokens SET revoked_at = ? WHERE name = ? AND revoked_at IS NULL");
  if (!st.ok()) return sql::db_error(db, "cannot revoke a token");
  st.bind(1, sql::utc_now()).bind(2, name);
  if (st.step() != SQLITE_DONE) return sql::db_error(db, "cannot revoke a token");
  if (sqlite3_changes(db) == 0)
    return make_error("token name", "no valid token named '" + name + "' (see `llmcalc serve token list`)");
  Stmt log(db, "INSERT INTO audit (at, actor, action, target) VALUES (?, 'local', 'token_revoke', ?)");
  if (!log.ok()) return sql::db_error(db, "cannot write the audit log");
  log.bind(1, sql::utc_now()).bind(2, name);
  if (log.step() != SQLITE_DONE) return sql::db_error(db, "cannot write the audit log");
  return tx.commit();
}

Result<std::vector<TokenInfo>> Store::list_tokens() {
  auto lease = pool_->acquire();
  if (!lease) return lease.error();
  sqlite3* db = (*lease)->get();
  Stmt st(db, "SELECT name, admin, created_at, revoked_at FROM tokens ORDER BY created_at, name");
  if (!st.ok()) return sql::db_error(db, "cannot read tokens");
  std::vector<TokenInfo> out;
  int rc;
  while ((rc = st.step()) == SQLITE_ROW) out.push_back({st.text(0), st.integer(1) != 0, st.text(2), st.text(3)});
  if (rc != SQLITE_DONE) return sql::db_error(db, "cannot read tokens");
  return out;
}

Result<std::optional<TokenInfo>> Store::find_token(const std::string& presented) {
  const std::string want = sha256_hex(presented);
  auto lease = pool_->acquire();
  if (!lease) return lease.error();
  sqlite3* db = (*lease)->get();
  // Read every row and compare every hash: how long this takes does not depend on which token
  // (if any) matches, or on how many leading characters do.
  Stmt st(db, "SELECT name, admin, created_at, revoked_at, sha256 FROM tokens");
  if (!st.ok()) return sql::db_error(db, "cannot read tokens");
  std::optional<TokenInfo> match;
  int rc;
  while ((rc = st.step()) == SQLITE_ROW) {
    TokenInfo t{st.text(0), st.integer(1) != 0, st.text(2), st.text(3)};
    const bool same = equal_constant_time(st.text(4), want);
    if (same) match = std::move(t);
  }
  if (rc != SQLITE_DONE) return sql::db_error(db, "cannot read tokens");
  return match;
}

}  // namespace llmc::registry
