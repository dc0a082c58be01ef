#include "serve_cmd.h"

#include <pthread.h>
#include <signal.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <fstream>
#include <thread>

#include "cli_io.h"
#include "llmc_registry/export.h"
#include "llmc_registry/profile_intake.h"
#include "llmc_registry/store.h"

namespace llmc::cli {
namespace {

using registry::Store;

int fail_line(std::ostream& err, const std::string& field, const std::string& message) {
  return fail(err, make_error(field, message));
}

// Runs the server until SIGINT or SIGTERM. The signals are blocked in every thread and taken by
// one waiting thread, which stops the server outside any signal handler.
int run_server(const ServeArgs& a, Store& store, std::ostream& err) {
  sigset_t sigs;
  sigemptyset(&sigs);
  sigaddset(&sigs, SIGINT);
  sigaddset(&sigs, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &sigs, nullptr);  // before the server's threads exist: they inherit it
  registry::RegistryServer server(store, a.server);
  Result<int> port = server.bind();
  if (!port) return fail(err, port.error());
  auto profiles = store.list_profiles();
  const std::string scheme = a.server.cert_file.empty() ? "http" : "https";
  if (!a.quiet) {
    err << "llmcalc serve: " << scheme << "://" << a.server.host << ":" << *port << "/  (registry: " << store.path()
        << ", " << (profiles ? profiles->size() : 0)
        << " profiles; site: " << (a.server.site_dir.empty() ? "none" : a.server.site_dir) << ")\n";
    err.flush();
  }
  if (!a.port_file.empty()) {
    std::ofstream pf(a.port_file + ".tmp");
    pf << *port << "\n";
    pf.close();
    std::rename((a.port_file + ".tmp").c_str(), a.port_file.c_str());
  }
  std::thread([&server, sigs] {
    int sig = 0;
    sigwait(&sigs, &sig);
    server.stop();
  }).detach();
  if (!server.run()) return fail_line(err, "--port", "the server stopped: cannot listen");
  if (!a.quiet) err << "llmcalc serve: stopped\n";
  return 0;
}

int import_files(const ServeArgs& a, Store& store, std::ostream& out, std::ostream& err) {
  if (auto e = registry::check_metadata_text("label", a.label, registry::kMaxLabelChars))
    return fail_line(err, "--label", e->message);
  if (auto e = registry::check_metadata_text("notes", a.notes, registry::kMaxNotesChars))
    return fail_line(err, "--notes", e->message);
  for (const std::string& f : a.files) {
    std::string text;
    if (!read_file(f, text)) return fail_line(err, f, "cannot read profile file");
    registry::Intake in;
    if (auto e = registry::take_in_profile(text, in)) return fail_line(err, f, e->message);
    auto put = store.put_profile(in, a.label, a.notes, "local");
    if (!put) return fail(err, put.error());
    out << f << ": " << in.id << (put->created ? " (stored)" : " (already there)") << "\n";
  }
  return 0;
}

}  // namespace

CLI::App* add_serve_command(CLI::App& app, ServeArgs& a) {
  CLI::App* s =
      app.add_subcommand("serve", "run the profile registry and the web page (docs/registry.md); or administer it");
  s->require_subcommand(0, 1);
  s->add_option("--data", a.data_dir, "registry directory (holds registry.sqlite3)")->capture_default_str();
  s->add_option("--site", a.server.site_dir, "serve this built site (build/site) at /");
  s->add_option("--host", a.server.host, "address to listen on")->capture_default_str();
  s->add_option("--port", a.server.port, "port (0: any free one)")->capture_default_str()->check(CLI::Range(0, 65535));
  s->add_option("--port-file", a.port_file, "write the port here once listening");
  s->add_option("--cert", a.server.cert_file, "TLS certificate (PEM): serve HTTPS");
  s->add_option("--key", a.server.key_file, "TLS private key (PEM) for --cert");
  s->add_option("--cors-origin", a.server.cors_origins,
                "a page origin allowed to call the API (repeatable), e.g. https://team.example");
  s->add_option("--max-body-bytes", a.server.max_body_bytes, "largest upload accepted")
      ->capture_default_str()
      ->check(CLI::Range(size_t(1024), size_t(1) << 30));
  s->add_option("--threads", a.server.threads, "connections served at once")
      ->capture_default_str()
      ->check(CLI::Range(2, 1024));
  s->add_flag("--quiet", a.quiet, "no start-up line, no log of uploads and deletes");

  CLI::App* token = s->add_subcommand("token", "upload tokens: add, revoke, list");
  token->require_subcommand(1);
  a.token_add = token->add_subcommand("add", "make a token for NAME and print it (once; only its hash is kept)");
  a.token_add->add_option("name", a.name, "who uploads with it (shown as uploader)")->required();
  a.token_add->add_flag("--admin", a.admin, "may also delete profiles");
  a.token_revoke = token->add_subcommand("revoke", "revoke NAME's token (at once, also for a running server)");
  a.token_revoke->add_option("name", a.name, "token name")->required();
  a.token_list = token->add_subcommand("list", "list tokens (names, admin, created, revoked)");
  a.backup =
      s->add_subcommand("backup", "copy the database to FILE (SQLite online backup; the server may keep running)");
  a.backup->add_option("file", a.path, "backup file")->required();
  a.export_dir =
      s->add_subcommand("export", "write the registry as static files: DIR/index.json and DIR/profiles/<id>.json");
  a.export_dir->add_option("dir", a.path, "output directory (absent, empty, or an earlier export)")->required();
  a.import =
      s->add_subcommand("import", "store profile files directly (as uploader 'local'), with the upload's checks");
  a.import->add_option("files", a.files, "profile JSON files")->required();
  a.import->add_option("--label", a.label, "label for every file");
  a.import->add_option("--notes", a.notes, "notes for every file");
  a.audit = s->add_subcommand("audit", "print the audit log (uploads, deletes, token changes)");
  // Options of `serve` (--data above all) may also follow a subcommand: `serve token add x --data D`.
  for (CLI::App* sub : {token, a.backup, a.export_dir, a.import, a.audit, a.token_add, a.token_revoke, a.token_list})
    sub->fallthrough();
  return s;
}

int cmd_serve(const ServeArgs& a, std::ostream& out, std::ostream& err) {
  ServeArgs args = a;
  args.server.log_writes = !a.quiet;
  auto opened = Store::open(args.data_dir);
  if (!opened) return fail(err, opened.error());
  Store& store = **opened;
  if (a.token_add->parsed()) {
    auto token = store.add_token(a.name, a.admin);
    if (!token) return fail(err, token.error());
    out << *token << "\n";
    err << "llmcalc serve: token for '" << a.name << "'" << (a.admin ? " (admin)" : "")
        << " printed above, once: only its SHA-256 is kept, so store it now (e.g. a file of mode 600 for "
           "--token-file)\n";
    return 0;
  }
  if (a.token_revoke->parsed()) {
    if (Status st = store.revoke_token(a.name); !st) return fail(err, st.error());
    out << "revoked '" << a.name << "'\n";
    return 0;
  }
  if (a.token_list->parsed()) {
    auto tokens = store.list_tokens();
    if (!tokens) return fail(err, tokens.error());
    char buf[256];
    std::snprintf(buf, sizeof buf, "%-24s %-6s %-21s %s\n", "NAME", "ADMIN", "CREATED", "REVOKED");
    out << buf;
    for (const registry::TokenInfo& t : *tokens) {
      std::snprintf(buf, sizeof buf, "%-24s %-6s %-21s %s\n", t.name.c_str(), t.admin ? "yes" : "no",
                    t.created_at.c_str(), t.revoked_at.empty() ? "-" : t.revoked_at.c_str());
      out << buf;
    }
    return 0;
  }
  if (a.backup->parsed()) {
    if (Status st = store.backup_to(a.path); !st) return fail(err, st.error());
    out << "backup of " << store.path() << " written to " << a.path << "\n";
    return 0;
  }
  if (a.export_dir->parsed()) {
    auto n = registry::export_static(store, a.path);
    if (!n) return fail(err, n.error());
    out << "exported " << *n << " profiles to " << a.path << " (index.json, profiles/<id>.json)\n";
    return 0;
  }
  if (a.import->parsed()) return import_files(args, store, out, err);
  if (a.audit->parsed()) {
    auto log = store.audit_log();
    if (!log) return fail(err, log.error());
    for (const registry::AuditRecord& r : *log)
      out << r.seq << "  " << r.at << "  " << r.actor << "  " << r.action << "  " << r.target
          << (r.detail.empty() ? "" : "  " + r.detail) << "\n";
    return 0;
  }
  return run_server(args, store, err);
}

}  // namespace llmc::cli
