// Internal: one record → one row. training_rows.cpp (training and model-state records),
// kernel_rows.cpp (kernel benchmarks), validate.cpp (the driver).
#pragma once
#include <set>
#include <string>

#include "llmc_validate/conventions.h"
#include "llmc_validate/validate.h"

namespace llmc::validate::detail {

// A row that names the record and nothing else yet.
ValidationRow row_for(const Record& rec);
// A record that cannot be modelled: the field and the reason.
ValidationRow skipped(ValidationRow row, const Error& e);
// The error column: (predicted − measured) / measured; for a time metric that of throughput.
void finish(ValidationRow& row, const FlopConvention& c);

// The profile a record on `gpu` is timed with, and how the row names it (ValidateOptions).
struct ProfilePick {
  std::optional<HardwareProfile> profile;  // none: the datasheet profile
  std::string label;
};
ProfilePick pick_profile(const std::string& gpu, const ValidateOptions& opt);

ValidationRow training_row(const Record& rec, const ValidateOptions& opt, std::set<std::string>& profiles_used);
ValidationRow kernel_row(const Record& rec, const ValidateOptions& opt, std::set<std::string>& profiles_used);

}  // namespace llmc::validate::detail
