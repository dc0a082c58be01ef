#include "cli_io.h"

#include <fstream>
#include <sstream>

namespace llmc::cli {

bool read_file(const std::string& path, std::string& text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  text = ss.str();
  return true;
}

int fail(std::ostream& err, const Error& e) {
  err << "llmcalc: error: " << e.text() << "\n";
  return 2;
}

}  // namespace llmc::cli
