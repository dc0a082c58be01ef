// search_layouts(): enumerate, filter, bound, rank (docs/search.md).
// Pass 1 walks the whole space: resolve()'s rules (apply_layout), then memory (cheap), then the
// lower bound on step time. Pass 2 times the layouts that fit in order of their bound and skips a
// layout only when its bound can beat neither the kept top-N nor the fastest layout found so far
// at its GPU count (the Pareto front needs that one). Only the top-N get a full estimate().
#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <optional>

#include "estimate/estimate_parts.h"
#include "estimate/layer_plan.h"
#include "estimate/memory.h"
#include "inputs/pipeline_split.h"
#include "estimate/placement.h"
#include "llmc/error_bars.h"
#include "llmc/search.h"
#include "search/search_internal.h"

namespace llmc {

// search_why.cpp
std::vector<std::string> explain_best(const SearchResult& r, SearchObjective objective);

namespace {

using detail::Layout;

// Slack for comparing a bound with a kept value: a bound equal to a kept figure up to rounding
// must not prune (the candidate may tie and win the tie-break).
constexpr double kSlack = 1e-12;

std::vector<int64_t> divisors(int64_t n) {
  std::vector<int64_t> lo, hi;
  for (int64_t d = 1; d * d <= n; ++d) {
    if (n % d) continue;
    lo.push_back(d);
    if (d != n / d) hi.push_back(n / d);
  }
  lo.insert(lo.end(), hi.rbegin(), hi.rend());
  return lo;
}

// A layout's time and memory figures, from the search's own timing or a full estimate().
void set_figures(SearchLayout& s, const TimeEstimate& t, const MemoryPerGpu& m) {
  s.step_s = t.step_s;
  s.compute_s = t.compute_s;
  s.bubble_s = t.bubble_s;
  s.comm_exposed_s = t.comm_exposed_s;
  s.total_days = t.total_days;
  s.cost_usd = t.cost_usd;
  s.mfu = t.mfu;
  s.memory_bytes = m.total_bytes;
  s.capacity_bytes = m.capacity_bytes;
  s.headroom_bytes = m.headroom_bytes;
}

// A layout that fits, with what pass 1 learnt about it.
struct Candidate {
  Layout l;
  double key1 = 0, key2 = 0;  // bound on the objective key (primary, secondary)
  double bound_step = 0;
  detail::HeldParams held;
  MemoryPerGpu mem;
};

struct Timed {
  Layout l;
  double key1 = 0, key2 = 0;
  SearchLayout s;
};

// Total order: the objective key, then the simpler layout (fewer GPUs, smaller tp, pp, ...).
bool layout_less(const Layout& a, const Layout& b) {
  auto t = [](const Layout& x) {
    return std::make_tuple(x.gpus, x.tp, x.pp, x.cp, x.ep, x.v, x.b, int(x.rec), x.zero);
  };
  return t(a) < t(b);
}
bool ranks_before(double a1, double a2, const Layout& a, double b1, double b2, const Layout& b) {
  if (a1 != b1) return a1 < b1;
  if (a2 != b2) return a2 < b2;
  return layout_less(a, b);
}

class Searcher {
 public:
  Searcher(const SearchSpec& spec, Resolved base, detail::LayoutBase lb, ParamCounts p, double tokens)
      : spec_(spec), work_(std::move(base)), lb_(lb), params_(p), tokens_(tokens) {
    const HardwareSpec& hw = work_.s.hardware;
    price_ = hw.price_per_gpu_hour_usd.value_or(hw.gpu.price_per_gpu_hour_usd);
    steps_ = tokens_ / work_.s.training.global_batch_tokens;
  }

  Status run(SearchResult& out, bool prune);

 private:
  const FlopCounts& flops_for(Recompute rec, int64_t layers_per_stage);
  // The objective key of a layout with step time `step` on `gpus` GPUs.
  // The cost is passed in: for timed layouts it is the time model's own figure (as estimate() gives it).
  std::pair<double, double> key(double step, double cost, int64_t gpus) const {
    switch (spec_.objective) {
      case SearchObjective::step_time:
        return {step, double(gpus)};
      case SearchObjective::cost:
        return {cost, step};
      case SearchObjective::gpus:
        return {double(gpus), step};
    }
    return {step, 0};
  }
  double cost_per_step_second(int64_t gpus) const { return steps_ * double(gpus) / 3600 * price_; }
  bool may_meet_constraints(double step, int64_t gpus) const {
    if (spec_.deadline_days > 0 && steps_ * step / 86400 > spec_.deadline_days * (1 + kSlack)) return false;
    if (spec_.budget_usd > 0 && step * cost_per_step_second(gpus) > spec_.budget_usd * (1 + kSlack)) return false;
    return true;
  }
  void enumerate(int64_t gpus, std::vector<Candidate>& fits, SearchCounts& c, double& closest_overflow,
                 Layout& closest);
  SearchLayout time_layout(const Candidate& c, bool& bound_ok);

  const SearchSpec& spec_;
  Resolved work_;
  detail::LayoutBase lb_;
  ParamCounts params_;
  double tokens_ = 0, price_ = 0, steps_ = 0;
  std::map<std::pair<int, int64_t>, FlopCounts> flops_;
  std::vector<std::string> warnings_;
  std::unique_ptr<detail::StepPlan> plan_ = std::make_unique<detail::StepPlan>();  // the layout being read
};

const FlopCounts& Searcher::flops_for(Recompute rec, int64_t layers_per_stage) {
  // FLOPs depend on the layout only through recompute (and partial recompute's layers per stage).
  const auto k = std::make_pair(int(rec), work_.s.training.recompute_layers > 0 ? layers_per_stage : 0);
  auto it = flops_.find(k);
  if (it == flops_.end()) {
    detail::build_step_plan(*plan_, work_, params_, detail::PlanShape{work_.s.training.micro_batch, 1, false});
    it = flops_.emplace(k, detail::count_flops(work_, params_, *plan_, tokens_, nullptr)).first;
  }
  return it->second;
}

void Searcher::enumerate(int64_t gpus, std::vector<Candidate>& fits, SearchCounts& c, double& closest_overflow,
                         Layout& closest) {
  const Resolved& r0 = work_;
  const ModelSpec& m = r0.m;
  auto values = [](bool vary, std::vector<int64_t> all, int64_t base) {
    return vary ? all : std::vector<int64_t>{base};
  };
  const ParallelSpec& bp = spec_.base.parallel;
  const TrainingSpec& bt = spec_.base.training;
  const std::vector<int64_t> eps =
      values(spec_.vary_ep && m.is_moe(), m.is_moe() ? divisors(m.experts) : std::vector<int64_t>{1}, bp.ep);
  std::vector<int64_t> vs;
  for (int64_t v = 1; v <= std::max<int64_t>(1, spec_.max_virtual_stages); ++v) vs.push_back(v);
  vs = values(spec_.vary_virtual_stages, vs, bp.virtual_stages);
  const std::vector<int64_t> bs = values(spec_.vary_micro_batch, divisors(lb_.global_batch_seqs), bt.micro_batch);
  const std::vector<Recompute> recs =
      spec_.vary_recompute ? std::vector<Recompute>{Recompute::none, Recompute::selective, Recompute::full}
                           : std::vector<Recompute>{bt.recompute};
  const std::vector<int> zeros = spec_.vary_zero ? std::vector<int>{0, 1, 2, 3} : std::vector<int>{bt.zero_stage};
  const int64_t inner = int64_t(eps.size() * vs.size() * bs.size() * recs.size() * zeros.size());

  std::vector<int64_t> tps = values(spec_.vary_tp, divisors(gpus), bp.tp);
  if (spec_.max_tp > 0)
    tps.erase(std::remove_if(tps.begin(), tps.end(), [&](int64_t t) { return t > spec_.max_tp; }), tps.end());
  for (int64_t tp : tps) {
    const std::vector<int64_t> cps =
        values(spec_.vary_cp, gpus % tp ? std::vector<int64_t>{} : divisors(gpus / tp), bp.cp);
    for (int64_t cp : cps) {
      const int64_t rest = gpus % (tp * cp) ? 0 : gpus / (tp * cp);
      const std::vector<int64_t> pps = values(spec_.vary_pp, rest ? divisors(rest) : std::vector<int64_t>{}, bp.pp);
      for (int64_t pp : pps) {
        c.candidates += inner;
        // Rules that reject every inner combination at once (the full set is in apply_layout).
        const bool shape_ok = !m.has_shape() || (m.heads % tp == 0 && m.kv_heads % tp == 0 && m.ffn_hidden % tp == 0 &&
                                                 m.layers >= detail::fewest_layers(pp, 1) &&
                                                 (cp == 1 || r0.s.training.seq_len % (2 * cp) == 0));
        if (!shape_ok || gpus % (tp * pp * cp) != 0) {
          c.invalid += inner;
          continue;
        }
        for (int64_t ep : eps)
          for (int64_t v : vs)
            for (int64_t b : bs)
              for (Recompute rec : recs) {
                // Kept activations do not depend on the ZeRO stage (the plan does not read it;
                // tests/test_layer_plan.cpp): one plan for the four stages.
                std::optional<detail::LayerActivations> act;
                for (int zero : zeros) {
                  Layout l{gpus, tp, pp, cp, ep, v, b, rec, zero, spec_.vary_recompute ? 0 : bt.recompute_layers};
                  if (!detail::apply_layout(work_, lb_, l)) {
                    ++c.invalid;
                    continue;
                  }
                  ++c.valid;
                  Candidate cand;
                  cand.l = l;
                  int64_t peak_stage = 0;
                  if (!act) act = detail::layer_activations(work_, params_, b);
                  cand.mem = detail::memory_per_gpu(work_, params_, *act, nullptr, &peak_stage);
                  if (cand.mem.headroom_bytes < 0) {
                    ++c.does_not_fit;
                    const double over = -cand.mem.headroom_bytes;
                    if (over < closest_overflow) {
                      closest_overflow = over;
                      closest = l;
                    }
                    continue;
                  }
                  const detail::StageParams held = detail::stage_params(work_, params_, peak_stage);
                  cand.held = {held.all(), held.linear};
                  cand.bound_step = detail::step_time_lower_bound(work_, flops_for(rec, work_.layers_per_stage));
                  std::tie(cand.key1, cand.key2) =
                      key(cand.bound_step, cand.bound_step * cost_per_step_second(gpus), gpus);
                  fits.push_back(cand);
                }
              }
      }
    }
  }
}

SearchLayout Searcher::time_layout(const Candidate& c, bool& bound_ok) {
  detail::apply_layout(work_, lb_, c.l);
  const FlopCounts& f = flops_for(c.l.rec, work_.layers_per_stage);
  warnings_.clear();
  detail::build_step_plan(*plan_, work_, params_, detail::plan_shape(work_));
  const TimeEstimate te = detail::step_time(work_, params_, *plan_, c.held, f, tokens_, nullptr, warnings_);
  bound_ok = !(te.step_s < c.bound_step * (1 - 1e-9));
  SearchLayout s;
  s.gpus = c.l.gpus;
  s.tp = c.l.tp;
  s.pp = c.l.pp;
  s.dp = work_.s.parallel.dp;
  s.cp = c.l.cp;
  s.ep = c.l.ep;
  s.virtual_stages = c.l.v;
  s.micro_batch = c.l.b;
  s.micro_batches = work_.micro_batches;
  s.global_batch_seqs = lb_.global_batch_seqs;
  s.recompute_layers = c.l.recompute_layers;
  s.recompute = c.l.rec;
  s.zero_stage = c.l.zero;
  s.schedule = work_.s.parallel.schedule;
  set_figures(s, te, c.mem);
  return s;
}

std::string layout_text(const Layout& l) {
  return "tp " + std::to_string(l.tp) + ", pp " + std::to_string(l.pp) + ", cp " + std::to_string(l.cp) + ", ep " +
         std::to_string(l.ep) + ", micro-batch " + std::to_string(l.b);
}

Status Searcher::run(SearchResult& out, bool prune) {
  out = SearchResult{};
  std::vector<Candidate> fits;
  double closest_overflow = INFINITY;
  Layout closest;
  const int64_t lo = spec_.gpus_min, hi = spec_.gpus_max, step = std::max<int64_t>(1, spec_.gpus_step);
  for (int64_t n = lo; n <= hi; n += step) enumerate(n, fits, out.counts, closest_overflow, closest);
  if (fits.empty()) {
    if (out.counts.valid == 0)
      return make_error("search", "no layout divides: " + std::to_string(out.counts.candidates) +
                                      " candidates, none passes the divisibility rules (heads, layers, sequence, "
                                      "experts, global batch); check the GPU count and training.global_batch_seqs");
    char buf[200];
    std::snprintf(buf, sizeof buf,
                  "no layout fits in GPU memory: all %lld valid layouts are over; the closest (%s, %lld GPUs) needs "
                  "%.1f GiB more per GPU",
                  (long long)out.counts.valid, layout_text(closest).c_str(), (long long)closest.gpus,
                  closest_overflow / (1024.0 * 1024.0 * 1024.0));
    return make_error("search", buf);
  }
  // Best first by bound: the first layouts timed set the thresholds that prune the rest.
  std::sort(fits.begin(), fits.end(), [](const Candidate& a, const Candidate& b) {
    return ranks_before(a.key1, a.key2, a.l, b.key1, b.key2, b.l);
  });

  const size_t top_n = size_t(std::max(1, spec_.top_n));
  std::vector<Timed> top;            // sorted, at most top_n, meeting the constraints
  std::map<int64_t, Timed> best_at;  // fastest layout per GPU count (Pareto front)
  double min_days = INFINITY, min_cost = INFINITY;
  for (const Candidate& c : fits) {
    const bool can_be_front = [&] {
      auto it = best_at.find(c.l.gpus);
      return it == best_at.end() || c.bound_step <= it->second.s.step_s * (1 + kSlack);
    }();
    const bool can_be_top = may_meet_constraints(c.bound_step, c.l.gpus) &&
                            (top.size() < top_n || ranks_before(c.key1 * (1 - kSlack), c.key2 * (1 - kSlack), c.l,
                                                                top.back().key1, top.back().key2, top.back().l));
    if (prune && !can_be_front && !can_be_top) {
      ++out.counts.pruned_by_bound;
      continue;
    }
    bool bound_ok = true;
    Timed t;
    t.l = c.l;
    t.s = time_layout(c, bound_ok);
    ++out.counts.evaluated;
    if (prune && !bound_ok)
      return make_error("search.bound", "the step-time lower bound exceeds the time model's step time");
    std::tie(t.key1, t.key2) = key(t.s.step_s, t.s.cost_usd, c.l.gpus);
    min_days = std::min(min_days, t.s.total_days);
    min_cost = std::min(min_cost, t.s.cost_usd);
    auto it = best_at.find(c.l.gpus);
    if (it == best_at.end() || ranks_before(t.s.step_s, 0, t.l, it->second.s.step_s, 0, it->second.l))
      best_at[c.l.gpus] = t;
    const bool meets = (spec_.deadline_days <= 0 || t.s.total_days <= spec_.deadline_days) &&
                       (spec_.budget_usd <= 0 || t.s.cost_usd <= spec_.budget_usd);
    if (!meets) {
      ++out.counts.misses_constraint;
      continue;
    }
    auto pos = std::upper_bound(top.begin(), top.end(), t, [](const Timed& a, const Timed& b) {
      return ranks_before(a.key1, a.key2, a.l, b.key1, b.key2, b.l);
    });
    if (pos - top.begin() < std::ptrdiff_t(top_n)) {
      top.insert(pos, t);
      if (top.size() > top_n) top.pop_back();
    }
  }
  if (top.empty()) {
    char buf[240];
    if (spec_.deadline_days > 0 && min_days > spec_.deadline_days)
      std::snprintf(buf, sizeof buf,
                    "no layout meets the deadline of %g days: the fastest layout that fits takes %.3g days",
                    spec_.deadline_days, min_days);
    else
      std::snprintf(buf, sizeof buf,
                    "no layout meets the budget of %.6g USD: the cheapest layout that fits costs %.6g USD",
                    spec_.budget_usd, min_cost);
    return make_error(spec_.deadline_days > 0 && min_days > spec_.deadline_days ? "deadline_days" : "budget_usd", buf);
  }
  for (const Timed& t : top) out.top.push_back(t.s);

  // Pareto front over (total time, GPUs, cost) from the fastest layout of each GPU count (at one
  // count cost is proportional to time, so nothing slower there can be on the front).
  std::vector<ParetoPoint> pts;
  for (const auto& [gpus, t] : best_at) {
    ParetoPoint p;
    p.gpus = gpus;
    p.step_s = t.s.step_s;
    p.total_days = t.s.total_days;
    p.cost_usd = t.s.cost_usd;
    p.meets_constraints = (spec_.deadline_days <= 0 || t.s.total_days <= spec_.deadline_days) &&
                          (spec_.budget_usd <= 0 || t.s.cost_usd <= spec_.budget_usd);
    p.layout = t.s;
    pts.push_back(p);
  }
  for (const ParetoPoint& a : pts) {
    bool dominated = false;
    for (const ParetoPoint& b : pts) {
      const bool no_worse = b.total_days <= a.total_days && b.gpus <= a.gpus && b.cost_usd <= a.cost_usd;
      const bool better = b.total_days < a.total_days || b.gpus < a.gpus || b.cost_usd < a.cost_usd;
      if (no_worse && better) dominated = true;
    }
    if (!dominated) out.pareto.push_back(a);
  }
  return ok_status();
}

}  // namespace

Result<SearchResult> search_layouts(const SearchSpec& in) {
  SearchSpec spec = in;
  if (Status st = detail::check_search_spec(spec); !st) return st.error();
  const TrainingSpec& bt = spec.base.training;

  // Resolve the base once with a neutral layout (1 GPU), keeping what the layout does not change.
  Scenario neutral = spec.base;
  neutral.parallel = ParallelSpec{};
  neutral.parallel.dp = 1;
  neutral.parallel.dp_overlap = spec.base.parallel.dp_overlap;
  neutral.parallel.param_gather_overlap = spec.base.parallel.param_gather_overlap;
  neutral.parallel.tp_overlap = spec.base.parallel.tp_overlap;
  neutral.parallel.tp_overlap_method = spec.base.parallel.tp_overlap_method;
  neutral.parallel.cp_overlap = spec.base.parallel.cp_overlap;
  neutral.parallel.pp_overlap = spec.base.parallel.pp_overlap;
  neutral.parallel.ep_overlap = spec.base.parallel.ep_overlap;
  neutral.parallel.ep_dispatcher = spec.base.parallel.ep_dispatcher;
  neutral.hardware.gpu_count = 0;
  neutral.training.micro_batch = 1;
  neutral.training.zero_shard_group = 0;
  neutral.training.recompute_layers = 0;
  neutral.training.global_batch_seqs = 0;
  if (bt.global_batch_seqs > 0)
    neutral.training.global_batch_tokens = 0, neutral.training.global_batch_seqs = bt.global_batch_seqs;
  Result<Resolved> rr = resolve(neutral);
  if (!rr) return rr.error();
  Resolved base = std::move(rr).value();
  detail::LayoutBase lb;
  lb.schedule_v1 =
      spec.base.parallel.schedule == Schedule::interleaved ? Schedule::one_f_one_b : spec.base.parallel.schedule;
  lb.etp = spec.base.parallel.etp;
  lb.zero_shard_group = bt.zero_shard_group;
  lb.global_batch_seqs = base.s.training.global_batch_seqs;
  if (bt.recompute == Recompute::selective) lb.selective_modules = base.recompute_modules;
  if (!spec.vary_recompute) base.s.training.recompute_layers = bt.recompute_layers;

  const ParamCounts params = detail::count_params(base, nullptr);
  const double tokens = base.tokens_defaulted ? 20 * params.total : base.s.training.tokens;
  base.s.training.tokens = tokens;

  SearchResult out;
  Searcher searcher(spec, std::move(base), lb, params, tokens);
  Status st = searcher.run(out, spec.prune);
  if (!st && st.error().field == "search.bound") {
    st = searcher.run(out, false);  // the bound broke its contract: exact answer without it
    out.pruning_disabled = true;
  }
  if (!st) return st.error();

  // Full estimates (with the trace) for the top layouts only.
  for (SearchLayout& l : out.top) {
    Result<Estimate> e = estimate(apply_search_layout(spec.base, l));
    if (!e) return make_error("search", "a top layout does not estimate: " + e.error().text());
    set_figures(l, e->time, e->mem);
    l.step_low_s = e->time.step_low_s;  // the range only where the figures come from a full estimate
    l.step_high_s = e->time.step_high_s;
    l.regime = error_regime(e->r);
    l.regime_validated = error_bar(l.regime).regime == l.regime;
  }
  out.why = explain_best(out, spec.objective);
  return out;
}

}  // namespace llmc
