// A one-line progress bar with an ETA on stderr ("[#####.....] 42% gemm bf16 4096³  ETA 1m12s").
// ETA = planned seconds still ahead, scaled by how far actual time has run over or under plan.
#pragma once
#include <chrono>
#include <cstdio>
#include <string>

namespace llmc::bench {

std::string format_duration(double seconds);  // "1m12s", "45s", "1h03m"

class Progress {
 public:
  Progress(double planned_seconds, std::FILE* out = stderr);
  // Called before a step whose planned share is `planned_step_seconds`; prints the bar.
  void step(const std::string& label, double planned_step_seconds);
  void finish();
  double elapsed_seconds() const;
  // Pure ETA rule, exposed for tests: remaining plan scaled by elapsed/done-plan (when done > 0).
  static double eta_seconds(double planned_total, double planned_done, double elapsed);

 private:
  double planned_, done_ = 0, pending_ = 0;
  std::chrono::steady_clock::time_point start_;
  std::FILE* out_;
  bool tty_;
};

}  // namespace llmc::bench
