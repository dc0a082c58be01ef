// `llmcalc search`: the layout search (llmc/search.h) as a table, the why and the Pareto front,
// or JSON. The scenario options are cli.cpp's; this adds the search's own.
#pragma once
#include <ostream>
#include <string>

#include "llmc/result.h"
#include "llmc/scenario.h"

namespace CLI {
class App;
}

namespace llmc::cli {

struct SearchArgs {
  std::string gpus;  // "N", "MIN:MAX" or "MIN:MAX:STEP"; empty: hardware.gpu_count
  double deadline_days = 0, budget_usd = 0;
  std::string objective = "step_time";
  int top = 10;
  int max_virtual_stages = 8;
  long long max_tp = 0;
  std::string fixed;  // comma-separated dimensions not to vary (keep the scenario's value)
  bool json = false;
};

void add_search_options(CLI::App* cmd, SearchArgs& a);
// `scenario`: the scenario built from the shared options (or its error).
int cmd_search(const Result<Scenario>& scenario, const SearchArgs& a, std::ostream& out, std::ostream& err);

}  // namespace llmc::cli
