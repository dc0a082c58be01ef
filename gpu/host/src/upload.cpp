#include "llmc_bench/upload.h"

#ifdef LLMC_BENCH_UPLOAD
#include <nlohmann/json.hpp>

#include "llmc_registry/client.h"
#endif

namespace llmc::bench {

#ifdef LLMC_BENCH_UPLOAD

bool upload_built() { return true; }

Status check_upload(const Options& opt) {
  if (opt.upload_url.empty()) return ok_status();
  Result<registry::RegistryUrl> url = registry::parse_registry_url(opt.upload_url);
  if (!url) return make_error("--upload", url.error().message);
  Result<std::string> token = registry::resolve_token(opt.token_file);
  if (!token) return token.error();
  return ok_status();
}

int upload_after_run(const Options& opt, bool run_passed, const std::string& profile_path,
                     const std::string& profile_text, std::FILE* log) {
  if (opt.upload_url.empty()) return 0;
  if (!run_passed) {
    std::fprintf(log, "llmcalc-bench: not uploaded to %s: the run did not pass its checks\n", opt.upload_url.c_str());
    return 0;
  }
  Result<registry::RegistryUrl> url = registry::parse_registry_url(opt.upload_url);
  Result<std::string> token = registry::resolve_token(opt.token_file);
  if (!url || !token) {  // check_upload() ran before the measurements; the token file may have gone since
    std::fprintf(log, "llmcalc-bench: not uploaded: %s\n", (!url ? url.error() : token.error()).text().c_str());
    return kExitUploadFailed;
  }
  registry::RegistryClient client(*url, *token);
  client.set_log([log](const std::string& s) { std::fprintf(log, "llmcalc-bench: upload: %s\n", s.c_str()); });
  registry::Outcome o = client.push(profile_text, opt.upload_label);
  if (!o.ok()) {
    std::fprintf(log,
                 "llmcalc-bench: upload to %s failed: %s; the profile is kept in %s (push it later: llmcalc profile "
                 "push %s --registry %s)\n",
                 url->text().c_str(), o.error.c_str(), profile_path.c_str(), profile_path.c_str(), url->text().c_str());
    return kExitUploadFailed;
  }
  const nlohmann::json j = nlohmann::json::parse(o.body, nullptr, false);
  std::fprintf(log, "llmcalc-bench: uploaded to %s: %s %s\n", url->text().c_str(),
               o.status == 201 ? "stored as" : "already there as",
               j.is_object() ? j.value("id", std::string("?")).c_str() : "?");
  return 0;
}

#else

bool upload_built() { return false; }

Status check_upload(const Options& opt) {
  if (opt.upload_url.empty()) return ok_status();
  return make_error(
      "--upload",
      "this llmcalc-bench was built without the registry client (cpp-httplib was not found when it was "
      "configured: scripts/setup.sh core); push the profile later with `llmcalc profile push FILE --registry URL`");
}

int upload_after_run(const Options&, bool, const std::string&, const std::string&, std::FILE*) { return 0; }

#endif

}  // namespace llmc::bench
