// llmcalc-bench --upload (gpu/host/src/upload.cpp) against a registry server started here: only
// a run that passed is uploaded, the token is checked before any measurement, a failed upload
// gives exit code 4 and leaves the file alone.
#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "llmc_bench/upload.h"
#include "llmc_registry/server.h"
#include "llmc_registry/store.h"

using namespace llmc::bench;
namespace fs = std::filesystem;

namespace {

std::string slurp(const std::string& p) {
  std::ifstream f(p);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

struct Server {
  fs::path dir = fs::temp_directory_path() / ("llmc_bench_upload_" + std::to_string(::getpid()));
  std::unique_ptr<llmc::registry::Store> store;
  std::unique_ptr<llmc::registry::RegistryServer> server;
  std::thread thread;
  std::string url, token;
  Server() {
    store = std::move(llmc::registry::Store::open((dir / "data").string())).value();
    token = *store->add_token("gpu-box", false);
    llmc::registry::ServerConfig cfg;
    cfg.port = 0;
    cfg.log_writes = false;
    server = std::make_unique<llmc::registry::RegistryServer>(*store, cfg);
    url = "http://127.0.0.1:" + std::to_string(*server->bind());
    thread = std::thread([this] { server->run(); });
  }
  ~Server() {
    while (!server->running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    server->stop();
    thread.join();
    fs::remove_all(dir);
  }
};

// stderr of upload_after_run, through a temporary file.
struct Log {
  std::FILE* f = std::tmpfile();
  ~Log() { std::fclose(f); }
  std::string text() {
    std::fflush(f);
    std::rewind(f);
    std::string s;
    char buf[512];
    while (std::fgets(buf, sizeof buf, f)) s += buf;
    return s;
  }
};

}  // namespace

TEST_CASE("--upload: checked before measuring, uploaded only after a run that passed") {
  REQUIRE(upload_built());
  Server s;
  const std::string profile_path = std::string(LLMC_SOURCE_DIR) + "/site/profiles/h100-sxm.json";
  const std::string text = slurp(profile_path);
  Options o = *parse_options({"--upload", s.url, "--label", "rack 3"});
  unsetenv("LLMCALC_TOKEN");
  auto no_token = check_upload(o);
  REQUIRE(!no_token.ok());
  CHECK(no_token.error().field == "--token-file");
  setenv("LLMCALC_TOKEN", s.token.c_str(), 1);
  CHECK(check_upload(o).ok());
  CHECK(check_upload(*parse_options({"--upload", "not-a-url"})).error().field == "--upload");
  CHECK(parse_options({"--label", "x"}).error().text() == "--label: only means something with --upload URL");

  Log failed_run;
  CHECK(upload_after_run(o, false, profile_path, text, failed_run.f) == 0);
  CHECK(failed_run.text().find("not uploaded") != std::string::npos);
  CHECK(s.store->list_profiles()->empty());

  Log passed;
  CHECK(upload_after_run(o, true, profile_path, text, passed.f) == 0);
  CHECK(passed.text().find("uploaded to " + s.url + ": stored as ") != std::string::npos);
  auto listed = s.store->list_profiles();
  REQUIRE(listed->size() == 1);
  CHECK((*listed)[0].label == "rack 3");
  CHECK((*listed)[0].uploader == "gpu-box");

  // A refused upload (a revoked token): exit code 4, the file untouched.
  REQUIRE(s.store->revoke_token("gpu-box").ok());
  Log refused;
  CHECK(upload_after_run(o, true, profile_path, text, refused.f) == kExitUploadFailed);
  CHECK(refused.text().find("was revoked") != std::string::npos);
  CHECK(refused.text().find("llmcalc profile push " + profile_path) != std::string::npos);
  CHECK(slurp(profile_path) == text);
  unsetenv("LLMCALC_TOKEN");
}
