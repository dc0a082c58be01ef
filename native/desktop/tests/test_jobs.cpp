// The desktop Registry menu's jobs: llmcalc-bench's progress lines as the bench writes them,
// the bench run as a child process (a stand-in script here: no GPU), an upload to a registry
// server started in this test.
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "bench_job.h"
#include "llmc_bench/progress.h"
#include "llmc_registry/server.h"
#include "llmc_registry/store.h"
#include "upload_job.h"

using namespace llmc::desktop;
namespace fs = std::filesystem;

namespace {

fs::path scratch() {
  fs::path d = fs::temp_directory_path() / ("llmc_desktop_jobs_" + std::to_string(::getpid()));
  fs::create_directories(d);
  return d;
}

std::string script(const fs::path& dir, const std::string& name, const std::string& body) {
  const fs::path p = dir / name;
  std::ofstream(p) << "#!/bin/sh\n" << body;
  ::chmod(p.c_str(), 0755);
  return p.string();
}

template <class F>
bool wait_until(F done) {
  for (int i = 0; i < 1000; ++i) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

}  // namespace

TEST_CASE("the progress lines llmcalc-bench writes are read back: percent, label, ETA") {
  std::FILE* f = std::tmpfile();
  llmc::bench::Progress p(100.0, f);  // not a terminal: one line per step
  p.step("gemm bf16 4096x4096x4096 grid square", 25);
  p.step("gemm bf16 8192x8192x8192 grid square", 25);
  p.finish();
  std::fflush(f);
  std::rewind(f);
  std::vector<std::string> lines;
  char buf[256];
  while (std::fgets(buf, sizeof buf, f)) {
    std::string l(buf);
    if (!l.empty() && l.back() == '\n') l.pop_back();
    lines.push_back(l);
  }
  std::fclose(f);
  REQUIRE(lines.size() == 3);
  auto a = parse_bench_progress(lines[0]);
  REQUIRE(a);
  CHECK(a->percent == 0);
  CHECK(a->label == "gemm bf16 4096x4096x4096 grid square");
  CHECK(!a->eta.empty());
  auto b = parse_bench_progress(lines[1]);
  REQUIRE(b);
  CHECK(b->percent == 25);
  auto done = parse_bench_progress(lines[2]);
  REQUIRE(done);
  CHECK(done->percent == 100);
  CHECK(done->label.rfind("done in ", 0) == 0);
  CHECK(!parse_bench_progress("llmcalc-bench: profile written: x.json"));
  CHECK(!parse_bench_progress("[not a bar]"));
}

TEST_CASE("BenchJob runs the bench as a child: progress, output tail, exit status; cancel ends it") {
  const fs::path dir = scratch();
  const std::string fake =
      script(dir, "llmcalc-bench",
             "echo \"llmcalc-bench: args $*\" >&2\n"
             "echo '[###############...............]  50% gemm bf16 4096x4096x4096 ETA 1m00s' >&2\n"
             "sleep 0.2\n"
             "echo '[##############################] 100% done in 2s' >&2\n"
             "echo 'llmcalc-bench: no usable GPU: stand-in' >&2\n"
             "exit 3\n");
  CHECK(find_bench("", dir.string()) == (dir / "llmcalc-bench").string());
  CHECK(find_bench("", (dir / "none").string()).empty());
  CHECK(find_bench(fake, "").size() > 0);
  CHECK(find_bench((dir / "missing").string(), "").empty());

  BenchJob job;
  std::string error;
  REQUIRE(job.start(fake, {"--quick", "--out", "x.json"}, error));
  CHECK(wait_until([&] { return job.state().progress.percent == 50; }));
  CHECK(job.state().progress.eta == "1m00s");
  CHECK(wait_until([&] { return !job.state().running; }));
  const BenchJob::State st = job.state();
  CHECK(st.exit_code == 3);
  CHECK(st.progress.percent == 100);
  REQUIRE(st.tail.size() == 2);
  CHECK(st.tail[0] == "llmcalc-bench: args --quick --out x.json");
  CHECK(st.tail[1] == "llmcalc-bench: no usable GPU: stand-in");

  const std::string slow = script(dir, "slow-bench", "echo started\nexec sleep 30\n");
  REQUIRE(job.start(slow, {}, error));
  CHECK(wait_until([&] { return !job.state().tail.empty(); }));
  CHECK(!job.start(slow, {}, error));
  CHECK(error == "a calibration is already running");
  job.cancel();
  CHECK(wait_until([&] { return !job.state().running; }));
  CHECK(job.state().exit_code == 128 + 15);  // SIGTERM
  CHECK(!job.start((dir / "missing").string(), {}, error));
  fs::remove_all(dir);
}

TEST_CASE("UploadJob pushes a profile file and reports the id; a bad file or token is a message") {
  const fs::path dir = scratch();
  auto store = std::move(llmc::registry::Store::open((dir / "data").string())).value();
  const std::string token = *store->add_token("desk", false);
  std::ofstream(dir / "token") << token << "\n";
  std::ofstream(dir / "wrong") << "llmc_0000\n";
  llmc::registry::ServerConfig cfg;
  cfg.port = 0;
  cfg.log_writes = false;
  llmc::registry::RegistryServer server(*store, cfg);
  const std::string url = "http://127.0.0.1:" + std::to_string(*server.bind());
  std::thread t([&] { server.run(); });
  const std::string profile = std::string(LLMC_SOURCE_DIR) + "/site/profiles/h100-sxm.published.json";

  UploadJob job;
  REQUIRE(job.start({url, (dir / "token").string(), profile, "desk A"}));
  CHECK(wait_until([&] { return job.state().done; }));
  UploadJob::State st = job.state();
  CHECK(st.ok);
  CHECK(st.created);
  CHECK(st.id.size() == 64);
  CHECK(st.message == "stored as " + st.id);
  CHECK((*store->list_profiles())[0].label == "desk A");

  REQUIRE(job.start({url, (dir / "wrong").string(), profile, ""}));
  CHECK(wait_until([&] { return job.state().done; }));
  CHECK(!job.state().ok);
  CHECK(job.state().message == "HTTP 401 unauthorized: unknown token (not issued by this registry)");

  std::ofstream(dir / "bad.json") << R"({"schema_version": 1, "gpu": "h100-sxm"})";
  REQUIRE(job.start({url, (dir / "token").string(), (dir / "bad.json").string(), ""}));
  CHECK(wait_until([&] { return job.state().done; }));
  CHECK(job.state().message ==
        (dir / "bad.json").string() + ": profile: source: missing (measured, published or datasheet)");

  REQUIRE(job.start({"ftp://x", "", profile, ""}));
  CHECK(wait_until([&] { return job.state().done; }));
  CHECK(job.state().message.rfind("Registry URL: ", 0) == 0);

  while (!server.running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  server.stop();
  t.join();
  fs::remove_all(dir);
}
