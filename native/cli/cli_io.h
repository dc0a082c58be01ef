// What every llmcalc subcommand does with files and errors: read a whole file, and report a bad
// input as one `llmcalc: error: <field>: <message>` line with exit code 2 (docs/json-contract.md).
#pragma once
#include <ostream>
#include <string>

#include "llmc/result.h"

namespace llmc::cli {

// The whole file as bytes; false when it cannot be opened.
bool read_file(const std::string& path, std::string& text);

// Writes the error line to `err`; returns the exit code for bad input (2).
int fail(std::ostream& err, const Error& e);

}  // namespace llmc::cli
