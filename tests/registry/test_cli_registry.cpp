// The command line of the registry: `llmcalc serve token|import|export|backup|audit` and
// `llmcalc profile push|list|pull` (exit codes, one-line errors), next to the unchanged
// `llmcalc profile [--gpu ID] | --check FILE`.
#include <cstdlib>
#include <sstream>

#include "cli.h"
#include "fixture.h"
#include "llmc_registry/sha256.h"

using namespace llmc::registry;
using namespace llmc::registry::test;

namespace {

struct Out {
  int code;
  std::string out, err;
};
Out cli(std::vector<std::string> args) {
  std::ostringstream o, e;
  const int code = llmc::cli::run(args, o, e);
  return {code, o.str(), e.str()};
}
std::string src(const std::string& rel) { return std::string(LLMC_SOURCE_DIR) + "/" + rel; }

}  // namespace

TEST_CASE("llmcalc profile --gpu and --check work as before") {
  Out a = cli({"profile", "--gpu", "h200"});
  CHECK(a.code == 0);
  CHECK(nlohmann::json::parse(a.out)["gpu"] == "h200");
  Out b = cli({"profile", "--check", src("site/profiles/h100-sxm.json")});
  CHECK(b.code == 0);
  CHECK(b.out == src("site/profiles/h100-sxm.json") + ": valid measured profile for h100-sxm\n");
  Out c = cli({"profile"});
  CHECK(c.code == 0);
  CHECK(nlohmann::json::parse(c.out)["gpu"] == "h100-sxm");
}

TEST_CASE("serve token add|list|revoke, import, audit, backup, export on a data directory") {
  TempDir d;
  const std::string data = d.str("reg");
  Out add = cli({"serve", "token", "add", "alice", "--data", data});
  REQUIRE(add.code == 0);
  CHECK(add.out.size() == 5 + 64 + 1);
  CHECK(add.err.find("only its SHA-256 is kept") != std::string::npos);
  Out admin = cli({"serve", "--data", data, "token", "add", "root", "--admin"});
  REQUIRE(admin.code == 0);
  Out list = cli({"serve", "token", "list", "--data", data});
  CHECK(list.out.find("alice") != std::string::npos);
  CHECK(list.out.find(add.out.substr(5, 20)) == std::string::npos);  // never shown again
  Out dup = cli({"serve", "token", "add", "alice", "--data", data});
  CHECK(dup.code == 2);
  CHECK(dup.err.rfind("llmcalc: error: token name: 'alice' is taken", 0) == 0);
  CHECK(cli({"serve", "token", "revoke", "alice", "--data", data}).code == 0);
  CHECK(cli({"serve", "token", "revoke", "nobody", "--data", data}).code == 2);

  Out imp = cli({"serve", "import", src("site/profiles/h100-sxm.published.json"), src("site/profiles/h200.json"),
                 "--label", "bundled", "--data", data});
  REQUIRE(imp.code == 0);
  CHECK(imp.out.find("(stored)") != std::string::npos);
  Out bad = cli({"serve", "import", src("site/profiles/index.json"), "--data", data});
  CHECK(bad.code == 2);
  CHECK(bad.err ==
        "llmcalc: error: " + src("site/profiles/index.json") + ": profile: must be a JSON object; got array\n");

  Out audit = cli({"serve", "audit", "--data", data});
  CHECK(audit.out.find("token_add  alice") != std::string::npos);
  CHECK(audit.out.find("token_revoke  alice") != std::string::npos);
  CHECK(audit.out.find("upload") != std::string::npos);

  CHECK(cli({"serve", "backup", d.str("b.sqlite3"), "--data", data}).code == 0);
  CHECK(Store::open_file(d.str("b.sqlite3")).value()->list_profiles()->size() == 2);
  Out exp = cli({"serve", "export", d.str("static"), "--data", data});
  CHECK(exp.code == 0);
  CHECK(exp.out.find("exported 2 profiles") != std::string::npos);
  CHECK(nlohmann::json::parse(read_text(d.str("static/index.json")))["count"] == 2);
}

TEST_CASE("profile push|list|pull against a running registry; the local file is left as it was") {
  Registry r;
  TempDir d;
  const std::string file = d.str("mine.json");
  std::ofstream(file) << source_file("site/profiles/h100-sxm.published.json");
  const std::string before = read_text(file);
  std::ofstream(d.str("tok")) << r.token << "\n";

  Out push = cli({"profile", "push", file, "--registry", r.url(), "--token-file", d.str("tok"), "--label", "rack 7"});
  INFO(push.err);
  REQUIRE(push.code == 0);
  const std::string id = sha256_hex(nlohmann::json::parse(before).dump());
  CHECK(push.out == file + ": stored as " + id + " at " + r.url() + "\n");
  CHECK(read_text(file) == before);
  setenv("LLMCALC_TOKEN", r.token.c_str(), 1);
  Out again = cli({"profile", "push", file, "-r", r.url()});
  unsetenv("LLMCALC_TOKEN");
  CHECK(again.out == file + ": already there as " + id + " at " + r.url() + "\n");

  Out list = cli({"profile", "list", "--registry", r.url(), "--gpu", "h100-sxm"});
  REQUIRE(list.code == 0);
  CHECK(list.out.find(id.substr(0, 12) + "  h100-sxm") != std::string::npos);
  CHECK(list.out.find("rack 7") != std::string::npos);
  Out json = cli({"profile", "list", "--registry", r.url(), "--json"});
  CHECK(nlohmann::json::parse(json.out)["profiles"][0]["id"] == id);

  Out pull = cli({"profile", "pull", id, "--registry", r.url(), "-o", d.str("pulled.json")});
  REQUIRE(pull.code == 0);
  CHECK(sha256_hex(read_text(d.str("pulled.json"))) == id);
  Out check = cli({"profile", "--check", d.str("pulled.json")});
  CHECK(check.code == 0);
}

TEST_CASE("profile push errors: bad file and no token fail before any request (2); a refusal is 2; no registry is 1") {
  Registry r;
  TempDir d;
  std::ofstream(d.str("bad.json")) << R"({"schema_version": 2})";
  std::ofstream(d.str("tok")) << "llmc_" << std::string(64, '0') << "\n";
  Out bad = cli({"profile", "push", d.str("bad.json"), "--registry", r.url(), "--token-file", d.str("tok")});
  CHECK(bad.code == 2);
  CHECK(bad.err == "llmcalc: error: " + d.str("bad.json") +
                       ": profile: schema_version: unknown version 2; this llmcalc reads schema_version 1\n");
  unsetenv("LLMCALC_TOKEN");
  Out notoken = cli({"profile", "push", src("site/profiles/h200.json"), "--registry", r.url()});
  CHECK(notoken.code == 2);
  CHECK(notoken.err.rfind("llmcalc: error: --token-file: no upload token", 0) == 0);
  Out wrong =
      cli({"profile", "push", src("site/profiles/h200.json"), "--registry", r.url(), "--token-file", d.str("tok")});
  CHECK(wrong.code == 2);
  CHECK(wrong.err == "llmcalc: error: " + src("site/profiles/h200.json") +
                         ": HTTP 401 unauthorized: unknown token (not issued by this registry)\n");
  CHECK(r.listed() == 0);
  Out nourl = cli({"profile", "list", "--registry", "127.0.0.1:8080"});
  CHECK(nourl.code == 2);
  Out unreachable =
      cli({"profile", "pull", std::string(64, 'a'), "--registry", "http://127.0.0.1:1", "--retries", "0"});
  CHECK(unreachable.code == 1);
  CHECK(unreachable.err == "llmcalc: error: " + std::string(64, 'a') + ": cannot connect (http://127.0.0.1:1)\n");
  Out missing = cli({"profile", "pull", std::string(64, 'a'), "--registry", r.url()});
  CHECK(missing.code == 2);
  CHECK(missing.err.find("HTTP 404 not_found: no profile") != std::string::npos);
}
