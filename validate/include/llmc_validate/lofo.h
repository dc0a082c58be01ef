// Leave one family out (`llmcalc validate --lofo`): the datasheet profile's one fitted efficiency,
// the in-step GEMM fraction of MAMF (llmc/hardware.h), chosen on every source family but one, and
// that family's step-time rows predicted with it. It is chosen per GPU architecture
// (GpuSpec::architecture) where that architecture's rows come from kMinArchFamilies families or
// more, and pooled over every row otherwise. Their errors are the model's out-of-sample
// error: reported beside the in-sample one in docs/validation.md, and made into core's error bars
// (llmc/error_bars.h) per regime.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "llmc/error_bars.h"
#include "llmc/result.h"
#include "llmc_validate/validate.h"

namespace llmc::validate {

// An architecture is fitted on its own rows only when they come from this many families (and
// number kMinRegimeRows or more); fewer would let one source set its GPUs' efficiency.
constexpr int kMinArchFamilies = 3;

// The fraction for one architecture's rows: its own fit, or the pooled one (`own` false).
struct ArchFraction {
  std::string arch;
  int rows = 0, families = 0;
  double fraction = 0;
  bool own = false;
};

struct LofoFamily {
  std::string family;
  int rows = 0;
  double fraction = 0;                       // pooled, fitted on the other families
  std::vector<ArchFraction> arch_fractions;  // for the architectures of its rows, fitted on the others
  double in_sample_mae = 0;                  // its rows at the fractions fitted on every family (their architecture's)
  double lofo_mae = 0;                       // its rows at the fractions fitted on the others (their architecture's)
  double lofo_bias = 0;                      // mean signed error of the same (+ = predicted faster)
};

// One step-time row: errors as in a report row (+ = predicted faster).
struct LofoRow {
  std::string id, family, regime, arch;
  int64_t gpus = 0;
  double in_sample = 0, lofo = 0;
};

struct LofoReport {
  std::vector<double> grid;
  std::vector<double> loss;          // per grid value: the mean over families of their mean |ln(1 + error)|
  double fraction = 0;               // pooled, fitted on every family (what core ships for other GPUs)
  std::vector<ArchFraction> arches;  // per architecture, fitted on every family (what core ships)
  std::vector<LofoFamily> families;
  std::vector<LofoRow> rows;
  double in_sample_mae = 0, in_sample_bias = 0, lofo_mae = 0, lofo_median = 0, lofo_bias = 0;
  // The share of rows inside their 68 % range, with the bars also made without the row's family.
  double coverage = 0;
  std::vector<ErrorBar> bars;  // "all", each scale, each regime, from the out-of-sample errors
};

// The records validated at one in-step GEMM fraction (the caller reads the files).
using FractionRun = std::function<Result<ValidationReport>(double fraction)>;

// The step-time rows used: compared, in the throughput targets, not kernels. Families are
// weighted equally, so a source with 90 rows does not outvote one with 4. Error: a run's error,
// or fewer than two families.
Result<LofoReport> leave_one_family_out(const FractionRun& run, const std::vector<double>& grid);

// The default grid: 0.50 to 1.00 by 0.02.
std::vector<double> default_lofo_grid();

// Markdown: the fit, the per-family table (in-sample and out-of-sample), the totals, the bars.
std::string markdown_lofo(const LofoReport& r);

// core/src/estimate/error_bars_data.cpp for these bars (scripts/error-bars.sh writes it).
std::string error_bars_source(const LofoReport& r);

}  // namespace llmc::validate
