// The time model's error bars: its out-of-sample error on published runs, per regime. Each
// validation record's step time is predicted with the datasheet efficiency fitted on every
// other source family (`llmcalc validate --lofo`, docs/validation.md "Leave one family out"), and
// a regime's bar is the 16th to 84th percentile of measured / predicted step time over its records.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "llmc/scenario.h"

namespace llmc {

struct ErrorBar {
  std::string regime;    // error_regime()'s names, or a scale alone ("multi-node"), or "all"
  int rows = 0;          // records behind it
  double low = 1;        // measured / predicted step time, 16th percentile
  double high = 1;       // 84th percentile
  int64_t max_gpus = 0;  // the largest run among them
};

// A run's regime: its scale ("1 GPU", "1 node" within one scale-up domain, "multi-node"), its
// architecture (", dense" or ", MoE") and the parallelisms whose modelling is least validated
// (", expert parallel" with ep > 1, ", context parallel" with cp > 1), e.g. "multi-node, MoE,
// expert parallel". Each comma-separated prefix is a broader regime.
std::string error_regime(const Resolved& r);

// Regimes with fewer records than this borrow the bar of their longest prefix that has enough,
// else every record's.
constexpr int kMinRegimeRows = 8;

// The bar for a regime from `bars`: its own, a prefix's, or "all" (ErrorBar::regime says which).
const ErrorBar& pick_error_bar(const std::vector<ErrorBar>& bars, const std::string& regime);
// The same from the bars core ships.
const ErrorBar& error_bar(const std::string& regime);
// The next broader regime: `regime` without its last ", ..." part, or "all" when it has none.
std::string_view broader_regime(std::string_view regime);
// `regime` and its broader regimes, narrowest first, ending with "all".
std::vector<std::string> regime_and_prefixes(const std::string& regime);
// Every bar, as generated from the validation records (core/src/estimate/error_bars_data.cpp).
const std::vector<ErrorBar>& error_bars();
// Where the bars came from: commit, date, records, fitted value.
const char* error_bars_provenance();

}  // namespace llmc
