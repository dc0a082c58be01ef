#include "llmc_bench/progress.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>

namespace llmc::bench {

std::string format_duration(double s) {
  const long t = std::max(0L, std::lround(s));
  char buf[32];
  if (t >= 3600)
    std::snprintf(buf, sizeof buf, "%ldh%02ldm", t / 3600, (t % 3600) / 60);
  else if (t >= 60)
    std::snprintf(buf, sizeof buf, "%ldm%02lds", t / 60, t % 60);
  else
    std::snprintf(buf, sizeof buf, "%lds", t);
  return buf;
}

Progress::Progress(double planned_seconds, std::FILE* out)
    : planned_(std::max(planned_seconds, 1e-9)),
      start_(std::chrono::steady_clock::now()),
      out_(out),
      tty_(isatty(fileno(out)) != 0) {}

double Progress::elapsed_seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

double Progress::eta_seconds(double total, double done, double elapsed) {
  const double left = std::max(0.0, total - done);
  if (done <= 0) return left;
  return left * (elapsed / done);
}

void Progress::step(const std::string& label, double planned_step_seconds) {
  done_ += pending_;
  pending_ = planned_step_seconds;
  const double frac = std::min(1.0, done_ / planned_);
  const int width = 30, filled = int(frac * width);
  const std::string bar = std::string(std::size_t(filled), '#') + std::string(std::size_t(width - filled), '.');
  const std::string eta = format_duration(eta_seconds(planned_, done_, elapsed_seconds()));
  // On a terminal the line redraws in place; in a log every step gets its own line.
  std::fprintf(out_, "%s[%s] %3d%% %-44.44s ETA %s%s", tty_ ? "\r" : "", bar.c_str(), int(frac * 100), label.c_str(),
               eta.c_str(), tty_ ? "\x1b[K" : "\n");
  std::fflush(out_);
}

void Progress::finish() {
  done_ += pending_;
  pending_ = 0;
  std::fprintf(out_, "%s[%s] 100%% done in %s%s\n", tty_ ? "\r" : "", std::string(30, '#').c_str(),
               format_duration(elapsed_seconds()).c_str(), tty_ ? "\x1b[K" : "");
  std::fflush(out_);
}

}  // namespace llmc::bench
