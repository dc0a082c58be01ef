// The one rule for the knobs a record lists as unpublished (docs/validation.md, "Knobs a source
// does not publish"). Today: llmcalc's own best choice, the fastest layout that fits in memory,
// found by core's search_layouts() over those knobs only (every published knob stays as printed).
// It stands for "the authors tuned their run", which a published benchmark is. Issue 28 replaces
// it with the framework's documented defaults: swap choose_unpublished_knobs() and nothing else.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "llmc/result.h"
#include "llmc/scenario.h"

namespace llmc::validate {

struct UnpublishedChoice {
  Scenario scenario;       // the record's scenario with the unpublished knobs chosen
  bool searched = false;   // the rule ran (the record lists unpublished knobs)
  bool fits = true;        // false: no layout over the knobs fits; the record's own values are timed
  int64_t candidates = 0;  // layouts enumerated by the search
  std::string note;        // what the rule did, for the row's notes ("" when nothing was unpublished)
};

// Error: a field named (e.g. training.global_batch_seqs: the search keeps the global batch
// fixed), or `unpublished` when the space is larger than `max_layouts`.
Result<UnpublishedChoice> choose_unpublished_knobs(const Scenario& record_scenario,
                                                   const std::vector<std::string>& unpublished, int64_t max_layouts);

}  // namespace llmc::validate
