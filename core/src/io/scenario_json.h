// The scenario as a JSON value, for the documents that embed it (reports, share links) without
// a dump-and-parse round trip; scenario_to_json() (llmc/fields.h) is its text.
#pragma once
#include "common/json_util.h"
#include "llmc/scenario.h"

namespace llmc::detail {

json scenario_json_value(const Scenario& s);

}  // namespace llmc::detail
