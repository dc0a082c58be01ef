// llmcalc-bench --upload URL: after a run that passed its checks, the profile just written goes
// to an llmcalc registry (native/registry's client: retries with back-off; docs/registry.md).
// The local file is never touched. Needs the registry client at build time (cpp-httplib);
// without it --upload is refused before anything is measured.
#pragma once
#include <cstdio>
#include <string>

#include "llmc/result.h"
#include "llmc_bench/options.h"

namespace llmc::bench {

// Exit code of a run that measured and wrote its profile but could not upload it.
constexpr int kExitUploadFailed = 4;

// Whether this build has the registry client.
bool upload_built();

// Before measuring: the URL parses and a token is there (so a long run does not end in a
// refusal that was knowable at the start). Ok when --upload was not given.
Status check_upload(const Options& opt);

// After the run: uploads `profile_text` (written to `profile_path`) when --upload was given and
// `run_passed`; says what happened on `log`. Returns 0, or kExitUploadFailed (nothing uploaded
// because the registry refused or could not be reached; the file stays for a later push).
int upload_after_run(const Options& opt, bool run_passed, const std::string& profile_path,
                     const std::string& profile_text, std::FILE* log);

}  // namespace llmc::bench
