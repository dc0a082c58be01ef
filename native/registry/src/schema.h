// The registry database's schema: numbered migrations, applied in order inside one transaction,
// the version kept in PRAGMA user_version. A new database and an old one take the same path, so
// every step runs in the tests (docs/registry.md, "Schema").
#pragma once
#include <sqlite3.h>

#include "llmc/result.h"

namespace llmc::registry::sql {

// The version this build writes.
int current_schema_version();

// Brings the database to `target` (default: current), from whatever version it has. A database
// newer than this build is refused (an older llmcalc must not write to it).
Status migrate(sqlite3* db, int target = -1);

// PRAGMA user_version.
Result<int> schema_version(sqlite3* db);

}  // namespace llmc::registry::sql
