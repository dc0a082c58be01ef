// libFuzzer target: bytes → llmc::validate::validate_records() (the `llmcalc validate` record
// parser, the rule for unpublished knobs, the conventions, kernel records). Checks: no crash; a
// whole-file error carries a message; every record is one row (modelled + skipped = records); a
// skipped row names its reason; a compared row's prediction and error are finite;
// validation_to_json() is valid JSON with no null (a non-finite number); the Markdown report runs.
// The same bytes go through the first-look reader (first_look.h): a refusal has a message, an
// accepted file's tables render.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_common.h"
#include "llmc_validate/first_look.h"
#include "llmc_validate/markdown.h"
#include "llmc_validate/validate.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 16384) return 0;
  const std::string text(reinterpret_cast<const char*>(data), size);
  llmc::validate::ValidateOptions opt;
  opt.max_layouts = 2000;  // the search is the slow part; a bounded space per record keeps inputs fast
  if (llmc::Result<std::vector<llmc::validate::FirstLookRow>> fl = llmc::validate::parse_first_look(text); !fl) {
    if (fl.error().message.empty()) llmc::fuzz::fail("parse_first_look() error without a message");
  } else {
    (void)llmc::validate::markdown_first_look(*fl);
  }
  llmc::Result<llmc::validate::ValidationReport> r = llmc::validate::validate_records(text, opt);
  if (!r) {
    if (r.error().message.empty()) llmc::fuzz::fail("validate_records() error without a message");
    return 0;
  }
  const llmc::validate::ValidationSummary& s = r->summary;
  if (s.modelled + s.skipped != s.records || size_t(s.records) != r->rows.size())
    llmc::fuzz::fail("modelled " + std::to_string(s.modelled) + " + skipped " + std::to_string(s.skipped) +
                     " != records " + std::to_string(s.records));
  for (const llmc::validate::ValidationRow& row : r->rows) {
    if (row.status == "skipped") {
      if (row.skip_reason.empty()) llmc::fuzz::fail("skipped row without a reason: " + row.id);
      continue;
    }
    llmc::fuzz::finite("row.predicted", row.predicted);
    llmc::fuzz::finite("row.error", row.error);
    llmc::fuzz::finite("row.step_s", row.step_s);
  }
  llmc::fuzz::finite("summary.throughput.mae", s.throughput.mae);
  for (const llmc::validate::FamilySummary& f : s.families) llmc::fuzz::finite("summary.families.mae", f.all.mae);
  const nlohmann::json j = nlohmann::json::parse(llmc::validate::validation_to_json(*r), nullptr, false);
  if (j.is_discarded()) llmc::fuzz::fail("validation_to_json() wrote invalid JSON");
  llmc::fuzz::check_json_finite(j, "$");
  (void)llmc::validate::markdown_report(*r);
  return 0;
}
