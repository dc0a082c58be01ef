// llmcalc against its own ground truth: gpu/groundtruth/train_llama.py trained Llama-style models
// on an H100 and an H200 on 2026-11-22 (gpu/measurements/2026-11-22-*/train_llama.json), and
// llmcalc-bench measured each GPU into the profile beside it. These cases rebuild each
// configuration as gpu/groundtruth/compare.py does (its comparison.md shows every number) and
// hold the model to what was measured, with bands from the errors of the model as it stands:
// widen one only with a reason written beside it.
#include <nlohmann/json.hpp>

#include <cmath>

#include "estimate/precision.h"
#include "llmc/profile.h"
#include "test_util.h"

using namespace llmc;
using namespace llmc::test;

namespace {

HardwareProfile read_profile(const std::string& path) {
  Result<HardwareProfile> p = profile_from_json(source_text(path));
  REQUIRE(p.ok());
  return *p;
}

// A configuration of train_llama.py as llmcalc fields, by the rules compare.py's tables use
// (gpu/groundtruth/llmcalc_sets.json).
Estimate predict(const nlohmann::json& cfg, const HardwareProfile& profile) {
  // In the file's order, as compare.py applies them.
  static const nlohmann::ordered_json rules =
      nlohmann::ordered_json::parse(source_text("gpu/groundtruth/llmcalc_sets.json"));
  auto text = [](const auto& v) { return v.is_string() ? v.template get<std::string>() : v.dump(); };
  Sets sets;
  for (const auto& [field, key] : rules["from_model"].items())
    sets.push_back({field, text(cfg["model"][key.get<std::string>()])});
  for (const auto& [field, key] : rules["from_config"].items())
    sets.push_back({field, text(cfg[key.get<std::string>()])});
  for (const char* group : {"by_attention", "by_elementwise"}) {
    const std::string value =
        cfg[std::string(group).substr(3)].get<std::string>();  // cfg["attention"], cfg["elementwise"]
    for (const auto& [field, v] : rules[group][value].items()) sets.push_back({field, text(v)});
  }
  for (const auto& [field, v] : rules["fixed"].items()) sets.push_back({field, text(v)});
  sets.push_back({"hardware.gpu", profile.gpu_id});
  return run_with_profile(scenario(sets), profile);
}

double rel(double predicted, double measured) { return (predicted - measured) / measured; }

struct Run {
  const char* dir;
  const char* file;     // train_llama.json: the configurations the model was checked against while it
                        // was changed; train_llama_heldout.json: measured after those changes
  const char* profile;  // the profile the same run measured
};
constexpr Run kRuns[] = {
    {"gpu/measurements/2026-11-22-nvidia-h100-80gb-hbm3", "train_llama.json", "site/profiles/h100-sxm.json"},
    {"gpu/measurements/2026-11-22-nvidia-h100-80gb-hbm3", "train_llama_heldout.json", "site/profiles/h100-sxm.json"},
    {"gpu/measurements/2026-11-22-nvidia-h200", "train_llama.json", "site/profiles/h200.json"}};

}  // namespace

TEST_CASE("ground truth: model states, optimizer, step time and peak memory against the H100 and H200 runs") {
  for (const Run& run : kRuns) {
    const nlohmann::json doc = nlohmann::json::parse(source_text(std::string(run.dir) + "/" + run.file));
    const HardwareProfile profile = read_profile(run.profile);
    const double context = doc["context_bytes"].get<double>();
    double flash_abs = 0, alloc_abs = 0;
    int flash_n = 0, alloc_n = 0;
    REQUIRE(doc["configs"].size() >= 8);
    for (const nlohmann::json& cfg : doc["configs"]) {
      INFO(run.dir << "/" << run.file << ": " << cfg["size"] << " mb" << cfg["micro_batch"] << " s" << cfg["seq_len"]
                   << " " << cfg["recompute"] << " " << cfg["attention"] << " " << cfg["elementwise"]);
      REQUIRE_FALSE(cfg.contains("oom"));  // every configuration fitted
      const Estimate e = predict(cfg, profile);
      const MemoryPerGpu& mem = e.mem;
      // llmcalc says each fits, but for 1.5B at 2 × 8192 tokens: its 5 % fragmentation
      // allowance takes the total to 80.45 GiB, over the 79.16 GiB the profile measured, where
      // PyTorch reserved only 3.9 % over what it allocated. Without the allowance every one fits.
      CHECK(mem.total_bytes - mem.fragmentation_bytes < mem.capacity_bytes);
      // 16 bytes per parameter (fp32 weights, gradients, AdamW m and v): exact but for the
      // token buffers and allocator rounding PyTorch holds beside them (0.3 %).
      CHECK(std::abs(rel(mem.model_states_bytes, cfg["static_allocated_bytes"].get<double>())) < 0.01);
      // Fused AdamW + zero_grad at the profile's AdamW rate: 4-7 % fast (zero_grad's memset).
      CHECK(std::abs(rel(e.time.optimizer_s, cfg["median_optimizer_s"].get<double>())) < 0.10);
      const double step = rel(e.time.step_s, cfg["median_step_s"].get<double>());
      if (cfg["attention"] == "flash") {
        // Fused attention, eager or compiled element-wise kernels: -8 % to +9 %, and +13 % for
        // the compiled 0.6B (Inductor's kernels beat the bench's element-wise ones).
        CHECK(std::abs(step) < 0.15);
        flash_abs += std::abs(step);
        ++flash_n;
      } else {
        // PyTorch's math SDPA (fp32, TF32 matmuls) is predicted 10-14 % fast: two score-sized
        // element-wise kernels per layer in its backward (about 0.45 ms of 4.1 for llama-1b,
        // kernels.txt) are not in llmcalc's reading of the op. It was 16-25 % fast when llmcalc
        // timed it as 16-bit GEMMs and passes (the Llama reference's attention).
        CHECK(step < 0);
        CHECK(step > -0.16);
      }
      // Allocated peak (PyTorch's max_memory_allocated) against llmcalc's total less the
      // context, fragmentation allowance and communication buffers: +0.2 % to +5 % for eager
      // code with fused attention, +0.4 % to +7 % with the math SDPA (9-18 % over when llmcalc
      // kept 16-bit scores and Q, K, V for it), up to 17 % over for the compiled 0.6B.
      const double alloc = mem.total_bytes - mem.cuda_context_bytes - mem.fragmentation_bytes - mem.comm_buffers_bytes;
      const double ea = rel(alloc, cfg["peak_allocated_bytes"].get<double>());
      CHECK(std::abs(ea) < 0.20);
      if (cfg["attention"] == "flash" && cfg["elementwise"] == "eager") CHECK(std::abs(ea) < 0.06);
      if (cfg["attention"] == "math") CHECK(std::abs(ea) < 0.08);
      alloc_abs += std::abs(ea);
      ++alloc_n;
      // What PyTorch reserved plus the CUDA context fitted on the GPU, and llmcalc's total is
      // below the GPU's memory too.
      CHECK(cfg["peak_reserved_bytes"].get<double>() + context < mem.capacity_bytes);
    }
    CHECK(flash_abs / flash_n < 0.06);  // mean |error| of the fused-attention step times
    CHECK(alloc_abs / alloc_n <
          0.04);  // mean |error| of the allocated peaks (2.3 % on the H100 and the H200, 3.6 % held out)
  }
}

TEST_CASE(
    "autocast's weight copies: 2 bytes per linear weight and the output layer, held like activations; none for a "
    "master-weight recipe or ZeRO-3") {
  // llama-1b of train_llama.py: 16 layers × (QKV 2048×3072 + out 2048² + up/gate 2048×16384 +
  // down 8192×2048) = 973,078,528 linear weights, and the 128,256 × 2048 output layer.
  const Sets shape = {{"model.layers", "16"},
                      {"model.hidden", "2048"},
                      {"model.heads", "32"},
                      {"model.kv_heads", "8"},
                      {"model.ffn_hidden", "8192"},
                      {"model.vocab", "128256"},
                      {"model.mlp", "swiglu"},
                      {"model.norm", "rmsnorm"},
                      {"model.tied_embeddings", "false"},
                      {"training.precision", "bf16_mixed"},
                      {"hardware.gpu", "h100-sxm"}};
  auto with = [&](Sets extra) {
    Sets s = shape;
    s.insert(s.end(), extra.begin(), extra.end());
    return run(s);
  };
  const Estimate amp =
      with({{"training.weight_dtype", "fp32"}, {"training.grad_dtype", "fp32"}, {"training.master_weights", "false"}});
  const double params = amp.params.total;
  CHECK(params == 1498482688.0);
  // Megatron's recipe: 16-bit weights beside fp32 master weights, nothing cast per micro-batch.
  // Same activations otherwise, so the difference is the copies.
  const Estimate megatron = with({});
  CHECK(amp.mem.weights_bytes == 4 * params);
  CHECK(megatron.mem.weights_bytes == 2 * params);
  CHECK(amp.mem.activations_bytes - megatron.mem.activations_bytes == 2 * (973078528.0 + 128256.0 * 2048));
  // The casts cost time every micro-batch: forward 6 and backward 18 bytes per linear weight.
  CHECK(amp.time.memory_bound_s > megatron.time.memory_bound_s);
  // FSDP's mixed precision casts the shard and gathers 16-bit copies into its buffers instead.
  const Estimate fsdp = with({{"training.weight_dtype", "fp32"},
                              {"training.grad_dtype", "fp32"},
                              {"training.master_weights", "false"},
                              {"training.zero_stage", "3"},
                              {"hardware.gpu_count", "8"},
                              {"training.global_batch_seqs", "8"}});
  const Estimate fsdp_megatron =
      with({{"training.zero_stage", "3"}, {"hardware.gpu_count", "8"}, {"training.global_batch_seqs", "8"}});
  CHECK(fsdp.mem.activations_bytes == fsdp_megatron.mem.activations_bytes);
}

TEST_CASE("training.optimizer_kernel: fused is one pass, foreach its chain; auto follows fused_elementwise") {
  const Sets base = {{"model.preset", "llama3.1-8b"}, {"hardware.gpu", "h100-sxm"}};
  auto opt = [&](const std::string& kernel, const std::string& fused) {
    Sets s = base;
    s.push_back({"training.optimizer_kernel", kernel});
    s.push_back({"training.fused_elementwise", fused});
    return run(s).time.optimizer_s;
  };
  CHECK(opt("auto", "true") == opt("fused", "true"));
  CHECK(opt("auto", "false") == opt("foreach", "false"));
  CHECK(opt("fused", "false") == opt("fused", "true"));
  // The foreach chain moves more bytes than the one fused pass (formulas.md).
  CHECK(opt("foreach", "true") > 1.5 * opt("fused", "true"));
  Scenario s = default_scenario();
  const Status bad = set_field(s, "training.optimizer_kernel", "apex");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().field == "training.optimizer_kernel");
}

// Which recipes torch.autocast's per-micro-batch weight casts apply to: weights wider than a
// 16-bit compute dtype. The fp32 recipe computes in tf32 from its fp32 weights (no cast), and
// FP8 recipes cast once per step.
TEST_CASE("autocast casts weights only with 16-bit compute from wider weights") {
  auto casts = [](const Sets& sets) {
    Result<Resolved> r = resolve(scenario(sets));
    REQUIRE(r.ok());
    return detail::autocast_casts_weights(*r);
  };
  const Sets fp32_weights = {{"training.weight_dtype", "fp32"}, {"training.master_weights", "false"}};
  auto with = [&](const char* precision, bool wide) {
    Sets s = {{"model.preset", "llama3.1-8b"}, {"training.precision", precision}};
    if (wide) s.insert(s.end(), fp32_weights.begin(), fp32_weights.end());
    return casts(s);
  };
  CHECK(with("bf16_mixed", true));
  CHECK(with("fp16_mixed", true));
  CHECK_FALSE(with("bf16_mixed", false));  // Megatron: bf16 weights beside an fp32 master
  CHECK_FALSE(with("fp32", false));        // tf32 compute reads fp32 weights
  CHECK_FALSE(with("fp8_mixed", true));
  CHECK_FALSE(with("bf16_pure", false));
}

TEST_CASE("ground truth: small models whose steps wait for the host to issue their kernels (H100, 2026-11-27)") {
  // gpu/groundtruth/train_llama.py --configs small: 125M and 350M Llamas from one sequence (host-bound)
  // to 8-16 (GPU-bound), and llama-1b with compiled blocks and an eager loss. No profile was measured
  // that day; the H100 profile of 2026-11-22 (same machine kind) times the kernels.
  const nlohmann::json doc =
      nlohmann::json::parse(source_text("gpu/measurements/2026-11-27-nvidia-h100-80gb-hbm3/train_llama_small.json"));
  const HardwareProfile profile = read_profile("site/profiles/h100-sxm.json");
  REQUIRE(doc["configs"].size() == 8);
  double step_abs = 0;
  for (const nlohmann::json& cfg : doc["configs"]) {
    INFO(cfg["size"] << " mb" << cfg["micro_batch"] << " s" << cfg["seq_len"] << " " << cfg["elementwise"]);
    REQUIRE_FALSE(cfg.contains("oom"));
    const Estimate e = predict(cfg, profile);
    const double step = rel(e.time.step_s, cfg["median_step_s"].get<double>());
    // Every step is predicted within −27 % (125M at four sequences, between host- and GPU-bound,
    // where the measured host time itself grows by a quarter) and +2 %.
    CHECK(step > -0.28);
    CHECK(step < 0.03);
    step_abs += std::abs(step);
    // Host-bound (one sequence, eager): the step is the host issuing its kernels, within 7 %
    // of what was measured (−6.4 % and −0.8 %). Without it (as before the host-issue floor,
    // or with CUDA graphs) the same steps were predicted −72 % and −53 %.
    if (cfg["micro_batch"] == 1) {
      CHECK(e.time.host_wait_s > 0.5 * e.time.step_s);
      CHECK(std::abs(step) < 0.07);
      Scenario graphs = e.r.s;
      graphs.training.kernel_launch = KernelLaunch::cuda_graphs;
      const Estimate g = run_with_profile(graphs, profile);
      CHECK(g.time.host_wait_s == 0);
      CHECK(rel(g.time.step_s, cfg["median_step_s"].get<double>()) < -0.5);
    }
    // Allocated peaks within 6 % (−5.2 % to +4.5 %), the eager loss beside compiled blocks included.
    const MemoryPerGpu& mem = e.mem;
    const double alloc = mem.total_bytes - mem.cuda_context_bytes - mem.fragmentation_bytes - mem.comm_buffers_bytes;
    CHECK(std::abs(rel(alloc, cfg["peak_allocated_bytes"].get<double>())) < 0.06);
  }
  CHECK(step_abs / 8 < 0.11);  // mean |error| 9.8 % (28.6 % before the host-issue floor)
}
