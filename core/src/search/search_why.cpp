// "Why the best wins": the best layout against the runner-up, term by term (compute, pipeline
// bubble, exposed communication, memory headroom), and what differs between them.
#include <cmath>
#include <cstdio>

#include "llmc/error_bars.h"
#include "llmc/search.h"

namespace llmc {

std::string describe_layout(const SearchLayout& l) {
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "tp %lld · pp %lld · dp %lld · cp %lld · ep %lld · v %lld · micro-batch %lld (%lld per step) · "
                "recompute %s · ZeRO %d · %s",
                (long long)l.tp, (long long)l.pp, (long long)l.dp, (long long)l.cp, (long long)l.ep,
                (long long)l.virtual_stages, (long long)l.micro_batch, (long long)l.micro_batches,
                to_string(l.recompute), l.zero_stage, to_string(l.schedule));
  return buf;
}

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

std::string fmt(const char* f, double a) {
  char buf[96];
  std::snprintf(buf, sizeof buf, f, a);
  return buf;
}

std::string seconds(double s) { return std::fabs(s) < 1 ? fmt("%.1f ms", s * 1e3) : fmt("%.3f s", s); }
std::string signed_seconds(double s) { return (s >= 0 ? "+" : "−") + seconds(std::fabs(s)); }

std::string differences(const SearchLayout& a, const SearchLayout& b) {
  std::string out;
  auto add = [&](const char* name, long long x, long long y) {
    if (x == y) return;
    if (!out.empty()) out += ", ";
    out += std::string(name) + " " + std::to_string(x) + " → " + std::to_string(y);
  };
  add("GPUs", a.gpus, b.gpus);
  add("tp", a.tp, b.tp);
  add("pp", a.pp, b.pp);
  add("dp", a.dp, b.dp);
  add("cp", a.cp, b.cp);
  add("ep", a.ep, b.ep);
  add("v", a.virtual_stages, b.virtual_stages);
  add("micro-batch", a.micro_batch, b.micro_batch);
  if (a.recompute != b.recompute)
    out +=
        std::string(out.empty() ? "" : ", ") + "recompute " + to_string(a.recompute) + " → " + to_string(b.recompute);
  add("ZeRO", a.zero_stage, b.zero_stage);
  return out.empty() ? "nothing in the layout" : out;
}

}  // namespace

std::vector<std::string> explain_best(const SearchResult& r, SearchObjective objective) {
  std::vector<std::string> why;
  if (r.top.empty()) return why;
  const SearchLayout& best = r.top[0];
  why.push_back("Best: " + describe_layout(best) + " on " + std::to_string(best.gpus) + " GPUs: step " +
                seconds(best.step_s) + " = compute " + seconds(best.compute_s) + " + bubble " + seconds(best.bubble_s) +
                " + exposed comm " + seconds(best.comm_exposed_s) + "; memory " +
                fmt("%.1f", best.memory_bytes / kGiB) + " of " + fmt("%.1f GiB", best.capacity_bytes / kGiB) + ".");
  const SearchCounts& c = r.counts;
  why.push_back("Searched " + std::to_string(c.candidates) + " candidates: " + std::to_string(c.valid) + " divide, " +
                std::to_string(c.valid - c.does_not_fit) + " fit, " + std::to_string(c.evaluated) + " timed, " +
                std::to_string(c.pruned_by_bound) + " skipped by the lower bound (they cannot beat the kept layouts).");
  if (r.top.size() < 2) {
    why.push_back("It is the only layout that fits and meets the constraints.");
    return why;
  }
  // The runner-up: the first listed layout that differs in step time (ties such as recompute
  // modes that change nothing here say little); the second listed if all tie.
  size_t k = 1;
  while (k < r.top.size() && r.top[k].step_s == best.step_s) ++k;
  if (k > 1)
    why.push_back(std::to_string(k - 1) +
                  " listed layout(s) tie with the best on step time; it is listed first as the simpler layout.");
  const SearchLayout& next = r.top[k < r.top.size() ? k : 1];
  why.push_back("Runner-up: " + describe_layout(next) + " (differs in " + differences(best, next) + ").");
  const double d_step = next.step_s - best.step_s;
  if (objective == SearchObjective::cost)
    why.push_back("The best costs " + fmt("%.6g USD", next.cost_usd - best.cost_usd) + " less over the run.");
  else if (objective == SearchObjective::gpus && next.gpus != best.gpus)
    why.push_back("The best meets the deadline with " + std::to_string(next.gpus - best.gpus) + " fewer GPUs.");
  if (d_step == 0) {
    why.push_back(
        "They tie on step time; the best is listed first as the simpler layout (fewer GPUs, then smaller tp, pp, cp, "
        "ep, v, micro-batch, recompute, ZeRO).");
  } else {
    why.push_back("Runner-up step " + signed_seconds(d_step) + fmt(" (%+.2f%%)", 100 * d_step / best.step_s) +
                  ": compute " + signed_seconds(next.compute_s - best.compute_s) + ", bubble " +
                  signed_seconds(next.bubble_s - best.bubble_s) + ", exposed comm " +
                  signed_seconds(next.comm_exposed_s - best.comm_exposed_s) + ".");
  }
  why.push_back("Memory headroom: best " + fmt("%.1f GiB", best.headroom_bytes / kGiB) + ", runner-up " +
                fmt("%.1f GiB", next.headroom_bytes / kGiB) + ".");
  // The model's own error: layouts whose step falls inside the best's 68 % range are not ranked
  // apart by it (its out-of-sample error on published runs, llmc/error_bars.h).
  int within = 0;
  for (size_t i = 1; i < r.top.size(); ++i) within += r.top[i].step_s <= best.step_high_s ? 1 : 0;
  if (within > 0 && best.step_high_s > best.step_s)
    why.push_back(std::to_string(within) + " of the other listed layouts fall inside the best's 68 % range (step " +
                  seconds(best.step_low_s) + " to " + seconds(best.step_high_s) +
                  ", the model's out-of-sample error on published runs of this kind): the model cannot rank them "
                  "apart; measure before choosing among them.");
  // A winner of a kind llmcalc has few published runs of may win on a mechanism it models badly.
  if (!best.regime_validated) {
    int validated = 0;
    for (const SearchLayout& l : r.top) validated += l.regime_validated ? 1 : 0;
    why.push_back("The best layout is of a kind with fewer than " + std::to_string(kMinRegimeRows) +
                  " validated published runs (" + best.regime +
                  "), so its lead may rest on a mechanism the model "
                  "has not been checked on; its range is borrowed from " +
                  error_bar(best.regime).regime + " runs. " +
                  (validated > 0 ? std::to_string(validated) + " of the listed layouts are of validated kinds."
                                 : std::string("None of the listed layouts is of a validated kind.")));
  }
  return why;
}

}  // namespace llmc
