// Layout search (core/src/search*.cpp) against brute force: every candidate of the same space
// estimated with the full estimate(), ranked with the same order. Pruning must not change answers.
#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "llmc/error_bars.h"
#include "llmc/search.h"
#include "test_util.h"

using namespace llmc;
using namespace llmc::test;

namespace {

struct Brute {
  int64_t candidates = 0, valid = 0, fits = 0;
  std::vector<SearchLayout> ranked;            // meeting the constraints, best first
  std::map<int64_t, SearchLayout> fastest_at;  // per GPU count, ignoring constraints
};

std::vector<int64_t> divisors_of(int64_t n) {
  std::vector<int64_t> d;
  for (int64_t i = 1; i <= n; ++i)
    if (n % i == 0) d.push_back(i);
  return d;
}

auto order_tuple(const SearchLayout& x) {
  return std::make_tuple(x.gpus, x.tp, x.pp, x.cp, x.ep, x.virtual_stages, x.micro_batch, int(x.recompute),
                         x.zero_stage);
}

std::pair<double, double> objective_key(const SearchSpec& spec, const SearchLayout& l) {
  switch (spec.objective) {
    case SearchObjective::step_time:
      return {l.step_s, double(l.gpus)};
    case SearchObjective::cost:
      return {l.cost_usd, l.step_s};
    case SearchObjective::gpus:
      return {double(l.gpus), l.step_s};
  }
  return {0, 0};
}

// Every candidate of the space search_layouts() defines (docs/search.md "Space"), each through
// the full estimate(): resolve() alone decides what is valid here.
Brute brute_force(const SearchSpec& spec) {
  Brute out;
  const Scenario& base = spec.base;
  Result<Estimate> probe = estimate([&] {
    Scenario s = base;
    s.parallel = ParallelSpec{};
    s.hardware.gpu_count = 0;
    s.training.micro_batch = 1;
    return s;
  }());
  REQUIRE(probe.ok());
  const int64_t G = probe->r.s.training.global_batch_seqs;
  const int64_t experts = probe->r.m.experts;
  const Schedule v1 = base.parallel.schedule == Schedule::interleaved ? Schedule::one_f_one_b : base.parallel.schedule;
  for (int64_t n = spec.gpus_min; n <= spec.gpus_max; n += spec.gpus_step)
    for (int64_t tp : divisors_of(n))
      for (int64_t cp : divisors_of(n / tp))
        for (int64_t pp : divisors_of(n / tp / cp))
          for (int64_t ep : experts > 0 ? divisors_of(experts) : std::vector<int64_t>{1})
            for (int64_t v = 1; v <= spec.max_virtual_stages; ++v)
              for (int64_t b : divisors_of(G))
                for (Recompute rec : {Recompute::none, Recompute::selective, Recompute::full})
                  for (int zero = 0; zero <= 3; ++zero) {
                    ++out.candidates;
                    Scenario s = base;
                    s.parallel.tp = tp;
                    s.parallel.pp = pp;
                    s.parallel.cp = cp;
                    s.parallel.ep = ep;
                    s.parallel.dp = 0;
                    s.parallel.virtual_stages = v;
                    s.parallel.schedule = v > 1 ? Schedule::interleaved : v1;
                    s.hardware.gpu_count = n;
                    s.training.micro_batch = b;
                    // docs/search.md: selective keeps a selective scenario's modules, else core_attn.
                    if (rec != Recompute::selective || base.training.recompute != Recompute::selective)
                      s.training.recompute_modules.clear();
                    s.training.recompute = rec;
                    s.training.zero_stage = zero;
                    s.training.global_batch_seqs = G;
                    Result<Estimate> e = estimate(s);
                    if (!e) continue;
                    ++out.valid;
                    if (!e->fits) continue;
                    ++out.fits;
                    SearchLayout l;
                    l.gpus = n, l.tp = tp, l.pp = pp, l.dp = e->r.s.parallel.dp, l.cp = cp, l.ep = ep,
                    l.virtual_stages = v, l.micro_batch = b;
                    l.recompute = rec, l.zero_stage = zero, l.step_s = e->time.step_s, l.cost_usd = e->time.cost_usd,
                    l.total_days = e->time.total_days;
                    auto it = out.fastest_at.find(n);
                    if (it == out.fastest_at.end() || std::make_pair(l.step_s, order_tuple(l)) <
                                                          std::make_pair(it->second.step_s, order_tuple(it->second)))
                      out.fastest_at[n] = l;
                    if (spec.deadline_days > 0 && l.total_days > spec.deadline_days) continue;
                    if (spec.budget_usd > 0 && l.cost_usd > spec.budget_usd) continue;
                    out.ranked.push_back(l);
                  }
  std::sort(out.ranked.begin(), out.ranked.end(), [&](const SearchLayout& a, const SearchLayout& b) {
    return std::make_pair(objective_key(spec, a), order_tuple(a)) <
           std::make_pair(objective_key(spec, b), order_tuple(b));
  });
  return out;
}

void check_against_brute_force(const SearchSpec& spec) {
  const Brute bf = brute_force(spec);
  REQUIRE(!bf.ranked.empty());
  for (bool prune : {true, false}) {
    CAPTURE(prune);
    SearchSpec s = spec;
    s.prune = prune;
    Result<SearchResult> r = search_layouts(s);
    INFO((r ? "" : r.error().text()));
    REQUIRE(r.ok());
    CHECK_FALSE(r->pruning_disabled);
    // Same space, same notion of valid (apply_layout == resolve()), same memory verdicts.
    CHECK(r->counts.candidates == bf.candidates);
    CHECK(r->counts.valid == bf.valid);
    CHECK(r->counts.valid - r->counts.does_not_fit == bf.fits);
    CHECK(r->counts.evaluated + r->counts.pruned_by_bound == bf.fits);
    if (!prune) CHECK(r->counts.pruned_by_bound == 0);
    // Same top list, layout by layout, with estimate()'s exact figures.
    const size_t n = std::min(r->top.size(), bf.ranked.size());
    CHECK(r->top.size() == std::min<size_t>(size_t(spec.top_n), bf.ranked.size()));
    for (size_t i = 0; i < n; ++i) {
      CAPTURE(i);
      CAPTURE(describe_layout(r->top[i]));
      CHECK(order_tuple(r->top[i]) == order_tuple(bf.ranked[i]));
      CHECK(r->top[i].step_s == bf.ranked[i].step_s);
      CHECK(r->top[i].cost_usd == bf.ranked[i].cost_usd);
    }
    // The front: non-dominated, drawn from the fastest layout of each GPU count.
    REQUIRE(!r->pareto.empty());
    for (const ParetoPoint& a : r->pareto) {
      REQUIRE(bf.fastest_at.count(a.gpus));
      CHECK(order_tuple(a.layout) == order_tuple(bf.fastest_at.at(a.gpus)));
      for (const ParetoPoint& b : r->pareto) {
        const bool dominates = b.total_days <= a.total_days && b.gpus <= a.gpus && b.cost_usd <= a.cost_usd &&
                               (b.total_days < a.total_days || b.gpus < a.gpus || b.cost_usd < a.cost_usd);
        CHECK_FALSE(dominates);
      }
    }
    // Every GPU count's fastest layout is on the front or dominated by a point of it.
    for (const auto& [gpus, l] : bf.fastest_at) {
      bool covered = false;
      for (const ParetoPoint& p : r->pareto)
        covered = covered || (p.total_days <= l.total_days && p.gpus <= gpus && p.cost_usd <= l.cost_usd);
      CHECK(covered);
    }
  }
}

SearchSpec spec_for(const Sets& sets, int64_t gmin, int64_t gmax, int64_t gstep = 1) {
  SearchSpec s;
  s.base = scenario(sets);
  s.gpus_min = gmin;
  s.gpus_max = gmax;
  s.gpus_step = gstep;
  s.max_virtual_stages = 4;
  s.top_n = 5;
  return s;
}

// Llama-like 3B shape, small enough that the brute force runs in a second, large enough that
// memory and the layout matter on 40 GB GPUs.
const Sets kDense = {{"model.layers", "16"},       {"model.hidden", "3072"},
                     {"model.heads", "24"},        {"model.kv_heads", "8"},
                     {"model.ffn_hidden", "8192"}, {"model.vocab", "128256"},
                     {"training.seq_len", "4096"}, {"training.global_batch_seqs", "32"},
                     {"training.tokens", "1e11"},  {"hardware.gpu", "a100-sxm-40gb"}};

}  // namespace

TEST_CASE("search equals brute force: dense model on 8 GPUs, step time") {
  check_against_brute_force(spec_for(kDense, 8, 8));
}

TEST_CASE("search equals brute force: MoE with expert parallelism") {
  SearchSpec s = spec_for({{"model.preset", "mixtral-8x7b"},
                           {"training.seq_len", "4096"},
                           {"training.global_batch_seqs", "16"},
                           {"training.tokens", "1e11"},
                           {"hardware.gpu", "h100-sxm"}},
                          16, 16);
  s.max_virtual_stages = 2;
  check_against_brute_force(s);
  Result<SearchResult> r = search_layouts(s);
  REQUIRE(r.ok());
  bool some_ep = false;
  for (const SearchLayout& l : r->top) some_ep = some_ep || l.ep > 1;
  CHECK(some_ep);  // the space really contains expert-parallel layouts that win
}

TEST_CASE("search equals brute force: a selective scenario's recompute modules") {
  SearchSpec s = spec_for({{"model.preset", "mixtral-8x7b"},
                           {"training.seq_len", "4096"},
                           {"training.global_batch_seqs", "16"},
                           {"training.tokens", "1e11"},
                           {"training.recompute", "selective"},
                           {"training.recompute_modules", "layernorm,moe_act"},
                           {"hardware.gpu", "h100-sxm"}},
                          16, 16);
  s.max_virtual_stages = 1;
  check_against_brute_force(s);
}

TEST_CASE("search equals brute force: a GPU range") { check_against_brute_force(spec_for(kDense, 4, 12)); }

// 6 layers on up to 8 stages: pp 8 leaves the first and last stage with only the embedding and
// only the output layer and loss, and interleaving takes 2 chunks per stage down to 4 stages.
TEST_CASE("search equals brute force: more stages and chunks than layers") {
  Sets few = kDense;
  few.push_back({"model.layers", "6"});
  few.push_back({"training.global_batch_seqs", "16"});
  SearchSpec s = spec_for(few, 8, 8);
  check_against_brute_force(s);
  Result<SearchResult> r = search_layouts(s);
  REQUIRE(r.ok());
  CHECK(r->counts.valid > 0);
}

TEST_CASE("search equals brute force: cost objective with a budget") {
  SearchSpec s = spec_for(kDense, 4, 16, 4);
  s.objective = SearchObjective::cost;
  const Result<SearchResult> unconstrained = search_layouts(s);
  REQUIRE(unconstrained.ok());
  s.budget_usd = unconstrained->top[0].cost_usd * 1.05;  // a budget that some layouts miss
  check_against_brute_force(s);
}

TEST_CASE("search equals brute force: fewest GPUs for a deadline") {
  SearchSpec s = spec_for(kDense, 1, 16);
  s.objective = SearchObjective::gpus;
  // A deadline halfway between the fastest runs on 4 and on 16 GPUs: the answer is neither end.
  SearchSpec four = spec_for(kDense, 4, 4), sixteen = spec_for(kDense, 16, 16);
  const double d4 = search_layouts(four)->top[0].total_days, d16 = search_layouts(sixteen)->top[0].total_days;
  s.deadline_days = 0.5 * (d4 + d16);
  check_against_brute_force(s);
  Result<SearchResult> r = search_layouts(s);
  REQUIRE(r.ok());
  CHECK(r->top[0].gpus > 4);
  CHECK(r->top[0].gpus < 16);
  CHECK(r->top[0].total_days <= s.deadline_days);
}

TEST_CASE("search: infeasible spaces give a clear error") {
  SUBCASE("nothing fits") {
    SearchSpec s = spec_for(
        {{"model.preset", "gpt3-175b"}, {"training.global_batch_seqs", "8"}, {"hardware.gpu", "h100-sxm"}}, 2, 2);
    Result<SearchResult> r = search_layouts(s);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().field == "search");
    CHECK(contains(r.error().message, "no layout fits in GPU memory"));
    CHECK(contains(r.error().message, "GiB more per GPU"));
  }
  SUBCASE("nothing divides") {
    SearchSpec s = spec_for(kDense, 7, 7);  // dp 7 does not divide 32 sequences, tp 7 not 24 heads, cp 7 not 4096 / 2
    s.vary_pp = false;                      // (pp 7 over 16 layers would be valid, unevenly)
    Result<SearchResult> r = search_layouts(s);
    REQUIRE_FALSE(r.ok());
    CHECK(contains(r.error().message, "no layout divides"));
  }
  SUBCASE("deadline too short") {
    SearchSpec s = spec_for(kDense, 8, 8);
    s.deadline_days = 1e-6;
    Result<SearchResult> r = search_layouts(s);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().field == "deadline_days");
    CHECK(contains(r.error().message, "fastest layout that fits takes"));
  }
  SUBCASE("gpus objective without a deadline") {
    SearchSpec s = spec_for(kDense, 1, 8);
    s.objective = SearchObjective::gpus;
    CHECK(search_layouts(s).error().field == "objective");
  }
  SUBCASE("no global batch") {
    SearchSpec s = spec_for({{"model.preset", "llama3.1-8b"}, {"hardware.gpu", "h100-sxm"}}, 8, 8);
    CHECK(search_layouts(s).error().field == "training.global_batch_seqs");
  }
}

TEST_CASE("search: fixed dimensions keep the base's value") {
  SearchSpec s = spec_for(kDense, 8, 8);
  s.base.parallel.tp = 2;
  s.base.training.zero_stage = 1;
  s.vary_tp = false;
  s.vary_zero = false;
  Result<SearchResult> r = search_layouts(s);
  REQUIRE(r.ok());
  for (const SearchLayout& l : r->top) {
    CHECK(l.tp == 2);
    CHECK(l.zero_stage == 1);
  }
}

TEST_CASE("search: the why names the runner-up and the step-time terms") {
  Result<SearchResult> r = search_layouts(spec_for(kDense, 8, 8));
  REQUIRE(r.ok());
  REQUIRE(r->why.size() >= 4);
  CHECK(contains(r->why[0], "Best: tp "));
  bool names_runner_up = false;
  for (const std::string& w : r->why) names_runner_up = names_runner_up || contains(w, "Runner-up: ");
  CHECK(names_runner_up);
  // The best's step is the sum of its terms (profile basis), as estimate() reports it.
  const SearchLayout& b = r->top[0];
  CHECK(b.step_s == doctest::Approx(b.compute_s + b.bubble_s + b.comm_exposed_s).epsilon(1e-12));
  // Each top layout carries its estimate's 68 % range; the layouts inside the best's range are
  // counted in the why (the model cannot rank them apart), and the JSON has the range.
  int within = 0;
  for (const SearchLayout& l : r->top) {
    CHECK(l.step_low_s < l.step_s);
    CHECK(l.step_high_s > l.step_s);
    within += &l != &r->top[0] && l.step_s <= b.step_high_s ? 1 : 0;
  }
  REQUIRE(within > 0);
  bool says_within = false;
  for (const std::string& w : r->why)
    says_within = says_within || contains(w, std::to_string(within) +
                                                 " of the other listed layouts fall inside the best's 68 % range");
  CHECK(says_within);
  const std::string j = search_to_json(spec_for(kDense, 8, 8), *r);
  CHECK(contains(j, "\"step_high_s\""));
  // A dense layout on one node is a validated kind of run.
  CHECK(b.regime.rfind("1 node, dense", 0) == 0);
  CHECK(b.regime_validated);
  CHECK(contains(j, "\"regime_validated\": true"));
}

TEST_CASE("search: a winner of a kind with few validated runs is flagged") {
  // Mixtral on one node: fewer than 8 published single-node MoE runs are validated
  // (core/src/estimate/error_bars_data.cpp), so the range is borrowed and the why says so.
  SearchSpec spec = spec_for({{"model.preset", "mixtral-8x7b"},
                              {"hardware.gpu", "h200"},
                              {"training.seq_len", "4096"},
                              {"training.global_batch_seqs", "64"},
                              {"training.zero_stage", "1"}},
                             8, 8);
  spec.vary_ep = true;
  Result<SearchResult> r = search_layouts(spec);
  REQUIRE(r.ok());
  REQUIRE(!r->top.empty());
  const SearchLayout& b = r->top[0];
  CHECK(b.regime.rfind("1 node, MoE", 0) == 0);
  CHECK_FALSE(b.regime_validated);
  CHECK(error_bar(b.regime).regime == "1 node");
  bool flagged = false;
  for (const std::string& w : r->why)
    flagged = flagged || contains(w, "fewer than 8 validated published runs (" + b.regime + ")");
  CHECK(flagged);
}

TEST_CASE("the 22B preset (Korthikanti 2022 / Calculon) has Calculon's 22.074 G parameters") {
  const Estimate e = run({{"model.preset", "megatron-22b"}, {"training.tokens", "1e9"}});
  // 48 × (12h² + 13h) + V·h + 2048·h + 2h with h = 6144, V = 51200; Calculon prints 22.074 G.
  CHECK(e.params.total == 22074273792.0);
}

// FSDP2 (training.fsdp_impl) is ZeRO-3's implementation: a searched layout of another ZeRO stage
// applies as that stage's own path, so every ranked layout applies to a valid scenario.
TEST_CASE("search: an FSDP2 base ranks every ZeRO stage, and each applied layout estimates") {
  SearchSpec s = spec_for(kDense, 8, 8);
  s.base.training.zero_stage = 3;
  s.base.training.fsdp_impl = FsdpImpl::fsdp2;
  Result<SearchResult> r = search_layouts(s);
  REQUIRE(r.ok());
  bool other_stage = false;
  for (const SearchLayout& l : r->top) {
    const Scenario applied = apply_search_layout(s.base, l);
    CAPTURE(l.zero_stage);
    CHECK(applied.training.fsdp_impl == (l.zero_stage == 3 ? FsdpImpl::fsdp2 : FsdpImpl::flat));
    Result<Estimate> e = estimate(applied);
    REQUIRE(e.ok());
    CHECK(e->time.step_s == doctest::Approx(l.step_s).epsilon(1e-9));
    other_stage = other_stage || l.zero_stage != 3;
  }
  CHECK(other_stage);
}
