// libFuzzer target: bytes → parse_number() (the parser behind every numeric field: --set, scenario
// files, share links, the UI's input boxes), then the display formatter on what it read and on the
// input's first 8 bytes as a double. Must never crash; an accepted number is finite, and
// number_input_text() and format_exact() of it read back to the same double; a refused one has a
// message; every formatter returns non-empty UTF-8 text for any double. And text_to_double(), the
// embed module's strtod, reads the bytes as the C library's strtod does: the same bits and end.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "../../core/src/common/json_util.h"
#include "../../core/src/common/text_to_double.h"
#include "fuzz_common.h"
#include "llmc/format.h"
#include "llmc/number_input.h"

namespace {

void check_text(const std::string& t, const char* what) {
  if (t.empty()) llmc::fuzz::fail(std::string(what) + " returned nothing");
  if (!llmc::detail::valid_utf8(t)) llmc::fuzz::fail(std::string(what) + " returned invalid UTF-8");
}

void check_reads_back(double v, const std::string& text, const char* what) {
  llmc::Result<double> back = llmc::parse_number(text);
  if (!back) llmc::fuzz::fail(std::string(what) + " '" + text + "' does not parse: " + back.error().message);
  if (*back != v) llmc::fuzz::fail(std::string(what) + " '" + text + "' reads back as another double");
}

void format_all(double v) {
  using namespace llmc;
  check_text(format_count(v), "format_count");
  check_text(format_flops(v), "format_flops");
  check_text(format_flop_rate(v), "format_flop_rate");
  check_text(format_bytes(v), "format_bytes");
  check_text(format_bytes(v, MemoryUnits::gb), "format_bytes(gb)");
  check_text(format_duration(v), "format_duration");
  check_text(format_usd(v), "format_usd");
  check_text(format_percent(v), "format_percent");
  check_text(format_energy_kwh(v), "format_energy_kwh");
  check_text(format_quantity(v, "days"), "format_quantity(days)");
  check_text(format_exact(v), "format_exact");
  if (std::isfinite(v)) {
    check_reads_back(v, format_exact(v), "format_exact");
    check_reads_back(v, number_input_text(v), "number_input_text");
  }
}

void check_text_to_double(const std::string& text) {
  char *end_c = nullptr, *end_ours = nullptr;
  const double c = std::strtod(text.c_str(), &end_c), ours = llmc::detail::text_to_double(text.c_str(), &end_ours);
  const bool same = std::isnan(c) ? std::isnan(ours) : std::memcmp(&c, &ours, sizeof c) == 0;
  if (!same || end_c != end_ours) llmc::fuzz::fail("text_to_double() and strtod() read '" + text + "' differently");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 4096) return 0;
  const std::string text(reinterpret_cast<const char*>(data), size);
  check_text_to_double(text);
  llmc::Result<double> r = llmc::parse_number(text);
  if (r) {
    if (!std::isfinite(*r)) llmc::fuzz::fail("parse_number() accepted a non-finite value");
    format_all(*r);
  } else if (r.error().message.empty()) {
    llmc::fuzz::fail("parse_number() refused without a message");
  }
  if (size >= sizeof(double)) {
    double v;
    std::memcpy(&v, data, sizeof v);
    format_all(v);
  }
  return 0;
}
