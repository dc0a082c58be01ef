// `llmcalc serve`: the profile registry server and its administration (tokens, backup, export,
// import, audit log). Native builds with the registry only (native/registry, docs/registry.md).
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "llmc_registry/server.h"

namespace CLI {
class App;
}

namespace llmc::cli {

struct ServeArgs {
  std::string data_dir = "llmcalc-registry";
  registry::ServerConfig server;
  std::string port_file;  // written with the bound port once listening (scripts, tests with --port 0)
  bool quiet = false;
  // Subcommands (nullptr until added) and their arguments.
  CLI::App *token_add = nullptr, *token_revoke = nullptr, *token_list = nullptr, *backup = nullptr,
           *export_dir = nullptr, *import = nullptr, *audit = nullptr;
  std::string name, path, label, notes;
  bool admin = false;
  std::vector<std::string> files;
};

CLI::App* add_serve_command(CLI::App& app, ServeArgs& a);
int cmd_serve(const ServeArgs& a, std::ostream& out, std::ostream& err);

}  // namespace llmc::cli
