#include "cli.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "cli_io.h"
#include "llmc/catalog.h"
#include "llmc/estimate.h"
#include "llmc/fields.h"
#include "llmc/profile.h"
#include "llmc/report.h"
#include "llmc/scaling.h"
#include "table.h"
#include "search_cmd.h"
#if LLMC_WITH_VALIDATE
#include "validate_cmd.h"
#endif
#ifdef LLMC_CLI_REGISTRY
#include "profile_remote_cmd.h"
#include "serve_cmd.h"
#endif

namespace llmc::cli {
namespace {

struct ScenarioArgs {
  std::vector<std::string> files;
  std::string model;
  std::string gpu;
  std::string profile;
  std::vector<std::string> sets;
};

void add_scenario_options(CLI::App* cmd, ScenarioArgs& a) {
  cmd->add_option("scenario", a.files, "scenario JSON file(s), applied in order");
  cmd->add_option("--model,-m", a.model,
                  "model preset id (see `llmcalc presets`), a model JSON file or a Hugging Face config.json");
  cmd->add_option("--gpu,-g", a.gpu, "GPU id, e.g. h100-sxm, a100-sxm-80gb");
  cmd->add_option("--profile,-p", a.profile, "hardware profile JSON (docs/profile-schema.md) to time with");
  cmd->add_option("--set,-s", a.sets,
                  "override a field: key=value (dotted keys: model.*, training.*, parallel.*, hardware.*)");
}

Status load_model(Scenario& s, const std::string& arg) {
  std::string text;
  if (!read_file(arg, text)) return set_field(s, "model.preset", arg);
  if (text.find("\"model_type\"") != std::string::npos) {
    Result<ModelSpec> m = model_from_hf_config(text);
    if (!m) return m.error();
    s.model = *m;
    return ok_status();
  }
  Result<ModelPreset> p = parse_model_file(text);
  if (!p) return make_error("--model " + arg, p.error().text());
  s.model = p->model;
  return ok_status();
}

Result<Scenario> build_scenario(const ScenarioArgs& a) {
  Scenario s = default_scenario();
  for (const std::string& f : a.files) {
    std::string text;
    if (!read_file(f, text)) return make_error(f, "cannot read scenario file");
    if (auto st = apply_scenario_json(s, text); !st) return make_error(f, st.error().text());
  }
  if (!a.model.empty())
    if (auto st = load_model(s, a.model); !st) return st.error();
  if (!a.gpu.empty())
    if (auto st = set_field(s, "hardware.gpu", a.gpu); !st) return st.error();
  for (const std::string& kv : a.sets) {
    const size_t eq = kv.find('=');
    if (eq == std::string::npos || eq == 0) return make_error("--set", "expects key=value; got '" + kv + "'");
    if (auto st = set_field(s, kv.substr(0, eq), kv.substr(eq + 1)); !st) return st.error();
  }
  // Last, so that no --set hardware.gpu replaces it; a profile of another GPU than the scenario's
  // is refused when the scenario is resolved ("the loaded profile is for ...").
  if (!a.profile.empty()) {
    std::string text;
    if (!read_file(a.profile, text)) return make_error(a.profile, "cannot read profile file");
    Result<HardwareProfile> p = profile_from_json(text);
    if (!p) return make_error(a.profile, p.error().text());
    attach_profile(s, *p);
  }
  return s;
}

int cmd_estimate(const ScenarioArgs& a, bool as_json, bool terms, const std::string& memory_units, std::ostream& out,
                 std::ostream& err) {
  MemoryUnits units = MemoryUnits::gib;
  if (!parse_memory_units(memory_units, units))
    return fail(err, make_error("--memory-units", "expects gib or gb; got '" + memory_units + "'"));
  Result<Scenario> s = build_scenario(a);
  if (!s) return fail(err, s.error());
  Result<Estimate> e = estimate(*s);
  if (!e) return fail(err, e.error());
  if (as_json)
    out << estimate_to_json(*e, terms) << "\n";
  else
    print_estimate_table(*e, out, units);
  return 0;
}

int cmd_explain(const ScenarioArgs& a, const std::vector<std::string>& keys, bool fields, std::ostream& out,
                std::ostream& err) {
  if (fields) {
    for (const FieldInfo& f : scenario_fields()) {
      out << f.key;
      if (f.kind == FieldKind::choice)
        out << " {" << f.choices << "}";
      else if (f.kind == FieldKind::integer || f.kind == FieldKind::number)
        out << " [" << f.min << ", " << f.max << "]";
      else if (f.kind == FieldKind::boolean)
        out << " {true|false}";
      out << "  " << f.help << "\n";
    }
    return 0;
  }
  Result<Scenario> s = build_scenario(a);
  if (!s) return fail(err, s.error());
  Result<Estimate> e = estimate(*s);
  if (!e) return fail(err, e.error());
  int shown = 0;
  for (const Term& t : e->trace.terms()) {
    const std::string key = t.key;
    const bool match = keys.empty() || std::any_of(keys.begin(), keys.end(),
                                                   [&](const std::string& k) { return key.rfind(k, 0) == 0; });
    if (!match) continue;
    out << render(t) << "\n";
    ++shown;
  }
  if (shown == 0)
    return fail(
        err, make_error("explain", "no figure matches the given key prefix(es); try `llmcalc explain` without keys"));
  return 0;
}

int cmd_presets(const std::string& what, bool as_json, std::ostream& out, std::ostream& err) {
  nlohmann::ordered_json j;
  if (what != "models" && what != "gpus" && what != "all")
    return fail(err, make_error("presets", "expects models, gpus or all; got '" + what + "'"));
  if (what != "gpus") {
    auto arr = nlohmann::ordered_json::array();
    if (!as_json) out << "Models (--model ID):\n";
    for (const std::string& id : model_preset_ids()) {
      Result<ModelPreset> p = find_model_preset(id);
      if (!p) return fail(err, p.error());
      arr.push_back(
          {{"id", id}, {"name", p->name}, {"published_total_params", p->published_total}, {"source", p->source}});
      if (!as_json) {
        char buf[160];
        std::snprintf(buf, sizeof buf, "  %-22s %-28s %.4g params\n", id.c_str(), p->name.c_str(), p->published_total);
        out << buf;
      }
    }
    j["models"] = arr;
  }
  if (what != "models") {
    auto arr = nlohmann::ordered_json::array();
    if (!as_json) out << "GPUs (--gpu ID):\n";
    for (const std::string& id : gpu_ids()) {
      Result<GpuSpec> g = find_gpu(id);
      if (!g) return fail(err, g.error());
      arr.push_back({{"id", id},
                     {"name", g->name},
                     {"memory_gib", g->memory_gib},
                     {"peak_bf16_tflops", g->peak_bf16_tflops},
                     {"peak_fp16_tflops", g->peak_fp16_tflops}});
      if (!as_json) {
        char buf[200];
        std::snprintf(buf, sizeof buf, "  %-16s %-34s %5.0f GiB  %s %7.1f TFLOP/s dense\n", id.c_str(), g->name.c_str(),
                      g->memory_gib, to_string(g->half_dtype()), g->peak_tflops(g->half_dtype()));
        out << buf;
      }
    }
    j["gpus"] = arr;
  }
  if (as_json) out << j.dump(2) << "\n";
  return 0;
}

int cmd_optimal(double compute, double params, double deadline_days, const ScenarioArgs& a, bool as_json,
                std::ostream& out, std::ostream& err) {
  if ((compute > 0) == (params > 0))
    return fail(err, make_error("optimal", "give exactly one of --compute FLOPS or --params N"));
  Trace tr;
  nlohmann::ordered_json j;
  auto put = [&](const char* k, const ComputeOptimal& o) {
    j[k] = {{"compute_flops", o.compute_flops},
            {"params", o.params},
            {"tokens", o.tokens},
            {"tokens_per_param", o.tokens_per_param},
            {"loss", o.loss}};
  };
  double c = compute;
  if (params > 0) {
    const ComputeOptimal b = budget_for_params(params, &tr);
    put("rule_20_tokens_per_param", b);
    c = b.compute_flops;
  } else {
    put("rule_20_tokens_per_param", optimal_20_tokens_per_param(compute, &tr));
  }
  put("hoffmann2022_parametric", optimal_parametric(c, &tr));
  if (deadline_days > 0) {
    // Throughput per GPU from a full estimate of the scenario given (its MFU, achieved TFLOP/s or profile).
    ScenarioArgs sa = a;
    if (sa.model.empty() && sa.files.empty())
      sa.sets.push_back("model.params=" +
                        std::to_string(params > 0 ? params : j["hoffmann2022_parametric"]["params"].get<double>()));
    Result<Scenario> s = build_scenario(sa);
    if (!s) return fail(err, s.error());
    Result<Estimate> e = estimate(*s);
    if (!e) return fail(err, e.error());
    const double per_gpu = e->time.achieved_model_tflops_per_gpu * 1e12;
    const double n = gpus_for_deadline(c, deadline_days * 86400, per_gpu, &tr);
    j["deadline"] = {{"days", deadline_days},
                     {"gpu", e->r.s.hardware.gpu.id},
                     {"model_tflops_per_gpu", per_gpu / 1e12},
                     {"gpus", n}};
  }
  if (as_json) {
    out << j.dump(2) << "\n";
  } else {
    for (const Term& t : tr.terms()) out << render(t) << "\n";
  }
  return 0;
}

int cmd_profile(const std::string& gpu, const std::string& check, std::ostream& out, std::ostream& err) {
  if (!check.empty()) {
    std::string text;
    if (!read_file(check, text)) return fail(err, make_error(check, "cannot read profile file"));
    Result<HardwareProfile> p = profile_from_json(text);
    if (!p) return fail(err, make_error(check, p.error().text()));
    out << check << ": valid " << p->source << " profile for " << p->gpu_id << "\n";
    return 0;
  }
  Result<GpuSpec> g = find_gpu(gpu);
  if (!g) return fail(err, g.error());
  HardwareProfile p = datasheet_profile(*g);
  out << profile_to_json(p) << "\n";
  return 0;
}

}  // namespace

int run(const std::vector<std::string>& args_in, std::ostream& out, std::ostream& err) {
  CLI::App app{"llmcalc: compute, memory, time and cost of training a transformer", "llmcalc"};
  app.require_subcommand(1);
  ScenarioArgs est_args, exp_args, opt_args;
  bool json = false, terms = false, fields = false, opt_json = false, presets_json = false;
  std::vector<std::string> keys;
  std::string presets_what = "all";
  double compute = 0, params = 0, deadline_days = 0;

  CLI::App* est = app.add_subcommand("estimate", "estimate one scenario (table, or --json)");
  add_scenario_options(est, est_args);
  est->add_flag("--json", json, "print the JSON contract (docs/json-contract.md)");
  est->add_flag("--terms", terms, "with --json: include every explanation term");
  std::string memory_units = "gib";
  est->add_option("--memory-units", memory_units,
                  "memory in the table: gib (binary, default) or gb (decimal); --json is always bytes");

  CLI::App* exp = app.add_subcommand("explain", "show the formula, inputs, value and source of each figure");
  add_scenario_options(exp, exp_args);
  exp->add_option("--key,-k", keys, "only figures whose key starts with this (repeatable)");
  exp->add_flag("--fields", fields, "list every input field with its range instead");

  CLI::App* pre = app.add_subcommand("presets", "list model and GPU presets");
  pre->add_option("what", presets_what, "models | gpus | all");
  pre->add_flag("--json", presets_json, "JSON output");

  CLI::App* opt =
      app.add_subcommand("optimal", "compute-optimal size (D = 20N and Hoffmann et al. 2022), GPUs for a deadline");
  opt->add_option("--compute", compute, "compute budget C in FLOPs");
  opt->add_option("--params", params, "model size N (gives D = 20N and C = 6ND)");
  opt->add_option("--deadline-days", deadline_days,
                  "GPUs needed to finish within this many days (uses the scenario options)");
  add_scenario_options(opt, opt_args);
  opt->add_flag("--json", opt_json, "JSON output");

  std::string profile_gpu = "h100-sxm", profile_check;
  CLI::App* prof = app.add_subcommand("profile", "print the datasheet profile of a GPU, or validate a profile file");
  prof->add_option("--gpu,-g", profile_gpu, "GPU id");
  prof->add_option("--check", profile_check, "validate this profile file");
#ifdef LLMC_CLI_REGISTRY
  ProfileRemoteArgs remote;
  add_profile_remote_commands(prof, remote);
  ServeArgs serve_args;
  CLI::App* srv = add_serve_command(app, serve_args);
#endif

#if LLMC_WITH_VALIDATE
  ValidateArgs val_args;
  CLI::App* val = add_validate_command(app, val_args);
#endif

  ScenarioArgs search_scenario;
  SearchArgs search_args;
  CLI::App* sea = app.add_subcommand(
      "search", "best parallel layouts (tp, pp, dp, cp, ep, v, micro-batch, recompute, ZeRO) for the scenario");
  add_scenario_options(sea, search_scenario);
  add_search_options(sea, search_args);

  std::vector<std::string> args(args_in.rbegin(), args_in.rend());  // CLI11 consumes from the back
  try {
    app.parse(args);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) {
      out << app.help();  // CLI11 hands this to the selected subcommand, if any: one help text
      return 0;
    }
    err << "llmcalc: error: " << e.what() << "\n";
    return 2;
  }
  if (est->parsed()) return cmd_estimate(est_args, json, terms, memory_units, out, err);
  if (exp->parsed()) return cmd_explain(exp_args, keys, fields, out, err);
  if (pre->parsed()) return cmd_presets(presets_what, presets_json, out, err);
#ifdef LLMC_CLI_REGISTRY
  if (srv->parsed()) return cmd_serve(serve_args, out, err);
  if (remote.any_parsed()) return cmd_profile_remote(remote, out, err);
#endif
  if (prof->parsed()) return cmd_profile(profile_gpu, profile_check, out, err);
#if LLMC_WITH_VALIDATE
  if (val->parsed()) return cmd_validate(val_args, out, err);
#endif
  if (sea->parsed()) return cmd_search(build_scenario(search_scenario), search_args, out, err);
  if (opt->parsed()) return cmd_optimal(compute, params, deadline_days, opt_args, opt_json, out, err);
  return 1;
}

}  // namespace llmc::cli
