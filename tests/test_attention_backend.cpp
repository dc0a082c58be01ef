// training.attention_backend: which kernel runs attention, the framework defaults, the GPUs each
// kernel needs, and the rates each is timed at (FlashAttention-3 paper figures on H100 SXM5).
#include "inputs/datasheet.h"
#include "llmc/catalog.h"
#include "test_util.h"

using namespace llmc;
using namespace llmc::test;

namespace {

Resolved resolved(const Sets& sets) {
  Result<Resolved> r = resolve(scenario(sets));
  INFO((r ? "" : r.error().text()));
  REQUIRE(r.ok());
  return *r;
}

Sets with(Sets s, const std::string& key, const std::string& value) {
  s.push_back({key, value});
  return s;
}

// A GPU below compute capability 8.0, where cudnn and triton do not run.
const Sets kLlama2OnV100 = {
    {"model.preset", "llama2-7b"}, {"hardware.gpu", "v100-sxm2-32gb"}, {"training.precision", "fp16_mixed"}};

const Sets kLlama8k = {
    {"model.preset", "llama3.1-8b"}, {"hardware.gpu_count", "8"}, {"training.global_batch_seqs", "8"}};

}  // namespace

TEST_CASE("attention backend: auto is the framework's default") {
  // Transformer Engine under Megatron-style fused kernels picks cuDNN's fused attention on Hopper.
  CHECK(resolved(kLlama8k).attention_backend == AttentionBackend::cudnn);
  // PyTorch eager code (torchtitan, Hugging Face) calls SDPA, whose flash backend is FlashAttention-2.
  CHECK(resolved(with(kLlama8k, "training.fused_elementwise", "false")).attention_backend == AttentionBackend::fa2);
  // On Ampere, Transformer Engine runs FlashAttention-2 too.
  CHECK(resolved(with(kLlama8k, "hardware.gpu", "a100-sxm-80gb")).attention_backend == AttentionBackend::fa2);
  // Without flash attention, unfused_attention decides.
  const Sets unfused = with(kLlama8k, "training.flash_attention", "false");
  CHECK(resolved(unfused).attention_backend == AttentionBackend::eager);
  CHECK(resolved(with(unfused, "training.unfused_attention", "sdpa_math_tf32")).attention_backend ==
        AttentionBackend::sdpa_math);
}

TEST_CASE("attention backend: a named backend decides flash_attention and unfused_attention") {
  const Resolved math = resolved(with(kLlama8k, "training.attention_backend", "sdpa_math"));
  CHECK_FALSE(math.s.training.flash_attention);
  CHECK(math.s.training.unfused_attention == UnfusedAttention::sdpa_math_fp32);  // PyTorch's default: no TF32
  const Resolved eager = resolved(with(kLlama8k, "training.attention_backend", "eager"));
  CHECK_FALSE(eager.s.training.flash_attention);
  CHECK(eager.s.training.unfused_attention == UnfusedAttention::matmul);
  CHECK(resolved(with(with(kLlama8k, "training.flash_attention", "false"), "training.attention_backend", "fa3"))
            .s.training.flash_attention);
}

TEST_CASE("attention backend: each needs the GPU that runs it") {
  const Error fa3 =
      run_error(with(with(kLlama8k, "hardware.gpu", "a100-sxm-80gb"), "training.attention_backend", "fa3"));
  CHECK(fa3.field == "training.attention_backend");
  CHECK(contains(fa3.text(), "Hopper"));
  const Error cudnn = run_error(with(kLlama2OnV100, "training.attention_backend", "cudnn"));
  CHECK(cudnn.field == "training.attention_backend");
  CHECK(contains(cudnn.text(), "compute capability 8.0"));
}

TEST_CASE(
    "attention backend: FlashAttention-2 on Hopper is timed at its measured rate, far below cuDNN and "
    "FlashAttention-3") {
  // Forward at head dim 128, 16k tokens: FA3 648, cuDNN 595 TFLOP/s (FlashAttention-3 paper), FA2 as
  // PyTorch SDPA runs it 327 (an H100 with PyTorch 2.11; tritonbench 329); backward 561, 516, 307.
  // Over a step's forward and backward FA2 takes 1.5-1.8 × cuDNN's attention time (the
  // exponentials, at the SMs' own rate, are the same for all three).
  const double fa2 = run(with(kLlama8k, "training.attention_backend", "fa2")).time.attention_s;
  const double cudnn = run(with(kLlama8k, "training.attention_backend", "cudnn")).time.attention_s;
  const double fa3 = run(with(kLlama8k, "training.attention_backend", "fa3")).time.attention_s;
  CHECK(fa3 < cudnn);
  CHECK(fa2 / cudnn > 1.5);
  CHECK(fa2 / cudnn < 1.8);
  // The other kernels of the step do not depend on the attention kernel.
  CHECK(run(with(kLlama8k, "training.attention_backend", "fa2")).time.gemm_s ==
        run(with(kLlama8k, "training.attention_backend", "cudnn")).time.gemm_s);
}

TEST_CASE("attention backend: FlashAttention-2 on a B200 at its measured rate, Hopper's, not Hopper's share of peak") {
  // Alone on the GPU (speed 1), head dim 128, 16k tokens: 331 TFLOP/s forward on a B200
  // (tritonbench, meta-pytorch/tritonbench#171), about an H100's 327-370; cuDNN, native to both,
  // keeps its share of each peak. B200 publishes no clock, so its rates are flat (no exponential term).
  const Result<GpuSpec> b200 = find_gpu("b200");
  REQUIRE(b200.ok());
  const auto rate = [&](AttentionBackend backend) {
    return detail::datasheet_attention_table(*b200, Dtype::bf16, 1, detail::attention_fractions(*b200, backend));
  };
  CHECK(rate(AttentionBackend::fa2).fwd_fit.peak == doctest::Approx(331).epsilon(0.01));
  CHECK(rate(AttentionBackend::fa2).bwd_fit.peak / rate(AttentionBackend::fa2).fwd_fit.peak ==
        doctest::Approx(322.0 / 370).epsilon(0.01));
  CHECK(rate(AttentionBackend::cudnn).fwd_fit.peak == doctest::Approx(0.601 * 2250).epsilon(0.01));
  // In a step: FlashAttention-2 takes about 4 × cuDNN's attention time on a B200 (1.6-1.8 × on H100).
  const Sets on_b200 = with(kLlama8k, "hardware.gpu", "b200");
  const double fa2 = run(with(on_b200, "training.attention_backend", "fa2")).time.attention_s;
  const double cudnn = run(with(on_b200, "training.attention_backend", "cudnn")).time.attention_s;
  CHECK(fa2 / cudnn > 3.5);
  CHECK(fa2 / cudnn < 4.5);
}

namespace {
// A step's attention time with `backend` over fa2's, Llama 3.1 8B at 8K tokens on `gpu`.
double attention_over_fa2(const char* gpu, const char* backend) {
  const Sets on = with(kLlama8k, "hardware.gpu", gpu);
  return run(with(on, "training.attention_backend", backend)).time.attention_s /
         run(with(on, "training.attention_backend", "fa2")).time.attention_s;
}
}  // namespace

TEST_CASE("attention backend: FlashAttention in Triton at FlashAttention-2's rate ÷ 1.4 forward, ÷ 2 backward") {
  // Dao 2023 §4.1 (A100): FlashAttention-2 (the flash-attn package) is 1.3-1.5× faster than the
  // Triton kernel forward and about 2× backward. At head dim 128 (Llama 3.1 8B), where the rates
  // are quoted, a step's attention takes (1.4·F + 2·B) / (F + B) of the package's, with F : B =
  // 1/0.374 : 2.5/0.326 on H100 and 1/0.720 : 2.5/0.627 on A100 (backward 2.5× the forward FLOPs):
  // 1.845 on both. On the H100 `fa2` is PyTorch SDPA's slower build (0.330, 0.310), so Triton
  // takes (1.4/0.374 + 5/0.326) / (1/0.330 + 2.5/0.310) = 1.720 of it.
  for (const auto& gpu_ratio : {std::pair{"h100-sxm", 1.720}, {"a100-sxm-80gb", 1.845}}) {
    const char* gpu = gpu_ratio.first;  // plain names: clang 14 cannot capture structured bindings (CAPTURE)
    CAPTURE(gpu);
    CHECK(attention_over_fa2(gpu, "triton") == doctest::Approx(gpu_ratio.second).epsilon(0.01));
  }
  const Resolved r = resolved(with(kLlama8k, "training.attention_backend", "triton"));
  CHECK(r.s.training.flash_attention);
  // explain names the kernel that ran (auto's resolved choice too).
  auto source = [](const Sets& sets) {
    const Estimate e = run(sets);
    const Term* t = e.trace.find("time.attention_s");
    REQUIRE(t != nullptr);
    return std::string(t->source);
  };
  CHECK(contains(source(with(kLlama8k, "training.attention_backend", "triton")), "kernel triton"));
  CHECK(contains(source(kLlama8k), "kernel cudnn"));
  const Error old = run_error(with(kLlama2OnV100, "training.attention_backend", "triton"));
  CHECK(old.field == "training.attention_backend");
  CHECK(contains(old.text(), "compute capability 8.0"));
}

TEST_CASE("attention backend: FlexAttention at its authors' share of FlashAttention-2 (A100) and -3 (H100)") {
  // PyTorch's blog (2024-08-07): on A100 90 % of FlashAttention-2 forward, 85 % backward; GTC 2025
  // (Guessous): on H100 85 % of FlashAttention-3 forward, 76 % backward. With backward 2.5× the
  // forward FLOPs, a step's attention takes (F/0.90 + B/0.85) / (F + B) of FA2's on A100, F : B =
  // 1/0.720 : 2.5/0.627 (1.160), and on H100 (1/0.557 + 2.5/0.431) / (1/0.330 + 2.5/0.310) of
  // SDPA's FA2 (0.685: faster, as the GTC figures say of FlashAttention-2).
  for (const auto& gpu_ratio : {std::pair{"h100-sxm", 0.685}, {"a100-sxm-80gb", 1.160}}) {
    const char* gpu = gpu_ratio.first;
    CAPTURE(gpu);
    CHECK(attention_over_fa2(gpu, "flex") == doctest::Approx(gpu_ratio.second).epsilon(0.01));
  }
  CHECK(resolved(with(kLlama8k, "training.attention_backend", "flex")).s.training.flash_attention);
  const Error old = run_error(with(kLlama2OnV100, "training.attention_backend", "flex"));
  CHECK(old.field == "training.attention_backend");
  CHECK(contains(old.text(), "FlexAttention"));
}

TEST_CASE("attention backend: a measured profile's table times its own kernel only") {
  // site/profiles/h100-sxm.json measured PyTorch's cuDNN SDPA (table "bf16.cudnn"): cuDNN is timed
  // from its points, FlashAttention-2 from the datasheet.
  const HardwareProfile measured = [] {
    Result<HardwareProfile> p = profile_from_json(source_text("site/profiles/h100-sxm.json"));
    REQUIRE(p.ok());
    return *p;
  }();
  REQUIRE(measured.attention.count("bf16.cudnn"));
  const Sets one = {{"model.preset", "llama3.1-8b"}, {"hardware.gpu_count", "1"}, {"training.global_batch_seqs", "1"}};
  const Estimate cudnn = run_with_profile(scenario(with(one, "training.attention_backend", "cudnn")), measured);
  const Estimate fa2 = run_with_profile(scenario(with(one, "training.attention_backend", "fa2")), measured);
  CHECK(fa2.time.kernels_from_spec > cudnn.time.kernels_from_spec);  // FlashAttention-2 from the datasheet
  CHECK(fa2.time.attention_s > 1.3 * cudnn.time.attention_s);
}

TEST_CASE("profile: attention tables per backend, by key or by a backend field") {
  const std::string table =
      R"({"fit": {"fwd": {"peak_tflops": 400, "overhead_us": 5}, "bwd": {"peak_tflops": 300, "overhead_us": 5}}, "points": []})";
  auto profile = [&](const std::string& attention) {
    return profile_from_json(
        R"({"schema_version": 1, "gpu": "h100-sxm", "source": "measured", "description": "t", "compute_efficiency": 0.5,
      "collectives": {"intra_node": {"alpha_us": 5, "busbw_gbps": 300}, "inter_node": {"alpha_us": 10, "busbw_gbps": 40}},
      "attention": )" +
        attention + "}");
  };
  const Result<HardwareProfile> keyed = profile(R"({"bf16.fa2": )" + table + "}");
  REQUIRE(keyed.ok());
  CHECK(keyed->attention.count("bf16.fa2"));
  std::string named = table;
  named.insert(1, R"("backend": "fa3", )");
  const Result<HardwareProfile> field = profile(R"({"bf16": )" + named + "}");
  REQUIRE(field.ok());
  CHECK(field->attention.count("bf16.fa3"));
  const Result<HardwareProfile> contradicts = profile(R"({"bf16.fa2": )" + named + "}");
  REQUIRE_FALSE(contradicts.ok());
  CHECK(contradicts.error().field == "profile: attention.bf16.fa2.backend");
  const Result<HardwareProfile> unknown = profile(R"({"bf16.xformers": )" + table + "}");
  REQUIRE_FALSE(unknown.ok());
  CHECK(contains(unknown.error().text(), "unknown attention backend 'xformers'"));
}
