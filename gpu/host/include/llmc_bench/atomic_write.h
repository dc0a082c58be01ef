// Writing result files so that an interrupted run never leaves a half-written one: the content
// goes to FILE.tmp in the same directory (rename is atomic only within one file system), is
// fsync'd, renamed over FILE, and the directory is fsync'd so the rename itself survives a crash.
#pragma once
#include <functional>
#include <ostream>
#include <string>

#include "llmc/result.h"

namespace llmc::bench {

// The temporary path write_file_atomic uses for `path`.
std::string temp_path_for(const std::string& path);

// Calls `produce` to render the content in memory, then writes it atomically. If `produce`
// throws, nothing is written (and no FILE.tmp is left); the exception propagates. I/O failures
// come back as an Error naming the path and the system's reason, with FILE.tmp removed.
Status write_file_atomic(const std::string& path, const std::function<void(std::ostream&)>& produce);
Status write_file_atomic(const std::string& path, const std::string& content);

}  // namespace llmc::bench
