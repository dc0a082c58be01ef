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

std::string_view broader_regime(std::string_view regime) {
  const size_t comma = regime.rfind(',');
  return comma == std::string_view::npos || comma == 0 ? std::string_view("all") : regime.substr(0, comma);
}

std::vector<std::string> regime_and_prefixes(const std::string& regime) {
  std::vector<std::string> out;
  for (std::string_view name = regime;; name = broader_regime(name)) {
    out.emplace_back(name);
    if (name == "all") return out;
  }
}

const std::vector<ErrorBar>& error_bars() { return detail::kErrorBars; }

const char* error_bars_provenance() { return detail::kErrorBarsProvenance; }

const ErrorBar& pick_error_bar(const std::vector<ErrorBar>& bars, const std::string& regime) {
  // Walked with broader_regime() rather than regime_and_prefixes(): every estimate picks a bar.
  for (std::string_view name = regime;; name = broader_regime(name)) {
    for (const ErrorBar& b : bars)
      if (b.rows >= kMinRegimeRows && b.regime == name) return b;
    if (name == "all") break;
  }
  static const ErrorBar none{"none", 0, 1, 1, 0};
  return none;
}

const ErrorBar& error_bar(const std::string& regime) { return pick_error_bar(detail::kErrorBars, regime); }

}  // namespace llmc
