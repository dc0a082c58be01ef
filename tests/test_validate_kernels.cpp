// llmcalc validate on kernel benchmark records (GEMM, HBM, NCCL, attention): each predicted rate
// worked out by hand from the datasheet profile, the published profile reproducing its own
// points, and records it cannot read skipped with the field named.
#include <doctest/doctest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "llmc/catalog.h"
#include "validate_helpers.h"

namespace {

using namespace llmc;
using namespace llmc::test;

// One kernel record with the given sections.
std::string kernel_record(const std::string& kind, const nlohmann::json& hardware, const nlohmann::json& kernel, const nlohmann::json& measured) {
  nlohmann::json r = {{"id", "k"}, {"kind", kind}, {"source", {{"citation", "test"}}}, {"hardware", hardware}, {"kernel", kernel}, {"measured", measured}};
  return "[" + r.dump() + "]";
}

}  // namespace

TEST_CASE("kernel GEMM records: the datasheet's isolated rate, 0.95 of the max achievable, on the SMs the waves keep busy") {
  const ValidationReport r = run_text(public_json());
  // H100 fp8 8192³: 0.95 × 1402.6 TFLOP/s; 8192² in 128×128 tiles with k split 8 ways (chunks of
  // 1024) is 32,768 units in 249 waves of 132 SMs; plus the 4 µs launch.
  const ValidationRow& g = row(r, "azure_h100_cublaslt_fp8_8192x8192x8192");
  CHECK(g.status == "compared");
  CHECK(g.unit == "TFLOP/s");
  CHECK(g.gpu == "h100-sxm");
  const double flops = 2.0 * 8192 * 8192 * 8192;
  const double t = 4e-6 + flops / (0.95 * 1402.6e12 * 32768.0 / (249 * 132));
  CHECK(g.predicted == doctest::Approx(flops / t / 1e12).epsilon(1e-6));
  CHECK(g.error == doctest::Approx(g.predicted / 1290.1 - 1).epsilon(1e-9));
  CHECK(contains(g.profile, "isolated"));
  // A small GEMM loses to its last wave: 1024×2145×1024 fills 72 of A100's 108 SMs.
  const ValidationRow& small = row(r, "azure_a100_cublaslt_fp16_1024x2145x1024");
  const double sf = 2.0 * 1024 * 2145 * 1024;
  CHECK(small.predicted == doctest::Approx(sf / (4e-6 + sf / (0.95 * 271.2e12 * 72 / 108)) / 1e12).epsilon(1e-6));
  // The shape from "shape_MxNxK" (mamf-finder's records).
  CHECK(contains(row(r, "mamf_h100_sxm_bf16").layout, "2048×2048×13312"));
  CHECK(r.summary.kernels.rows == 38);
}

TEST_CASE("kernel HBM, NCCL and attention records against the datasheet profile") {
  const ValidationReport r = run_text(public_json());
  // BabelStream copy on H100: 0.85 × 3,350 GB/s streaming 1 GiB, plus the launch.
  const double hbm = find_gpu("h100-sxm")->hbm_bandwidth_gbps * 0.85e9;
  const ValidationRow& copy = row(r, "azure_h100_babelstream");
  CHECK(copy.metric == "copy_TBps");
  CHECK(copy.measured == doctest::Approx(2900));
  CHECK(copy.predicted == doctest::Approx(1073741824.0 / (4e-6 + 1073741824.0 / hbm) / 1e9).epsilon(1e-6));
  // STREAM triad where the record has no copy.
  CHECK(row(r, "gpubenches_stream_h200").metric == "triad_GBps");
  // nccl-tests all-reduce on 8 A100s at 16 GiB: the ring's bus bandwidth, 0.78 × 300 GB/s,
  // latency negligible.
  const ValidationRow& ar = row(r, "nccl_allreduce_a100_8gpu_nccltests");
  CHECK(ar.metric == "busbw_GBps at 16GiB");
  CHECK(ar.predicted == doctest::Approx(0.78 * 300).epsilon(0.001));
  // The H200 record's three ring figures, on the H200 the text names first (it also names the
  // H100 and NVLink); its NVLS figures are left out with a note.
  int h200 = 0;
  for (const ValidationRow& x : r.rows)
    if (x.id == "nccl_nvlink4_8gpu_h200_ring_vs_nvls") {
      ++h200;
      CHECK(x.gpu == "h200");
      CHECK(x.predicted == doctest::Approx(0.78 * 450).epsilon(0.001));
    }
  CHECK(h200 == 3);
  CHECK(has_note(row(r, "nccl_nvlink4_8gpu_h200_ring_vs_nvls", "all_reduce_ring_busbw_GBps"), "NVLS algorithm is not modelled"));
  // The NVLS record is skipped: only rings are modelled.
  const ValidationRow& nvls = row(r, "nccl_allreduce_h100_8gpu_azure_nvls");
  CHECK(nvls.status == "skipped");
  CHECK(nvls.skip_field == "kernel.algorithm");
  // FlashAttention-3 forward, hdim 128, causal, at 16k: 16,384 tokens in one sequence of
  // 2048 / 128 = 16 heads at the datasheet's isolated forward rate, 0.63 of the 989 TFLOP/s bf16
  // peak (the launch costs 4 µs of about 0.9 ms).
  const ValidationRow& fa3 = row(r, "fa3_h100_fwd_hdim128_causal");
  CHECK(fa3.metric == "tflops at seq 16k");
  CHECK(fa3.predicted == doctest::Approx(0.63 * 989.4).epsilon(0.01));
  CHECK(contains(fa3.layout, "seq 16384 × 16 heads"));
  CHECK(has_note(fa3, "heads not given: 2048 / head_dim = 16"));
  CHECK(has_note(fa3, "the GPU generation's own kernels"));
  // FlashAttention-2 forward + backward on H100: an Ampere kernel, at its own published H100
  // rates: 3.5 / (1/0.374 + 2.5/0.326) = 0.338 of peak.
  const ValidationRow& fa2h = row(r, "fa2_h100_fwdbwd_hdim128_noncausal");
  CHECK(fa2h.predicted == doctest::Approx(3.5 / (1 / 0.374 + 2.5 / 0.326) * 989.4).epsilon(0.01));
  CHECK(has_note(fa2h, "an Ampere kernel (mma.sync) on Hopper"));
  // On A100 FlashAttention-2 is the generation's own kernel: the datasheet's matmul shares of
  // peak with A100's own exponential rate; within 7 % of the paper's figures at head dim 128
  // and 64, causal or not.
  for (const char* id : {"fa2_a100_fwdbwd_hdim128_causal", "fa2_a100_fwdbwd_hdim128_noncausal", "fa2_a100_fwdbwd_hdim64_causal", "fa2_a100_fwdbwd_hdim64_noncausal"}) {
    CAPTURE(id);
    CHECK(std::abs(row(r, id).error) < 0.07);
  }
}

TEST_CASE("FlashAttention-2 is recognised by its names, on Hopper only, with the datasheet only") {
  auto record = [](const std::string& impl, const std::string& gpu) {
    return nlohmann::json{{"id", "a"}, {"kind", "kernel_attention"}, {"hardware", {{"gpu", gpu}, {"gpu_count", 1}}},
                          {"kernel", {{"impl", impl}, {"direction", "fwd"}, {"head_dim", 128}, {"causal", false}}},
                          {"measured", {{"tflops_by_seqlen", {{"16k", 400}}}}}};
  };
  auto predicted = [&](const std::string& impl, const std::string& gpu, const ValidateOptions& opt = {}) {
    const ValidationReport r = run_text(nlohmann::json::array({record(impl, gpu)}).dump(), opt);
    REQUIRE(r.rows.size() == 1);
    return r.rows[0].predicted;
  };
  const double hopper_native = predicted("FlashAttention-3", "H100 SXM");
  CHECK(hopper_native == doctest::Approx(0.63 * 989.4).epsilon(0.01));
  for (const char* name : {"FlashAttention-2", "flash-attn 2.6.3", "FA2 (Dao)", "FlashAttention 2", "flash_attn_2"}) {
    CAPTURE(name);
    CHECK(predicted(name, "H100 SXM") == doctest::Approx(0.374 * 989.4).epsilon(0.01));
  }
  for (const char* name : {"cuDNN", "FA3", "flash-attn 3.0", "FlashAttention", "FA21 kernel"}) {
    CAPTURE(name);
    CHECK(predicted(name, "H100 SXM") == doctest::Approx(hopper_native).epsilon(1e-9));
  }
  // On A100 (its own generation) FlashAttention-2 is the datasheet's native kernel: the matmul
  // part at 1 / (1/0.63 − 4096/16/512) = 0.920 of 312, the exponentials at 108 × 16 × 1.41 GHz.
  CHECK(predicted("FlashAttention-2", "A100 SXM 80GB") == doctest::Approx(1 / (1 / (0.9197 * 312) + 1 / (4 * 128 * 108 * 16 * 1410e-6))).epsilon(0.01));
  // An FP8 attention benchmark is not timed at the 16-bit rate: skipped, naming the field.
  nlohmann::json fp8 = record("FlashAttention-3", "H100 SXM");
  fp8["kernel"]["dtype"] = "fp8 e4m3";
  const ValidationReport skipped = run_text(nlohmann::json::array({fp8}).dump());
  REQUIRE(skipped.rows.size() == 1);
  CHECK(skipped.rows[0].status == "skipped");
  CHECK(skipped.rows[0].skip_field == "kernel.dtype");
  CHECK(contains(skipped.rows[0].skip_reason, "fp8 e4m3"));
  // A published profile's attention table is the measurement: no rule on top of it.
  const ValidationReport published = run_text(nlohmann::json::array({record("FlashAttention-2", "H100 SXM")}).dump(), bundled_options());
  REQUIRE(published.rows.size() == 1);
  CHECK(contains(published.rows[0].profile, "published"));
  CHECK_FALSE(has_note(published.rows[0], "an Ampere kernel"));
  CHECK(has_note(published.rows[0], "llmcalc times the profile's fused attention"));
}

TEST_CASE("kernel records with the published profile reproduce the points it was built from") {
  const ValidationReport r = run_text(public_json(), bundled_options());
  // A GEMM table returns its measured shapes exactly.
  for (const char* id : {"azure_h100_cublaslt_fp8_8192x8192x8192", "azure_a100_cublaslt_fp16_1024x2145x1024", "mamf_h100_sxm_bf16"}) {
    CAPTURE(id);
    const ValidationRow& x = row(r, id);
    CHECK(contains(x.profile, "published"));
    CHECK(std::fabs(x.error) < 1e-3);
  }
  // The HBM fit is one line through copy and triad together: within 2 % of each.
  CHECK(std::fabs(row(r, "azure_h100_babelstream").error) < 0.02);
}

TEST_CASE("kernel records llmcalc cannot read are skipped, naming the field") {
  const nlohmann::json h100 = {{"gpu", "H100 SXM"}, {"gpu_count", 1}};
  struct Case {
    std::string text, field;
  };
  const Case cases[] = {
      {kernel_record("kernel_gemm", h100, {{"m", 1024}, {"n", 1024}, {"k", 1024}}, {{"tflops", 500}}), "kernel.dtype"},
      {kernel_record("kernel_gemm", h100, {{"dtype", "bf16"}, {"m", 1024}, {"n", 0}, {"k", 1024}}, {{"tflops", 500}}), "kernel.n"},
      {kernel_record("kernel_gemm", h100, {{"dtype", "bf16"}, {"shape_MxNxK", "1024x1024"}}, {{"tflops", 500}}), "kernel.m"},
      {kernel_record("kernel_gemm", h100, {{"dtype", "bf16"}, {"m", 1024}, {"n", 1024}, {"k", 1024}}, {{"tflops", "fast"}}), "measured.tflops"},
      {kernel_record("kernel_gemm", {{"gpu", "TPU v5p"}}, {{"dtype", "bf16"}, {"m", 1}, {"n", 1}, {"k", 1}}, {{"tflops", 1}}), "hardware.gpu"},
      {kernel_record("kernel_gemm", {{"gpu", "A100 SXM"}}, {{"dtype", "fp8"}, {"m", 1024}, {"n", 1024}, {"k", 1024}}, {{"tflops", 1}}), "kernel.dtype"},
      {kernel_record("kernel_hbm", h100, nlohmann::json::object(), {{"bandwidth", 3000}}), "measured"},
      {kernel_record("kernel_nccl", h100, {{"collective", "all_reduce"}}, {{"busbw_GBps_by_size", {{"1GiB", 300}}}}), "hardware.gpu_count"},
      {kernel_record("kernel_nccl", {{"gpu", "H100"}, {"gpu_count", 8}}, {{"collective", "broadcast"}}, {{"busbw_GBps_by_size", {{"1GiB", 300}}}}), "kernel.collective"},
      {kernel_record("kernel_nccl", {{"gpu", "H100"}, {"gpu_count", 8}}, {{"collective", "all_reduce"}}, {{"busbw_GBps_by_size", {{"lots", 300}}}}), "measured.busbw_GBps_by_size"},
      {kernel_record("kernel_attention", h100, {{"head_dim", 128}, {"direction", "fwd"}}, {{"tflops_by_seqlen", {{"2k", 500}}}}), "kernel.causal"},
      {kernel_record("kernel_attention", h100, {{"head_dim", 128}, {"causal", true}, {"direction", "sideways"}}, {{"tflops_by_seqlen", {{"2k", 500}}}}), "kernel.direction"},
      {kernel_record("kernel_attention", h100, {{"head_dim", 128}, {"causal", true}, {"direction", "fwd"}}, {{"tflops_by_seqlen", {{"64k", 500}}}}), "measured.tflops_by_seqlen"},
      {kernel_record("kernel_power", h100, nlohmann::json::object(), {{"watts", 700}}), "kind"},
      // The wrong type is an error naming the field, as in a training record, not "not given".
      {kernel_record("kernel_gemm", h100, {{"dtype", 16}, {"m", 1024}, {"n", 1024}, {"k", 1024}}, {{"tflops", 500}}), "kernel.dtype"},
      {kernel_record("kernel_gemm", h100, {{"dtype", "bf16"}, {"m", "1024"}, {"n", 1024}, {"k", 1024}}, {{"tflops", 500}}), "kernel.m"},
      {kernel_record("kernel_gemm", {{"gpu", 100}}, {{"dtype", "bf16"}, {"m", 1}, {"n", 1}, {"k", 1}}, {{"tflops", 1}}), "hardware.gpu"},
      {kernel_record("kernel_nccl", {{"gpu", "H100"}, {"gpu_count", "8"}}, {{"collective", "all_reduce"}}, {{"busbw_GBps_by_size", {{"1GiB", 300}}}}), "hardware.gpu_count"},
      {kernel_record("kernel_nccl", {{"gpu", "H100"}, {"gpu_count", 8}}, {{"collective", "all_reduce"}, {"algorithm", true}}, {{"busbw_GBps_by_size", {{"1GiB", 300}}}}), "kernel.algorithm"},
      {kernel_record("kernel_attention", h100, {{"head_dim", "128"}, {"causal", true}, {"direction", "fwd"}}, {{"tflops_by_seqlen", {{"2k", 500}}}}), "kernel.head_dim"},
      {kernel_record("kernel_attention", h100, {{"head_dim", 128}, {"causal", true}, {"direction", "fwd"}, {"heads", "16"}}, {{"tflops_by_seqlen", {{"2k", 500}}}}), "kernel.heads"},
      {kernel_record("kernel_attention", h100, {{"head_dim", 128}, {"causal", true}, {"direction", "fwd"}, {"impl", 2}}, {{"tflops_by_seqlen", {{"2k", 500}}}}), "kernel.impl"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.text);
    const ValidationReport r = run_text(c.text);
    REQUIRE(r.rows.size() == 1);
    CHECK(r.rows[0].status == "skipped");
    CHECK(r.rows[0].skip_field == c.field);
    CHECK(!r.rows[0].skip_reason.empty());
  }
}

TEST_CASE("kernel record sizes: binary and decimal units, sequence lengths in powers of two") {
  const nlohmann::json a100x8 = {{"gpu", "A100-SXM4-80GB"}, {"gpu_count", 8}};
  // "8G" is 8e9 bytes, "8GiB" 2^33: the row names the size it compared at.
  const ValidationReport dec = run_text(kernel_record("kernel_nccl", a100x8, {{"collective", "all_reduce (in-place)"}}, {{"busbw_GBps_by_size", {{"1M", 30}, {"8G", 230}}}}));
  CHECK(row(dec, "k").metric == "busbw_GBps at 8G");
  CHECK(contains(row(dec, "k").layout, "7629 MiB per rank"));
  const ValidationReport bin = run_text(kernel_record("kernel_nccl", a100x8, {{"collective", "allgather"}}, {{"busbw_GBps_by_size", {{"8GiB", 230}}}}));
  CHECK(contains(row(bin, "k").layout, "all_gather over 8 GPUs (one node), 8192 MiB per rank"));
  // Attention at "2k" is 2048 tokens: 16384 / 2048 = 8 sequences.
  const ValidationReport att = run_text(kernel_record("kernel_attention", {{"gpu", "A100-SXM4-80GB"}, {"gpu_count", 1}},
                                                      {{"head_dim", 64}, {"causal", false}, {"direction", "fwd+bwd"}, {"heads", 32}},
                                                      {{"tflops_by_seqlen", {{"512", 120}, {"2k", 160}}}}));
  CHECK(contains(row(att, "k").layout, "batch 8 × seq 2048 × 32 heads × hdim 64"));
}

TEST_CASE("GPU names: the one named first, and 'NVL' as a word") {
  const nlohmann::json gemm = {{"dtype", "bf16"}, {"m", 4096}, {"n", 4096}, {"k", 4096}};
  auto gpu_of = [&](const std::string& text) {
    return row(run_text(kernel_record("kernel_gemm", {{"gpu", text}}, gemm, {{"tflops", 500}})), "k").gpu;
  };
  CHECK(gpu_of("H200 (8-GPU NVLink4 node; same NVLink generation as H100 SXM)") == "h200");
  CHECK(gpu_of("H100-NVL 94GB") == "h100-nvl");
  CHECK(gpu_of("H100 NVL") == "h100-nvl");
  CHECK(gpu_of("H100 SXM5 (NVLink 4)") == "h100-sxm");
  CHECK(gpu_of("A100-SXM4-40GB") == "a100-sxm-40gb");
}
