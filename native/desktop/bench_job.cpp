#include "bench_job.h"

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>

extern char** environ;

namespace llmc::desktop {

namespace {
constexpr size_t kTailLines = 12;
}

std::optional<BenchProgress> parse_bench_progress(const std::string& line) {
  // "[" + 30 of '#'/'.' + "] " + "%3d%% " + label + " ETA " + eta
  if (line.size() < 38 || line[0] != '[' || line[31] != ']') return std::nullopt;
  for (size_t i = 1; i < 31; ++i)
    if (line[i] != '#' && line[i] != '.') return std::nullopt;
  const size_t pct = line.find('%', 32);
  if (pct == std::string::npos) return std::nullopt;
  BenchProgress p;
  try {
    p.percent = std::stoi(line.substr(32, pct - 32));
  } catch (...) {
    return std::nullopt;
  }
  if (p.percent < 0 || p.percent > 100) return std::nullopt;
  std::string rest = line.substr(pct + 1);
  const size_t eta = rest.rfind(" ETA ");
  if (eta != std::string::npos) {
    p.eta = rest.substr(eta + 5);
    rest.resize(eta);
  }
  const size_t b = rest.find_first_not_of(' '), e = rest.find_last_not_of(' ');
  p.label = b == std::string::npos ? "" : rest.substr(b, e - b + 1);
  return p;
}

std::string find_bench(const std::string& explicit_path, const std::string& program_dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!explicit_path.empty()) return ::access(explicit_path.c_str(), X_OK) == 0 ? explicit_path : "";
  if (program_dir.empty()) return "";
  const fs::path beside = fs::path(program_dir) / "llmcalc-bench";
  return fs::is_regular_file(beside, ec) && ::access(beside.c_str(), X_OK) == 0 ? beside.string() : "";
}

BenchJob::~BenchJob() {
  cancel();
  if (reader_.joinable()) reader_.join();
}

bool BenchJob::start(const std::string& program, const std::vector<std::string>& args, std::string& error) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (state_.running) {
      error = "a calibration is already running";
      return false;
    }
  }
  if (reader_.joinable()) reader_.join();
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    error = std::string("cannot create a pipe: ") + std::strerror(errno);
    return false;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDERR_FILENO);
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(program.c_str()));
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = -1;
  const int rc = posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[1]);
  if (rc != 0) {
    ::close(fds[0]);
    error = "cannot start " + program + ": " + std::strerror(rc);
    return false;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    state_ = State{};
    state_.started = state_.running = true;
    pid_ = pid;
  }
  reader_ = std::thread([this, fd = fds[0]] { read_output(fd); });
  return true;
}

void BenchJob::read_output(int fd) {
  std::string pending;
  char buf[4096];
  auto take_line = [this](std::string line) {
    if (line.empty()) return;
    std::lock_guard<std::mutex> lock(mutex_);
    if (auto p = parse_bench_progress(line)) {
      state_.progress = *p;
      return;
    }
    state_.tail.push_back(std::move(line));
    if (state_.tail.size() > kTailLines) state_.tail.erase(state_.tail.begin());
  };
  ssize_t n;
  while ((n = ::read(fd, buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR)) {
    if (n < 0) continue;
    pending.append(buf, size_t(n));
    size_t cut;
    // '\r' too: on a terminal the bench redraws its bar in place.
    while ((cut = pending.find_first_of("\r\n")) != std::string::npos) {
      take_line(pending.substr(0, cut));
      pending.erase(0, cut + 1);
    }
  }
  take_line(pending);
  ::close(fd);
  int status = 0;
  pid_t pid;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    pid = pid_;
  }
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  std::lock_guard<std::mutex> lock(mutex_);
  state_.running = false;
  state_.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  pid_ = -1;
}

void BenchJob::cancel() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (state_.running && pid_ > 0) ::kill(pid_, SIGTERM);  // the child this job started, by its id
}

BenchJob::State BenchJob::state() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return state_;
}

}  // namespace llmc::desktop
