// `llmcalc profile push|list|pull`: a registry's profiles from the command line (docs/registry.md).
// Native builds with the registry client only; `llmcalc profile [--gpu ID] | --check FILE` stays
// in cli.cpp. Exit codes: 0 ok, 2 bad input or a refusal by the registry (4xx), 1 the registry
// could not be reached or failed (network, 5xx) after the retries.
#pragma once
#include <ostream>
#include <string>

namespace CLI {
class App;
}

namespace llmc::cli {

struct ProfileRemoteArgs {
  CLI::App *push = nullptr, *list = nullptr, *pull = nullptr;
  std::string registry, file, id, out_file, gpu, label, notes, token_file, ca_file;
  int retries = 4;
  bool json = false;
  bool any_parsed() const;
};

void add_profile_remote_commands(CLI::App* profile, ProfileRemoteArgs& a);
int cmd_profile_remote(const ProfileRemoteArgs& a, std::ostream& out, std::ostream& err);

}  // namespace llmc::cli
