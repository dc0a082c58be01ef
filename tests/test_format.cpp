// The display formatter (format.h): the examples, every ladder's edges (rounding up to the
// next multiplier), both memory conventions, and format_exact() reading back exactly.
#include <cmath>
#include <cstring>

#include "llmc/format.h"
#include "llmc/number_input.h"
#include "test_util.h"

using namespace llmc;
using namespace llmc::test;

TEST_CASE("format: the issue's examples") {
  CHECK(format_count(8030261248.0) == "8.03B");
  CHECK(format_quantity(8030261248.0, "params") == "8.03B params");
  CHECK(format_flops(5.15e22) == "51.5 ZFLOP");
  CHECK(format_count(234800) == "234.8k");
  CHECK(format_quantity(234812, "GPU-hours") == "234.8k GPU-hours");
  CHECK(format_usd(586917) == "$586.9k");
}

TEST_CASE("format_count: small numbers, ladders and rounding to the next multiplier") {
  CHECK(format_count(0) == "0");
  CHECK(format_count(256) == "256");
  CHECK(format_count(999) == "999");
  CHECK(format_count(0.125) == "0.125");
  CHECK(format_count(12.345) == "12.3");
  CHECK(format_count(1.5e-5) == "1.5e-05");
  CHECK(format_count(999.96) == "1k");  // rounding reaches the multiplier
  CHECK(format_count(1000) == "1k");
  CHECK(format_count(15e12) == "15T");
  CHECK(format_count(1.5e12) == "1.5T");
  CHECK(format_count(70.6e9) == "70.6B");
  CHECK(format_count(999.96e6) == "1B");
  CHECK(format_count(-2500) == "-2.5k");
  CHECK(format_count(2e18) == "2E");
  CHECK(format_count(std::nan("")) == "n/a");
}

TEST_CASE("format_bytes: GiB by default, GB on request") {
  const double gib = 1073741824.0;
  CHECK(format_bytes(80 * gib) == "80 GiB");
  CHECK(format_bytes(80 * gib, MemoryUnits::gb) == "85.9 GB");
  CHECK(format_bytes(66.52 * gib) == "66.5 GiB");
  CHECK(format_bytes(8.034 * gib) == "8.03 GiB");
  CHECK(format_bytes(141e9, MemoryUnits::gb) == "141 GB");
  CHECK(format_bytes(512) == "512 B");
  CHECK(format_bytes(1023.99) == "1 KiB");
  CHECK(format_bytes(1.5 * 1024 * 1024) == "1.5 MiB");
  CHECK(format_bytes(2.5 * 1099511627776.0) == "2.5 TiB");
  CHECK(format_bytes(-3.25 * gib) == "-3.25 GiB");  // a negative headroom
  CHECK(format_bytes(0) == "0 B");
  CHECK(format_quantity(80 * gib, "bytes", MemoryUnits::gb) == "85.9 GB");
  MemoryUnits u;
  CHECK(parse_memory_units("GB", u));
  CHECK(u == MemoryUnits::gb);
  CHECK(parse_memory_units("gib", u));
  CHECK(u == MemoryUnits::gib);
  CHECK_FALSE(parse_memory_units("MB", u));
  CHECK(std::string(to_string(MemoryUnits::gb)) == "gb");
}

TEST_CASE("format_duration: from nanoseconds to days") {
  CHECK(format_duration(0) == "0 s");
  CHECK(format_duration(2.5e-9) == "2.5 ns");
  CHECK(format_duration(12.34e-6) == "12.3 \xC2\xB5s");
  CHECK(format_duration(0.8452) == "845.2 ms");
  CHECK(format_duration(0.99999) == "1 s");  // 999.99 ms rounds to 1000: one unit up
  CHECK(format_duration(5.214) == "5.21 s");
  CHECK(format_duration(207) == "3.45 min");
  CHECK(format_duration(3.21 * 3600) == "3.21 h");
  CHECK(format_duration(27.43 * 86400) == "27.4 days");
  CHECK(format_duration(1234.4 * 86400) == "1,234 days");
  CHECK(format_quantity(27.43, "days") == "27.4 days");
  CHECK(format_quantity(1e-9, "days") == "86.4 \xC2\xB5s");  // the 1-token run
}

TEST_CASE("format_usd, format_percent, rates and energy") {
  CHECK(format_usd(0.42) == "$0.42");
  CHECK(format_usd(58.2) == "$58.20");
  CHECK(format_usd(512.4) == "$512");
  CHECK(format_usd(1690000) == "$1.69M");
  CHECK(format_usd(0) == "$0.00");
  CHECK(format_percent(0.4567) == "45.7%");
  CHECK(format_percent(0.04567) == "4.57%");
  CHECK(format_percent(1) == "100%");
  CHECK(format_percent(0.00052) == "0.052%");
  CHECK(format_percent(0) == "0%");
  CHECK(format_flop_rate(989.4e12) == "989.4 TFLOP/s");
  CHECK(format_energy_kwh(123400) == "123.4 MWh");
  CHECK(format_quantity(4.2e23, "FLOPs") == "420 ZFLOP");
  CHECK(format_quantity(0.4, "fraction") == "40%");
  CHECK(format_quantity(1.2e6, "tokens/s") == "1.2M tokens/s");
}

TEST_CASE("format_exact: every digit, grouped, and parse_number reads it back") {
  CHECK(format_exact(8030261248.0) == "8,030,261,248");
  CHECK(format_exact(0.45) == "0.45");
  CHECK(format_exact(-1234) == "-1,234");
  CHECK(format_exact(1.5e-5) == "1.5e-05");
  CHECK(format_exact(1e300) == "1e+300");
  unsigned long long x = 0x2545F4914F6CDD1DULL;
  for (int i = 0; i < 20000; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    double v;
    std::memcpy(&v, &x, sizeof v);
    if (i % 2) v = double(x % 10000000000000ULL) / 1000;
    if (!std::isfinite(v)) continue;
    Result<double> back = parse_number(format_exact(v));
    INFO(v << " -> " << format_exact(v));
    REQUIRE(back.ok());
    CHECK(*back == v);
  }
}
