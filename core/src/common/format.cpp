// The display formatter (format.h). Every multiplier ladder goes through scaled(): pick the
// largest multiplier not above the value, print the mantissa with 2 decimals below 10 and 1 from
// 10 on (trailing zeros dropped), and step up a multiplier when rounding reaches 1000 ("999.96k"
// is "1M"). Text is built in one char buffer per number: this code is in the embed module too,
// whose size is budgeted (docs/benchmarks.md).
#include "llmc/format.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

#include "llmc/number_input.h"

namespace llmc {
namespace {

struct Multiplier {
  double scale;
  const char* name;
};

int decimals(double m) { return std::fabs(m) < 10 ? 2 : 1; }

// m rounded as "%.*f" with decimals(m) prints it (ties aside): decides a step up the ladder.
double rounded(double m) {
  const double p = decimals(m) == 2 ? 100 : 10;
  return std::round(m * p) / p;
}

// sign + number (printf `fmt` with `digits`, trailing zeros after a '.' dropped) + a + b + c.
std::string compose(const char* sign, const char* fmt, int digits, double v, const char* a, const char* b = "",
                    const char* c = "") {
  char num[64], buf[128];
  std::snprintf(num, sizeof num, fmt, digits, v);
  if (std::strchr(num, '.') && !std::strchr(num, 'e')) {
    size_t n = std::strlen(num);
    while (num[n - 1] == '0') num[--n] = 0;
    if (num[n - 1] == '.') num[--n] = 0;
  }
  std::snprintf(buf, sizeof buf, "%s%s%s%s%s", sign, num, a, b, c);
  return buf;
}

// A value below the first multiplier: whole numbers whole, others at three or four digits.
std::string small(const char* sign, double a, const char* unit, const char* unit2 = "") {
  const bool whole = a == std::floor(a);
  return compose(sign,
                 whole || a >= 1 ? "%.*f"
                 : a >= 1e-3     ? "%.*f"
                                 : "%.*g",
                 whole    ? 0
                 : a >= 1 ? decimals(a)
                          : 3,
                 a, unit, unit2);
}

// `ladder` ascending, its first scale > 1. Below it: small() + `base_unit`.
std::string scaled(double v, const Multiplier* ladder, int n, const char* space, const char* base_unit,
                   const char* unit) {
  if (!std::isfinite(v)) return "n/a";
  const double a = std::fabs(v);
  const char* sign = v < 0 ? "-" : "";
  int k = 0;  // how many multipliers are not above the value
  while (k < n && a >= ladder[k].scale) ++k;
  if (k == 0 && (a == std::floor(a) || rounded(a) < ladder[0].scale)) return small(sign, a, space, base_unit);
  k = k ? k : 1;  // rounding reached the first multiplier
  double m = a / ladder[k - 1].scale;
  if (k < n && rounded(m) >= 1000) m = a / ladder[k++].scale;
  return compose(sign, "%.*f", decimals(m), m, space, ladder[k - 1].name, unit);
}

constexpr Multiplier kCount[] = {{1e3, "k"}, {1e6, "M"}, {1e9, "B"}, {1e12, "T"}, {1e15, "P"}, {1e18, "E"}};
constexpr Multiplier kSi[] = {{1e3, "k"},  {1e6, "M"},  {1e9, "G"},  {1e12, "T"}, {1e15, "P"},
                              {1e18, "E"}, {1e21, "Z"}, {1e24, "Y"}, {1e27, "R"}, {1e30, "Q"}};
constexpr Multiplier kBinary[] = {{1024.0, "Ki"},          {1048576.0, "Mi"},          {1073741824.0, "Gi"},
                                  {1099511627776.0, "Ti"}, {1125899906842624.0, "Pi"}, {1152921504606846976.0, "Ei"}};

// "8,030,261,248": a whole number with its digits grouped.
std::string with_commas(double whole, const char* unit = "") {
  char digits[48];
  std::snprintf(digits, sizeof digits, "%.0f", std::fabs(whole));
  std::string out = whole < 0 ? "-" : "";
  for (size_t i = 0, n = std::strlen(digits); i < n; ++i) {
    if (i && (n - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out + unit;
}

}  // namespace

const char* to_string(MemoryUnits u) { return u == MemoryUnits::gb ? "gb" : "gib"; }

bool parse_memory_units(const std::string& text, MemoryUnits& out) {
  if (text == "gib" || text == "GiB")
    out = MemoryUnits::gib;
  else if (text == "gb" || text == "GB")
    out = MemoryUnits::gb;
  else
    return false;
  return true;
}

std::string format_count(double v) { return scaled(v, kCount, 6, "", "", ""); }

std::string format_flops(double flops) { return scaled(flops, kSi, 10, " ", "FLOP", "FLOP"); }

std::string format_flop_rate(double flop_per_s) { return scaled(flop_per_s, kSi, 10, " ", "FLOP/s", "FLOP/s"); }

std::string format_bytes(double bytes, MemoryUnits u) {
  return u == MemoryUnits::gb ? scaled(bytes, kSi, 10, " ", "B", "B") : scaled(bytes, kBinary, 6, " ", "B", "B");
}

std::string format_duration(double seconds) {
  if (!std::isfinite(seconds)) return "n/a";
  const double a = std::fabs(seconds);
  const char* sign = seconds < 0 ? "-" : "";
  if (a == 0) return "0 s";
  if (a < 1e-6) return small(sign, a * 1e9, " ns");
  // Each unit up to where rounding would print 1000 of it.
  if (a < 1e-3 && rounded(a * 1e6) < 1000) return compose(sign, "%.*f", decimals(a * 1e6), a * 1e6, " \xC2\xB5s");
  if (a < 1 && rounded(a * 1e3) < 1000) return compose(sign, "%.*f", decimals(a * 1e3), a * 1e3, " ms");
  static const Multiplier kLong[] = {{1, " s"}, {60, " min"}, {3600, " h"}, {86400, " days"}};
  const double limits[] = {119.95, 7197, 2 * 86400, 999.95 * 86400};
  for (int k = 0; k < 4; ++k)
    if (a < limits[k]) return compose(sign, "%.*f", decimals(a / kLong[k].scale), a / kLong[k].scale, kLong[k].name);
  return sign + with_commas(std::round(a / 86400), " days");
}

std::string format_usd(double usd) {
  if (!std::isfinite(usd)) return "n/a";
  const double a = std::fabs(usd);
  const char* sign = usd < 0 ? "-$" : "$";
  if (a < 99.995) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%s%.2f", sign, a);  // cents kept: "$58.20"
    return buf;
  }
  if (a < 999.5) return compose(sign, "%.*f", 0, a, "");
  return sign + format_count(a);
}

std::string format_percent(double fraction) {
  if (!std::isfinite(fraction)) return "n/a";
  const double p = 100 * fraction;
  if (p == 0) return "0%";
  if (std::fabs(p) >= 0.995) return compose(p < 0 ? "-" : "", "%.*f", decimals(p), std::fabs(p), "%");
  return compose("", "%.*g", 2, p, "%");
}

std::string format_energy_kwh(double kwh) { return scaled(kwh * 1000, kSi, 10, " ", "Wh", "Wh"); }

std::string format_exact(double v) {
  if (!std::isfinite(v)) return "n/a";
  if (v == std::floor(v) && std::fabs(v) < 9007199254740992.0)
    return with_commas(v);  // below 2^53 every whole number is exact
  char buf[48];
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
    Result<double> back = parse_number(buf);
    if (back && *back == v) break;
  }
  return buf;
}

std::string format_quantity(double v, const std::string& unit, MemoryUnits u) {
  if (unit == "bytes") return format_bytes(v, u);
  if (unit == "s") return format_duration(v);
  if (unit == "days") return format_duration(v * 86400);
  if (unit == "FLOPs" || unit == "FLOP") return format_flops(v);
  if (unit == "FLOP/s") return format_flop_rate(v);
  if (unit == "USD") return format_usd(v);
  if (unit == "fraction") return format_percent(v);
  if (unit == "kWh") return format_energy_kwh(v);
  const std::string count = format_count(v);
  return unit.empty() || count == "n/a" ? count : count + " " + unit;
}

}  // namespace llmc
