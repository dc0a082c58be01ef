// text_to_double() (core/src/common/text_to_double.h), which the embed module links as strtod,
// against the C library's strtod, which glibc and musl round correctly: the same bits and the same
// end for edge cases, random decimal and hexadecimal texts, the doubles printed back, and the exact
// midpoints between neighbouring doubles, where only ties to even decides.
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>

#include "common/text_to_double.h"
#include "test_util.h"

using llmc::detail::text_to_double;

namespace {

uint64_t bits_of(double x) {
  uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

// The same value (bit for bit; any NaN for a NaN) and the same end as strtod.
void same_as_strtod(const std::string& text) {
  char* end_c = nullptr;
  char* end_ours = nullptr;
  const double c = std::strtod(text.c_str(), &end_c);
  const double ours = text_to_double(text.c_str(), &end_ours);
  INFO("text '" << (text.size() > 200 ? text.substr(0, 200) + "..." : text) << "'");
  if (std::isnan(c)) {
    CHECK(std::isnan(ours));
  } else {
    CHECK(bits_of(ours) == bits_of(c));
  }
  CHECK(end_ours - text.c_str() == end_c - text.c_str());
}

#ifdef __EMSCRIPTEN__
constexpr int kRandomTexts = 20000;  // musl's strtod computes in software long double there
#else
constexpr int kRandomTexts = 60000;
#endif

}  // namespace

TEST_CASE("text_to_double: strtod's grammar, where its text starts and stops") {
  for (const char* t : {"",
                        " ",
                        "+",
                        "-",
                        ".",
                        "+.",
                        "-.e5",
                        "e5",
                        "0",
                        "-0",
                        "+0.0e-5",
                        "00012",
                        "1.",
                        ".5",
                        "5.e",
                        "1e",
                        "1e+",
                        "1e-x",
                        "1.5e3x",
                        "  \t\n\v\f\r42",
                        "1,5",
                        "1_000",
                        "0x",
                        "0X",
                        "0x.",
                        "0x.p1",
                        "0xg",
                        "0x1p",
                        "0x1p+",
                        "0x1.8p1",
                        "-0X.8P-2",
                        "0x1P-1074",
                        "0x1p-1075",
                        "0x1.0000000000001p-1075",
                        "0x1.fffffffffffff8p1023",
                        "0x1.fffffffffffff7ffp1023",
                        "0x1.00000000000008p0",
                        "0x1.000000000000080000001p0",
                        "0x1.00000000000018p0",
                        "0x123456789abcdef0123p-20",
                        "inf",
                        "-INF",
                        "infinity",
                        "Infinit",
                        "infx",
                        "in",
                        "nan",
                        "-NaN",
                        "nan(",
                        "nan()",
                        "nan(abc_12)",
                        "nan(a-b)",
                        "nanx",
                        "1e400",
                        "-1e400",
                        "1e-400",
                        "4.9406564584124654e-324",
                        "2.4703282292062327e-324",
                        "2.4703282292062328e-324",
                        "2.2250738585072011e-308",
                        "2.2250738585072012e-308",
                        "1.7976931348623157e308",
                        "1.7976931348623158e308",
                        "1.7976931348623159e308",
                        "9007199254740993",
                        "9007199254740992.5",
                        "1e23",
                        "8.98846567431158e307",
                        "0.1",
                        "0.30000000000000004",
                        "123456789012345678901234567890",
                        "1e-999999999999",
                        "1e999999999999",
                        "0.000000000000000000000000000000000001e36",
                        "7.038531e-26"})
    same_as_strtod(t);
}

TEST_CASE("text_to_double: random decimal and hexadecimal texts round as strtod does") {
  std::mt19937_64 rng(20261127);
  auto pick = [&](int lo, int hi) { return static_cast<int>(std::uniform_int_distribution<int>(lo, hi)(rng)); };
  auto digits = [&](int n) {
    std::string s;
    for (int i = 0; i < n; ++i) s += static_cast<char>('0' + pick(0, 9));
    return s;
  };
  for (int i = 0; i < kRandomTexts; ++i) {
    std::string t;
    switch (pick(0, 5)) {
      case 0:  // a few digits, a point somewhere, an exponent across the whole range
      case 1: {
        std::string d = digits(pick(1, 25));
        d.insert(size_t(pick(0, int(d.size()))), ".");
        t = (pick(0, 1) ? "-" : "") + d + "e" + std::to_string(pick(-345, 330));
        break;
      }
      case 2: {  // long texts: past 19 digits, past the 800 kept (the rest read as a sticky digit)
        const int n = pick(0, 3) == 0 ? pick(790, 1200) : pick(17, 120);
        t = digits(n) + "e" + std::to_string(pick(-340 - n, 310 - n));
        break;
      }
      case 3: {  // doubles printed back, with 15 to 17 digits
        double x;
        const uint64_t b = rng() & ~(uint64_t(1) << 63);
        std::memcpy(&x, &b, sizeof x);
        if (!std::isfinite(x)) continue;
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.*g", pick(15, 17), x);
        t = buf;
        break;
      }
      case 4: {  // hexadecimal: any bits, any binary exponent, subnormal and overflowing ones included
        char buf[96];
        std::snprintf(buf, sizeof buf, "0x%llx.%llxp%d", static_cast<unsigned long long>(rng() >> pick(0, 63)),
                      static_cast<unsigned long long>(rng()), pick(-1150, 1100));
        t = buf;
        break;
      }
      default: {  // a number that ends early: trailing text stays
        t = digits(pick(1, 6)) + (pick(0, 1) ? "." : "") + digits(pick(0, 4)) + (pick(0, 1) ? "e" : "E") +
            (pick(0, 1) ? "+" : "") + (pick(0, 1) ? digits(pick(0, 3)) : "") + "kB";
        break;
      }
    }
    same_as_strtod(t);
  }
}

TEST_CASE("text_to_double: the exact midpoint between two doubles rounds to the even one") {
  // A midpoint has one bit more than a double: long double holds it exactly where it has at least
  // 54 bits (x86's 64), and glibc's printf writes its exact decimal expansion. Just above and
  // just below it (a digit appended, or the last one lowered) go to the nearer double. Native only:
  // Emscripten's printf converts a long double to double first.
#ifdef __EMSCRIPTEN__
  return;
#endif
  if constexpr (std::numeric_limits<long double>::digits < 54) return;
  std::mt19937_64 rng(1127);
  std::vector<double> xs = {0.0, DBL_MIN, DBL_TRUE_MIN, DBL_MAX, std::nextafter(DBL_MIN, 0.0), 1.0, 0.1, 1e23};
  for (int i = 0; i < kRandomTexts / 20; ++i) {
    double x;
    const uint64_t b = rng() & ~(uint64_t(1) << 63);
    std::memcpy(&x, &b, sizeof x);
    if (std::isfinite(x)) xs.push_back(x);
  }
  for (double x : xs) {
    const double next = std::nextafter(x, std::numeric_limits<double>::infinity());
    // Past DBL_MAX, the midpoint with 2^1024, where rounding goes to infinity.
    const long double up = std::isinf(next) ? std::ldexp(1.0L, 1024) : static_cast<long double>(next);
    const long double mid = (static_cast<long double>(x) + up) / 2;
    char buf[1600];
    std::snprintf(buf, sizeof buf, "%.1200Le", mid);
    std::string exact = buf;  // 1200 digits after the point are more than a double's midpoint has
    same_as_strtod(exact);
    const size_t e = exact.find('e');
    same_as_strtod(exact.substr(0, e) + "1" + exact.substr(e));  // just above
    std::string below = exact;
    size_t last = e - 1;
    while (below[last] == '0') --last;  // the last nonzero digit, lowered by one
    if (below[last] != '.') {
      --below[last];
      same_as_strtod(below);
    }
  }
}
