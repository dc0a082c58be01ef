// The llmcalc CLI: exit codes, one-line errors, the JSON contract's keys.
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli.h"
#include "test_util.h"

using namespace llmc::test;

namespace {
struct Out {
  int code;
  std::string out, err;
};
Out cli(std::vector<std::string> args) {
  std::ostringstream o, e;
  const int code = llmc::cli::run(args, o, e);
  return {code, o.str(), e.str()};
}
}  // namespace

TEST_CASE("estimate --json carries the documented keys") {
  Out r = cli({"estimate", "--model", "llama3.1-8b", "--gpu", "h100-sxm", "--set", "hardware.gpu_count=8", "--set",
               "training.global_batch_seqs=64", "--json"});
  REQUIRE(r.code == 0);
  auto j = nlohmann::json::parse(r.out);
  for (const char* k : {"total", "active"}) CHECK(j["params"].contains(k));
  for (const char* k : {"six_nd", "model_total", "model_per_token"}) CHECK(j["flops"].contains(k));
  for (const char* k : {"weights_bytes", "gradients_bytes", "optimizer_bytes", "activations_bytes",
                        "model_states_bytes", "total_bytes"})
    CHECK(j["memory"]["per_gpu"].contains(k));
  CHECK(j["memory"]["fits"].is_boolean());
  for (const char* k : {"step_s", "total_days", "gpu_hours", "mfu", "tokens_per_s", "bubble_fraction", "step_low_s",
                        "step_high_s", "total_days_low", "total_days_high", "cost_usd_low", "cost_usd_high"})
    CHECK(j["time"].contains(k));
  CHECK(j["warnings"].is_array());
  CHECK(j["scenario"]["parallel"]["dp"] == 8);
  CHECK(j["params"]["total"] == 8030261248.0);
}

TEST_CASE("the issue's example keys are accepted by --set") {
  Out r = cli({"estimate", "--json",
               "--set",    "model.params=7e9",
               "--set",    "model.layers=32",
               "--set",    "model.hidden=4096",
               "--set",    "model.heads=32",
               "--set",    "model.kv_heads=8",
               "--set",    "model.ffn_hidden=11008",
               "--set",    "model.vocab=32000",
               "--set",    "training.tokens=1e12",
               "--set",    "training.seq_len=4096",
               "--set",    "training.micro_batch=1",
               "--set",    "training.global_batch_seqs=64",
               "--set",    "training.precision=bf16_mixed",
               "--set",    "training.grad_dtype=fp32",
               "--set",    "training.optimizer=adamw",
               "--set",    "training.zero_stage=1",
               "--set",    "training.reference_model=false",
               "--set",    "training.flops_formula=detailed",
               "--set",    "parallel.tp=2",
               "--set",    "parallel.pp=2",
               "--set",    "parallel.dp=2",
               "--set",    "parallel.schedule=1f1b",
               "--set",    "hardware.gpu=a100-sxm-80gb",
               "--set",    "hardware.gpu_count=8",
               "--set",    "hardware.mfu=0.45"});
  INFO(r.err);
  CHECK(r.code == 0);
  Out t = cli({"estimate", "--json", "--set", "model.params=7e9", "--set", "training.global_batch_tokens=4194304",
               "--set", "hardware.achieved_tflops=400"});
  CHECK(t.code == 0);
}

TEST_CASE("bad input: non-zero exit and one line naming field, range and value") {
  Out r = cli({"estimate", "--model", "llama3.1-8b", "--set", "training.micro_batch=0"});
  CHECK(r.code == 2);
  CHECK(r.err == "llmcalc: error: training.micro_batch: must be an integer in [1, 1048576]; got '0'\n");
  r = cli({"estimate", "--model", "llama3.1-8b", "--set", "parallel.tp=3"});
  CHECK(r.code == 2);
  CHECK(contains(r.err, "parallel.tp: model.heads (32) must be divisible by parallel.tp (3)"));
  r = cli({"estimate", "--model", "no-such-model"});
  CHECK(r.code == 2);
  r = cli({"estimate", "--set", "novalue"});
  CHECK(r.code == 2);
  r = cli({"estimate", "/nonexistent/scenario.json"});
  CHECK(r.code == 2);
  r = cli({"frobnicate"});
  CHECK(r.code == 2);
}

TEST_CASE("table output, explain, presets, optimal") {
  Out t = cli({"estimate", "--model", "llama3.1-8b"});
  CHECK(t.code == 0);
  CHECK(contains(t.out, "Memory per GPU"));
  Out x = cli({"explain", "--model", "llama3.1-8b", "--key", "memory.per_gpu.weights_bytes"});
  CHECK(x.code == 0);
  CHECK(contains(x.out, "memory.per_gpu.weights_bytes = (params_local"));
  CHECK(contains(x.out, "source:"));
  CHECK(cli({"explain", "--fields"}).code == 0);
  Out p = cli({"presets", "--json"});
  CHECK(p.code == 0);
  CHECK(nlohmann::json::parse(p.out)["models"].size() >= 25);
  // A GPU without bf16 lists its fp16 peak, not "bf16 0".
  Out g = cli({"presets", "gpus"});
  CHECK(contains(g.out, "v100-sxm2-32gb"));
  CHECK(contains(g.out, "fp16   125.0 TFLOP/s dense"));
  Out o = cli({"optimal", "--compute", "5.88e23", "--json"});
  REQUIRE(o.code == 0);
  CHECK(nlohmann::json::parse(o.out)["rule_20_tokens_per_param"]["params"].get<double>() == doctest::Approx(70e9));
  Out d = cli({"optimal", "--params", "405e9", "--deadline-days", "30", "--gpu", "h100-sxm", "--set",
               "hardware.achieved_tflops=400", "--json"});
  REQUIRE(d.code == 0);
  // 6 × 405e9 × 8.1e12 = 1.97e25 FLOPs in 30 days at 400 TFLOP/s: 19,000 GPUs.
  CHECK(nlohmann::json::parse(d.out)["deadline"]["gpus"].get<double>() == doctest::Approx(18985).epsilon(0.001));
  CHECK(cli({"optimal"}).code == 2);
}

// --help prints one help text, the subcommand's when one is named, and exits 0.
TEST_CASE("--help: one usage text per command") {
  std::vector<std::string> cmds = {"", "estimate", "search", "explain", "profile", "optimal", "presets"};
#if LLMC_WITH_VALIDATE
  cmds.push_back("validate");  // native builds only
#endif
  for (const std::string& cmd_name : cmds) {
    const char* cmd = cmd_name.c_str();
    std::vector<std::string> args;
    if (*cmd) args.push_back(cmd);
    args.push_back("--help");
    Out r = cli(args);
    CHECK(r.code == 0);
    size_t usages = 0;
    for (size_t at = r.out.find("Usage:"); at != std::string::npos; at = r.out.find("Usage:", at + 1)) ++usages;
    INFO(cmd);
    CHECK(usages == 1);
    CHECK(r.out.find(std::string("Usage: llmcalc") + (*cmd ? " " : "") + cmd) != std::string::npos);
  }
}

// A profile given with --profile stays when --set names the GPU it was measured on (compare.py
// passes hardware.gpu that way), and one of another GPU is refused, not dropped in silence.
TEST_CASE("--profile with --set hardware.gpu: kept for its own GPU, refused for another") {
  const std::string prof = std::string(LLMC_SOURCE_DIR) + "/site/profiles/h100-sxm.json";
  Out with = cli({"estimate", "--model", "llama3.1-8b", "--profile", prof, "--set", "hardware.gpu=h100-sxm", "--json"});
  Out plain = cli({"estimate", "--model", "llama3.1-8b", "--set", "hardware.gpu=h100-sxm", "--json"});
  REQUIRE(with.code == 0);
  REQUIRE(plain.code == 0);
  const auto w = nlohmann::json::parse(with.out), d = nlohmann::json::parse(plain.out);
  CHECK(w["time"]["kernels_from_table"].get<double>() > 0);
  CHECK(d["time"]["kernels_from_table"].get<double>() == 0);
  Out other = cli({"estimate", "--model", "llama3.1-8b", "--profile", prof, "--set", "hardware.gpu=a100-sxm-80gb"});
  CHECK(other.code != 0);
  CHECK(other.err.find("the loaded profile is for h100-sxm but hardware.gpu is a100-sxm-80gb") != std::string::npos);
}
