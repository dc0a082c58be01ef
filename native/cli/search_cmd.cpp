#include "search_cmd.h"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <sstream>

#include "cli_io.h"
#include "llmc/format.h"
#include "llmc/search.h"

namespace llmc::cli {
namespace {

bool parse_int(const std::string& s, int64_t& v) {
  if (s.empty() || s.size() > 12) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  v = std::stoll(s);
  return true;
}

// "N", "MIN:MAX" or "MIN:MAX:STEP".
Status parse_gpus(const std::string& text, SearchSpec& spec) {
  std::vector<std::string> parts;
  std::stringstream ss(text);
  for (std::string p; std::getline(ss, p, ':');) parts.push_back(p);
  int64_t v[3] = {0, 0, 1};
  if (parts.empty() || parts.size() > 3)
    return make_error("--gpus", "expects N, MIN:MAX or MIN:MAX:STEP; got '" + text + "'");
  for (size_t i = 0; i < parts.size(); ++i)
    if (!parse_int(parts[i], v[i]))
      return make_error("--gpus", "expects whole numbers (N, MIN:MAX or MIN:MAX:STEP); got '" + text + "'");
  spec.gpus_min = v[0];
  spec.gpus_max = parts.size() == 1 ? v[0] : v[1];
  spec.gpus_step = parts.size() == 3 ? v[2] : 1;
  return ok_status();
}

Status apply_fixed(const std::string& list, SearchSpec& spec) {
  std::stringstream ss(list);
  for (std::string d; std::getline(ss, d, ',');) {
    if (d == "tp")
      spec.vary_tp = false;
    else if (d == "pp")
      spec.vary_pp = false;
    else if (d == "cp")
      spec.vary_cp = false;
    else if (d == "ep")
      spec.vary_ep = false;
    else if (d == "v" || d == "virtual_stages")
      spec.vary_virtual_stages = false;
    else if (d == "micro_batch" || d == "b")
      spec.vary_micro_batch = false;
    else if (d == "recompute")
      spec.vary_recompute = false;
    else if (d == "zero" || d == "zero_stage")
      spec.vary_zero = false;
    else if (!d.empty())
      return make_error("--fix",
                        "expects dimensions among tp, pp, cp, ep, v, micro_batch, recompute, zero; got '" + d + "'");
  }
  return ok_status();
}

void print_table(const SearchSpec& spec, const SearchResult& r, std::ostream& out) {
  char buf[320];
  out << "Top layouts by " << to_string(spec.objective) << ":\n";
  std::snprintf(buf, sizeof buf, "%3s %6s %4s %4s %5s %4s %4s %3s %5s %4s %-12s %4s %11s %9s %10s %10s %10s %10s\n",
                "#", "GPUs", "tp", "pp", "dp", "cp", "ep", "v", "mbs", "m", "recompute", "ZeRO", "step", "bubble",
                "exp. comm", "cost", "total", "mem/GPU");
  out << buf;
  int i = 0;
  for (const SearchLayout& l : r.top) {
    std::snprintf(buf, sizeof buf,
                  "%3d %6lld %4lld %4lld %5lld %4lld %4lld %3lld %5lld %4lld %-12s %4d %11s %9s %10s %10s %10s %10s\n",
                  ++i, (long long)l.gpus, (long long)l.tp, (long long)l.pp, (long long)l.dp, (long long)l.cp,
                  (long long)l.ep, (long long)l.virtual_stages, (long long)l.micro_batch, (long long)l.micro_batches,
                  to_string(l.recompute), l.zero_stage, format_duration(l.step_s).c_str(),
                  format_duration(l.bubble_s).c_str(), format_duration(l.comm_exposed_s).c_str(),
                  format_usd(l.cost_usd).c_str(), format_quantity(l.total_days, "days").c_str(),
                  format_bytes(l.memory_bytes).c_str());
    out << buf;
  }
  out << "\nWhy the best wins:\n";
  for (const std::string& w : r.why) out << "  " << w << "\n";
  if (r.pruning_disabled) out << "  (the step-time lower bound failed its check, so every layout was timed)\n";
  out << "\nPareto front (total time, GPUs, cost; fastest layout per GPU count):\n";
  for (const ParetoPoint& p : r.pareto) {
    std::snprintf(buf, sizeof buf, "  %6lld GPUs  %11s  %9s  step %-10s %s%s\n", (long long)p.gpus,
                  format_quantity(p.total_days, "days").c_str(), format_usd(p.cost_usd).c_str(),
                  format_duration(p.step_s).c_str(), describe_layout(p.layout).c_str(),
                  p.meets_constraints ? "" : "  (misses the deadline/budget)");
    out << buf;
  }
}

}  // namespace

void add_search_options(CLI::App* cmd, SearchArgs& a) {
  cmd->add_option("--gpus", a.gpus, "GPU count N, or a range MIN:MAX[:STEP] (default: hardware.gpu_count)");
  cmd->add_option("--deadline-days", a.deadline_days,
                  "only layouts that finish the training tokens within this many days");
  cmd->add_option("--budget-usd", a.budget_usd, "only layouts whose run costs at most this");
  cmd->add_option("--objective", a.objective, "step_time (default) | cost | gpus (fewest GPUs for --deadline-days)");
  cmd->add_option("--top", a.top, "how many layouts to list (default 10)");
  cmd->add_option("--max-virtual-stages", a.max_virtual_stages, "largest interleaving depth tried (default 8)");
  cmd->add_option("--max-tp", a.max_tp, "largest tensor-parallel size tried (default: no limit)");
  cmd->add_option(
      "--fix", a.fixed,
      "dimensions to keep at the scenario's value, comma-separated: tp,pp,cp,ep,v,micro_batch,recompute,zero");
  cmd->add_flag("--json", a.json, "JSON output (docs/search.md)");
}

int cmd_search(const Result<Scenario>& scenario, const SearchArgs& a, std::ostream& out, std::ostream& err) {
  if (!scenario) return fail(err, scenario.error());
  SearchSpec spec;
  spec.base = *scenario;
  if (!a.gpus.empty())
    if (Status st = parse_gpus(a.gpus, spec); !st) return fail(err, st.error());
  if (!parse_search_objective(a.objective, spec.objective))
    return fail(err, make_error("--objective", "expects step_time, cost or gpus; got '" + a.objective + "'"));
  if (Status st = apply_fixed(a.fixed, spec); !st) return fail(err, st.error());
  spec.deadline_days = a.deadline_days;
  spec.budget_usd = a.budget_usd;
  spec.top_n = a.top;
  spec.max_virtual_stages = a.max_virtual_stages;
  spec.max_tp = a.max_tp;
  Result<SearchResult> r = search_layouts(spec);
  if (!r) return fail(err, r.error());
  if (a.json)
    out << search_to_json(spec, *r) << "\n";
  else
    print_table(spec, *r, out);
  return 0;
}

}  // namespace llmc::cli
