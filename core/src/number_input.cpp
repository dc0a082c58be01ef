// parse_number(): the grammar is in number_input.h. The digits are rebuilt into one plain
// "D.DDDe±X" text (decimal multipliers and % folded into the exponent) and read by strtod, so the
// value is the correctly rounded one; binary multipliers and powers of two are exact ldexp scalings.
#include "llmc/number_input.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace llmc {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

constexpr const char* kForms = "e.g. 1e9, 1.5T, 8k, 4Ki, 2^20 or 45%";

Error bad(const std::string& what) { return make_error("", what); }

// Quotes user text in a message, cut to a readable length.
std::string quoted(const std::string& s) { return "'" + (s.size() > 40 ? s.substr(0, 40) + "..." : s) + "'"; }

// "-3", "+12", "12": a small exponent, saturated at ±100000 (anything beyond is out of range anyway).
bool read_exponent(const std::string& s, size_t& i, long& out) {
  bool neg = false;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) neg = s[i++] == '-';
  if (i >= s.size() || !is_digit(s[i])) return false;
  long v = 0;
  for (; i < s.size() && is_digit(s[i]); ++i) v = v < 100000 ? v * 10 + (s[i] - '0') : v;
  out = neg ? -v : v;
  return true;
}

// The integer part's digits with their group separators removed. '_' may separate any groups;
// ',' only groups of three after a first group of one to three ("1,000,000"), so a decimal comma
// ("1,5") is refused rather than read as fifteen.
Result<std::string> integer_digits(const std::string& raw) {
  if (raw.empty()) return std::string();
  const char sep = raw.find(',') != std::string::npos ? ',' : '_';
  if (sep == ',' && raw.find('_') != std::string::npos) return bad("',' and '_' mixed as digit separators");
  std::string digits;
  size_t group = 0, groups = 0;
  for (size_t i = 0; i <= raw.size(); ++i) {
    if (i == raw.size() || raw[i] == sep) {
      if (group == 0) return bad("a digit separator '" + std::string(1, sep) + "' without digits on both sides");
      if (sep == ',' && ((groups == 0 && group > 3) || (groups > 0 && group != 3)))
        return bad("',' between digits that are not groups of three (use '.' for decimals)");
      ++groups;
      group = 0;
      continue;
    }
    digits += raw[i];
    ++group;
  }
  return digits;
}

// "2^20", "10^12", "2**-3": an integer base to an integer power.
Result<double> parse_power(const std::string& s, size_t start, size_t op, size_t op_len) {
  const std::string base_text = s.substr(start, op - start);
  if (base_text.empty() || base_text.size() > 9) return bad("no integer base before '^' (as in 2^20)");
  for (char c : base_text)
    if (!is_digit(c)) return bad("no integer base before '^' (as in 2^20)");
  size_t i = op + op_len;
  long exponent = 0;
  if (!read_exponent(s, i, exponent) || i != s.size()) return bad("no integer exponent after '^' (as in 2^20)");
  const double base = std::strtod(base_text.c_str(), nullptr);
  double v = 0;
  if (base == 10) {
    v = std::strtod(("1e" + std::to_string(exponent)).c_str(), nullptr);  // correctly rounded, as 1e-3 is
  } else if (base == 0) {
    if (exponent < 0) return bad("0 to a negative power is not a number");
    v = exponent == 0 ? 1 : 0;
  } else {
    int two = 0;  // base = odd × 2^two: the power of two part scales exactly
    double odd = base;
    while (std::fmod(odd, 2) == 0) odd /= 2, ++two;
    v = std::ldexp(std::pow(odd, static_cast<double>(exponent)), static_cast<int>(std::max(-100000L, std::min(100000L, exponent * two))));
  }
  if (!std::isfinite(v)) return bad("too large for a number");
  return v;
}

}  // namespace

Result<double> parse_number(const std::string& text) {
  // A Unicode minus (what llmcalc's own pages print) reads as '-'.
  std::string s;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text.compare(i, 3, "\xE2\x88\x92") == 0) {
      s += '-';
      i += 2;
    } else {
      s += text[i];
    }
  }
  size_t b = 0, e = s.size();
  while (b < e && is_space(s[b])) ++b;
  while (e > b && is_space(s[e - 1])) --e;
  s = s.substr(b, e - b);
  if (s.empty()) return bad(std::string("empty; expected a number (") + kForms + ")");

  size_t i = 0;
  bool negative = false;
  if (s[i] == '+' || s[i] == '-') negative = s[i++] == '-';
  const auto finish = [&](double v) -> double { return v == 0 ? 0.0 : (negative ? -v : v); };

  if (s.size() > i + 2 && s[i] == '0' && lower(s[i + 1]) == 'x') {
    // Hexadecimal ("0x40", "0x1p-3"): strtod read it before this parser existed, so it still does.
    const std::string hex = s.substr(i);
    char* end = nullptr;
    const double v = std::strtod(hex.c_str(), &end);
    if (end != hex.c_str() + hex.size() || !std::isfinite(v)) return bad("not a hexadecimal number");
    return finish(v);
  }
  if (const size_t caret = s.find('^'); caret != std::string::npos) {
    Result<double> p = parse_power(s, i, caret, 1);
    if (!p) return p.error();
    return finish(*p);
  }
  if (const size_t stars = s.find("**"); stars != std::string::npos) {
    Result<double> p = parse_power(s, i, stars, 2);
    if (!p) return p.error();
    return finish(*p);
  }

  // Mantissa: integer digits (with separators), fraction digits, exponent.
  const size_t int_start = i;
  while (i < s.size() && (is_digit(s[i]) || s[i] == '_' || s[i] == ',')) ++i;
  Result<std::string> int_digits = integer_digits(s.substr(int_start, i - int_start));
  if (!int_digits) return int_digits.error();
  std::string frac_digits;
  if (i < s.size() && s[i] == '.') {
    for (++i; i < s.size() && is_digit(s[i]); ++i) frac_digits += s[i];
  }
  if (int_digits->empty() && frac_digits.empty())
    return bad(std::string("not a number (") + kForms + ")");
  long exponent = 0;
  if (i < s.size() && lower(s[i]) == 'e') {
    ++i;
    if (!read_exponent(s, i, exponent)) return bad("an exponent without digits (as in 1e9)");
  }
  while (i < s.size() && is_space(s[i])) ++i;

  // Multiplier.
  int binary_exponent = 0;
  const std::string rest = s.substr(i);
  if (rest == "%") {
    exponent -= 2;
  } else if (!rest.empty()) {
    static const char kLetters[] = "kmgtp";  // k M G T P; "b" (billion) is G, but "Bi" is nothing
    const char c = lower(rest[0]);
    int power = 0;
    for (int k = 0; kLetters[k]; ++k)
      if ((c == 'b' ? 'g' : c) == kLetters[k]) power = k + 1;
    const bool binary = rest.size() == 2 && lower(rest[1]) == 'i' && c != 'b';
    if (power == 0 && !(c >= 'a' && c <= 'z')) return bad("unexpected " + quoted(rest) + " after the number (" + kForms + ")");
    if (power == 0 || (rest.size() != 1 && !binary))
      return bad("unknown multiplier " + quoted(rest) + " (k, M, B or G, T, P; Ki, Mi, Gi, Ti, Pi; %)");
    if (binary) binary_exponent = 10 * power;
    else exponent += 3 * power;
  }

  const std::string plain = (int_digits->empty() ? "0" : *int_digits) + "." + (frac_digits.empty() ? "0" : frac_digits) + "e" +
                            std::to_string(exponent);
  double v = std::ldexp(std::strtod(plain.c_str(), nullptr), binary_exponent);
  if (!std::isfinite(v)) return bad("too large for a number");
  const bool nonzero_digits = (*int_digits + frac_digits).find_first_not_of('0') != std::string::npos;
  if (v == 0 && nonzero_digits) return bad("too small for a number (it rounds to 0)");
  return finish(v);
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
