// The embeddable JS module: estimate(scenarioJSON) → result JSON, explain(...) → text. No ImGui,
// no SDL: a small separate wasm that documentation pages load to compute their numbers.
// Plain C exports wrapped by embed_post.js (Module.estimate, .explain, .shareFragment, .version, .format)
// rather than embind, whose runtime cost 5.8 KB of the module's 100 KB gzipped budget for four
// string-in, string-out functions (docs/benchmarks.md).
#include <emscripten/emscripten.h>

#include <string>

#include "llmc/estimate.h"
#include "llmc/fields.h"
#include "llmc/format.h"
#include "llmc/report.h"
#include "llmc/url_state.h"

namespace {

std::string error_json(const llmc::Error& e) {
  // Hand-written to keep nlohmann's dump out of the error path; field and message are escaped.
  auto esc = [](const std::string& s) {
    std::string o;
    for (char c : s) {
      if (c == '"' || c == '\\') o += '\\';
      if (static_cast<unsigned char>(c) < 0x20) continue;
      o += c;
    }
    return o;
  };
  return "{\"error\":{\"field\":\"" + esc(e.field) + "\",\"message\":\"" + esc(e.message) + "\"}}";
}

llmc::Result<llmc::Estimate> run(const std::string& scenario_json) {
  llmc::Scenario s = llmc::default_scenario();
  if (llmc::Status st = llmc::apply_scenario_json(s, scenario_json); !st) return st.error();
  return llmc::estimate(s);
}

// The last answer, owned here until the next call: the JS side copies it out at once.
const char* answer(std::string text) {
  static std::string last;
  last = std::move(text);
  return last.c_str();
}

}  // namespace

extern "C" {

// The full result JSON (with explanation terms), or {"error": {"field", "message"}}.
EMSCRIPTEN_KEEPALIVE const char* llmcalc_estimate(const char* scenario_json) {
  llmc::Result<llmc::Estimate> e = run(scenario_json);
  return answer(e ? llmc::estimate_to_json(*e, true, -1) : error_json(e.error()));
}

// The derivation of every figure whose key starts with `key_prefix`, as text.
EMSCRIPTEN_KEEPALIVE const char* llmcalc_explain(const char* scenario_json, const char* key_prefix) {
  llmc::Result<llmc::Estimate> e = run(scenario_json);
  if (!e) return answer("error: " + e.error().text());
  const std::string prefix = key_prefix;
  std::string out;
  for (const llmc::Term& t : e->trace.terms())
    if (std::string(t.key).rfind(prefix, 0) == 0) out += llmc::render(t) + "\n";
  return answer(out);
}

// A share-link fragment ("#s=...") for the scenario, so a page can link to the calculator.
EMSCRIPTEN_KEEPALIVE const char* llmcalc_share_fragment(const char* scenario_json) {
  llmc::Scenario s = llmc::default_scenario();
  if (llmc::Status st = llmc::apply_scenario_json(s, scenario_json); !st) return answer("");
  return answer(llmc::scenario_to_url_fragment(s));
}

EMSCRIPTEN_KEEPALIVE const char* llmcalc_version() { return llmc::kVersion; }

// A number as the calculator shows it (core's format.h): `unit` is one of the units of the
// explanation terms ("bytes", "s", "days", "FLOPs", "USD", "fraction", ...; "" a count);
// `decimal_gb` nonzero shows memory in GB instead of GiB.
EMSCRIPTEN_KEEPALIVE const char* llmcalc_format(double value, const char* unit, int decimal_gb) {
  return answer(llmc::format_quantity(value, unit, decimal_gb ? llmc::MemoryUnits::gb : llmc::MemoryUnits::gib));
}

}  // extern "C"
