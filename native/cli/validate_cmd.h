// `llmcalc validate FILE...`: predictions against published runs (llmc_validate), as a table,
// JSON or Markdown; --template fills a Markdown template (scripts/validation-doc.sh writes
// docs/validation.md from docs/validation.md.in with it).
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "llmc/hardware.h"
#include "llmc/result.h"

namespace CLI {
class App;
}

namespace llmc::cli {

struct ValidateArgs {
  std::vector<std::string> files;
  std::string profile;  // "" or "datasheet" (the datasheet profile of every GPU), "datasheet@F" (its GEMMs at F of MAMF
                        // in a step), "published" / "measured" (site/profiles), or a profile file
  std::string only;     // record id prefix
  std::string template_file;  // Markdown template with {{section FILE...}} lines
  bool json = false, markdown = false;
  bool lofo = false;            // leave one family out (llmc_validate/lofo.h), as Markdown
  std::string error_bars_file;  // with --lofo: write core's error-bar table (error_bars_data.cpp) here
};

CLI::App* add_validate_command(CLI::App& app, ValidateArgs& a);
int cmd_validate(const ValidateArgs& a, std::ostream& out, std::ostream& err);

// The profiles of site/profiles/index.json (embedded at build time) whose source is `source`
// ("published", "measured").
Result<std::vector<HardwareProfile>> bundled_profiles(const std::string& source = "published");

}  // namespace llmc::cli
