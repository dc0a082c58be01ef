// One way to show numbers to people, for every screen, the CLI's tables and the embed module:
// engineering style with a multiplier and three or four significant digits (8.03B, 51.5 ZFLOP,
// 234.8k, $586.9k, 27.4 days; trailing zeros dropped), one memory convention (binary GiB by
// default, decimal GB on request), and format_exact() for tooltips. JSON output never goes
// through here: it keeps full precision (docs/json-contract.md). Explanation terms keep their
// own rendering (explain.h format_value), which the JSON's warnings quote.
#pragma once
#include <string>

namespace llmc {

// Memory sizes in binary units (KiB, MiB, GiB, TiB: GPU memory is sold in them) or decimal ones
// (kB, MB, GB, TB: what `nvidia-smi` does not use, but datasheets often do).
enum class MemoryUnits { gib, gb };
const char* to_string(MemoryUnits u);                                // "gib", "gb"
bool parse_memory_units(const std::string& text, MemoryUnits& out);  // "gib"/"GiB", "gb"/"GB"

std::string format_count(double v);                                        // 256, 0.125, 234.8k, 8.03B, 15T
std::string format_flops(double flops);                                    // 51.5 ZFLOP
std::string format_flop_rate(double flop_per_s);                           // 989.4 TFLOP/s
std::string format_bytes(double bytes, MemoryUnits u = MemoryUnits::gib);  // 66.5 GiB, 71.4 GB, 512 B
std::string format_duration(double seconds);  // 12.3 µs, 845.2 ms, 5.21 s, 3.45 min, 3.21 h, 27.4 days
std::string format_usd(double usd);           // $0.42, $58.20, $512, $586.9k, $1.69M
std::string format_percent(double fraction);  // 45.7%, 4.57%, 0.052%
std::string format_energy_kwh(double kwh);    // 123.4 MWh
// Full precision: the shortest text that reads back to the same double, whole numbers with their
// digits grouped ("8,030,261,248", "0.4567123", "1.5e-05"); parse_number() reads it back.
std::string format_exact(double v);
// By the unit names that explanation terms and JSON keys use: "bytes", "s", "days", "FLOPs",
// "FLOP/s", "USD", "fraction", "kWh"; any other unit follows a count ("8.03B params").
std::string format_quantity(double v, const std::string& unit, MemoryUnits u = MemoryUnits::gib);

}  // namespace llmc
