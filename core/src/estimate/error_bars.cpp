// The error bars' lookup (llmc/error_bars.h); the table itself is generated
// (error_bars_data.cpp, written by `llmcalc validate --lofo --write-error-bars`).
#include "llmc/error_bars.h"

#include "estimate/error_bars_data.h"

namespace llmc {

std::string error_regime(const Resolved& r) {
  const std::string scale = r.gpu_count <= 1 ? "1 GPU" : r.gpu_count <= r.gpus_per_node ? "1 node" : "multi-node";
  return scale + (r.m.experts > 0 ? ", MoE" : ", dense");
}

const std::vector<ErrorBar>& error_bars() { return detail::kErrorBars; }

const char* error_bars_provenance() { return detail::kErrorBarsProvenance; }

const ErrorBar& error_bar(const std::string& regime) {
  auto find = [](const std::string& name) -> const ErrorBar* {
    for (const ErrorBar& b : detail::kErrorBars)
      if (b.regime == name && b.rows >= kMinRegimeRows) return &b;
    return nullptr;
  };
  if (const ErrorBar* b = find(regime)) return *b;
  if (const ErrorBar* b = find(regime.substr(0, regime.find(',')))) return *b;
  if (const ErrorBar* b = find("all")) return *b;
  static const ErrorBar none{"none", 0, 1, 1, 0};
  return none;
}

}  // namespace llmc
