// Load on a running `llmcalc serve` (scripts/bench-registry.sh starts one on loopback): N
// concurrent clients, each on its own keep-alive connection, alternately listing the registry and
// fetching a random profile for a fixed time; then single-client uploads of a ~110 KB profile
// (each distinct, so each is a stored 201 with its fsync). Prints requests/s and latency
// percentiles (docs/benchmarks.md). A benchmark: it prints numbers and asserts nothing, except
// that every answer was a success.
// Reads run closed-loop (each client sends as soon as its last answer came: the most the server
// can do, latency including the queue behind the other clients), or with --rate R at R requests/s
// per client on a fixed schedule (latency measured from the scheduled time, so a late answer
// also counts the requests it held back).
#include <httplib.h>

#include <algorithm>
#include <numeric>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "llmc_registry/client.h"

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

double percentile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t i = std::min(v.size() - 1, size_t(q * double(v.size() - 1) + 0.5));
  return v[i];
}

void report(const char* what, const std::vector<double>& ms, double seconds) {
  std::printf("  %-24s %7zu requests  %8.0f /s   p50 %6.2f ms   p90 %6.2f ms   p99 %6.2f ms   max %7.2f ms\n", what,
              ms.size(), double(ms.size()) / seconds, percentile(ms, 0.5), percentile(ms, 0.9), percentile(ms, 0.99),
              ms.empty() ? 0.0 : *std::max_element(ms.begin(), ms.end()));
}

int usage() {
  std::fprintf(stderr,
               "usage: registry_load --url URL --token-file F --upload FILE [--clients 50] [--seconds 5] [--uploads "
               "40] [--rate R]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::string url_text, token_file, upload_file;
  int clients = 50, uploads = 40;
  double seconds = 5, rate = 0;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i], v = argv[i + 1];
    if (a == "--url")
      url_text = v;
    else if (a == "--token-file")
      token_file = v;
    else if (a == "--upload")
      upload_file = v;
    else if (a == "--clients")
      clients = std::clamp(std::atoi(v.c_str()), 1, 500);
    else if (a == "--seconds")
      seconds = std::clamp(std::atof(v.c_str()), 0.5, 120.0);
    else if (a == "--uploads")
      uploads = std::clamp(std::atoi(v.c_str()), 0, 1000);
    else if (a == "--rate")
      rate = std::clamp(std::atof(v.c_str()), 0.0, 10000.0);
    else
      return usage();
  }
  auto url = llmc::registry::parse_registry_url(url_text);
  auto token = llmc::registry::resolve_token(token_file);
  std::ifstream in(upload_file, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string profile = ss.str();
  if (!url || !token || profile.empty()) return usage();

  httplib::Client probe(url->origin);
  auto list = probe.Get(url->base_path + "/api/v1/profiles");
  if (!list || list->status != 200) {
    std::fprintf(stderr, "registry_load: cannot list %s\n", url->text().c_str());
    return 1;
  }
  std::vector<std::string> ids;
  const nlohmann::json listed = nlohmann::json::parse(list->body);
  for (const auto& p : listed["profiles"]) ids.push_back(p["id"]);
  if (ids.empty()) {
    std::fprintf(stderr, "registry_load: the registry is empty; seed it first\n");
    return 1;
  }

  // Phase 1: concurrent reads.
  std::vector<std::vector<double>> list_ms(static_cast<size_t>(clients)), get_ms(static_cast<size_t>(clients));
  std::atomic<int> failures{0};
  const auto t0 = Clock::now();
  const auto deadline = t0 + std::chrono::duration<double>(seconds);
  std::vector<std::thread> threads;
  for (int c = 0; c < clients; ++c) {
    threads.emplace_back([&, c] {
      httplib::Client cli(url->origin);
      cli.set_keep_alive(true);
      cli.set_tcp_nodelay(true);  // as llmcalc's own client: no 40 ms Nagle/delayed-ACK stall
      std::mt19937 rng(static_cast<unsigned>(c));
      // The first request opens the connection; it is not counted.
      if (!cli.Get(url->base_path + "/api/v1/profiles")) ++failures;
      // Paced clients start at spread-out phases, so the load is smooth rather than in waves.
      const Clock::time_point first =
          Clock::now() + std::chrono::duration_cast<Clock::duration>(
                             std::chrono::duration<double>(rate > 0 ? double(c) / (clients * rate) : 0.0));
      for (int n = 0; Clock::now() < deadline; ++n) {
        const bool listing = n % 2 == 0;
        const std::string path =
            url->base_path + (listing ? "/api/v1/profiles" : "/api/v1/profiles/" + ids[rng() % ids.size()]);
        auto t = Clock::now();
        if (rate > 0) {
          const auto due = first + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(n / rate));
          if (due >= deadline) break;
          std::this_thread::sleep_until(due);
          t = due;
        }
        auto r = cli.Get(path);
        const double ms = ms_since(t);
        if (!r || r->status != 200) ++failures;
        (listing ? list_ms : get_ms)[size_t(c)].push_back(ms);
      }
    });
  }
  for (auto& t : threads) t.join();
  const double elapsed = ms_since(t0) / 1000;
  std::vector<double> all_list, all_get, all;
  for (int c = 0; c < clients; ++c) {
    all_list.insert(all_list.end(), list_ms[size_t(c)].begin(), list_ms[size_t(c)].end());
    all_get.insert(all_get.end(), get_ms[size_t(c)].begin(), get_ms[size_t(c)].end());
  }
  all = all_list;
  all.insert(all.end(), all_get.begin(), all_get.end());
  char pace[64] = "closed loop";
  if (rate > 0) std::snprintf(pace, sizeof pace, "each at %.0f requests/s", rate);
  std::printf("registry_load: %s, %zu profiles listed, %d concurrent clients (keep-alive, %s) for %.1f s, %u CPU(s)\n",
              url->text().c_str(), ids.size(), clients, pace, elapsed, std::thread::hardware_concurrency());
  report("list (GET /profiles)", all_list, elapsed);
  report("fetch (GET /profiles/ID)", all_get, elapsed);
  report("all reads", all, elapsed);

  // Phase 2: uploads of distinct profiles, one at a time.
  nlohmann::ordered_json base = nlohmann::ordered_json::parse(profile);
  httplib::Client up(url->origin);
  up.set_keep_alive(true);
  up.set_tcp_nodelay(true);
  httplib::Headers auth{{"Authorization", "Bearer " + *token}};
  std::vector<double> up_ms;
  const std::string tag = std::to_string(std::chrono::system_clock::now().time_since_epoch().count());
  for (int i = 0; i < uploads; ++i) {
    base["description"] = "registry_load " + tag + " #" + std::to_string(i);
    const std::string body = base.dump(2);  // indented as the bench writes it: 107.7 KB for the measured H100 profile
    const auto t = Clock::now();
    auto r = up.Post(url->base_path + "/api/v1/profiles", auth, body, "application/json");
    up_ms.push_back(ms_since(t));
    if (!r || r->status != 201) ++failures;
    if (i == 0) std::printf("  upload body: %zu bytes\n", body.size());
  }
  if (!up_ms.empty())
    report("upload (POST, new, 201)", up_ms, std::max(1e-9, std::accumulate(up_ms.begin(), up_ms.end(), 0.0) / 1000));
  std::printf("registry_load: %d failed requests\n", failures.load());
  return failures == 0 ? 0 : 1;
}
