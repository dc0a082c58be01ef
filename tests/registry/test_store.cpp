// The database: schema migrations from an older version, online backup, static export, tokens
// kept only as hashes, names never reused.
#include <sqlite3.h>

#include "fixture.h"
#include "llmc_registry/export.h"
#include "llmc_registry/sha256.h"
#include "schema.h"

using namespace llmc::registry;
using namespace llmc::registry::test;

namespace {

Intake intake_of(const std::string& rel) {
  Intake in;
  auto err = take_in_profile(source_file(rel), in);
  INFO((err ? err->message : ""));
  REQUIRE(!err);
  return in;
}

}  // namespace

TEST_CASE("a schema-1 database (before soft delete and the audit log) is migrated on open, its rows kept") {
  TempDir d;
  const std::string path = d.str("old.sqlite3");
  const Intake in = intake_of("site/profiles/h100-sxm.published.json");
  {
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
    REQUIRE(sql::migrate(db, 1).ok());
    CHECK(*sql::schema_version(db) == 1);
    // Rows as a version-1 registry wrote them.
    sqlite3_stmt* st = nullptr;
    REQUIRE(sqlite3_prepare_v2(db,
                               "INSERT INTO profiles (id, body, gpu, summary, label, notes, uploaded_at, uploader) "
                               "VALUES (?,?,?,?,'old','', '2026-01-02T03:04:05Z','alice')",
                               -1, &st, nullptr) == SQLITE_OK);
    const std::string summary = in.summary.dump();
    sqlite3_bind_text(st, 1, in.id.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_blob(st, 2, in.canonical.data(), int(in.canonical.size()), SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 3, in.gpu.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 4, summary.c_str(), -1, SQLITE_TRANSIENT);
    REQUIRE(sqlite3_step(st) == SQLITE_DONE);
    sqlite3_finalize(st);
    const std::string tok =
        "INSERT INTO tokens VALUES ('alice', '" + sha256_hex("llmc_secret") + "', 0, '2026-01-01T00:00:00Z', NULL)";
    REQUIRE(sqlite3_exec(db, tok.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK);
    sqlite3_close(db);
  }
  auto s = Store::open_file(path);
  REQUIRE_MESSAGE(s.ok(), (s ? "" : s.error().text()));
  Store& store = **s;
  CHECK(*store.schema_version() == sql::current_schema_version());
  CHECK(sql::current_schema_version() == 2);
  auto list = store.list_profiles();
  REQUIRE(list.ok());
  REQUIRE(list->size() == 1);
  CHECK((*list)[0].id == in.id);
  CHECK((*list)[0].label == "old");
  CHECK((*list)[0].uploaded_at == "2026-01-02T03:04:05Z");
  auto got = store.get_profile(in.id);
  REQUIRE(got.ok());
  CHECK((*got)->second == in.canonical);
  auto tok = store.find_token("llmc_secret");
  REQUIRE(tok.ok());
  REQUIRE(tok->has_value());
  CHECK((*tok)->name == "alice");
  // What version 2 added works on the migrated rows.
  CHECK(*store.delete_profile(in.id, "admin", "test"));
  CHECK(store.list_profiles()->empty());
  CHECK(store.audit_log()->size() == 1);
}

TEST_CASE("a database from a newer llmcalc is refused, not written") {
  TempDir d;
  const std::string path = d.str("new.sqlite3");
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
  REQUIRE(sqlite3_exec(db, "PRAGMA user_version=99", nullptr, nullptr, nullptr) == SQLITE_OK);
  sqlite3_close(db);
  auto s = Store::open_file(path);
  REQUIRE(!s.ok());
  CHECK(s.error().message.find("schema version 99 is newer than this llmcalc's (2)") != std::string::npos);
}

TEST_CASE("backup: a consistent copy while the server runs, readable as a registry") {
  Registry r;
  REQUIRE(r.upload(source_file("site/profiles/h100-sxm.published.json"), r.token)->status == 201);
  REQUIRE(r.upload(source_file("site/profiles/a100-sxm-80gb.published.json"), r.token)->status == 201);
  const std::string file = r.dir.str("backup.sqlite3");
  REQUIRE(r.store->backup_to(file).ok());
  CHECK(!fs::exists(file + ".partial"));
  // The server keeps serving and storing after the backup.
  CHECK(r.upload(source_file("site/profiles/h100-sxm.json"), r.token)->status == 201);
  auto copy = Store::open_file(file);
  REQUIRE(copy.ok());
  auto a = (*copy)->list_profiles();
  REQUIRE(a.ok());
  CHECK(a->size() == 2);
  for (const ProfileEntry& e : *a)
    CHECK((*copy)->get_profile(e.id).value()->second == r.store->get_profile(e.id).value()->second);
  CHECK((*copy)->list_tokens()->size() == 2);
}

TEST_CASE("export: index.json and profiles/<id>.json are byte for byte what the API serves") {
  Registry r;
  std::vector<std::string> ids;
  for (const char* f : {"site/profiles/h100-sxm.published.json", "site/profiles/a100-sxm-80gb.published.json",
                        "site/profiles/h200.json"})
    ids.push_back(body_json(r.upload(source_file(f), r.token))["id"]);
  httplib::Headers admin{{"Authorization", "Bearer " + r.admin_token}};
  REQUIRE(r.client().Delete("/api/v1/profiles/" + ids[1], admin)->status == 200);
  const std::string dir = r.dir.str("export");
  auto n = export_static(*r.store, dir);
  REQUIRE(n.ok());
  CHECK(*n == 2);
  CHECK(read_text(dir + "/index.json") == r.client().Get("/api/v1/profiles")->body);
  CHECK(read_text(dir + "/profiles/" + ids[0] + ".json") == r.client().Get("/api/v1/profiles/" + ids[0])->body);
  CHECK(read_text(dir + "/profiles/" + ids[2] + ".json") == r.client().Get("/api/v1/profiles/" + ids[2])->body);
  CHECK(!fs::exists(dir + "/profiles/" + ids[1] + ".json"));  // deleted: not exported
  size_t files = 0;
  for (const auto& e : fs::directory_iterator(dir + "/profiles")) files += e.is_regular_file();
  CHECK(files == 2);
  // Again over the earlier export: replaced as a whole.
  REQUIRE(r.client().Delete("/api/v1/profiles/" + ids[2], admin)->status == 200);
  CHECK(*export_static(*r.store, dir) == 1);
  CHECK(!fs::exists(dir + "/profiles/" + ids[2] + ".json"));
  // A directory that is not an earlier export is never replaced.
  fs::create_directories(r.dir.str("mine"));
  std::ofstream(r.dir.str("mine/notes.txt")) << "keep me";
  auto refused = export_static(*r.store, r.dir.str("mine"));
  REQUIRE(!refused.ok());
  CHECK(refused.error().message.find("neither empty nor an earlier export") != std::string::npos);
  CHECK(read_text(r.dir.str("mine/notes.txt")) == "keep me");
}

TEST_CASE("tokens: only a hash is stored; names are never reused; revoked tokens are found as revoked") {
  TempDir d;
  auto s = Store::open(d.str("data"));
  REQUIRE(s.ok());
  Store& store = **s;
  auto t = store.add_token("alice", false);
  REQUIRE(t.ok());
  CHECK(t->size() == 5 + 64);
  CHECK(t->rfind("llmc_", 0) == 0);
  auto t2 = store.add_token("bob", true);
  REQUIRE(t2.ok());
  CHECK(*t2 != *t);
  // The secret appears nowhere in the database files (the hash does).
  std::string files;
  for (const auto& e : fs::directory_iterator(d.str("data"))) files += read_text(e.path().string());
  CHECK(files.find(t->substr(5)) == std::string::npos);
  CHECK(files.find(sha256_hex(*t)) != std::string::npos);
  auto dup = store.add_token("alice", false);
  REQUIRE(!dup.ok());
  CHECK(dup.error().message.find("'alice' is taken") != std::string::npos);
  CHECK(!store.add_token("has space", false).ok());
  CHECK(!store.add_token("", false).ok());
  CHECK((*store.find_token(*t2))->admin);
  CHECK(!store.find_token("llmc_nothing")->has_value());
  REQUIRE(store.revoke_token("alice").ok());
  CHECK(!(*store.find_token(*t))->revoked_at.empty());
  CHECK(!store.revoke_token("alice").ok());      // already revoked
  CHECK(!store.add_token("alice", false).ok());  // and not reusable
  auto list = store.list_tokens();
  REQUIRE(list->size() == 2);
}

TEST_CASE("equal_constant_time compares whole strings") {
  CHECK(equal_constant_time("abc", "abc"));
  CHECK(!equal_constant_time("abc", "abd"));
  CHECK(!equal_constant_time("abc", "ab"));
  CHECK(sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");  // FIPS 180-2 example
  CHECK(random_hex(16).size() == 32);
  CHECK(random_hex(16) != random_hex(16));
}
