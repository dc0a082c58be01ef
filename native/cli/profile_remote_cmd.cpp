#include "profile_remote_cmd.h"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli_io.h"
#include "llmc/profile.h"
#include "llmc_registry/client.h"

namespace llmc::cli {
namespace {

using registry::Outcome;

// 2 when the registry refused (the input or token is wrong), 1 when it could not answer.
int fail_outcome(std::ostream& err, const std::string& field, const Outcome& o) {
  err << "llmcalc: error: " << field << ": " << o.error << "\n";
  return o.refused() ? 2 : 1;
}

std::string number_or_dash(const nlohmann::json& v, const char* fmt) {
  if (!v.is_number()) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, fmt, v.get<double>());
  return buf;
}

std::string text_or_dash(const nlohmann::json& v) {
  return v.is_string() && !v.get<std::string>().empty() ? v.get<std::string>() : "-";
}

void print_list(const std::string& body, std::ostream& out) {
  const nlohmann::json j = nlohmann::json::parse(body, nullptr, false);
  char buf[512];
  std::snprintf(buf, sizeof buf, "%-12s  %-14s %-9s %-16s %-20s %-12s %8s %8s %7s %8s\n", "ID", "GPU", "SOURCE",
                "LABEL", "UPLOADED", "UPLOADER", "BF16", "FP8", "HBM", "AR BUSBW");
  out << buf;
  if (!j.is_object() || !j.contains("profiles")) return;
  for (const auto& p : j["profiles"]) {
    std::snprintf(buf, sizeof buf, "%-12.12s  %-14.14s %-9.9s %-16.16s %-20.20s %-12.12s %8s %8s %7s %8s\n",
                  text_or_dash(p.value("id", nlohmann::json())).c_str(),
                  text_or_dash(p.value("gpu", nlohmann::json())).c_str(),
                  text_or_dash(p.value("source", nlohmann::json())).c_str(),
                  text_or_dash(p.value("label", nlohmann::json())).c_str(),
                  text_or_dash(p.value("uploaded_at", nlohmann::json())).c_str(),
                  text_or_dash(p.value("uploader", nlohmann::json())).c_str(),
                  number_or_dash(p.value("gemm_bf16_max_tflops", nlohmann::json()), "%.0f").c_str(),
                  number_or_dash(p.value("gemm_fp8_max_tflops", nlohmann::json()), "%.0f").c_str(),
                  number_or_dash(p.value("hbm_copy_tbps", nlohmann::json()), "%.2f").c_str(),
                  number_or_dash(p.value("all_reduce_busbw_gbps", nlohmann::json()), "%.0f").c_str());
    out << buf;
  }
  out << "(TFLOP/s: GEMM maxima; HBM: copy TB/s; AR BUSBW: NCCL all-reduce bus bandwidth, GB/s)\n";
}

}  // namespace

bool ProfileRemoteArgs::any_parsed() const {
  return (push && push->parsed()) || (list && list->parsed()) || (pull && pull->parsed());
}

void add_profile_remote_commands(CLI::App* profile, ProfileRemoteArgs& a) {
  profile->require_subcommand(0, 1);
  auto common = [&](CLI::App* c) {
    c->add_option("--registry,-r", a.registry,
                  "registry URL, e.g. http://127.0.0.1:8080 or https://llmcalc.team.example")
        ->required();
    c->add_option("--ca-file", a.ca_file, "CA certificate (PEM) for an https registry with its own CA");
    c->add_option("--retries", a.retries, "retries after a network error or 5xx, with back-off 0.5 s, 1 s, 2 s, ...")
        ->capture_default_str()
        ->check(CLI::Range(0, 10));
  };
  a.push = profile->add_subcommand("push", "upload a profile file to a registry (the file is left as it is)");
  a.push->add_option("file", a.file, "profile JSON")->required();
  common(a.push);
  a.push->add_option("--label", a.label, "cluster or host group, shown in lists");
  a.push->add_option("--notes", a.notes, "free text, shown in lists");
  a.push->add_option("--token-file", a.token_file, "file holding the upload token (default: $LLMCALC_TOKEN)");
  a.list = profile->add_subcommand("list", "list a registry's profiles");
  common(a.list);
  a.list->add_option("--gpu,-g", a.gpu, "only this GPU id");
  a.list->add_flag("--json", a.json, "print the registry's JSON (docs/registry.md)");
  a.pull = profile->add_subcommand("pull", "download a profile by id (its SHA-256 is checked)");
  a.pull->add_option("id", a.id, "profile id (64 hex digits)")->required();
  common(a.pull);
  a.pull->add_option("--out,-o", a.out_file, "write here instead of standard output");
}

int cmd_profile_remote(const ProfileRemoteArgs& a, std::ostream& out, std::ostream& err) {
  Result<registry::RegistryUrl> url = registry::parse_registry_url(a.registry);
  if (!url) return fail(err, url.error());
  std::string token;
  if (a.push->parsed()) {
    // Everything local first: a bad file or a missing token never costs a network round trip.
    std::string text;
    if (!read_file(a.file, text)) return fail(err, make_error(a.file, "cannot read profile file"));
    Result<HardwareProfile> p = profile_from_json(text);
    if (!p) return fail(err, make_error(a.file, p.error().text()));
    Result<std::string> t = registry::resolve_token(a.token_file);
    if (!t) return fail(err, t.error());
    token = *t;
    registry::RegistryClient client(*url, token, {a.retries + 1}, a.ca_file);
    client.set_log([&err](const std::string& s) { err << "llmcalc: " << s << "\n"; });
    Outcome o = client.push(text, a.label, a.notes);
    if (!o.ok()) return fail_outcome(err, a.file, o);
    const nlohmann::json j = nlohmann::json::parse(o.body, nullptr, false);
    const std::string id = j.is_object() ? j.value("id", std::string("?")) : "?";
    out << a.file << ": " << (o.status == 201 ? "stored" : "already there") << " as " << id << " at " << url->text()
        << "\n";
    return 0;
  }
  registry::RegistryClient client(*url, "", {a.retries + 1}, a.ca_file);
  client.set_log([&err](const std::string& s) { err << "llmcalc: " << s << "\n"; });
  if (a.list->parsed()) {
    Outcome o = client.list(a.gpu);
    if (!o.ok()) return fail_outcome(err, "--registry", o);
    if (a.json)
      out << o.body << "\n";
    else
      print_list(o.body, out);
    return 0;
  }
  Outcome o = client.pull(a.id);
  if (!o.ok()) return fail_outcome(err, a.id, o);
  if (a.out_file.empty()) {
    out << o.body << "\n";
    return 0;
  }
  std::ofstream f(a.out_file, std::ios::binary | std::ios::trunc);
  f << o.body;  // exactly the bytes whose SHA-256 is the id
  f.close();
  if (!f) return fail(err, make_error(a.out_file, "cannot write"));
  err << "llmcalc: profile " << a.id << " written to " << a.out_file << "\n";
  return 0;
}

}  // namespace llmc::cli
