// parse_number(): the grammar is in number_input.h. The digits are rebuilt into one plain
// "D.DDDe±X" text (decimal multipliers and % folded into the exponent) and read by strtod, so the
// value is the correctly rounded one; binary multipliers and powers of two are exact ldexp scalings.
#include "llmc/number_input.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "common/ascii.h"

namespace llmc {
namespace {

using detail::is_digit;
using detail::lower;

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

#define LLMC_NUMBER_FORMS " (e.g. 1e9, 1.5T, 8k, 4Ki, 2^20 or 45%)"

Error bad(std::string what) { return make_error("", std::move(what)); }

// "-3", "+12", "12" at s[i]: a small exponent, saturated at ±100000 (beyond is out of range anyway).
bool read_exponent(const std::string& s, size_t& i, long& out) {
  bool neg = false;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) neg = s[i++] == '-';
  if (i >= s.size() || !is_digit(s[i])) return false;
  long v = 0;
  for (; i < s.size() && is_digit(s[i]); ++i) v = v < 100000 ? v * 10 + (s[i] - '0') : v;
  out = neg ? -v : v;
  return true;
}

// Appends the digits of raw (the integer part) to `digits`, without their group separators.
// '_' may separate any groups; ',' only groups of three after a first group of one to three
// ("1,000,000"), so a decimal comma ("1,5") is refused rather than read as fifteen. Returns the
// problem, or nullptr.
const char* integer_digits(const std::string& raw, std::string& digits) {
  const bool commas = raw.find(',') != std::string::npos;
  if (commas && raw.find('_') != std::string::npos) return "',' and '_' mixed as digit separators";
  size_t group = 0, groups = 0;
  for (size_t i = 0; i <= raw.size(); ++i) {
    if (i < raw.size() && is_digit(raw[i])) {
      digits += raw[i];
      ++group;
      continue;
    }
    if (raw.empty()) break;
    if (group == 0) return "a digit separator without digits on both sides";
    if (commas && (groups == 0 ? group > 3 : group != 3))
      return "',' between digits that are not groups of three (use '.' for decimals)";
    ++groups;
    group = 0;
  }
  return nullptr;
}

// "2^20", "10^12", "2**-3": an integer base (s[start, op)) to an integer power (after op_len).
Result<double> parse_power(const std::string& s, size_t start, size_t op, size_t op_len) {
  if (op == start || op - start > 9) return bad("no integer base before '^' (as in 2^20)");
  long long base = 0;
  for (size_t i = start; i < op; ++i) {
    if (!is_digit(s[i])) return bad("no integer base before '^' (as in 2^20)");
    base = base * 10 + (s[i] - '0');
  }
  size_t i = op + op_len;
  long exponent = 0;
  if (!read_exponent(s, i, exponent) || i != s.size()) return bad("no integer exponent after '^' (as in 2^20)");
  double v = 0;
  if (base == 10) {
    char text[16];
    std::snprintf(text, sizeof text, "1e%ld", exponent);
    v = std::strtod(text, nullptr);  // correctly rounded, as 1e-3 is
  } else if (base == 0) {
    if (exponent < 0) return bad("0 to a negative power is not a number");
    v = exponent == 0 ? 1 : 0;
  } else {
    // base = odd × 2^two: the power of two part scales exactly (ldexp); the odd part by squaring.
    long long odd = base;
    int two = 0;
    while (odd % 2 == 0) odd /= 2, ++two;
    double p = 1, b = double(odd);
    for (long e = exponent < 0 ? -exponent : exponent; e > 0 && std::isfinite(p); e >>= 1, b *= b)
      if (e & 1) p *= b;
    if (exponent < 0) p = 1 / p;
    v = std::ldexp(p, static_cast<int>(std::max(-100000L, std::min(100000L, exponent * two))));
    if (v == 0) return bad("too small for a number (it rounds to 0)");
  }
  if (!std::isfinite(v)) return bad("too large for a number");
  return v;
}

}  // namespace

Result<double> parse_number(const std::string& text) {
  // Trimmed, with a Unicode minus (what llmcalc's own pages print) read as '-'.
  std::string s;
  for (size_t i = 0; i < text.size(); ++i) {
    const bool minus = text.compare(i, 3, "\xE2\x88\x92") == 0;
    s += minus ? '-' : text[i];
    if (minus) i += 2;
  }
  while (!s.empty() && is_space(s.back())) s.pop_back();
  size_t i = 0;
  while (i < s.size() && is_space(s[i])) ++i;
  if (i == s.size()) return bad("empty; expected a number" LLMC_NUMBER_FORMS);

  bool negative = false;
  if (s[i] == '+' || s[i] == '-') negative = s[i++] == '-';
  double v = 0;
  if (s.compare(i, 2, "0x") == 0 || s.compare(i, 2, "0X") == 0) {
    // Hexadecimal ("0x40", "0x1p-3"): strtod read it before this parser existed, so it still does.
    char* end = nullptr;
    v = std::strtod(s.c_str() + i, &end);
    if (end != s.c_str() + s.size() || !std::isfinite(v)) return bad("not a hexadecimal number");
  } else if (const size_t op = s.find_first_of("^*", i);
             op != std::string::npos && (s[op] == '^' || s.compare(op, 2, "**") == 0)) {
    Result<double> p = parse_power(s, i, op, s[op] == '^' ? 1 : 2);
    if (!p) return p;
    v = *p;
  } else {
    // Mantissa: integer digits (with separators), fraction digits, exponent.
    const size_t int_start = i;
    while (i < s.size() && (is_digit(s[i]) || s[i] == '_' || s[i] == ',')) ++i;
    std::string digits;  // rebuilt as "INT.FRACeEXP" for strtod
    if (const char* why = integer_digits(s.substr(int_start, i - int_start), digits)) return bad(why);
    digits += '.';
    for (i += i < s.size() && s[i] == '.'; i < s.size() && is_digit(s[i]); ++i) digits += s[i];
    if (digits.size() == 1) return bad("not a number" LLMC_NUMBER_FORMS);
    long exponent = 0;
    if (i < s.size() && lower(s[i]) == 'e' && (++i, !read_exponent(s, i, exponent)))
      return bad("an exponent without digits (as in 1e9)");
    while (i < s.size() && is_space(s[i])) ++i;
    // Multiplier: k M G/B T P (decimal, folded into the exponent), Ki..Pi (binary), %.
    int binary_exponent = 0;
    const std::string rest = s.substr(i);
    if (rest == "%") {
      exponent -= 2;
    } else if (!rest.empty()) {
      const char c = lower(rest[0]);
      if (c < 'a' || c > 'z') return bad("unexpected '" + rest + "' after the number" LLMC_NUMBER_FORMS);
      const char* letters = "kmgtp";
      const char* at = c == 'b' ? letters + 2 : std::strchr(letters, c);
      const bool binary = rest.size() == 2 && lower(rest[1]) == 'i' && c != 'b';
      if (!at || (rest.size() != 1 && !binary))
        return bad("unknown multiplier '" + rest + "' (k, M, B or G, T, P; Ki, Mi, Gi, Ti, Pi; %)");
      const int power = int(at - letters) + 1;
      if (binary)
        binary_exponent = 10 * power;
      else
        exponent += 3 * power;
    }
    char exp_text[16];
    std::snprintf(exp_text, sizeof exp_text, "e%ld", exponent);
    digits += exp_text;
    v = std::ldexp(std::strtod(digits.c_str(), nullptr), binary_exponent);
    if (!std::isfinite(v)) return bad("too large for a number");
    if (v == 0 && digits.find_first_of("123456789") < digits.find('e'))
      return bad("too small for a number (it rounds to 0)");
  }
  return v == 0 ? 0.0 : (negative ? -v : v);
}

std::string number_input_text(double v) {
  if (!std::isfinite(v)) return "";
  if (v == 0) return "0";
  char buf[64];
  const auto reads_back = [v](const char* t) {
    Result<double> r = parse_number(t);
    return r && *r == v;
  };
  const double a = std::fabs(v);
  if (v == std::floor(v) && a < 1e4) {
    std::snprintf(buf, sizeof buf, "%.0f", v);
    return buf;
  }
  if (v == std::floor(v) && a < 1e18) {
    // The largest multiplier, when at most four significant digits say the value exactly:
    // "1T", "15.6T", "8.03B", "2.048M", "100k" (k only for whole thousands: 16384 stays 16384).
    static const struct {
      double scale;
      const char* suffix;
      int max_decimals;
    } kUnits[] = {{1e15, "P", 3}, {1e12, "T", 3}, {1e9, "B", 3}, {1e6, "M", 3}, {1e3, "k", 0}};
    for (const auto& u : kUnits) {
      if (a < u.scale) continue;
      const double m = a / u.scale;
      const int int_digits = m >= 100 ? 3 : m >= 10 ? 2 : 1;
      for (int dec = 0; dec <= std::min(u.max_decimals, 4 - int_digits); ++dec) {
        std::snprintf(buf, sizeof buf, "%.*f%s", dec, v / u.scale, u.suffix);
        if (reads_back(buf)) return buf;
      }
      break;
    }
    if (a < 9007199254740992.0) {  // 2^53: every integer below prints exactly
      std::snprintf(buf, sizeof buf, "%.0f", v);
      return buf;
    }
  }
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
    if (reads_back(buf)) return buf;
  }
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

}  // namespace llmc
