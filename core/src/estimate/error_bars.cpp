// The error bars' lookup (llmc/error_bars.h); the table itself is generated
// (error_bars_data.cpp, written by `llmcalc validate --lofo --write-error-bars`).
#include "llmc/error_bars.h"

#include <string_view>

#include "estimate/error_bars_data.h"

namespace llmc {

std::string error_regime(const Resolved& r) {
  std::string regime = r.gpu_count <= 1 ? "1 GPU" : r.gpu_count <= r.gpus_per_node ? "1 node" : "multi-node";
  regime += r.m.experts > 0 ? ", MoE" : ", dense";
  if (r.s.parallel.ep > 1) regime += ", expert parallel";
  if (r.s.parallel.cp > 1) regime += ", context parallel";
  return regime;
}

std::vector<std::string> regime_and_prefixes(const std::string& regime) {
  std::vector<std::string> out = {regime};
  for (size_t comma = regime.rfind(','); comma != std::string::npos && comma > 0; comma = regime.rfind(',', comma - 1))
    out.push_back(regime.substr(0, comma));
  if (regime != "all") out.push_back("all");
  return out;
}

const std::vector<ErrorBar>& error_bars() { return detail::kErrorBars; }

const char* error_bars_provenance() { return detail::kErrorBarsProvenance; }

const ErrorBar& pick_error_bar(const std::vector<ErrorBar>& bars, const std::string& regime) {
  // regime_and_prefixes() without its allocations: every estimate picks a bar.
  auto find = [&](std::string_view name) -> const ErrorBar* {
    for (const ErrorBar& b : bars)
      if (b.rows >= kMinRegimeRows && b.regime == name) return &b;
    return nullptr;
  };
  for (std::string_view name = regime;;) {
    if (const ErrorBar* b = find(name)) return *b;
    const size_t comma = name.rfind(',');
    if (comma == std::string_view::npos || comma == 0) break;
    name = name.substr(0, comma);
  }
  if (const ErrorBar* b = find("all")) return *b;
  static const ErrorBar none{"none", 0, 1, 1, 0};
  return none;
}

const ErrorBar& error_bar(const std::string& regime) { return pick_error_bar(detail::kErrorBars, regime); }

}  // namespace llmc
