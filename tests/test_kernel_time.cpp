// Kernel times from a profile: measured points are returned exactly, interpolated between, the
// fit is used far from every point, and unmeasured kernels fall back to spec × datasheet
// fractions; each time says which it used. Also the hierarchical all-reduce across nodes.
#include <cmath>

#include "estimate/kernel_time.h"  // tile_efficiency, the internal wave model; kernel times through llmc/kernel_timing.h
#include "llmc/catalog.h"
#include "llmc/kernel_timing.h"
#include "llmc/profile.h"
#include "llmc/error_bars.h"
#include "test_util.h"

using namespace llmc;
using namespace llmc::detail;
using namespace llmc::test;

namespace {
HardwareSpec h100_with(const HardwareProfile& p) {
  HardwareSpec hw;
  hw.gpu = *find_gpu("h100-sxm");
  hw.profile = std::make_shared<const HardwareProfile>(p);
  return hw;
}
HardwareProfile gemm_profile() {
  HardwareProfile p = datasheet_profile(*find_gpu("h100-sxm"));
  GemmTable& t = p.gemm["bf16"];
  t.fit = ThroughputFit{700, 5};
  t.points = {GemmPoint{8192, 8192, 8192, 760, 0, 0, 0.004}, GemmPoint{4096, 4096, 4096, 600, 0, 0, 0.01}};
  return p;
}

// Llama 3.1 8B on one GPU, one 8,192-token micro-batch, no recompute: every kernel once.
Sets one_8b_micro_batch() {
  return {{"model.preset", "llama3.1-8b"},
          {"hardware.gpu_count", "1"},
          {"training.global_batch_seqs", "1"},
          {"training.micro_batch", "1"},
          {"training.recompute", "none"}};
}

}  // namespace

TEST_CASE(
    "GEMM: a measured shape returns the measurement; far away the fit; no table: 0.86 × the GPU's max achievable "
    "matmul") {
  const HardwareSpec hw = h100_with(gemm_profile());
  const KernelTiming at = gemm_kernel_time(hw, Dtype::bf16, 8192, 8192, 8192);
  CHECK(at.basis == "table");
  CHECK(at.s == doctest::Approx(2.0 * 8192 * 8192 * 8192 / 760e12).epsilon(1e-9));
  CHECK(at.rel_err == 0.004);
  // Between the two points (one octave from each): between their throughputs.
  const KernelTiming mid = gemm_kernel_time(hw, Dtype::bf16, 5793, 5793, 5793);
  const double tflops = 2.0 * 5793 * 5793 * 5793 / mid.s / 1e12;
  CHECK(tflops > 600);
  CHECK(tflops < 760);
  // Eight octaves from every point: the fit (5 µs + flops / 700 TFLOP/s), nearly unweighted.
  const KernelTiming far = gemm_kernel_time(hw, Dtype::bf16, 32, 32, 1048576);
  CHECK(far.basis == "fit");
  const double fit_s = 5e-6 + std::max(2.0 * 32 * 32 * 1048576 / 700e12,
                                       (32.0 * 1048576 * 2 + 1048576.0 * 32 * 2 + 32 * 32 * 2) / (3350e9 * 0.85));
  CHECK(far.s == doctest::Approx(fit_s).epsilon(0.01));
  // A dtype the profile has no table or fit for: 0.72 (Hopper's fitted in-step fraction) × the H100 SXM's published
  // maximum achievable matmul rate (mamf-finder: bf16 794.5 TFLOP/s) on the SMs its waves keep busy, plus the launch
  // cost. 8192² in 128×128 tiles, k split 8 ways (chunks of 1024): 32,768 units in 249 waves of 132 SMs.
  HardwareProfile bare = gemm_profile();
  bare.gemm.clear();
  const KernelTiming spec = gemm_kernel_time(h100_with(bare), Dtype::bf16, 8192, 8192, 8192);
  CHECK(spec.basis == "spec");
  const double busy = 32768.0 / (249 * 132);
  CHECK(spec.s == doctest::Approx(4e-6 + 2.0 * 8192 * 8192 * 8192 / (794.5e12 * 0.72 * busy)).epsilon(1e-9));
}

// Wave quantization: the busy share of the SMs for the best tile (128×128, 128×256, 256×128) and
// split of k into chunks of ≥ 1024, each worked out by hand.
TEST_CASE("GEMM tiles and waves: the busy share of the SMs") {
  // 1024×2145, k = 1024 (no split): 136 tiles of 128×128 take 2 waves of 132 SMs (136/264);
  // 72 of 128×256 one wave (72/132); 68 of 256×128 one wave. Best 72/132 on H100; on A100's
  // 108 SMs 72/108.
  CHECK(tile_efficiency(1024, 2145, 1024, 1, 132) == doctest::Approx(72.0 / 132));
  CHECK(tile_efficiency(1024, 2145, 1024, 1, 108) == doctest::Approx(72.0 / 108));
  // The same output with k = 2048 may split in two: 272 units of 128×128 fill 3 waves (272/396
  // = 0.69), better than 144 of 128×256 in 2 (0.545).
  CHECK(tile_efficiency(1024, 2145, 2048, 1, 132) == doctest::Approx(272.0 / 396));
  // A large GEMM keeps the SMs over 99 % busy; a GPU without an SM count is not quantized.
  CHECK(tile_efficiency(8192, 8192, 8192, 1, 132) > 0.99);
  CHECK(tile_efficiency(32, 32, 1024, 1, 0) == 1.0);
  // One 32×32 tile per product, 8 products in a batch: 8 of 132 SMs.
  CHECK(tile_efficiency(32, 32, 1024, 8, 132) == doctest::Approx(8.0 / 132));
}

// The datasheet GEMM rate: 0.74 (the in-step fraction fitted on the validation records, leaving
// each source family out; docs/validation.md) of the published maximum achievable matmul TFLOP/s
// (stas00 ml-engineering's mamf-finder table) where the catalog has one, else of 0.87 × the dense
// peak (A100 SXM's ratio of MAMF to peak).
TEST_CASE("datasheet GEMM rates come from each GPU's max achievable matmul, else its 16-bit share of peak, else 0.87") {
  auto gemm_fit = [](const char* gpu, const char* dtype) {
    return datasheet_profile(*find_gpu(gpu)).gemm.at(dtype).fit.peak;
  };
  // The in-step fraction of MAMF is fitted per architecture (datasheet.h): Ampere (and Ada) 0.80,
  // Hopper 0.72, Blackwell 0.56, the pooled 0.74 for the others (AMD).
  CHECK(gemm_fit("a100-sxm-80gb", "bf16") == doctest::Approx(0.80 * 271.2));
  CHECK(gemm_fit("a100-pcie-80gb", "bf16") == doctest::Approx(0.80 * 252.9));
  CHECK(gemm_fit("h100-sxm", "bf16") == doctest::Approx(0.72 * 794.5));
  CHECK(gemm_fit("h100-sxm", "fp16") == doctest::Approx(0.72 * 794.5));  // same tensor-core rate as bf16
  CHECK(gemm_fit("h100-sxm", "fp8") == doctest::Approx(0.72 * 1402.6));
  CHECK(gemm_fit("h200", "fp8") == doctest::Approx(0.72 * 1453.4));
  CHECK(gemm_fit("b200", "bf16") == doctest::Approx(0.56 * 1745.0));
  CHECK(gemm_fit("mi300x", "bf16") == doctest::Approx(0.74 * 668.4));
  // No sweep for the dtype: the GPU's 16-bit MAMF's share of peak (H100 SXM 794.5 / 989.4;
  // MI300X 668.4 / 1307.4, so its FP8 is twice its bf16, not 0.87 of the FP8 peak, 3.4 times).
  CHECK(gemm_fit("h100-sxm", "tf32") == doctest::Approx(0.72 * 794.5 / 989.4 * 494.7));
  CHECK(gemm_fit("mi300x", "fp8") == doctest::Approx(0.74 * 668.4 / 1307.4 * 2614.9));
  CHECK(gemm_fit("mi325x", "fp8") == doctest::Approx(0.74 * 784.9 / 1307.4 * 2614.9));
  // No sweep for the GPU at all: 0.87 of the dense peak (the A100 SXM's share) stands for the maximum.
  CHECK(gemm_fit("l40s", "bf16") == doctest::Approx(0.80 * 0.87 * 362.05));
  CHECK(gemm_fit("l40s", "fp8") == doctest::Approx(0.80 * 0.87 * 733));
  // Another in-step fraction (llmcalc validate --lofo sweeps it) scales every GEMM rate alike.
  CHECK(datasheet_profile(*find_gpu("h100-sxm"), 0.6).gemm.at("bf16").fit.peak == doctest::Approx(0.6 * 794.5));
  CHECK(datasheet_profile(*find_gpu("l40s"), 0.6).gemm.at("bf16").fit.peak == doctest::Approx(0.6 * 0.87 * 362.05));
  // Every catalog maximum is a measurement below its peak, with its citation.
  for (const std::string& id : gpu_ids()) {
    const GpuSpec g = *find_gpu(id);
    for (Dtype d : {Dtype::bf16, Dtype::fp8}) {
      if (g.mamf_tflops(d) <= 0) continue;
      CHECK_MESSAGE(g.mamf_tflops(d) < g.peak_tflops(d), id);
      CHECK_MESSAGE(gpu_sources(id)->max_achievable_matmul.find("mamf-finder") != std::string::npos, id);
    }
  }
}

TEST_CASE("catalog: every NVIDIA GPU has its compute capability, cited; Hopper is 9.x") {
  int hopper = 0;
  for (const std::string& id : gpu_ids()) {
    CAPTURE(id);
    const GpuSpec g = *find_gpu(id);
    const bool amd = id.rfind("mi", 0) == 0;
    CHECK((g.compute_capability > 0) == !amd);
    if (!amd) CHECK(gpu_sources(id)->compute_capability.find("developer.nvidia.com/cuda-gpus") != std::string::npos);
    if (g.is_hopper()) {
      ++hopper;
      CHECK((id.rfind("h100", 0) == 0 || id == "h200" || id == "h800"));
    }
  }
  CHECK(hopper == 5);  // H100 SXM, PCIe, NVL; H200; H800
  CHECK(find_gpu("a100-sxm-80gb")->compute_capability == 8.0);
  CHECK_FALSE(find_gpu("b200")->is_hopper());
}

TEST_CASE("attention and memory-bound kernels: fits, and the fallbacks by kernel kind") {
  HardwareProfile p = datasheet_profile(*find_gpu("h100-sxm"));
  const HardwareSpec hw = h100_with(p);
  // Datasheet fit: the isolated Hopper-native rates (forward 0.63, backward 0.54 of the bf16
  // peak) at the GEMMs' in-step share 0.72 / 0.95; causal halves the FLOPs; backward is 2.5 ×
  // forward. At head dim 128 the split into matmuls and exponentials gives back those rates (up
  // to rounding).
  const KernelTiming f = attention_kernel_time(hw, Dtype::bf16, 1, 8192, 8192, 16, 1, 128, true, false);
  const double fwd_flops = 4.0 * 8192 * 8192 * 16 * 128 * 0.5;
  const double in_step = 0.72 / 0.95;
  CHECK(f.basis == "fit");
  CHECK(f.s == doctest::Approx(4e-6 + fwd_flops / (989.4e12 * 0.63 * in_step)).epsilon(1e-6));
  const KernelTiming b = attention_kernel_time(hw, Dtype::bf16, 1, 8192, 8192, 16, 1, 128, true, true);
  CHECK(b.s == doctest::Approx(4e-6 + 2.5 * fwd_flops / (989.4e12 * 0.54 * in_step)).epsilon(1e-6));
  // Forward and backward together in a step: 3.5 / (1/0.477 + 2.5/0.409) = 0.43 of peak.
  const double together = 3.5 * fwd_flops / (f.s + b.s - 8e-6) / 989.4e12;
  CHECK(together == doctest::Approx(0.427).epsilon(0.01));
  // Streaming kernels use the copy bandwidth (datasheet 0.85 × 3350 GB/s); framework element-wise
  // kernels without a measurement 0.5 × spec.
  const double gb = 1e9;
  CHECK(memory_kernel_time(hw, MemKernel::adamw, gb).s == doctest::Approx(4e-6 + gb / (3350e9 * 0.85)).epsilon(1e-9));
  CHECK(memory_kernel_time(hw, MemKernel::rmsnorm, gb).basis == "spec");
  CHECK(memory_kernel_time(hw, MemKernel::rmsnorm, gb).s == doctest::Approx(4e-6 + gb / (3350e9 * 0.5)).epsilon(1e-9));
  // A measured RMSNorm point is returned as measured.
  p.memory_bound["rmsnorm"].fit = ThroughputFit{2500, 3};
  p.memory_bound["rmsnorm"].points = {BandwidthPoint{gb, 2400, 0, 0, 0.02}};
  const KernelTiming m = memory_kernel_time(h100_with(p), MemKernel::rmsnorm, gb);
  CHECK(m.basis == "table");
  CHECK(m.s == doctest::Approx(gb / 2400e9).epsilon(1e-9));
}

TEST_CASE("attention table: a measured (seq_len, head_dim, mask) gives its rate to any batch x heads") {
  // FlashAttention-2's H100 benchmark (fa2_h100_fwdbwd_hdim128_causal): 16k tokens per batch, 16
  // heads of 128, 308 TFLOP/s fwd+bwd at 8k. A fit whose overhead absorbed the rise of the rate
  // with seq_len (hundreds of µs) must not be charged to a shape with less work.
  HardwareProfile p = datasheet_profile(*find_gpu("h100-sxm"));
  AttentionTable& t = p.attention["bf16"];
  t.fwd_fit = ThroughputFit{324, 108};
  t.bwd_fit = ThroughputFit{324, 269};
  t.exp_tera_per_s = 0;  // a flat fit, as profiles written before the exponential term
  t.points = {AttentionPoint{2, 8192, 16, 16, 128, true, 308, 308, 0},
              AttentionPoint{4, 4096, 16, 16, 128, true, 294, 294, 0}};
  const HardwareSpec hw = h100_with(p);
  // Llama 3 405B at tp 8: one sequence, 16 query heads, 2 KV heads, same length and head size.
  const double fwd_flops = 4.0 * 8192 * 8192 * 16 * 128 * 0.5;
  const KernelTiming f = attention_kernel_time(hw, Dtype::bf16, 1, 8192, 8192, 16, 2, 128, true, false);
  CHECK(f.basis == "table");
  CHECK(f.s == doctest::Approx(fwd_flops / 308e12).epsilon(1e-9));
  const KernelTiming b = attention_kernel_time(hw, Dtype::bf16, 1, 8192, 8192, 16, 2, 128, true, true);
  CHECK(b.s == doctest::Approx(2.5 * fwd_flops / 308e12).epsilon(1e-9));
  // Between 4k and 8k: between the two rates.
  const KernelTiming mid = attention_kernel_time(hw, Dtype::bf16, 1, 5793, 5793, 16, 2, 128, true, false);
  const double rate = 4.0 * 5793 * 5793 * 16 * 128 * 0.5 / mid.s / 1e12;
  CHECK(rate > 294);
  CHECK(rate < 308);
}

TEST_CASE("attention head dim: softmax exponentials at the SMs' special-function rate") {
  // 16 exp2 per clock per SM (CUDA C++ Programming Guide throughput table) × SMs × boost clock:
  // H100 SXM5 3.87 (the FlashAttention-3 paper's "3.9 TFLOPS of special functions"), A100 2.44;
  // none for GPUs without an SM count and clock in the catalog.
  CHECK(find_gpu("h100-sxm")->exp_tera_per_s() == doctest::Approx(132 * 16 * 1830e-6));
  CHECK(find_gpu("a100-sxm-80gb")->exp_tera_per_s() == doctest::Approx(108 * 16 * 1410e-6));
  CHECK(find_gpu("mi300x")->exp_tera_per_s() == 0);
  CHECK(find_gpu("b200")->exp_tera_per_s() == 0);
  for (const std::string& id : gpu_ids()) {
    const GpuSpec g = *find_gpu(id);
    CAPTURE(id);
    CHECK((g.boost_clock_mhz > 0) == (g.sm_count > 0 && g.compute_capability > 0));
    if (g.boost_clock_mhz > 0) CHECK(!gpu_sources(id)->boost_clock_mhz.empty());
  }
  // FlashAttention-3 alone on H100 SXM5 (arXiv:2407.08608, bf16, 16k tokens, non-causal):
  // forward 497 / 648 / 756 TFLOP/s at head dim 64 / 128 / 256, backward 474 / 561 at 64 / 128.
  // The datasheet rates are head dim 128's; the other head dims follow from the exponentials
  // alone. Forward within 3 %; backward within 7 % (its dS = P∘(dP − D) adds element-wise work
  // beyond the one exponential, which the model leaves out, so the head-dim-64 rate is high).
  const AttentionTable h100 = isolated_kernel_profile(*find_gpu("h100-sxm")).attention.at("bf16");
  const double fwd128 = attention_tflops(h100, false, 128);
  CHECK(fwd128 == doctest::Approx(0.63 * 989.4).epsilon(1e-4));  // 989.4 / 3.865 is 256 to 5 digits
  CHECK(attention_tflops(h100, false, 64) / fwd128 == doctest::Approx(497.0 / 648).epsilon(0.03));
  CHECK(attention_tflops(h100, false, 256) / fwd128 == doctest::Approx(756.0 / 648).epsilon(0.03));
  const double bwd_ratio = attention_tflops(h100, true, 64) / attention_tflops(h100, true, 128);
  CHECK(bwd_ratio == doctest::Approx(474.0 / 561).epsilon(0.07));
  CHECK(bwd_ratio < 1);
  // A100 has half H100's tensor FLOPs per exponential (2,048 vs 4,096 per clock per SM), so the
  // same matmul share of peak gives it a higher rate at head dim 128: FlashAttention-2 on A100
  // (its paper, fwd+bwd, 16k, non-causal) 203 at head dim 128, 176 at 64.
  const AttentionTable a100 = isolated_kernel_profile(*find_gpu("a100-sxm-80gb")).attention.at("bf16");
  auto fwd_bwd = [&](double d) {
    return 3.5 / (1 / attention_tflops(a100, false, d) + 2.5 / attention_tflops(a100, true, d));
  };
  CHECK(fwd_bwd(128) == doctest::Approx(203).epsilon(0.07));
  CHECK(fwd_bwd(64) == doctest::Approx(176).epsilon(0.03));
  // A GPU without an exponential rate keeps head dim 128's rates at every head dim.
  const AttentionTable mi = isolated_kernel_profile(*find_gpu("mi300x")).attention.at("bf16");
  CHECK(mi.exp_tera_per_s == 0);
  CHECK(attention_tflops(mi, false, 64) == doctest::Approx(0.63 * 1307.4).epsilon(1e-9));
}

TEST_CASE("attention table: a point's ratio to the fit is carried to other head dims by the fit") {
  // A measured profile's fit holds the exponentials apart: a point at head dim 128 measured 5 %
  // above the fit is 5 % above the fit's head-dim-128 rate, not above its head-dim-64 one, when
  // carried to head dim 64. An octave away in head dim it weighs as much as the fit: half the
  // log ratio, sqrt(1.05).
  HardwareProfile p = datasheet_profile(*find_gpu("h100-sxm"));
  AttentionTable& t = p.attention["bf16"];
  const double fit128 = attention_tflops(t, false, 128), fit64 = attention_tflops(t, false, 64);
  t.fwd_fit.overhead_us = t.bwd_fit.overhead_us = 0;
  t.points = {AttentionPoint{2, 8192, 16, 16, 128, false, 1.05 * fit128, 1.05 * attention_tflops(t, true, 128), 0}};
  const HardwareSpec hw = h100_with(p);
  const double scores = 8192.0 * 8192 * 16;
  const KernelTiming at128 = attention_kernel_time(hw, Dtype::bf16, 1, 8192, 8192, 16, 16, 128, false, false);
  CHECK(at128.basis == "table");
  CHECK(4 * scores * 128 / at128.s / 1e12 == doctest::Approx(1.05 * fit128).epsilon(1e-9));
  const KernelTiming at64 = attention_kernel_time(hw, Dtype::bf16, 1, 8192, 8192, 16, 16, 64, false, false);
  CHECK(4 * scores * 64 / at64.s / 1e12 == doctest::Approx(std::sqrt(1.05) * fit64).epsilon(1e-6));
}

TEST_CASE("the estimate reports how its kernels were timed, and an error bar around the step") {
  Estimate e = run({{"model.preset", "llama3.1-8b"},
                    {"parallel.tp", "8"},
                    {"hardware.gpu_count", "8"},
                    {"training.global_batch_seqs", "8"}});
  CHECK(e.time.basis == "profile");
  CHECK(e.time.kernels_from_fit > 0);
  CHECK(e.time.gemm_s > e.time.attention_s);
  CHECK(e.time.compute_s ==
        doctest::Approx(e.time.gemm_s + e.time.attention_s + e.time.memory_bound_s + e.time.optimizer_s).epsilon(1e-9));
  CHECK(e.time.step_low_s < e.time.step_s);
  CHECK(e.time.step_high_s > e.time.step_s);
  // Fit-timed kernels carry 10% each, in quadrature with the model's out-of-sample error of one
  // node's dense runs (llmc/error_bars.h): the bar is at least that error, and not much more.
  const ErrorBar& bar = error_bar("1 node, dense");
  CHECK(e.time.step_high_s / e.time.step_s >= bar.high);
  CHECK(e.time.step_high_s / e.time.step_s < bar.high + 0.05);
  CHECK(e.time.step_low_s / e.time.step_s <= bar.low);
}

TEST_CASE("data-parallel all-reduce across nodes is hierarchical: NVLink inside, NICs across on bytes/k") {
  // 2 nodes × 8 GPUs, tp 1: dp 16 spans both nodes with 8 ranks in each.
  Estimate e = run({{"model.preset", "llama3.1-8b"},
                    {"hardware.gpu_count", "16"},
                    {"training.global_batch_seqs", "16"},
                    {"parallel.dp_overlap", "false"},
                    {"parallel.dp_bucket_mb", "1000000"}});  // one bucket: one collective
  const CommItem* dp = nullptr;
  for (const CommItem& c : e.comm)
    if (c.name == "dp") dp = &c;
  REQUIRE(dp);
  CHECK(dp->tier == "inter_node");
  const double B = e.params.per_gpu * 4;  // fp32 gradients (bf16_mixed)
  const double nv = 0.78 * 450e9, nic = 0.9 * 50e9;
  // Bandwidth: the three parts; latency once, NCCL's for a 16-rank ring over 2 nodes: 8.4 µs +
  // 2·15 steps, 2·2 of them across the network (14 µs each), the other 26 on NVLink (3.4 µs).
  const double latency = 8.4e-6 + 26 * 3.4e-6 + 4 * 14e-6;
  const double expected = latency + 7.0 / 8 * B / nv + 2 * 1.0 / 2 * (B / 8) / nic + 7.0 / 8 * B / nv;
  CHECK(dp->time_s == doctest::Approx(expected).epsilon(1e-9));
}

// FP8 recipes (Transformer Engine): each FP8 GEMM input is cast with a fused cast-transpose
// (read 2 bytes, write two 1-byte copies) unless a norm already wrote it in FP8 (then only the
// transpose: 2 bytes), and each output gradient likewise backward; the output layer stays bf16.
// Llama 3.1 8B, one GPU, one 8,192-token micro-batch: the fp8 step's memory-bound time exceeds
// the bf16 step's by exactly these casts, streaming kernels at the datasheet copy rate (0.85 ×
// 3,350 GB/s).
TEST_CASE("fp8_mixed adds Transformer Engine's cast-transpose kernels to every FP8 linear layer") {
  Sets base = one_8b_micro_batch();
  Estimate bf16 = run(base);
  base.push_back({"training.precision", "fp8_mixed"});
  Estimate fp8 = run(base);
  const double T = 8192, h = 4096, qkv = (32 + 2 * 8) * 128, attn_out = 32 * 128, f = 14336;
  const double fwd_bytes = T * h * 2 + T * attn_out * 4 + T * h * 2 + T * f * 4;  // qkv (norm), proj, fc1 (norm), fc2
  const double bwd_bytes = T * qkv * 4 + T * h * 4 + T * 2 * f * 4 + T * h * 4;   // dY of qkv, proj, fc1 (gate+up), fc2
  const double per_layer = (fwd_bytes + bwd_bytes) / (0.85 * 3350e9) + 8 * 4e-6;  // 8 kernels, 4 µs launch each
  CHECK(fp8.time.memory_bound_s - bf16.time.memory_bound_s == doctest::Approx(32 * per_layer).epsilon(1e-9));
  // GEMMs run at the fp8 rate except the output layer's, which is timed at the bf16 rate in both.
  CHECK(fp8.time.gemm_s < bf16.time.gemm_s);
}

// PyTorch eager (training.fused_elementwise = false): each op of RMSNorm, rotary, SwiGLU and the
// fp32 cross-entropy is its own streaming kernel (datasheet copy rate 0.85 × 3,350 GB/s, 4 µs
// launch each), and grouped-query attention copies K and V out to every head (repeat_kv). The
// fused kernels they replace run at the datasheet element-wise rate (0.50 × 3,350 GB/s).
// Llama 3.1 8B, one GPU, one 8,192-token micro-batch: the memory-bound time moves by exactly that.
TEST_CASE("fused_elementwise = false times RMSNorm, rotary, SwiGLU, repeat_kv and the loss as eager op chains") {
  Sets base = one_8b_micro_batch();
  Estimate fused = run(base);
  base.push_back({"training.fused_elementwise", "false"});
  Estimate eager = run(base);
  const double T = 8192, h = 4096, qk = T * (32 + 8) * 128, kv = 2 * T * 8 * 128, f = 14336, V = 128256, e = 2;
  const double copy = 0.85 * 3350e9, ew = 0.50 * 3350e9, launch = 4e-6;
  auto chain = [&](double elems, std::initializer_list<double> bytes) {
    double s = 0;
    for (double b : bytes) s += b * elems / copy + launch;
    return s;
  };
  auto one = [&](double bytes) { return bytes / ew + launch; };
  const double norm_eager =
      chain(T * h, {e + 4, 8, 4, 8, 4 + e, 2 * e}) + chain(T * h, {2 * e, 3 * e, e, e + 4, 8, 12, 4, 12, 12, 4 + e});
  const double norm_fused = one(2 * T * h * e) + one(3 * T * h * e);
  const double rotary_eager = 2 * chain(qk, {e + 4, 8, 4 + e}), rotary_fused = 2 * one(2 * qk * e);
  const double repeat_kv = 2 * chain(kv, {e + e * 32 / 8});
  const double swiglu_eager = chain(T * f, {2 * e, 3 * e, 3 * e, 3 * e, 3 * e}),
               swiglu_fused = one(3 * T * f * e) + one(5 * T * f * e);
  const double layer =
      2 * (norm_eager - norm_fused) + rotary_eager - rotary_fused + repeat_kv + swiglu_eager - swiglu_fused;
  const double loss = chain(T * V, {e + 4, 8, 4, 12, 4 + e}) - one(T * V * (e + 8)) - one(T * V * (4 + e));
  const double final_norm = norm_eager - norm_fused;
  CHECK(eager.time.memory_bound_s - fused.time.memory_bound_s ==
        doctest::Approx(32 * layer + final_norm + loss).epsilon(1e-9));
  // The optimizer: clipping (4 + 8 bytes per parameter) and torch.optim.AdamW's eight foreach
  // passes over fp32 master, fp32 states and fp32 gradients (8 + 12 + 8 + 16 + 8 + 8 + 8 + 16),
  // then the bf16 copy (4 + 2): 102 bytes per parameter in 11 kernels, against the fused step's
  // 2·4 + 2·4 + 2·2·4 + 2 = 34 bytes in one.
  const double N = fused.params.per_gpu;
  CHECK(eager.time.optimizer_s == doctest::Approx(102 * N / copy + 11 * launch).epsilon(1e-9));
  CHECK(fused.time.optimizer_s == doctest::Approx(34 * N / copy + launch).epsilon(1e-9));
}
