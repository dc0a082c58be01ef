// `llmcalc validate FILE`: predictions against published runs (llmc/validate.h), as a table,
// JSON or Markdown (scripts/validation-doc.sh writes docs/validation.md from the latter).
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
  std::string file;
  std::string profile;  // "" or "datasheet" (the datasheet profile of every GPU), "published" (site/profiles), or a profile file
  std::string only;     // record id prefix
  bool json = false, markdown = false;
};

CLI::App* add_validate_command(CLI::App& app, ValidateArgs& a);
int cmd_validate(const ValidateArgs& a, std::ostream& out, std::ostream& err);

// The profiles of site/profiles/index.json (embedded at build time) whose source is `source`
// ("published", "measured").
Result<std::vector<HardwareProfile>> bundled_profiles(const std::string& source = "published");

}  // namespace llmc::cli
