// The display formatter (format.h). Every multiplier ladder goes through scaled(): pick the
// largest multiplier not above the value, print the mantissa with 2 decimals below 10 and 1 from
// 10 on, and step up a multiplier when rounding reaches 1000 ("999.96k" is "1M").
#include "llmc/format.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "llmc/number_input.h"

namespace llmc {
namespace {

struct Multiplier {
  double scale;
  const char* name;
};

double num(const std::string& s) { return std::strtod(s.c_str(), nullptr); }

std::string trim_zeros(std::string s) {
  if (s.find('.') == std::string::npos) return s;
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s;
}

// |m| in [1, 1000): "8.03", "51.5", "234.8", "15".
std::string mantissa(double m) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", std::fabs(m) < 10 ? 2 : 1, m);
  return trim_zeros(buf);
}

// Below 1000 (and above 0): whole numbers as they are, others at three or four significant digits.
std::string small(double v) {
  char buf[48];
  const double a = std::fabs(v);
  if (v == std::floor(v)) std::snprintf(buf, sizeof buf, "%.0f", v);
  else if (a >= 1) return mantissa(v);
  else if (a >= 1e-3) std::snprintf(buf, sizeof buf, "%.3f", v);
  else std::snprintf(buf, sizeof buf, "%.3g", v);
  return trim_zeros(buf);
}

// `ladder` ascending, its first scale > 1. Values below the first print as small() + `base_unit`.
template <size_t N>
std::string scaled(double v, const Multiplier (&ladder)[N], const char* space, const char* base_unit, const char* unit) {
  if (!std::isfinite(v)) return "n/a";
  const double a = std::fabs(v);
  const std::string sign = v < 0 ? "-" : "";
  size_t k = 0;  // how many multipliers are not above the value
  while (k < N && a >= ladder[k].scale) ++k;
  if (k == 0) {
    const std::string m = small(a);
    if (num(m) < ladder[0].scale) return sign + m + base_unit;
    k = 1;  // rounding reached the first multiplier
  }
  std::string m = mantissa(a / ladder[k - 1].scale);
  if (k < N && num(m) >= 1000) m = mantissa(a / ladder[k++].scale);
  return sign + m + space + ladder[k - 1].name + unit;
}

constexpr Multiplier kCount[] = {{1e3, "k"}, {1e6, "M"}, {1e9, "B"}, {1e12, "T"}, {1e15, "P"}, {1e18, "E"}};
constexpr Multiplier kSi[] = {{1e3, "k"},  {1e6, "M"},  {1e9, "G"},  {1e12, "T"}, {1e15, "P"},
                              {1e18, "E"}, {1e21, "Z"}, {1e24, "Y"}, {1e27, "R"}, {1e30, "Q"}};
constexpr Multiplier kBinary[] = {{1024.0, "Ki"},
                                  {1048576.0, "Mi"},
                                  {1073741824.0, "Gi"},
                                  {1099511627776.0, "Ti"},
                                  {1125899906842624.0, "Pi"},
                                  {1152921504606846976.0, "Ei"}};

std::string with_commas(double whole) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.0f", std::fabs(whole));
  std::string digits = buf, out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return (whole < 0 ? "-" : "") + out;
}

}  // namespace

const char* to_string(MemoryUnits u) { return u == MemoryUnits::gb ? "gb" : "gib"; }

bool parse_memory_units(const std::string& text, MemoryUnits& out) {
  if (text == "gib" || text == "GiB") out = MemoryUnits::gib;
  else if (text == "gb" || text == "GB") out = MemoryUnits::gb;
  else return false;
  return true;
}

std::string format_count(double v) { return scaled(v, kCount, "", "", ""); }

std::string format_flops(double flops) { return scaled(flops, kSi, " ", " FLOP", "FLOP"); }

std::string format_flop_rate(double flop_per_s) { return scaled(flop_per_s, kSi, " ", " FLOP/s", "FLOP/s"); }

std::string format_bytes(double bytes, MemoryUnits u) {
  if (!std::isfinite(bytes)) return "n/a";
  if (u == MemoryUnits::gb) return scaled(bytes, kSi, " ", " B", "B");
  return scaled(bytes, kBinary, " ", " B", "B");
}

std::string format_duration(double seconds) {
  if (!std::isfinite(seconds)) return "n/a";
  const double a = std::fabs(seconds);
  const std::string sign = seconds < 0 ? "-" : "";
  if (a == 0) return "0 s";
  if (a < 1e-6) return sign + small(a * 1e9) + " ns";
  // Each unit up to where rounding would print 1000 of it.
  if (a < 1e-3 && num(mantissa(a * 1e6)) < 1000) return sign + mantissa(a * 1e6) + " \xC2\xB5s";
  if (a < 1 && num(mantissa(a * 1e3)) < 1000) return sign + mantissa(a * 1e3) + " ms";
  if (a < 119.95) return sign + mantissa(a) + " s";
  if (a < 7197) return sign + mantissa(a / 60) + " min";
  if (a < 2 * 86400) return sign + mantissa(a / 3600) + " h";
  const double days = a / 86400;
  if (days < 999.95) return sign + mantissa(days) + " days";
  return sign + with_commas(std::round(days)) + " days";
}

std::string format_usd(double usd) {
  if (!std::isfinite(usd)) return "n/a";
  const double a = std::fabs(usd);
  const std::string sign = usd < 0 ? "-" : "";
  char buf[48];
  if (a < 99.995) std::snprintf(buf, sizeof buf, "$%.2f", a);
  else if (a < 999.5) std::snprintf(buf, sizeof buf, "$%.0f", a);
  else return sign + "$" + format_count(a);
  return sign + buf;
}

std::string format_percent(double fraction) {
  if (!std::isfinite(fraction)) return "n/a";
  const double p = 100 * fraction;
  if (p == 0) return "0%";
  if (std::fabs(p) >= 0.995) return (p < 0 ? "-" : "") + mantissa(std::fabs(p)) + "%";
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.2g%%", p);
  return buf;
}

std::string format_energy_kwh(double kwh) { return scaled(kwh * 1000, kSi, " ", " Wh", "Wh"); }

std::string format_exact(double v) {
  if (!std::isfinite(v)) return "n/a";
  if (v == std::floor(v) && std::fabs(v) < 9007199254740992.0) return with_commas(v);  // below 2^53 every whole number is exact
  char buf[48];
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
    Result<double> back = parse_number(buf);
    if (back && *back == v) return buf;
  }
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

std::string format_quantity(double v, const std::string& unit, MemoryUnits u) {
  if (unit == "bytes") return format_bytes(v, u);
  if (unit == "s") return format_duration(v);
  if (unit == "days") return std::isfinite(v) ? format_duration(v * 86400) : "n/a";
  if (unit == "FLOPs" || unit == "FLOP") return format_flops(v);
  if (unit == "FLOP/s") return format_flop_rate(v);
  if (unit == "USD") return format_usd(v);
  if (unit == "fraction") return format_percent(v);
  if (unit == "kWh") return format_energy_kwh(v);
  if (!std::isfinite(v)) return "n/a";
  return unit.empty() ? format_count(v) : format_count(v) + " " + unit;
}

}  // namespace llmc
