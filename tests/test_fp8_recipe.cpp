// training.fp8_recipe: how FP8 GEMM inputs are scaled. Rowwise scaling (torchao's recipe) casts every
// operand once per GEMM that reads it, along that GEMM's free axis; tensorwise (the default,
// Transformer Engine and torchao's tensorwise) casts the input once into both layouts.
#include "estimate/estimate_parts.h"
#include "estimate/layer_plan.h"
#include "test_util.h"

using namespace llmc;
using namespace llmc::detail;

namespace {

// Llama 3.1 8B on 8 H100s, FSDP, torch.compile, FP8 linears: torchao's own benchmark setup.
test::Sets fp8_8b(const char* recipe) {
  return {{"model.preset", "llama3.1-8b"},     {"hardware.gpu", "h100-sxm"},        {"hardware.gpu_count", "8"},
          {"training.seq_len", "8192"},        {"training.global_batch_seqs", "8"}, {"training.zero_stage", "3"},
          {"training.precision", "fp8_mixed"}, {"training.fp8_recipe", recipe}};
}

// Bytes of the FP8 cast kernels of one op, by pass.
struct CastBytes {
  double fwd = 0, bwd = 0;
};
CastBytes cast_bytes(const test::Sets& sets, const char* op_name) {
  Result<Resolved> r = resolve(test::scenario(sets));
  REQUIRE(r.ok());
  const ParamCounts p = count_params(*r, nullptr);
  Plan plan;
  plan_layer(plan, *r, p, PlanShape{1, 1, true}, false);
  CastBytes out;
  for (const Op& o : plan) {
    if (std::string(o.name) != op_name) continue;
    for (int i = o.first_kernel; i < o.first_kernel + o.kernels; ++i) {
      const KernelSpec& k = plan.kernels[size_t(i)];
      if (k.kind != KernelSpec::Kind::memory || k.mem != MemKernel::cast) continue;
      (k.pass == Pass::fwd ? out.fwd : out.bwd) += k.bytes;
    }
  }
  return out;
}

}  // namespace

TEST_CASE("training.fp8_recipe rowwise: every operand cast once per GEMM that reads it") {
  // The out-projection: x[T×k]·W[k×n] with T = 8192 tokens, k = 32 heads × 128, n = 4096; e = 2.
  const double T = 8192, k = 4096, n = 4096, e = 2;
  const CastBytes tensorwise = cast_bytes(fp8_8b("tensorwise"), "out_proj");
  // One cast-transpose of x forward and of dY backward: read e, write two FP8 layouts.
  CHECK(tensorwise.fwd == doctest::Approx(T * k * (e + 2)));
  CHECK(tensorwise.bwd == doctest::Approx(T * n * (e + 2)));
  const CastBytes rowwise = cast_bytes(fp8_8b("rowwise"), "out_proj");
  // Forward: x and W scaled by rows (read e, write 1). Backward: dY by rows and by columns, x and
  // W by columns (read e for the column amax, again for the cast, write 1).
  CHECK(rowwise.fwd == doctest::Approx((T * k + k * n) * (e + 1)));
  CHECK(rowwise.bwd == doctest::Approx(T * n * (e + 1) + (T * n + T * k + k * n) * (2 * e + 1)));
}

TEST_CASE("training.fp8_recipe rowwise: slower than tensorwise, 16-bit inputs kept, same FLOPs") {
  const Estimate tensorwise = test::run(fp8_8b("tensorwise")), rowwise = test::run(fp8_8b("rowwise"));
  CHECK(rowwise.flops.model_per_token == tensorwise.flops.model_per_token);
  CHECK(rowwise.time.gemm_s == doctest::Approx(tensorwise.time.gemm_s));  // GEMMs at the same FP8 rate
  CHECK(rowwise.time.memory_bound_s > tensorwise.time.memory_bound_s);
  // torchao keeps the linears' 16-bit inputs for backward, Transformer Engine their FP8 copies.
  CHECK(rowwise.mem.activations_bytes > tensorwise.mem.activations_bytes);
  // explain says which recipe the memory-bound kernels were counted under.
  const Term* t = rowwise.trace.find("time.memory_bound_s");
  REQUIRE(t);
  CHECK(test::term_input(*t, "fp8_casts_per_operand") == 2);
  CHECK(test::term_input(*tensorwise.trace.find("time.memory_bound_s"), "fp8_casts_per_operand") == 1);
}

TEST_CASE("training.fp8_recipe rowwise: refused without FP8 GEMMs and with FP8 weights") {
  test::Sets bf16 = fp8_8b("rowwise");
  bf16.push_back({"training.precision", "bf16_mixed"});
  const Error e = test::run_error(bf16);
  CHECK(e.field == "training.fp8_recipe");
  CHECK(test::contains(e.message, "bf16_mixed"));
  test::Sets fp8_weights = fp8_8b("rowwise");
  fp8_weights.push_back({"training.fp8_params", "true"});
  const Error w = test::run_error(fp8_weights);
  CHECK(w.field == "training.fp8_params");
  CHECK(test::contains(w.message, "per-tensor"));
  Scenario s = default_scenario();
  const Status bad = set_field(s, "training.fp8_recipe", "blockwise");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().field == "training.fp8_recipe");
  CHECK(test::contains(bad.error().message, "tensorwise,rowwise"));
}
