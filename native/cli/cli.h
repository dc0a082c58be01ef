// The llmcalc command line: argument handling separated from main() so tests can drive it.
#pragma once
#include <ostream>
#include <string>
#include <vector>

namespace llmc::cli {

// Runs one command; returns the process exit code (0 ok, 2 bad input, 1 other failure).
int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace llmc::cli
