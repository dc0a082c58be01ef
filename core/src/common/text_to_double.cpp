// text_to_double() (text_to_double.h). Decimal text: an exact fast path when the digits and the
// power of ten are both exact doubles (Clinger 1990), else a double approximation corrected one
// step at a time by comparing the text's exact value with the midpoints between neighbouring
// doubles in big-integer arithmetic (Clinger's AlgorithmR). Hexadecimal text: its bits rounded
// once, to the precision of the result (53 bits, fewer when subnormal).
#include "common/text_to_double.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "common/ascii.h"

namespace llmc::detail {
namespace {

bool is_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }  // C locale: \t \n \v \f \r

// "e-12", "p+3": the exponent after `p` (the letter), saturated far beyond any double's range;
// `p` moves past it only when digits follow, as strtod reads "1e" as 1 and stops at the 'e'.
int64_t read_exponent(const char*& p) {
  const char* q = p + 1;
  const bool negative = *q == '-';
  if (*q == '+' || *q == '-') ++q;
  if (!is_digit(*q)) return 0;
  int64_t v = 0;
  for (; is_digit(*q); ++q) v = v < 1000000 ? v * 10 + (*q - '0') : v;
  p = q;
  return negative ? -v : v;
}

// A non-negative integer in 32-bit limbs, least significant first, no leading zero limbs.
class BigInt {
 public:
  explicit BigInt(uint64_t v = 0) {
    for (; v; v >>= 32) limbs_.push_back(static_cast<uint32_t>(v));
  }
  void mul_add(uint32_t m, uint32_t a) {  // this = this × m + a, m > 0
    uint64_t carry = a;
    for (uint32_t& l : limbs_) {
      const uint64_t t = uint64_t(l) * m + carry;
      l = static_cast<uint32_t>(t), carry = t >> 32;
    }
    if (carry) limbs_.push_back(static_cast<uint32_t>(carry));
  }
  void mul_pow5(int64_t n) {
    static constexpr uint32_t kPow5[14] = {1,     5,      25,      125,     625,      3125,      15625,
                                           78125, 390625, 1953125, 9765625, 48828125, 244140625, 1220703125};
    for (; n >= 13; n -= 13) mul_add(kPow5[13], 0);
    if (n > 0) mul_add(kPow5[n], 0);
  }
  void shift_left(int64_t bits) {
    if (limbs_.empty() || bits <= 0) return;
    const int b = static_cast<int>(bits % 32);
    if (b) {
      uint32_t carry = 0;
      for (uint32_t& l : limbs_) {
        const uint32_t next = l >> (32 - b);
        l = (l << b) | carry, carry = next;
      }
      if (carry) limbs_.push_back(carry);
    }
    limbs_.insert(limbs_.begin(), static_cast<size_t>(bits / 32), 0u);
  }
  friend int compare(const BigInt& a, const BigInt& b) {
    if (a.limbs_.size() != b.limbs_.size()) return a.limbs_.size() < b.limbs_.size() ? -1 : 1;
    for (size_t i = a.limbs_.size(); i-- > 0;)
      if (a.limbs_[i] != b.limbs_[i]) return a.limbs_[i] < b.limbs_[i] ? -1 : 1;
    return 0;
  }

 private:
  std::vector<uint32_t> limbs_;
};

// The exact powers of ten a double holds.
constexpr double kExactPow10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

uint64_t bits_of(double x) {
  uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}
double from_bits(uint64_t b) {
  double x;
  std::memcpy(&x, &b, sizeof x);
  return x;
}

// Digits D (no leading zeros) and E with value D × 10^E, compared with m × 2^p: −1, 0 or 1.
int compare_with(const BigInt& digits, int64_t exp10, uint64_t m, int64_t p) {
  BigInt a = digits, b(m);
  int64_t pa = 0, pb = p;
  if (exp10 >= 0) {
    a.mul_pow5(exp10), pa += exp10;
  } else {
    b.mul_pow5(-exp10), pb -= exp10;  // D / 10^k against m·2^p: D against m·5^k·2^(p + k)
  }
  if (pa >= pb)
    a.shift_left(pa - pb);
  else
    b.shift_left(pb - pa);
  return compare(a, b);
}

// The double nearest D × 10^E (ties to even), D given by its digits, from an approximation.
double correct(const std::string& digits, int64_t exp10) {
  BigInt d;
  for (char c : digits) d.mul_add(10, static_cast<uint32_t>(c - '0'));
  // Approximation: the first 19 digits times the power of ten, a few units in the last place off.
  const size_t head = digits.size() < 19 ? digits.size() : 19;
  uint64_t w = 0;
  for (size_t i = 0; i < head; ++i) w = w * 10 + static_cast<uint64_t>(digits[i] - '0');
  int64_t e = exp10 + static_cast<int64_t>(digits.size() - head);
  double x = static_cast<double>(w);
  for (; e > 22; e -= 22) x *= 1e22;
  for (; e < -22; e += 22) x /= 1e22;
  x = e >= 0 ? x * kExactPow10[e] : x / kExactPow10[-e];
  if (std::isinf(x)) x = std::numeric_limits<double>::max();

  for (;;) {
    // x = M × 2^q with M's hidden bit, or a subnormal's M at q = −1074.
    const uint64_t bits = bits_of(x), frac = bits & ((uint64_t(1) << 52) - 1);
    const int biased = static_cast<int>(bits >> 52);
    const uint64_t m = biased ? frac | (uint64_t(1) << 52) : frac;
    const int64_t q = biased ? biased - 1075 : -1074;
    // Above the midpoint with the next double up: move up (past the largest double: infinity).
    int c = compare_with(d, exp10, 2 * m + 1, q - 1);
    if (c > 0 || (c == 0 && (m & 1))) {
      x = from_bits(bits + 1);
      if (c == 0 || std::isinf(x)) return x;
      continue;
    }
    if (c == 0 || m == 0) return x;
    // Below the midpoint with the next double down (half as far below a power of two).
    const bool binade_edge = frac == 0 && biased > 1;
    c = compare_with(d, exp10, binade_edge ? 4 * m - 1 : 2 * m - 1, binade_edge ? q - 2 : q - 1);
    if (c < 0 || (c == 0 && (m & 1))) {
      x = from_bits(bits - 1);
      if (c == 0) return x;
      continue;
    }
    return x;
  }
}

// Hexadecimal digits after "0x" at p: the value rounded once to the result's precision.
double read_hex(const char*& p) {
  uint64_t mantissa = 0;
  int64_t exp2 = 0;
  bool sticky = false;  // nonzero bits below the 60 kept
  auto take = [&](int v, int64_t exp_if_kept, int64_t exp_if_dropped) {
    if (mantissa >> 56 == 0) {
      mantissa = mantissa * 16 + static_cast<uint64_t>(v), exp2 += exp_if_kept;
    } else {
      sticky |= v != 0, exp2 += exp_if_dropped;
    }
  };
  for (; hex_value(*p) >= 0; ++p) take(hex_value(*p), 0, 4);
  if (*p == '.')
    for (++p; hex_value(*p) >= 0; ++p) take(hex_value(*p), -4, 0);
  if (lower(*p) == 'p') exp2 += read_exponent(p);
  if (mantissa == 0) return 0;
  int length = 0;  // bits in the mantissa
  while (length < 64 && mantissa >> length) ++length;
  const int64_t top = length - 1 + exp2;  // the leading bit's power of two
  if (top > 1023) return std::numeric_limits<double>::infinity();
  const int64_t keep = top >= -1022 ? 53 : top + 1075;  // subnormals keep fewer bits
  if (keep < 0) return 0;
  const int64_t drop = length - keep;
  if (drop <= 0) return std::ldexp(static_cast<double>(mantissa), static_cast<int>(exp2));  // exact
  const uint64_t kept = drop >= 64 ? 0 : mantissa >> drop;
  const uint64_t rest = mantissa - (drop >= 64 ? 0 : kept << drop), half = uint64_t(1) << (drop - 1);
  const bool up = rest > half || (rest == half && (sticky || (kept & 1)));
  return std::ldexp(static_cast<double>(kept + up), static_cast<int>(exp2 + drop));
}

}  // namespace

double text_to_double(const char* text, char** end) {
  const char* p = text;
  while (is_space(*p)) ++p;
  const bool negative = *p == '-';
  if (*p == '+' || *p == '-') ++p;
  auto done = [&](const char* stop, double v) {
    if (end) *end = const_cast<char*>(stop);
    return negative ? -v : v;
  };
  auto word = [&](const char* w) {
    size_t n = 0;
    while (w[n] && lower(p[n]) == w[n]) ++n;
    return w[n] == 0 ? n : 0;
  };
  if (const size_t n = word("inf")) {
    const size_t more = word("infinity");
    return done(p + (more ? more : n), std::numeric_limits<double>::infinity());
  }
  if (const size_t n = word("nan")) {
    const char* q = p + n;
    if (*q == '(') {
      const char* r = q + 1;
      while (is_digit(*r) || (lower(*r) >= 'a' && lower(*r) <= 'z') || *r == '_') ++r;
      if (*r == ')') q = r + 1;
    }
    return done(q, std::numeric_limits<double>::quiet_NaN());
  }
  if (p[0] == '0' && lower(p[1]) == 'x' && (hex_value(p[2]) >= 0 || (p[2] == '.' && hex_value(p[3]) >= 0))) {
    const char* q = p + 2;
    const double v = read_hex(q);
    return done(q, v);
  }

  // Decimal: up to 800 significant digits; any nonzero digit beyond them is kept as a final 1,
  // which compares with every midpoint between doubles (at most 767 significant digits) as they do.
  constexpr size_t kMaxDigits = 800;
  std::string digits;
  int64_t exp10 = 0;
  bool any = false, sticky = false;
  // One digit: kept while there is room (one more after the point lowers the exponent), else
  // dropped (one more before the point raises it; a nonzero one sets the sticky digit).
  auto take = [&](char d, bool fraction) {
    if (digits.size() < kMaxDigits) {
      if (!digits.empty() || d != '0') digits += d;
      exp10 -= fraction;
    } else {
      exp10 += !fraction, sticky |= d != '0';
    }
  };
  for (; is_digit(*p); ++p, any = true) take(*p, false);
  if (*p == '.' && (any || is_digit(p[1])))
    for (++p; is_digit(*p); ++p, any = true) take(*p, true);
  if (!any) {
    if (end) *end = const_cast<char*>(text);
    return 0;
  }
  if (lower(*p) == 'e') exp10 += read_exponent(p);
  if (digits.empty()) return done(p, 0);
  if (sticky) digits += '1', --exp10;

  const int64_t magnitude = static_cast<int64_t>(digits.size()) + exp10;  // value < 10^magnitude
  if (magnitude > 310) return done(p, std::numeric_limits<double>::infinity());
  if (magnitude < -324) return done(p, 0);
  if (digits.size() <= 15 && exp10 >= -22 && exp10 <= 22) {  // both exact: one rounding
    double w = 0;
    for (char c : digits) w = w * 10 + (c - '0');
    return done(p, exp10 >= 0 ? w * kExactPow10[exp10] : w / kExactPow10[-exp10]);
  }
  return done(p, correct(digits, exp10));
}

}  // namespace llmc::detail
