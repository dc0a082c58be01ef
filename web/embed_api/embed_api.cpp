// The embeddable JS module (embind): estimate(scenarioJSON) → result JSON, explain(...) → text.
// No ImGui, no SDL: a small separate wasm that documentation pages load to compute their numbers.
#include <emscripten/bind.h>

#include <string>

#include "llmc/estimate.h"
#include "llmc/fields.h"
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

// The full result JSON (with explanation terms), or {"error": {"field", "message"}}.
std::string estimate(const std::string& scenario_json) {
  llmc::Result<llmc::Estimate> e = run(scenario_json);
  return e ? llmc::estimate_to_json(*e, true, -1) : error_json(e.error());
}

// The derivation of every figure whose key starts with `key_prefix`, as text.
std::string explain(const std::string& scenario_json, const std::string& key_prefix) {
  llmc::Result<llmc::Estimate> e = run(scenario_json);
  if (!e) return "error: " + e.error().text();
  std::string out;
  for (const llmc::Term& t : e->trace.terms())
    if (std::string(t.key).rfind(key_prefix, 0) == 0) out += llmc::render(t) + "\n";
  return out;
}

// A share-link fragment ("#s=...") for the scenario, so a page can link to the calculator.
std::string share_fragment(const std::string& scenario_json) {
  llmc::Scenario s = llmc::default_scenario();
  if (llmc::Status st = llmc::apply_scenario_json(s, scenario_json); !st) return "";
  return llmc::scenario_to_url_fragment(s);
}

std::string version() { return llmc::kVersion; }

}  // namespace

EMSCRIPTEN_BINDINGS(llmcalc) {
  emscripten::function("estimate", &estimate);
  emscripten::function("explain", &explain);
  emscripten::function("shareFragment", &share_fragment);
  emscripten::function("version", &version);
}
