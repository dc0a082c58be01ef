// parse_number(): what engineers type, read exactly; bad text refused with a reason; and
// number_input_text() reads back to the same double. set_field() uses it for every numeric field.
#include <cmath>
#include <cstring>

#include "llmc/number_input.h"
#include "test_util.h"

using namespace llmc;
using namespace llmc::test;

namespace {
double num(const char* text) {
  Result<double> r = parse_number(text);
  INFO(text << ": " << (r ? "" : r.error().message));
  REQUIRE(r.ok());
  return *r;
}
std::string why(const char* text) {
  Result<double> r = parse_number(text);
  INFO(text);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().field.empty());
  return r.error().message;
}
}  // namespace

TEST_CASE("parse_number: the forms of the issue, exactly") {
  CHECK(num("1e9") == 1e9);
  CHECK(num("1.5T") == 1.5e12);
  CHECK(num("15T") == 15e12);
  CHECK(num("8k") == 8000);
  CHECK(num("4Ki") == 4096);
  CHECK(num("70B") == 70e9);
  CHECK(num("2^20") == 1048576);
  // Decimal multipliers scale the digits, not a rounded product: 8.03 × 1e9 in doubles is 8029999999.999999.
  CHECK(num("8.03B") == 8030000000.0);
  CHECK(num("15.6T") == 15.6e12);
  CHECK(num("0.1k") == 100);
  CHECK(num("1.5e3k") == 1.5e6);
}

TEST_CASE("parse_number: every multiplier, case, sign, spacing and separator") {
  CHECK(num("3M") == 3e6);
  CHECK(num("3m") == 3e6);
  CHECK(num("2G") == 2e9);
  CHECK(num("2b") == 2e9);
  CHECK(num("1P") == 1e15);
  CHECK(num("1K") == 1e3);
  CHECK(num("2Mi") == 2097152);
  CHECK(num("1gi") == 1073741824);
  CHECK(num("1Ti") == 1099511627776.0);
  CHECK(num("1Pi") == 1125899906842624.0);
  CHECK(num("0.5Ki") == 512);
  CHECK(num("45%") == 0.45);
  CHECK(num("0.5 %") == 0.005);
  CHECK(num("10^12") == 1e12);
  CHECK(num("10^-3") == 0.001);
  CHECK(num("2**10") == 1024);
  CHECK(num("3^4") == 81);
  CHECK(num("-2^3") == -8);
  CHECK(num("12^2") == 144);  // 3 × 2^2: the power of two part scales exactly
  CHECK(num("1_000_000") == 1e6);
  CHECK(num("1,000,000") == 1e6);
  CHECK(num("12,345.5") == 12345.5);
  CHECK(num("  64 ") == 64);
  CHECK(num("1.5 T") == 1.5e12);
  CHECK(num("+7") == 7);
  CHECK(num("-3") == -3);
  CHECK(num("\xE2\x88\x92"
            "3") == -3);  // U+2212 MINUS SIGN, as llmcalc's pages print it
  CHECK(num(".5") == 0.5);
  CHECK(num("5.") == 5);
  CHECK(num("1E9") == 1e9);
  CHECK(num("1e+3") == 1000);
  CHECK(num("2.5e-4") == 2.5e-4);
  CHECK(num("0") == 0);
  CHECK(!std::signbit(num("-0")));  // no "-0" to show anywhere
  CHECK(num("0.1") == 0.1);
  CHECK(num("123456789012345678") == 123456789012345678.0);
}

TEST_CASE("parse_number: bad text is refused with what is wrong in it") {
  CHECK(contains(why(""), "empty"));
  CHECK(contains(why("   "), "empty"));
  CHECK(contains(why("abc"), "not a number"));
  CHECK(contains(why("abc"), "1.5T"));  // the message shows the forms that work
  CHECK(contains(why("-"), "not a number"));
  CHECK(contains(why("."), "not a number"));
  CHECK(contains(why("1x"), "unknown multiplier 'x'"));
  CHECK(contains(why("1T tokens"), "unknown multiplier"));
  CHECK(contains(why("1Bi"), "unknown multiplier 'Bi'"));
  CHECK(contains(why("1kk"), "unknown multiplier 'kk'"));
  CHECK(contains(why("1.5.3"), "unexpected '.3'"));
  CHECK(contains(why("1e"), "exponent without digits"));
  CHECK(contains(why("1e+"), "exponent without digits"));
  CHECK(contains(why("1,5"), "groups of three"));  // a decimal comma is not fifteen
  CHECK(contains(why("1,0000"), "groups of three"));
  CHECK(contains(why("1000,000"), "groups of three"));
  CHECK(contains(why("1,,000"), "without digits on both sides"));
  CHECK(contains(why("_1"), "without digits on both sides"));
  CHECK(contains(why("1_000,000"), "mixed"));
  CHECK(contains(why("1e400"), "too large"));
  CHECK(contains(why("2^2000"), "too large"));
  CHECK(contains(why("1e-400"), "too small"));
  CHECK(contains(why("2^"), "exponent after '^'"));
  CHECK(contains(why("^5"), "base before '^'"));
  CHECK(contains(why("1.5^2"), "base before '^'"));
  CHECK(contains(why("2^3k"), "exponent after '^'"));
  CHECK(contains(why("0^-1"), "negative power"));
  CHECK(contains(why("3^-2000"), "too small"));
  CHECK(num("3^40") == 12157665459056928801.0);
  CHECK(num("6^-2") == 1.0 / 36);
  CHECK(contains(why("inf"), "not a number"));
  CHECK(contains(why("nan"), "not a number"));
  CHECK(num("0x10") == 16);  // strtod's hexadecimal, accepted before this parser
  CHECK(num("0x1p-3") == 0.125);
  CHECK(contains(why("0x1g"), "hexadecimal"));
  CHECK(contains(why("1 000"), "unexpected '000'"));
}

TEST_CASE("number_input_text: short, and read back to the same double") {
  CHECK(number_input_text(0) == "0");
  CHECK(number_input_text(64) == "64");
  CHECK(number_input_text(8192) == "8192");
  CHECK(number_input_text(16384) == "16384");  // k only for whole thousands
  CHECK(number_input_text(100000) == "100k");
  CHECK(number_input_text(4194304) == "4194304");
  CHECK(number_input_text(2048000) == "2.048M");
  CHECK(number_input_text(1e12) == "1T");
  CHECK(number_input_text(15.6e12) == "15.6T");
  CHECK(number_input_text(8030261248.0) == "8030261248");
  CHECK(number_input_text(8.03e9) == "8.03B");
  CHECK(number_input_text(0.45) == "0.45");
  CHECK(number_input_text(1.5e-5) == "1.5e-05");
  CHECK(number_input_text(-3) == "-3");
  CHECK(number_input_text(1e16) == "10P");
  unsigned long long x = 0x9E3779B97F4A7C15ULL;  // xorshift64: doubles of every magnitude
  for (int i = 0; i < 20000; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    double v;
    if (i % 3 == 0)
      v = double(x % 100000000000000000ULL);  // whole numbers up to 1e17
    else if (i % 3 == 1)
      v = double(x % 1000000) * 1e9;  // round multiples of 1e9
    else
      std::memcpy(&v, &x, sizeof v);  // any bit pattern
    if (!std::isfinite(v)) continue;
    const std::string t = number_input_text(v);
    Result<double> back = parse_number(t);
    INFO(v << " -> " << t);
    REQUIRE(back.ok());
    CHECK(*back == v);
    CHECK(t.size() <= 24);
  }
}

TEST_CASE("set_field reads the same forms, and refuses with field, range, value and reason") {
  Scenario s = default_scenario();
  REQUIRE(set_field(s, "training.tokens", "1.5T").ok());
  CHECK(s.training.tokens == 1.5e12);
  REQUIRE(set_field(s, "hardware.gpu_count", "4Ki").ok());
  CHECK(s.hardware.gpu_count == 4096);
  REQUIRE(set_field(s, "training.global_batch_tokens", "2^22").ok());
  CHECK(s.training.global_batch_tokens == 4194304);
  REQUIRE(set_field(s, "hardware.mfu", "45%").ok());
  CHECK(s.hardware.mfu == 0.45);
  REQUIRE(set_field(s, "model.params", "70B").ok());
  CHECK(s.model.params_override == 70e9);
  REQUIRE(set_field(s, "training.zero_stage", "fsdp").ok());  // the older alias still works
  CHECK(s.training.zero_stage == 3);

  Status st = set_field(s, "hardware.gpu_count", "1e9");  // the issue's "1e9 GPUs": out of range, not 19
  REQUIRE_FALSE(st.ok());
  CHECK(st.error().field == "hardware.gpu_count");
  CHECK(st.error().message == "must be an integer in [0, 1e7]; got '1e9'");
  st = set_field(s, "training.tokens", "1T tokens");
  CHECK(st.error().message ==
        "must be a number in [0, 1e16]; got '1T tokens': unknown multiplier 'T tokens' (k, M, B or G, T, P; Ki, Mi, "
        "Gi, Ti, Pi; %)");
  st = set_field(s, "parallel.tp", "1.5k");
  CHECK(contains(st.error().message, "must be an integer in [1, 1024]; got '1.5k'"));
  st = set_field(s, "training.micro_batch", "2.5");
  CHECK(contains(st.error().message, "integer"));
  CHECK(s.hardware.gpu_count == 4096);  // refusals change nothing
  CHECK(s.training.tokens == 1.5e12);

  // Scenario files and share links go through set_field too: a string value may use the forms.
  Scenario j = default_scenario();
  REQUIRE(apply_scenario_json(
              j, R"({"training": {"tokens": "15T", "global_batch_tokens": "4Mi"}, "hardware": {"gpu_count": "2k"}})")
              .ok());
  CHECK(j.training.tokens == 15e12);
  CHECK(j.training.global_batch_tokens == 4194304);
  CHECK(j.hardware.gpu_count == 2000);
}
