// "Calibrate this GPU": llmcalc-bench as a child process, its output read on a thread, its
// progress line parsed for the window (no SDL, no ImGui here; tested in tests/test_jobs.cpp).
#pragma once
#include <sys/types.h>

#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace llmc::desktop {

struct BenchProgress {
  int percent = 0;    // 0..100
  std::string label;  // what is being measured ("gemm bf16 4096x4096x4096 grid square")
  std::string eta;    // "1m12s"
};

// One line of the bench's progress bar (gpu/host/src/progress.cpp writes, to a pipe, one line per
// step): "[#####.........................]  16% gemm bf16 ... ETA 1m12s", or the final
// "[##############################] 100% done in 2m03s". Nothing for other lines.
std::optional<BenchProgress> parse_bench_progress(const std::string& line);

// Where llmcalc-bench is: `explicit_path` when given (--bench), else next to this program
// (`program_dir`/llmcalc-bench, the installed layout). "" when there is none.
std::string find_bench(const std::string& explicit_path, const std::string& program_dir);

class BenchJob {
 public:
  BenchJob() = default;
  ~BenchJob();  // cancels a running child and waits for it
  BenchJob(const BenchJob&) = delete;
  BenchJob& operator=(const BenchJob&) = delete;

  // Starts `program args...` with stdout and stderr on one pipe. False (and `error`) when it
  // cannot be started or a run is still going.
  bool start(const std::string& program, const std::vector<std::string>& args, std::string& error);
  // Sends SIGTERM to the child this job started.
  void cancel();

  struct State {
    bool started = false, running = false;
    int exit_code = -1;  // when finished: the bench's exit status (128 + N for signal N)
    BenchProgress progress;
    std::vector<std::string> tail;  // the last output lines that are not progress lines
  };
  State state() const;

 private:
  void read_output(int fd);
  mutable std::mutex mutex_;
  State state_;
  pid_t pid_ = -1;
  std::thread reader_;
};

}  // namespace llmc::desktop
