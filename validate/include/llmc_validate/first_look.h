// A first look: each new record's prediction and error as llmcalc gave them the day the records
// were added, before the model was changed for them (issue 28's protocol), kept in
// validation/first-look.json and summarised per family in docs/validation.md.
#pragma once
#include <string>
#include <vector>

#include "llmc/result.h"

namespace llmc::validate {

// One entry of first-look.json: a compared row as `llmcalc validate --json` printed it, with the
// commit of llmcalc that predicted it and the date.
struct FirstLookRow {
  std::string id, family, convention, metric;
  double measured = 0, predicted = 0, error = 0;  // error as in a report row: + = predicted faster / more memory
  std::string llmcalc_commit, date;
};

// A JSON array of {id, family, convention, metric, measured, predicted, error, llmcalc_commit,
// date}. Error: not JSON, not an array, or an entry's missing or ill-typed key ("[3].error"), or
// a convention conventions.h does not know.
Result<std::vector<FirstLookRow>> parse_first_look(const std::string& json_text);

// Per convention group (time and throughput, peak memory, shown), one table row per family:
// rows, mean absolute error, mean signed error (bias), median absolute error, and an overall row;
// then the commits and dates the predictions came from.
std::string markdown_first_look(const std::vector<FirstLookRow>& rows);

}  // namespace llmc::validate
