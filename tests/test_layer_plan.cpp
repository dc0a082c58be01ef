// The layer plan (core/src/estimate/layer_plan.h): one description of a layer read as FLOPs, memory and
// kernels. The readings' published figures are tested in test_params/test_memory/test_time; here,
// that the plan itself says what those readings rely on.
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include "estimate/estimate_parts.h"
#include "estimate/layer_plan.h"
#include "estimate/memory.h"
#include "estimate/precision.h"
#include "test_util.h"

using namespace llmc;
using namespace llmc::detail;

namespace {

Resolved resolve_or_fail(const test::Sets& sets) {
  Result<Resolved> r = resolve(test::scenario(sets));
  INFO((r ? "" : r.error().text()));
  REQUIRE(r.ok());
  return *r;
}

const Op* find_op(const Plan& p, std::string_view name) {
  for (const Op& o : p)
    if (name == o.name) return &o;
  return nullptr;
}

}  // namespace

TEST_CASE("layer plan: the largest layers the input fields allow fit its fixed arrays") {
  // Eight norms (model.norms_per_layer's maximum), eager kernels, PyTorch's math attention with
  // dropout, an MoE block with shared experts, and autocast casts or FP8 casts on every linear
  // (rowwise: two per operand), the last with LoRA adapters on every linear (six GEMMs each).
  for (const char* precision : {"bf16_mixed", "fp8_mixed", "fp8_rowwise"}) {
    test::Sets sets = {{"model.preset", "mixtral-8x7b"},
                       {"model.norms_per_layer", "8"},
                       {"model.dropout", "true"},
                       {"model.shared_experts", "2"},
                       {"training.fused_elementwise", "false"},
                       {"training.flash_attention", "false"},
                       {"training.unfused_attention", "sdpa_math_fp32"},
                       {"training.precision", std::string_view(precision) == "bf16_mixed" ? "bf16_mixed" : "fp8_mixed"},
                       {"training.fp8_recipe", std::string_view(precision) == "fp8_rowwise" ? "rowwise" : "tensorwise"},
                       {"training.recompute", "selective"},
                       {"training.recompute_modules", "core_attn,layernorm,moe_act"}};
    if (std::string_view(precision) == "bf16_mixed")
      sets.push_back({"training.weight_dtype", "fp32"}), sets.push_back({"training.master_weights", "false"});
    if (std::string_view(precision) == "fp8_rowwise") sets.push_back({"training.finetune", "lora"});
    const Resolved r = resolve_or_fail(sets);
    const ParamCounts p = count_params(r, nullptr);
    for (bool moe : {false, true}) {
      Plan plan;
      plan_layer(plan, r, p, PlanShape{1, 1, true}, moe);
      const std::string what = std::string(precision) + (moe ? " moe: " : " dense: ") + std::to_string(plan.n_ops) +
                               " ops, " + std::to_string(plan.n_kernels) + " kernels";
      INFO(what);
      CHECK_FALSE(plan.overflow);
      CHECK(plan.n_ops < Plan::kMaxOps);
      CHECK(plan.n_kernels < Plan::kMaxKernels);
    }
  }
}

TEST_CASE("layer plan: its weight FLOPs are 2 per matmul weight of the parameter count") {
  // Llama 3.1 8B has no biases: a layer's linear weights are its attention and MLP parameters.
  const Resolved r = resolve_or_fail({{"model.preset", "llama3.1-8b"}});
  const ParamCounts p = count_params(r, nullptr);
  Plan plan;
  plan_layer(plan, r, p, PlanShape{}, false);
  double weight_flops = 0;
  for (const Op& o : plan) weight_flops += o.weight_flops;
  CHECK(weight_flops == 2 * (p.attention_per_layer + p.mlp_per_dense_layer));
  const Op* attn = find_op(plan, "core_attention");
  REQUIRE(attn);
  // 2·s·a·(d_qk + d_v), halved by the causal mask: 2 · 8192 · 32 · 256 / 2.
  CHECK(attn->score_flops == 2.0 * 8192 * 32 * 256 / 2);
}

TEST_CASE("layer plan: the recompute rules as tags") {
  CHECK(recompute_tags(resolve_or_fail({{"model.preset", "llama3.1-8b"}})) == 0u);
  CHECK(recompute_tags(resolve_or_fail({{"model.preset", "llama3.1-8b"}, {"training.recompute", "full"}})) == 0u);
  CHECK(recompute_tags(resolve_or_fail({{"model.preset", "llama3.1-8b"}, {"training.recompute", "selective"}})) ==
        uint32_t(kTagCoreAttn));
  CHECK(recompute_tags(resolve_or_fail({{"model.preset", "llama3.1-8b"},
                                        {"training.recompute", "selective"},
                                        {"training.recompute_modules", "layernorm"}})) == uint32_t(kTagLayernorm));
  CHECK(recompute_tags(resolve_or_fail({{"model.preset", "llama3.1-8b"}, {"training.recompute", "selective_op"}})) ==
        uint32_t(kTagOpPolicy));

  // Megatron's selective recompute re-runs the attention core (flash included) and drops the
  // scores it would keep without flash; the per-op policy re-runs wo, not the q/k/v GEMM.
  const Resolved r = resolve_or_fail({{"model.preset", "gpt3-175b"}, {"training.flash_attention", "false"}});
  Plan plan;
  plan_layer(plan, r, count_params(r, nullptr), PlanShape{}, false);
  const Op* core = find_op(plan, "core_attention");
  REQUIRE(core);
  CHECK((core->tags & kTagCoreAttn) != 0);
  CHECK((core->drop_tags & kTagCoreAttn) != 0);
  CHECK(core->dropped_bytes > 0);
  CHECK((find_op(plan, "out_proj")->tags & kTagOpPolicy) != 0);
  CHECK((find_op(plan, "qkv_proj")->tags & kTagOpPolicy) == 0);
  CHECK((find_op(plan, "qkv_proj")->extra_tags & kTagOpPolicy) != 0);  // torchtitan's separate wk
}

TEST_CASE("layer plan: TP overlap runs the GEMMs next to its collectives in chunks of rows") {
  // Llama 3.1 70B at tp 8, one sequence of 8192 tokens: the GEMMs of a layer read all 8192 rows
  // (sequence parallelism gathers them). With the overlap, NeMo's userbuffers configs split the
  // all-gather before qkv and fc1 (ring exchange, tp chunks), the reduce-scatter after the output
  // projection and fc2 (pipeline, 4 splits) and the all-gather of dY before their dX (ring
  // exchange); PyTorch's async TP splits every fused pair in tp chunks. Weight gradients, and the
  // column-parallel dX beside a bulk or unfused reduce-scatter, stay whole.
  struct Gemms {
    const KernelSpec *fwd, *dx, *dw;
  };
  auto gemms = [](const Plan& plan, const Op& op) {
    std::vector<const KernelSpec*> g;
    for (int i = op.first_kernel; i < op.first_kernel + op.kernels; ++i)
      if (plan.kernels[size_t(i)].kind == KernelSpec::Kind::gemm && plan.kernels[size_t(i)].pass != Pass::rerun)
        g.push_back(&plan.kernels[size_t(i)]);
    REQUIRE(g.size() == 3);
    return Gemms{g[0], g[1], g[2]};
  };
  auto plan_of = [](const test::Sets& extra) {
    test::Sets sets = {{"model.preset", "llama3.1-70b"},
                       {"training.seq_len", "8192"},
                       {"training.sequence_parallel", "true"},
                       {"parallel.tp", "8"},
                       {"hardware.gpu_count", "8"},
                       {"training.global_batch_seqs", "8"}};
    sets.insert(sets.end(), extra.begin(), extra.end());
    const Resolved r = resolve_or_fail(sets);
    Plan plan;
    plan_layer(plan, r, count_params(r, nullptr), PlanShape{}, false);
    return plan;
  };
  struct Case {
    const char* what;
    test::Sets sets;
    int qkv_fwd, qkv_dx, out_fwd, out_dx;
  };
  for (const Case& c :
       {Case{"no overlap", {}, 1, 1, 1, 1}, Case{"userbuffers", {{"parallel.tp_overlap", "true"}}, 8, 1, 4, 8},
        Case{"async TP", {{"parallel.tp_overlap", "true"}, {"parallel.tp_overlap_method", "async_tp"}}, 8, 1, 8, 8}}) {
    INFO(c.what);
    const Plan plan = plan_of(c.sets);
    for (const char* name : {"qkv_proj", "mlp_up", "out_proj", "mlp_down"}) {
      INFO(name);
      const Op* op = find_op(plan, name);
      REQUIRE(op);
      const bool in = op->tp_collectives == 0;
      const Gemms g = gemms(plan, *op);
      CHECK(g.fwd->repeat == (in ? c.qkv_fwd : c.out_fwd));
      CHECK(g.fwd->m == 8192.0 / g.fwd->repeat);
      CHECK(g.dx->repeat == (in ? c.qkv_dx : c.out_dx));
      CHECK(g.dx->m == 8192.0 / g.dx->repeat);
      CHECK(g.dw->repeat == 1);
      CHECK(g.dw->k == 8192.0);  // the weight gradient sums over every row
      // Async TP's reduce-scatter sums the tp partial products in a kernel of its own: all 8192 rows
      // of 8192 bf16 read, 1024 written.
      double sums = 0;
      for (int i = op->first_kernel; i < op->first_kernel + op->kernels; ++i)
        if (plan.kernels[size_t(i)].kind == KernelSpec::Kind::memory && plan.kernels[size_t(i)].pass == Pass::fwd &&
            plan.kernels[size_t(i)].mem == MemKernel::hbm_copy)
          sums += plan.kernels[size_t(i)].bytes;
      const bool async_tp = std::string_view(c.what) == "async TP";
      CHECK(sums == (async_tp && !in ? 8192.0 * 8192 * 2 * (1 + 1.0 / 8) : 0.0));
    }
  }
}

TEST_CASE("layer plan: kept activations do not depend on the ZeRO stage") {
  // The layout search builds one plan for the four ZeRO stages of a layout (search.cpp).
  const std::vector<test::Sets> cases = {
      {{"model.preset", "llama3.1-8b"}, {"training.recompute", "selective"}},
      {{"model.preset", "gpt3-175b"}, {"training.flash_attention", "false"}, {"parallel.tp", "8"}},
      {{"model.preset", "mixtral-8x7b"},
       {"training.precision", "bf16_mixed"},
       {"training.weight_dtype", "fp32"},
       {"training.master_weights", "false"},
       {"training.fused_elementwise", "false"},
       {"parallel.ep", "8"}},
      {{"model.preset", "llama3.1-70b"}, {"training.precision", "fp8_mixed"}, {"training.recompute", "selective_op"}},
  };
  for (const test::Sets& base : cases) {
    INFO(base.front().second);
    LayerActivations first;
    for (int zero = 0; zero <= 3; ++zero) {
      test::Sets sets = base;
      sets.push_back({"hardware.gpu_count", "64"});
      sets.push_back({"training.zero_stage", std::to_string(zero)});
      const Resolved r = resolve_or_fail(sets);
      const LayerActivations a = layer_activations(r, count_params(r, nullptr), 2);
      CHECK(a.full_layer > 0);
      if (zero == 0) {
        first = a;
        continue;
      }
      CHECK(a.full_layer == first.full_layer);
      CHECK(a.checkpoint == first.checkpoint);
      CHECK(a.selective_op == first.selective_op);
      CHECK(a.loss == first.loss);
    }
  }
}

TEST_CASE("layer plan: kept activations are proportional to the micro-batch") {
  // The micro-batch search scales the scenario's own activations to each candidate
  // (at_micro_batch) instead of building a plan per candidate: that holds only while every kept
  // tensor is proportional to the micro-batch's tokens. Cases reach each op kind: MLA and MoE,
  // math attention's scores, FP8 saved inputs, LoRA, context and sequence parallelism (tp 3: a
  // divisor that is no power of two), the per-op and the full recompute.
  const std::vector<test::Sets> cases = {
      {{"model.preset", "llama3.1-8b"}, {"training.recompute", "selective"}},
      {{"model.preset", "deepseek-v3"}, {"parallel.ep", "8"}, {"parallel.tp", "2"}},
      {{"model.preset", "gpt3-175b"}, {"training.flash_attention", "false"}, {"parallel.tp", "8"}},
      {{"model.preset", "mixtral-8x7b"}, {"training.fused_elementwise", "false"}, {"parallel.ep", "8"}},
      {{"model.preset", "llama3.1-70b"}, {"training.precision", "fp8_mixed"}, {"training.recompute", "selective_op"}},
      {{"model.preset", "llama2-7b"}, {"training.finetune", "lora"}},
      {{"model.preset", "gemma2-9b"}, {"parallel.cp", "2"}, {"training.recompute", "full"}},
      {{"model.preset", "narayanan2021-18b"}, {"parallel.tp", "3"}, {"training.sequence_parallel", "true"}},
  };
  auto near = [](double got, double want) { return std::fabs(got - want) <= 1e-12 * std::fabs(want); };
  for (const test::Sets& base : cases) {
    INFO(base.front().second);
    test::Sets sets = base;
    sets.push_back({"hardware.gpu_count", "96"});
    const Resolved r = resolve_or_fail(sets);
    const ParamCounts p = count_params(r, nullptr);
    const LayerActivations two = layer_activations(r, p, 2);
    CHECK(two.full_layer > 0);
    for (int64_t b : {1, 3, 4, 16}) {
      INFO("micro-batch " << b);
      const LayerActivations built = layer_activations(r, p, b), scaled = at_micro_batch(two, 2, b);
      CHECK(near(scaled.full_layer, built.full_layer));
      CHECK(near(scaled.checkpoint, built.checkpoint));
      CHECK(near(scaled.selective_op, built.selective_op));
      CHECK(near(scaled.loss, built.loss));
    }
  }
}

TEST_CASE("Adafactor: memory and the optimizer step count the same factored states") {
  // A row and a column vector per matrix ≈ 2/h of the parameters (Shazeer & Stern 2018). The
  // optimizer step once counted none while memory counted 2/h; both read optimizer_states() now.
  const test::Sets sets = {
      {"model.preset", "llama3.1-8b"}, {"training.optimizer", "adafactor"}, {"training.precision", "bf16_mixed"}};
  const Resolved r = resolve_or_fail(sets);
  const OptimizerStates st = optimizer_states(r);
  CHECK(st.per_param == doctest::Approx(2.0 / 4096).epsilon(1e-15));
  const Estimate e = test::run(sets);
  const double local = e.params.per_gpu;  // one GPU, no ZeRO
  CHECK(e.mem.optimizer_bytes - e.mem.master_weights_bytes ==
        doctest::Approx(local * st.per_param * st.bytes).epsilon(1e-12));
  // The step reads and writes master weights, fp32 gradients and both states, then writes the
  // 16-bit weights: 2·4 + 2·4 + 2·(2/h)·4 + 2 bytes per parameter.
  Plan opt;
  plan_optimizer(opt, r, local);
  double bytes = 0;
  for (int i = 0; i < opt.n_kernels; ++i) bytes += opt.kernels[size_t(i)].bytes;
  CHECK(bytes == doctest::Approx(local * (8 + 8 + 2 * st.per_param * st.bytes + 2)).epsilon(1e-12));
}
