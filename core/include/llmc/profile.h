// Hardware profile files (schema v1, docs/profile-schema.md): read, validate, attach.
#pragma once
#include <string>

#include "llmc/hardware.h"
#include "llmc/result.h"
#include "llmc/scenario.h"

namespace llmc {

constexpr int kProfileSchemaVersion = 1;

// Parses and validates a profile; refuses unknown schema versions, efficiencies outside (0, 1],
// negative latencies and implausible bandwidths, naming the field and the value.
Result<HardwareProfile> profile_from_json(const std::string& json_text);
std::string profile_to_json(const HardwareProfile& p);

// Use `p` for time estimates; its GPU must be the scenario's (checked by resolve()).
void attach_profile(Scenario& s, const HardwareProfile& p);

}  // namespace llmc
