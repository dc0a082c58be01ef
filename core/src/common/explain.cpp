#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "llmc/explain.h"

namespace llmc {

double Trace::record(const char* key, const char* formula, const char* unit, const char* source, double value,
                     std::initializer_list<TermInput> inputs) {
  // Built in place: a Term built on the stack and copied in cost more than the rest of
  // recording (store-forwarding stalls on the 176-byte copy; docs/benchmarks.md).
  Term& t = terms_.emplace_back(key, formula, unit, source, value);
  // The count in a local: stores into t.inputs could alias t.n_inputs for all the compiler knows.
  const int n = static_cast<int>(std::min(inputs.size(), t.inputs.size()));
  dropped_inputs_ += inputs.size() - size_t(n);
  const TermInput* in = inputs.begin();
  for (int i = 0; i < n; ++i) t.inputs[size_t(i)] = in[i];
  t.n_inputs = n;
  return value;
}

const Term* Trace::find(const std::string& key) const {
  for (const Term& t : terms_)
    if (key == t.key) return &t;
  return nullptr;
}

static std::string plain(double v) {
  char buf[48];
  if (v == 0) return "0";
  const double a = std::fabs(v);
  if (a >= 1e6 || a < 1e-3) {
    std::snprintf(buf, sizeof buf, "%.4g", v);
  } else if (v == std::floor(v)) {
    std::snprintf(buf, sizeof buf, "%.0f", v);
  } else {
    std::snprintf(buf, sizeof buf, "%.4g", v);
  }
  return buf;
}

// printf("%.2f<suffix>") without printf: glibc formats a double in ~250 ns, which was a tenth of
// an estimate() whose "does not fit" warning quotes two sizes (docs/benchmarks.md). Rounds the
// scaled value half away from zero; printf rounds the exact binary value, so the two differ only
// within an ulp of a tie (…5 at the third decimal). Beyond 1e15 printf itself is used.
static std::string fixed2(double v, const char* suffix) {
  if (std::fabs(v) >= 1e15) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f%s", v, suffix);
    return buf;
  }
  const long long cents = std::llround(v * 100);
  const unsigned long long a =
      cents < 0 ? 0ULL - static_cast<unsigned long long>(cents) : static_cast<unsigned long long>(cents);
  std::string out = cents < 0 ? "-" : "";
  out += std::to_string(a / 100);
  out += '.';
  out += char('0' + (a % 100) / 10);
  out += char('0' + a % 10);
  out += suffix;
  return out;
}

std::string format_value(double v, const std::string& unit) {
  char buf[64];
  if (!std::isfinite(v)) return "n/a";
  if (unit == "bytes") {
    const double a = std::fabs(v);
    if (a >= 1e12) return fixed2(v / 1e12, " TB");
    if (a >= 1e9) return fixed2(v / 1e9, " GB");
    if (a >= 1e6) return fixed2(v / 1e6, " MB");
    std::snprintf(buf, sizeof buf, "%.0f B", v);
    return buf;
  }
  if (unit == "s") {
    if (v >= 86400 * 2)
      std::snprintf(buf, sizeof buf, "%.4g s (%.1f days)", v, v / 86400);
    else if (v >= 1e-3)
      std::snprintf(buf, sizeof buf, "%.4g s", v);
    else
      std::snprintf(buf, sizeof buf, "%.3g ms", v * 1e3);
    return buf;
  }
  if (unit == "fraction") return fixed2(v * 100, "%");
  return unit.empty() ? plain(v) : plain(v) + " " + unit;
}

std::string render(const Term& t) {
  std::string out = std::string(t.key) + " = " + t.formula;
  if (t.n_inputs > 0) {
    out += "\n    where ";
    for (int i = 0; i < t.n_inputs; ++i) {
      if (i) out += ", ";
      out += t.inputs[i].name;
      out += " = ";
      out += plain(t.inputs[i].value);
    }
  }
  out += "\n    = " + format_value(t.value, t.unit);
  if (t.source && *t.source) out += "\n    source: " + std::string(t.source);
  return out;
}

}  // namespace llmc
