// Leave one family out (lofo.h). The records are validated once per grid value; every fit is
// then a choice among those runs, so a family's held-out prediction costs nothing more.
#include "llmc_validate/lofo.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include "json_read.h"

namespace llmc::validate {
namespace {

std::string percent(double v) { return detail::number_text(100 * v, "%+.1f %%"); }
std::string abs_percent(double v) { return detail::number_text(100 * v, "%.1f %%"); }

// The p-th quantile (0-1) of sorted values, linearly interpolated.
double quantile(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0;
  const double at = p * double(sorted.size() - 1);
  const size_t i = size_t(at);
  if (i + 1 >= sorted.size()) return sorted.back();
  return sorted[i] + (at - double(i)) * (sorted[i + 1] - sorted[i]);
}

bool used(const ValidationRow& x) {
  return x.status == "compared" && x.in_mae && !x.kernel && x.kind == "training_run";
}

// Index of the smallest loss (the first of equals: the lower fraction).
size_t argmin(const std::vector<double>& loss) {
  return size_t(std::min_element(loss.begin(), loss.end()) - loss.begin());
}

ErrorBar bar_of(const std::string& regime, const std::vector<const LofoRow*>& rows) {
  ErrorBar b;
  b.regime = regime;
  b.rows = int(rows.size());
  std::vector<double> logs;
  for (const LofoRow* x : rows) {
    logs.push_back(std::log1p(x->lofo));  // ln(measured / predicted step time)
    b.max_gpus = std::max(b.max_gpus, x->gpus);
  }
  std::sort(logs.begin(), logs.end());
  b.low = std::exp(quantile(logs, 0.16));
  b.high = std::exp(quantile(logs, 0.84));
  return b;
}

// Bars for every row's regime and each of its broader regimes, in the order first seen.
std::vector<ErrorBar> make_bars(const std::vector<const LofoRow*>& rows) {
  std::vector<std::string> groups = {"all"};
  for (const LofoRow* x : rows) {
    const std::vector<std::string> names = regime_and_prefixes(x->regime);
    for (auto g = names.rbegin(); g != names.rend(); ++g)  // broadest first
      if (std::find(groups.begin(), groups.end(), *g) == groups.end()) groups.push_back(*g);
  }
  std::vector<ErrorBar> bars;
  for (const std::string& g : groups) {
    std::vector<const LofoRow*> in;
    for (const LofoRow* x : rows) {
      const std::vector<std::string> names = regime_and_prefixes(x->regime);
      if (std::find(names.begin(), names.end(), g) != names.end()) in.push_back(x);
    }
    bars.push_back(bar_of(g, in));
  }
  return bars;
}

}  // namespace

std::vector<double> default_lofo_grid() {
  std::vector<double> g;
  for (int i = 50; i <= 100; i += 2) g.push_back(i / 100.0);
  return g;
}

Result<LofoReport> leave_one_family_out(const FractionRun& run, const std::vector<double>& grid) {
  if (grid.empty()) return make_error("grid", "no fraction to try");
  LofoReport out;
  out.grid = grid;
  // errors[id][i]: the row's error at grid[i]; rows kept only if compared at every value.
  std::vector<LofoRow> rows;
  std::map<std::string, std::vector<double>> errors;
  for (size_t i = 0; i < grid.size(); ++i) {
    Result<ValidationReport> rep = run(grid[i]);
    if (!rep) return rep.error();
    std::map<std::string, const ValidationRow*> by_id;
    for (const ValidationRow& x : rep->rows)
      if (used(x)) by_id[x.id] = &x;
    if (i == 0) {
      for (const ValidationRow& x : rep->rows)
        if (used(x))
          rows.push_back(LofoRow{x.id, x.family, x.regime, x.scenario.hardware.gpu.architecture(),
                                 x.scenario.hardware.gpu_count, 0, 0});
    }
    for (LofoRow& x : rows) {
      const auto it = by_id.find(x.id);
      errors[x.id].push_back(it == by_id.end() ? NAN : it->second->error);
    }
  }
  std::erase_if(rows, [&](const LofoRow& x) {
    const std::vector<double>& e = errors[x.id];
    return std::any_of(e.begin(), e.end(), [](double v) { return !std::isfinite(v); });
  });

  // Per family and grid value: the mean |ln(1 + error)| of its rows.
  std::vector<std::string> families;
  std::map<std::string, std::vector<double>> family_loss;
  std::map<std::string, int> family_rows;
  for (const LofoRow& x : rows) {
    if (!family_loss.count(x.family)) families.push_back(x.family), family_loss[x.family].assign(grid.size(), 0.0);
    ++family_rows[x.family];
    for (size_t i = 0; i < grid.size(); ++i) family_loss[x.family][i] += std::fabs(std::log1p(errors[x.id][i]));
  }
  if (families.size() < 2)
    return make_error("records", "leave one family out needs step-time rows of at least two families");
  for (auto& [f, loss] : family_loss)
    for (double& l : loss) l /= family_rows[f];
  auto loss_without = [&](const std::string& left_out) {
    std::vector<double> loss(grid.size(), 0.0);
    int n = 0;
    for (const std::string& f : families) {
      if (f == left_out) continue;
      ++n;
      for (size_t i = 0; i < grid.size(); ++i) loss[i] += family_loss[f][i];
    }
    for (double& l : loss) l /= n;
    return loss;
  };
  out.loss = loss_without("");
  const size_t all = argmin(out.loss);
  out.fraction = grid[all];

  // Per architecture, without `left_out`: the same loss over that architecture's rows, where they
  // come from enough families; else the pooled choice.
  std::vector<std::string> arches;
  for (const LofoRow& x : rows)
    if (!x.arch.empty() && std::find(arches.begin(), arches.end(), x.arch) == arches.end()) arches.push_back(x.arch);
  std::sort(arches.begin(), arches.end());
  auto arch_fit = [&](const std::string& arch, const std::string& left_out, size_t pooled) {
    std::map<std::string, std::vector<double>> loss;  // per family and grid value
    std::map<std::string, int> n;
    int arch_rows = 0;
    for (const LofoRow& x : rows) {
      if (x.arch != arch || x.family == left_out) continue;
      ++arch_rows, ++n[x.family];
      std::vector<double>& l = loss[x.family];
      l.resize(grid.size(), 0.0);
      for (size_t i = 0; i < grid.size(); ++i) l[i] += std::fabs(std::log1p(errors[x.id][i]));
    }
    std::pair<ArchFraction, size_t> out_fit{ArchFraction{arch, arch_rows, int(loss.size()), grid[pooled], false},
                                            pooled};
    if (arch.empty() || int(loss.size()) < kMinArchFamilies || arch_rows < kMinRegimeRows) return out_fit;
    std::vector<double> mean(grid.size(), 0.0);
    for (const auto& [f, l] : loss)
      for (size_t i = 0; i < grid.size(); ++i) mean[i] += l[i] / n[f] / double(loss.size());
    const size_t at = argmin(mean);
    out_fit.first.fraction = grid[at], out_fit.first.own = true, out_fit.second = at;
    return out_fit;
  };
  std::map<std::string, size_t> in_sample_at;
  for (const std::string& a : arches) {
    const auto [fit, at] = arch_fit(a, "", all);
    out.arches.push_back(fit);
    in_sample_at[a] = at;
  }

  std::map<std::string, size_t> held_out;
  // (family, architecture) -> the fit without that family and its grid index: fitted once.
  std::map<std::pair<std::string, std::string>, std::pair<ArchFraction, size_t>> held_out_arch;
  for (const std::string& f : families) held_out[f] = argmin(loss_without(f));
  for (LofoRow& x : rows) {
    x.in_sample = errors[x.id][x.arch.empty() ? all : in_sample_at[x.arch]];
    const auto key = std::make_pair(x.family, x.arch);
    if (!held_out_arch.count(key)) held_out_arch[key] = arch_fit(x.arch, x.family, held_out[x.family]);
    x.lofo = errors[x.id][held_out_arch[key].second];
  }
  for (const std::string& f : families) {
    LofoFamily fam{f, family_rows[f], grid[held_out[f]], {}, 0, 0, 0};
    for (const std::string& a : arches)
      if (const auto it = held_out_arch.find({f, a}); it != held_out_arch.end())
        fam.arch_fractions.push_back(it->second.first);
    for (const LofoRow& x : rows) {
      if (x.family != f) continue;
      fam.in_sample_mae += std::fabs(x.in_sample) / fam.rows;
      fam.lofo_mae += std::fabs(x.lofo) / fam.rows;
      fam.lofo_bias += x.lofo / fam.rows;
    }
    out.families.push_back(fam);
  }
  std::vector<double> abs_lofo;
  for (const LofoRow& x : rows) {
    out.in_sample_mae += std::fabs(x.in_sample) / double(rows.size());
    out.in_sample_bias += x.in_sample / double(rows.size());
    out.lofo_mae += std::fabs(x.lofo) / double(rows.size());
    out.lofo_bias += x.lofo / double(rows.size());
    abs_lofo.push_back(std::fabs(x.lofo));
  }
  std::sort(abs_lofo.begin(), abs_lofo.end());
  out.lofo_median = quantile(abs_lofo, 0.5);

  std::vector<const LofoRow*> all_rows;
  for (const LofoRow& x : rows) all_rows.push_back(&x);
  out.bars = make_bars(all_rows);
  // Coverage, out of sample twice over: each family's rows against bars made without it.
  int covered = 0;
  for (const std::string& f : families) {
    std::vector<const LofoRow*> others;
    for (const LofoRow& x : rows)
      if (x.family != f) others.push_back(&x);
    const std::vector<ErrorBar> bars = make_bars(others);
    for (const LofoRow& x : rows) {
      if (x.family != f) continue;
      const ErrorBar& b = pick_error_bar(bars, x.regime);
      const double ratio = 1 + x.lofo;  // measured / predicted step time
      covered += ratio >= std::max(0.1, std::min(1.0, b.low)) && ratio <= std::max(1.0, b.high) ? 1 : 0;
    }
  }
  out.coverage = rows.empty() ? 0 : double(covered) / double(rows.size());
  out.rows = std::move(rows);
  return out;
}

std::string markdown_lofo(const LofoReport& r) {
  std::ostringstream out;
  out << "The in-step GEMM fraction of MAMF fitted on all " << r.families.size()
      << " families, pooled over every row: **" << detail::number_text(r.fraction, "%.2f") << "** (grid "
      << detail::number_text(r.grid.front(), "%.2f") << "-" << detail::number_text(r.grid.back(), "%.2f")
      << "; loss: the mean over families of their mean "
      << "|ln(measured / predicted step time)|, " << detail::number_text(r.loss[argmin(r.loss)], "%.3f")
      << " there). Per GPU architecture, over its own rows where they come from at least " << kMinArchFamilies
      << " families (else the pooled value):";
  for (const ArchFraction& a : r.arches)
    out << " " << a.arch << " **" << detail::number_text(a.fraction, "%.2f") << "** (" << a.rows << " rows, "
        << a.families << " families" << (a.own ? "" : ", pooled") << ");";
  out << " the other GPUs take the pooled value.\n\n";
  out << "| family | rows | fraction fitted without it (pooled; per architecture of its rows) | error, in-sample | "
         "error, left out | bias, left out |\n|---|---:|---:|---:|---:|---:|\n";
  for (const LofoFamily& f : r.families) {
    out << "| " << f.family << " | " << f.rows << " | " << detail::number_text(f.fraction, "%.2f");
    for (const ArchFraction& a : f.arch_fractions)
      if (a.own) out << "; " << a.arch << " " << detail::number_text(a.fraction, "%.2f");
    out << " | " << abs_percent(f.in_sample_mae) << " | " << abs_percent(f.lofo_mae) << " | " << percent(f.lofo_bias)
        << " |\n";
  }
  out << "| **all** | " << r.rows.size() << " | " << detail::number_text(r.fraction, "%.2f") << " | "
      << abs_percent(r.in_sample_mae) << " | " << abs_percent(r.lofo_mae) << " | " << percent(r.lofo_bias) << " |\n\n";
  out << "Left out, per row: mean absolute error " << abs_percent(r.lofo_mae) << ", median "
      << abs_percent(r.lofo_median) << ", bias " << percent(r.lofo_bias)
      << " (in-sample: " << abs_percent(r.in_sample_mae) << ", bias " << percent(r.in_sample_bias)
      << "). Errors are of throughput: + means llmcalc predicted faster than measured.\n\n";
  out << "Coverage: " << abs_percent(r.coverage)
      << " of the rows fall inside their 68 % range when both the fraction and the bars "
      << "are made without the row's own family (the bars alone, without a profile's kernel spread, which only widens "
         "them).\n\n";
  out << "Error bars (llmcalc's `time.step_low_s` / `time.step_high_s`): the 16th and 84th percentile of measured / "
         "predicted step "
         "time of the left-out predictions, per regime; a regime with fewer than "
      << kMinRegimeRows << " runs takes its scale's, else all runs'.\n\n";
  out << "| regime | runs | 16th percentile | 84th percentile | largest run (GPUs) |\n|---|---:|---:|---:|---:|\n";
  for (const ErrorBar& b : r.bars)
    out << "| " << b.regime << " | " << b.rows << " | " << detail::number_text(b.low, "%.3f") << " | "
        << detail::number_text(b.high, "%.3f") << " | " << b.max_gpus << " |\n";
  return out.str();
}

std::string error_bars_source(const LofoReport& r) {
  std::ostringstream out;
  out << "// Generated by `llmcalc validate --lofo --write-error-bars` (scripts/error-bars.sh): do not edit.\n"
         "// clang-format off\n"
         "// The time model's out-of-sample error per regime (llmc/error_bars.h, docs/validation.md).\n"
         "#include \"estimate/error_bars_data.h\"\n\nnamespace llmc::detail {\n\nconst std::vector<ErrorBar> "
         "kErrorBars = {\n";
  for (const ErrorBar& b : r.bars)
    out << "    {\"" << b.regime << "\", " << b.rows << ", " << detail::number_text(b.low, "%.4f") << ", "
        << detail::number_text(b.high, "%.4f") << ", " << b.max_gpus << "},\n";
  out << "};\nconst char* const kErrorBarsProvenance =\n    \"" << r.rows.size() << " step-time records of "
      << r.families.size()
      << " source families (validation/), each predicted with the in-step GEMM fraction fitted without its family; "
         "fitted on all: pooled "
      << detail::number_text(r.fraction, "%.2f");
  for (const ArchFraction& a : r.arches) out << ", " << a.arch << " " << detail::number_text(a.fraction, "%.2f");
  out << "\";\n\n}  // namespace llmc::detail\n";
  return out.str();
}

}  // namespace llmc::validate
