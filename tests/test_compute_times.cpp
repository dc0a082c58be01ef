// The step as timed kernels (core/src/estimate/compute_times.cpp, reading the layer plan): what
// each pass and each recompute rule adds, per stage.
#include <memory>
#include <string>
#include <vector>

#include "estimate/compute_times.h"
#include "estimate/kernel_time.h"
#include "estimate/layer_plan.h"
#include "test_util.h"

using namespace llmc;
using namespace llmc::detail;
using namespace llmc::test;

namespace {

// The kernels of every op of `p` named `name`, in plan order.
std::vector<KernelSpec> op_kernels(const Plan& p, const char* name) {
  std::vector<KernelSpec> out;
  for (const Op& op : p)
    if (std::string(op.name) == name)
      for (int i = op.first_kernel; i < op.first_kernel + op.kernels; ++i) out.push_back(p.kernels[size_t(i)]);
  return out;
}

struct Timed {
  Resolved r;
  ComputeTimes ct;
  double emb_head_fwd_s = 0;   // the embedding's and the head's forward kernels
  double attention_fwd_s = 0;  // one layer's attention forward kernel
  // One dense layer's LoRA adapter GEMMs (a dimension equal to the rank), forward and backward.
  double adapter_fwd_s = 0, adapter_bwd_s = 0;
  int adapter_gemms = 0;
  std::unique_ptr<StepPlan> plan;  // the plan the times were read from
};

Timed timed(const Sets& sets) {
  Result<Resolved> rr = resolve(scenario(sets));
  REQUIRE(rr.ok());
  Timed t{*rr, {}, 0, 0};
  const ParamCounts p = count_params(t.r, nullptr);
  auto plan = std::make_unique<StepPlan>();
  build_step_plan(*plan, t.r, p, plan_shape(t.r));
  t.ct = compute_times(t.r, p, *plan, HeldParams{p.total, p.total});
  const KernelProfile kp(t.r.s.hardware);
  for (const Plan* part : {&plan->embedding, &plan->head})
    for (int i = 0; i < part->n_kernels; ++i) {
      const KernelSpec& k = part->kernels[size_t(i)];
      if (k.pass != Pass::fwd) continue;
      t.emb_head_fwd_s += k.kind == KernelSpec::Kind::gemm ? gemm_time(kp, k.dtype, k.m, k.n, k.k, k.batch).s
                                                           : memory_time(kp, k.mem, k.bytes).s;
    }
  const double rank = t.r.s.training.finetune == Finetune::lora ? double(t.r.s.training.lora_rank) : -1;
  for (int i = 0; i < plan->dense.n_kernels; ++i) {
    const KernelSpec& k = plan->dense.kernels[size_t(i)];
    if (k.kind == KernelSpec::Kind::gemm && (k.m == rank || k.n == rank || k.k == rank)) {
      const double s = gemm_time(kp, k.dtype, k.m, k.n, k.k, k.batch).s;
      (k.pass == Pass::fwd ? t.adapter_fwd_s : t.adapter_bwd_s) += s;
      ++t.adapter_gemms;
    }
    if (k.kind == KernelSpec::Kind::attention && k.pass == Pass::fwd)
      t.attention_fwd_s = attention_time(kp, k.dtype, k.batch, k.q_len, k.kv_len, k.heads, k.kv_heads, k.head_dim, true,
                                         false, k.backend)
                              .s;
  }
  t.plan = std::move(plan);
  return t;
}

const Sets kLlama8b = {
    {"model.preset", "llama3.1-8b"}, {"hardware.gpu_count", "1"}, {"training.global_batch_seqs", "1"}};

}  // namespace

TEST_CASE("compute times: full recompute runs every layer's forward again in backward") {
  Sets none = kLlama8b, full = kLlama8b;
  none.push_back({"training.recompute", "none"});
  full.push_back({"training.recompute", "full"});
  const Timed a = timed(none), b = timed(full);
  CHECK(b.ct.stage_fwd.total() == doctest::Approx(a.ct.stage_fwd.total()).epsilon(1e-15));
  CHECK(b.ct.stage_bwd.total() - a.ct.stage_bwd.total() ==
        doctest::Approx(a.ct.stage_fwd.total() - a.emb_head_fwd_s).epsilon(1e-12));
}

TEST_CASE("compute times: Megatron's selective recompute re-runs the flash attention forward of every layer") {
  Sets none = kLlama8b, sel = kLlama8b;
  none.push_back({"training.recompute", "none"});
  sel.push_back({"training.recompute", "selective"});
  const Timed a = timed(none), b = timed(sel);
  CHECK(a.attention_fwd_s > 0);
  CHECK(b.ct.stage_bwd.attention_s - a.ct.stage_bwd.attention_s ==
        doctest::Approx(32 * a.attention_fwd_s).epsilon(1e-12));
  CHECK(b.ct.stage_bwd.gemm_s == doctest::Approx(a.ct.stage_bwd.gemm_s).epsilon(1e-15));
}

TEST_CASE("compute times: ring attention runs cp blocks per layer, at any cp") {
  // One kernel spec run cp times (KernelSpec::repeat): cp 256 once overflowed the plan's 256
  // kernel slots and lost blocks.
  for (const char* cp : {"4", "256"}) {
    INFO(std::string(cp));
    const Timed t = timed({{"model.preset", "llama3.1-8b"},
                           {"parallel.cp", cp},
                           {"parallel.cp_method", "p2p"},
                           {"hardware.gpu_count", cp},
                           {"training.seq_len", "131072"},
                           {"training.global_batch_seqs", "1"}});
    const double blocks = 32.0 * std::stod(cp);  // layers × ring steps
    REQUIRE(t.attention_fwd_s > 0);
    CHECK(t.ct.stage_fwd.attention_s == doctest::Approx(blocks * t.attention_fwd_s).epsilon(1e-12));
    // Kernels counted once per layer: the cp runs of the block among them.
    CHECK(t.ct.stage_fwd.by_basis[0] + t.ct.stage_fwd.by_basis[1] + t.ct.stage_fwd.by_basis[2] > std::stod(cp));
  }
}

TEST_CASE("compute times: LoRA's frozen linears run dX in backward, no weight gradient; adapters apart") {
  // Full training's backward GEMMs are dX and dW, each the forward's FLOPs (2:1); with every base
  // weight frozen only dX runs (1:1), as the FLOP count says (flops.cpp: backward 1 × forward for
  // the frozen linears). Llama 3.1 8B's GEMMs are large, so time follows FLOPs within 3 %. The
  // adapters (every linear: q, k, v, o, w1, w3, w2) run six rank-16 GEMMs each, two forward.
  const Timed full = timed(kLlama8b);
  Sets lora_sets = kLlama8b;
  lora_sets.push_back({"training.finetune", "lora"});
  const Timed lora = timed(lora_sets);
  CHECK(full.adapter_gemms == 0);
  CHECK(lora.adapter_gemms == 7 * 6);
  const double L = 32;
  const double base_fwd = lora.ct.stage_fwd.gemm_s - L * lora.adapter_fwd_s;
  const double base_bwd = lora.ct.stage_bwd.gemm_s - L * lora.adapter_bwd_s;
  CHECK(full.ct.stage_bwd.gemm_s / full.ct.stage_fwd.gemm_s == doctest::Approx(2.0).epsilon(0.03));
  CHECK(base_bwd / base_fwd == doctest::Approx(1.0).epsilon(0.03));
  CHECK(base_fwd == doctest::Approx(full.ct.stage_fwd.gemm_s).epsilon(1e-12));
  // Rank-16 GEMMs are bound by reading their inputs (seven matrices' x and dY twice, dX once):
  // 12 % of the base GEMMs' time at this shape.
  CHECK(L * (lora.adapter_fwd_s + lora.adapter_bwd_s) / (base_fwd + base_bwd) == doctest::Approx(0.12).epsilon(0.1));
  // explain shows the rank beside the GEMM time.
  const Estimate e = run(lora_sets);
  CHECK(term_input(*e.trace.find("time.gemm_s"), "lora_rank") == 16);
  CHECK(term_input(*run(kLlama8b).trace.find("time.gemm_s"), "lora_rank") == 0);
  // training.lora_targets: q and v, or the four attention projections.
  for (const auto& [targets, adapters] : {std::pair<const char*, int>{"qv", 2}, {"attention", 4}}) {
    Sets t = lora_sets;
    t.push_back({"training.lora_targets", targets});
    CHECK(timed(t).adapter_gemms == 6 * adapters);
  }
}

TEST_CASE("compute times: the optimizer step and the stage kernels are counted apart") {
  const Timed a = timed(kLlama8b);
  CHECK(a.ct.optimizer.gemm_s == 0);
  CHECK(a.ct.optimizer.memory_s > 0);
  CHECK(a.ct.micro_batch_s() == doctest::Approx(a.ct.stage_fwd.total() + a.ct.stage_bwd.total()));
}

// torchtitan's per-op policy re-runs a block's 2nd, 4th and 6th matmul (wk, wo, w3 in forward
// order wq, wk, wv, wo, w1, w3, w2) and the element-wise ops up to w2's input. Llama 3 8B: hardware FLOPs exceed
// model FLOPs (+ flash attention's backward recompute, 0.5 × the attention forward) by
// 32 layers × 2 × (h·kv·d + a·d·h + h·ffn) per token.
TEST_CASE("selective_op recomputes wk, wo and w3: FLOPs exactly, time between none and full") {
  auto at = [](const char* rec, Sets more = {}) {
    Sets s = {{"model.preset", "llama3.1-8b"},
              {"hardware.gpu_count", "8"},
              {"training.seq_len", "8192"},
              {"training.recompute", rec}};
    s.insert(s.end(), more.begin(), more.end());
    return run(s);
  };
  const Estimate none = at("none"), op = at("selective_op"), full = at("full");
  const double per_layer = 4096.0 * 1024 + 4096.0 * 4096 + 4096.0 * 14336;
  CHECK(op.flops.hardware_per_token - none.flops.hardware_per_token ==
        doctest::Approx(32 * 2 * per_layer).epsilon(1e-12));
  CHECK(op.flops.model_per_token == none.flops.model_per_token);
  CHECK(none.time.step_s < op.time.step_s);
  CHECK(op.time.step_s < full.time.step_s);
  // The re-run share of the forward is what separates them: more than the matmuls alone (their
  // 36.5 % of the layer's matmul FLOPs), because the element-wise ops run again, and less than all.
  const double extra_op = op.time.step_s - none.time.step_s, extra_full = full.time.step_s - none.time.step_s;
  CHECK(extra_op / extra_full > per_layer / (2 * 4096.0 * 4096 + 2 * 4096.0 * 1024 + 3 * 4096.0 * 14336));
  CHECK(extra_op / extra_full < 1);
  // With tp, it re-runs half of the layer's forward tp traffic (the all-gathers; the
  // reduce-scatters' outputs are saved): 5 collective pairs per layer per micro-batch, not 4 or 6.
  auto tp_bytes = [](const Estimate& e) {
    for (const CommItem& c : e.comm)
      if (c.name == "tp") return c.bytes_per_step;
    return 0.0;
  };
  const Sets tp = {{"parallel.tp", "8"}, {"training.sequence_parallel", "true"}};
  CHECK(tp_bytes(at("selective_op", tp)) == doctest::Approx(tp_bytes(at("none", tp)) * 5 / 4).epsilon(1e-12));
  CHECK(tp_bytes(at("full", tp)) == doctest::Approx(tp_bytes(at("none", tp)) * 6 / 4).epsilon(1e-12));
}

// The fp32 recipe keeps 4-byte activations, and its element-wise kernels (norms, activations,
// rotary, residual adds, loss) move twice the bytes of a 16-bit recipe's: memory-bound time a bit
// under twice (fixed launch costs and the profile's rate-vs-size curve). It computes in tf32, so
// the element size comes from the recipe, not from the compute dtype.
TEST_CASE("fp32 recipe: element-wise kernels move 4-byte activations") {
  auto mem_s = [](const char* precision) {
    return run({{"model.preset", "llama3.1-8b"}, {"hardware.gpu", "h100-sxm"}, {"training.precision", precision}})
        .time.memory_bound_s;
  };
  const double ratio = mem_s("fp32") / mem_s("bf16_mixed");
  CHECK(ratio > 1.7);
  CHECK(ratio < 2.0);
}

TEST_CASE("compute times: FP8 backward GEMMs at precise accumulation, 1.04 × the fast kernel's time on Hopper") {
  // Transformer Engine and torchao run dX and dW without fast accumulation, the forward with it;
  // on an H100 the precise kernel took 1.04 × (median over 99 layer shapes, tests/test_gemm_measured.cpp).
  for (const auto& gpu_factor : {std::pair{"h100-sxm", 1.04}, {"b200", 1.0}}) {
    const char* gpu = gpu_factor.first;  // plain names: clang 14 cannot capture structured bindings (CAPTURE)
    const double factor = gpu_factor.second;
    CAPTURE(gpu);
    Sets sets = kLlama8b;
    sets.push_back({"hardware.gpu", gpu});
    sets.push_back({"training.precision", "fp8_mixed"});
    sets.push_back({"training.recompute", "none"});
    const Timed t = timed(sets);
    const KernelProfile kp(t.r.s.hardware);
    double fp8_fast_s = 0, other_s = 0;
    for (const auto& [part, times] :
         {std::pair{&t.plan->dense, double(t.r.m.layers)}, {&t.plan->embedding, 1.0}, {&t.plan->head, 1.0}})
      for (int i = 0; i < part->n_kernels; ++i) {
        const KernelSpec& k = part->kernels[size_t(i)];
        if (k.kind != KernelSpec::Kind::gemm || k.pass != Pass::bwd) continue;
        const double s = gemm_time(kp, k.dtype, k.m, k.n, k.k, k.batch).s * k.repeat * times;
        (k.dtype == Dtype::fp8 ? fp8_fast_s : other_s) += s;
      }
    CHECK(fp8_fast_s > 0);
    CHECK(t.ct.stage_bwd.gemm_s == doctest::Approx(factor * fp8_fast_s + other_s).epsilon(1e-9));
    // explain shows the factor beside the GEMM time (1 for a 16-bit step).
    CHECK(term_input(*run(sets).trace.find("time.gemm_s"), "fp8_backward_gemm_factor") == factor);
  }
  CHECK(term_input(*run(kLlama8b).trace.find("time.gemm_s"), "fp8_backward_gemm_factor") == 1.0);
}

// FSDP2 (training.fsdp_impl = fsdp2, PyTorch's fully_shard) copies each all-gather's output into
// every parameter's own tensor on the compute stream (foreach_all_gather_copy_out): one kernel per
// FSDP unit and gather, reading and writing the unit's gathered weights. Llama 3.1 8B on 8 GPUs:
// 218,103,808 linear weights per layer (attention 4096 × 6144 + 4096 × 4096, MLP 3 × 4096 × 14336),
// 128256 × 4096 in the embedding and again in the output layer, all gathered in bf16.
TEST_CASE("training.fsdp_impl=fsdp2: a copy-out of every gathered unit after each all-gather") {
  const Sets base = {{"model.preset", "llama3.1-8b"}, {"hardware.gpu_count", "8"},
                     {"training.zero_stage", "3"},     {"training.micro_batch", "2"},
                     {"training.global_batch_seqs", "32"}};
  auto copy_out_kernels = [](const Plan& p) { return op_kernels(p, "fsdp_copy_out"); };
  const Timed flat = timed(base), fsdp2 = timed(with_extra(base, {{"training.fsdp_impl", "fsdp2"}}));
  CHECK(copy_out_kernels(flat.plan->dense).empty());
  const std::vector<KernelSpec> layer = copy_out_kernels(fsdp2.plan->dense);
  REQUIRE(layer.size() == 2);  // after the forward's gather and after the backward's
  const double layer_bytes = 2.0 * (4096.0 * 6144 + 4096.0 * 4096 + 3 * 4096.0 * 14336);
  CHECK(layer[0].pass == Pass::fwd);
  CHECK(layer[1].pass == Pass::bwd);
  CHECK(layer[0].rerun_by == 0u);  // a recomputed forward uses the backward's gather
  for (const KernelSpec& k : layer) CHECK(k.bytes == doctest::Approx(2 * layer_bytes).epsilon(1e-12));
  const double table_bytes = 2.0 * 128256 * 4096;
  for (const Plan* part : {&fsdp2.plan->embedding, &fsdp2.plan->head}) {
    const std::vector<KernelSpec> ks = copy_out_kernels(*part);
    REQUIRE(ks.size() == 2);
    CHECK(ks[0].bytes == doctest::Approx(2 * table_bytes).epsilon(1e-12));
  }
  // Each micro-batch's stage time grows by exactly those kernels' times.
  const KernelProfile kp(fsdp2.r.s.hardware);
  const double per_micro = 32 * 2 * memory_time(kp, MemKernel::hbm_copy, 2 * layer_bytes).s +
                           4 * memory_time(kp, MemKernel::hbm_copy, 2 * table_bytes).s;
  CHECK(fsdp2.ct.micro_batch_s() - flat.ct.micro_batch_s() == doctest::Approx(per_micro).epsilon(1e-9));
  // Kept gathered after the forward (reshard_after_forward = false): the forward's copy alone.
  const Timed kept = timed(with_extra(base, {{"training.fsdp_impl", "fsdp2"}, {"training.reshard_after_forward", "false"}}));
  const std::vector<KernelSpec> once = copy_out_kernels(kept.plan->dense);
  REQUIRE(once.size() == 1);
  CHECK(once[0].pass == Pass::fwd);
  // And gathered once per step when the gradients are reduced once (m = 2 micro-batches here).
  const Timed step = timed(with_extra(base, {{"training.fsdp_impl", "fsdp2"},
                                             {"training.reshard_after_forward", "false"},
                                             {"training.grad_reduce", "step"}}));
  const std::vector<KernelSpec> half = copy_out_kernels(step.plan->dense);
  REQUIRE(half.size() == 1);
  CHECK(half[0].bytes == doctest::Approx(layer_bytes).epsilon(1e-12));
  // FSDP2 shards parameters: only with ZeRO-3.
  const Error err = run_error(with_extra(base, {{"training.fsdp_impl", "fsdp2"}, {"training.zero_stage", "2"}}));
  CHECK(err.field == "training.fsdp_impl");
  CHECK(contains(err.message, "zero_stage = 3"));
}

// Batch-first sequence parallelism (training.activation_layout = bsh, PyTorch DTensor's
// SequenceParallel): NCCL gathers and scatters along dimension 0, so every all-gather along the
// sequence is followed, and every reduce-scatter preceded, by a copy of the pair's full T × h
// tensor. Llama 3.1 8B at tp 8, 2 × 8,192 tokens: 2 × 16,384 × 4,096 × 2 bytes per copy.
TEST_CASE("training.activation_layout=bsh: a full-tensor copy beside every unfused sequence-parallel collective") {
  const Sets base = {{"model.preset", "llama3.1-8b"},    {"hardware.gpu_count", "8"},
                     {"parallel.tp", "8"},               {"training.sequence_parallel", "true"},
                     {"training.micro_batch", "2"},      {"training.global_batch_seqs", "2"}};
  const double bytes = 2.0 * 16384 * 4096 * 2;
  auto copies = [](const Plan& p, const char* op_name) {
    std::vector<KernelSpec> out;
    for (const KernelSpec& k : op_kernels(p, op_name))
      if (k.kind == KernelSpec::Kind::memory && k.mem == MemKernel::hbm_copy) out.push_back(k);
    return out;
  };
  const Timed sbh = timed(base), bsh = timed(with_extra(base, {{"training.activation_layout", "bsh"}}));
  CHECK(copies(sbh.plan->dense, "out_proj").empty());
  for (const char* op : {"out_proj", "mlp_down"}) {
    CAPTURE(op);
    const std::vector<KernelSpec> ks = copies(bsh.plan->dense, op);
    REQUIRE(ks.size() == 3);  // after the all-gather, before the reduce-scatter; backward's two
    CHECK(ks[0].pass == Pass::fwd);
    CHECK(ks[0].bytes == doctest::Approx(bytes));
    CHECK(ks[0].rerun_by == uint32_t(kTagOpPolicy));  // the per-op policy re-runs the all-gather
    CHECK(ks[1].rerun_by == 0u);                      // and keeps the reduce-scatter's output
    CHECK(ks[2].pass == Pass::bwd);
    CHECK(ks[2].bytes == doctest::Approx(2 * bytes));
  }
  // Async TP fuses the forward's pairs and the backward's all-gathers into their matmuls; the
  // backward's reduce-scatters, which take a sum of matmuls, keep their copy.
  // (Async TP's own copies, its partial sums, are there in both layouts.)
  const Sets async_tp = {{"parallel.tp_overlap", "true"}, {"parallel.tp_overlap_method", "async_tp"}};
  const std::vector<KernelSpec> plain = copies(timed(with_extra(base, async_tp)).plan->dense, "out_proj");
  Sets async_bsh = async_tp;
  async_bsh.push_back({"training.activation_layout", "bsh"});
  const std::vector<KernelSpec> ks = copies(timed(with_extra(base, async_bsh)).plan->dense, "out_proj");
  REQUIRE(ks.size() == plain.size() + 1);
  CHECK(ks.back().pass == Pass::bwd);
  CHECK(ks.back().bytes == doctest::Approx(bytes));
  // Without sequence parallelism the tp collective is an all-reduce in place: no copy.
  const Timed no_sp = timed(with_extra(base, {{"training.activation_layout", "bsh"}, {"training.sequence_parallel", "false"}}));
  CHECK(copies(no_sp.plan->dense, "out_proj").empty());
}
