// `llmcalc validate`: each record of a records file (record.h) is estimated with core's
// estimate() (a kernel record with llmc/kernel_timing.h), its unpublished knobs chosen by the one
// rule of unpublished.h, and the predicted step time put into the source's own metric
// (conventions.h). The library uses only core's public API and does no I/O: the caller passes the
// file's text and the profiles to time with.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "llmc/hardware.h"
#include "llmc/result.h"
#include "llmc/scenario.h"
#include "llmc_validate/record.h"

namespace llmc::validate {

// One comparison (one record).
struct ValidationRow {
  std::string id, family;
  std::string kind;    // "training_run", "model_states", "peak_memory", or the kernel convention ("kernel_gemm", ...)
  std::string status;  // "compared" (in a target), "shown" (compared, outside every target), "skipped"
  std::string convention;  // conventions.h id ("" when skipped before one was read)
  std::string metric, unit;
  std::string memory_kind;  // peak_memory rows: the source's counter (allocated, reserved, device)
  double measured = 0, predicted = 0;
  // (predicted − measured) / measured; for a time metric the error of throughput, measured /
  // predicted − 1, so + means predicted faster on every row.
  double error = 0;
  bool in_mae = false;  // part of the throughput MAE
  bool kernel = false;  // a kernel benchmark record
  std::string gpu;      // llmcalc GPU id
  std::string regime;   // training rows: the error bars' regime of the run (llmc/error_bars.h)
  std::string profile;  // "datasheet (core/data/gpus/...)", "published (site/profiles)", "file: ..."
  std::string layout;   // "tp8 pp4 v3 cp1 dp32 mb2 gbs1792 zero0 rec=full sp=0 interleaved", or what a kernel row timed
  double step_s = 0;    // the predicted step time (training rows)
  Scenario scenario;    // what was estimated: the record's scenario with the rule's choices (the GPU alone for kernels)
  std::string skip_field, skip_reason;
  std::vector<Judgment> judgments;       // the record's, as written
  std::vector<std::string> unpublished;  // the record's, as written
  std::vector<std::string> notes;  // what the validator did: the rule's choice, fit, conversions, llmcalc's warnings
};

struct GroupSummary {
  int rows = 0;
  double mae = 0;  // mean |error|
  double max_abs_error = 0;
  std::string worst;  // id of the row with the largest |error|
};

struct FamilySummary {
  std::string family;
  GroupSummary all;          // every compared row of the family but its peak memories
  GroupSummary throughput;   // its rows in the throughput targets
  GroupSummary peak_memory;  // its peak-memory rows
};

struct ValidationSummary {
  int records = 0, modelled = 0, skipped = 0;
  GroupSummary throughput;              // rows with in_mae
  GroupSummary memory;                  // model-state rows
  GroupSummary peak_memory;             // a run's peak memory per GPU (conventions.h peak_memory)
  GroupSummary shown;                   // compared but outside every target
  GroupSummary kernels;                 // kernel benchmark records
  std::vector<FamilySummary> families;  // in order of first appearance
  // Targets from the issue: MAE ≤ 5 % (stretch ≤ 3 %), no record worse than 10 %.
  double target_mae = 0.05, stretch_mae = 0.03, target_max = 0.10;
  bool meets_target = false, meets_stretch = false;
};

struct ValidationReport {
  std::vector<ValidationRow> rows;
  ValidationSummary summary;
  std::vector<std::string> profiles_used;  // one line per profile: gpu, source, description
};

struct ValidateOptions {
  // Profiles to time with, by GPU. For a record on GPU g: `override_profile` if it is for g,
  // else the entry of `default_profiles` for g (the bundled published profiles), else the
  // datasheet profile. Each row says which.
  std::optional<HardwareProfile> override_profile;
  std::string override_label;  // e.g. "file: my.json"
  std::vector<HardwareProfile> default_profiles;
  std::string default_label = "published";  // how rows name a default profile
  std::string only_prefix;                  // only records whose id starts with this
  // The most layouts the rule may search for one record (an upper bound counted before the
  // search, unpublished.h); a record over it is skipped, naming `unpublished`.
  int64_t max_layouts = 2000000;
  // Records timed with the datasheet profile get it built at this in-step GEMM fraction of MAMF
  // (0: core's fitted value); leave_one_family_out() (lofo.h) sweeps it.
  double datasheet_gemm_mamf_fraction = 0;
};

// Validate every record of a records file. Error only when the whole text is not JSON or not an
// array; a malformed record, or one that cannot be modelled, is a skipped row naming the field.
Result<ValidationReport> validate_records(const std::string& json_text, const ValidateOptions& opt);

// The summary of `rows`, one per record (several files' reports merge by concatenating rows).
ValidationSummary summarise(const std::vector<ValidationRow>& rows);

// The report as JSON: {"rows": [...], "summary": {...}, "conventions": [...], "profiles": [...]}.
std::string validation_to_json(const ValidationReport& r);

}  // namespace llmc::validate
