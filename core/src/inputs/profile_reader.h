// Internal: reading profile JSON with errors that name the field path and the value.
#pragma once
#include <cmath>
#include <cstdio>
#include <string>

#include "common/json_util.h"
#include "llmc/hardware.h"
#include "llmc/result.h"

namespace llmc::detail {

// A number at obj[key], required, in [lo, hi] (or (lo, hi] when lo_open). Error field "profile: <path><key>".
Result<double> profile_number(const json& obj, const std::string& key, const std::string& path, double lo, double hi,
                              bool lo_open);

// The optional measured tables (gemm, attention, memory_bound, collectives.measured,
// host_device, usable_memory_bytes), validated against the GPU's spec.
Status read_profile_tables(const json& doc, const GpuSpec& gpu, HardwareProfile& p);
// Latencies are stored in seconds and written in µs: round to 1e-9 µs so that a profile written
// and read back is byte-identical (x · 1e-6 · 1e6 drifts in the last bits).
inline double seconds_to_us(double s) { return std::round(s * 1e15) / 1e9; }

void write_profile_tables(const HardwareProfile& p, json& doc);

}  // namespace llmc::detail
