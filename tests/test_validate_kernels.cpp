// Kernel benchmark records (GEMM, HBM, NCCL, attention): each predicted rate worked out by hand
// from the datasheet profile, the published profile reproducing its own points, and kernel fields
// llmcalc cannot read skipped with the field named.
#include <doctest/doctest.h>

#include <cmath>

#include "llmc/catalog.h"
#include "validate_helpers.h"

using namespace llmc;
using namespace llmc::test;

namespace {

// One kernel record under the op's convention.
nlohmann::json kernel_record(const nlohmann::json& kernel, double value) {
  const std::string op = kernel.value("op", "gemm");
  const std::string conv = op == "gemm"               ? "kernel_gemm"
                           : op == "attention"        ? "kernel_attention"
                           : op.rfind("hbm_", 0) == 0 ? "kernel_hbm"
                                                      : "kernel_nccl";
  const std::string metric = conv == "kernel_hbm" ? "bandwidth_gbps" : conv == "kernel_nccl" ? "busbw_gbps" : "tflops";
  const std::string unit = conv == "kernel_hbm" || conv == "kernel_nccl" ? "GB/s" : "TFLOP/s";
  return {{"id", "k"},
          {"family", "test"},
          {"source", {{"citation", "test"}}},
          {"kernel", kernel},
          {"measured", {{"metric", metric}, {"value", value}, {"unit", unit}, {"convention", conv}}}};
}

nlohmann::json attention(const std::string& gpu, bool ampere) {
  return {{"op", "attention"}, {"gpu", gpu},      {"dtype", "bf16"}, {"batch", 1},         {"seq_len", 16384},
          {"heads", 16},       {"head_dim", 128}, {"causal", false}, {"direction", "fwd"}, {"ampere_kernel", ampere}};
}

}  // namespace

TEST_CASE(
    "kernel GEMM records: the datasheet's isolated rate, 0.95 of the max achievable, on the SMs the waves keep busy") {
  const ValidationReport r = run_text(public_json());
  // H100 fp8 8192³: 0.95 × 1402.6 TFLOP/s; 8192² in 128×128 tiles with k split 8 ways (chunks of
  // 1024) is 32,768 units in 249 waves of 132 SMs; plus the 4 µs launch.
  const ValidationRow& g = row(r, "azure_h100_cublaslt_fp8_8192x8192x8192");
  CHECK(g.status == "compared");
  CHECK(g.kernel);
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
  CHECK(contains(row(r, "mamf_h100_sxm_bf16").layout, "2048×2048×13312"));
}

TEST_CASE("kernel HBM, NCCL and attention records against the datasheet profile") {
  const ValidationReport r = run_text(public_json());
  // BabelStream copy on H100: 0.85 × 3,350 GB/s streaming 1 GiB, plus the launch.
  const double hbm = find_gpu("h100-sxm")->hbm_bandwidth_gbps * 0.85e9;
  const ValidationRow& copy = row(r, "azure_h100_babelstream");
  CHECK(copy.measured == doctest::Approx(2900));
  CHECK(copy.predicted == doctest::Approx(1073741824.0 / (4e-6 + 1073741824.0 / hbm) / 1e9).epsilon(1e-6));
  CHECK(contains(copy.layout, "copy of 1 GiB"));
  CHECK(contains(row(r, "gpubenches_stream_h200").layout, "triad of 1 GiB"));
  // nccl-tests all-reduce on 8 A100s at 16 GiB: the ring's bus bandwidth, 0.78 × 300 GB/s,
  // latency negligible.
  const ValidationRow& ar = row(r, "nccl_allreduce_a100_8gpu_nccltests");
  CHECK(ar.predicted == doctest::Approx(0.78 * 300).epsilon(0.001));
  CHECK(ar.layout == "all_reduce over 8 GPUs (one node), 16384 MiB per rank, ring");
  // "8G" in nccl-tests is 8e9 bytes.
  CHECK(contains(row(r, "nccl_allreduce_a100_8gpu_azure").layout, "7629 MiB per rank"));
  // The H200 record's three ring figures, one record each.
  for (const char* op : {"all_reduce", "all_gather", "reduce_scatter"}) {
    const ValidationRow& x = row(r, std::string("nccl_nvlink4_8gpu_h200_ring_vs_nvls_") + op);
    CHECK(x.gpu == "h200");
    CHECK(x.predicted == doctest::Approx(0.78 * 450).epsilon(0.001));
  }
  // The NVLS record is skipped: only rings are modelled.
  const ValidationRow& nvls = row(r, "nccl_allreduce_h100_8gpu_azure_nvls");
  CHECK(nvls.status == "skipped");
  CHECK(nvls.skip_field == "kernel.algorithm");
  // FlashAttention-3 forward, hdim 128, causal, at 16k: one sequence of 16 heads at the
  // datasheet's isolated forward rate, 0.63 of the 989 TFLOP/s bf16 peak (the launch costs 4 µs
  // of about 0.9 ms).
  const ValidationRow& fa3 = row(r, "fa3_h100_fwd_hdim128_causal");
  CHECK(fa3.predicted == doctest::Approx(0.63 * 989.4).epsilon(0.01));
  CHECK(contains(fa3.layout, "seq 16384 × 16 heads"));
  // FlashAttention-2 forward + backward on H100: an Ampere kernel, at its own published H100
  // rates: 3.5 / (1/0.374 + 2.5/0.326) = 0.338 of peak.
  const ValidationRow& fa2h = row(r, "fa2_h100_fwdbwd_hdim128_noncausal");
  CHECK(fa2h.predicted == doctest::Approx(3.5 / (1 / 0.374 + 2.5 / 0.326) * 989.4).epsilon(0.01));
  CHECK(has_note(fa2h, "an Ampere kernel (mma.sync) on Hopper"));
  // On A100 FlashAttention-2 is the generation's own kernel: within 7 % of the paper's figures.
  for (const char* id : {"fa2_a100_fwdbwd_hdim128_causal", "fa2_a100_fwdbwd_hdim128_noncausal",
                         "fa2_a100_fwdbwd_hdim64_causal", "fa2_a100_fwdbwd_hdim64_noncausal"}) {
    CAPTURE(id);
    CHECK(std::abs(row(r, id).error) < 0.07);
  }
}

TEST_CASE("kernel records: an Ampere attention kernel runs at its own rates on Hopper, with the datasheet only") {
  const double native = only_row(kernel_record(attention("h100-sxm", false), 600)).predicted;
  CHECK(native == doctest::Approx(0.63 * 989.4).epsilon(0.01));
  CHECK(only_row(kernel_record(attention("h100-sxm", true), 400)).predicted ==
        doctest::Approx(0.374 * 989.4).epsilon(0.01));
  // On A100 (its own generation) the flag changes nothing.
  CHECK(only_row(kernel_record(attention("a100-sxm-80gb", true), 200)).predicted ==
        only_row(kernel_record(attention("a100-sxm-80gb", false), 200)).predicted);
  // A published profile's attention table is the measurement: no rule on top of it.
  const ValidationRow published = only_row(kernel_record(attention("h100-sxm", true), 400), bundled_options());
  CHECK(contains(published.profile, "published"));
  CHECK_FALSE(has_note(published, "an Ampere kernel"));
}

TEST_CASE("kernel records with the published profile reproduce the points it was built from") {
  const ValidationReport r = run_text(public_json(), bundled_options());
  for (const char* id :
       {"azure_h100_cublaslt_fp8_8192x8192x8192", "azure_a100_cublaslt_fp16_1024x2145x1024", "mamf_h100_sxm_bf16"}) {
    CAPTURE(id);
    const ValidationRow& x = row(r, id);
    CHECK(contains(x.profile, "published"));
    CHECK(std::fabs(x.error) < 1e-3);
  }
  // The HBM fit is one line through copy and triad together: within 2 % of each.
  CHECK(std::fabs(row(r, "azure_h100_babelstream").error) < 0.02);
}

TEST_CASE("kernel records llmcalc cannot read are skipped, naming the field") {
  const nlohmann::json gemm = {{"op", "gemm"}, {"gpu", "h100-sxm"}, {"dtype", "bf16"},
                               {"m", 1024},    {"n", 1024},         {"k", 1024}};
  auto with = [](nlohmann::json k, const nlohmann::json& patch) {
    k.merge_patch(patch);
    return k;
  };
  const nlohmann::json ring = {
      {"op", "all_reduce"}, {"gpu", "h100-sxm"}, {"ranks", 8}, {"bytes", 1e9}, {"algorithm", "ring"}};
  struct Case {
    nlohmann::json kernel;
    std::string field;
  } cases[] = {
      {with(gemm, {{"dtype", nullptr}}), "kernel.dtype"},
      {with(gemm, {{"dtype", 16}}), "kernel.dtype"},
      {with(gemm, {{"dtype", "fp4"}}), "kernel.dtype"},
      {with(gemm, {{"n", 0}}), "kernel.n"},
      {with(gemm, {{"m", "1024"}}), "kernel.m"},
      {with(gemm, {{"k", 1.5}}), "kernel.k"},
      {with(gemm, {{"gpu", "TPU v5p"}}), "kernel.gpu"},
      {with(gemm, {{"gpu", "a100-sxm-80gb"}, {"dtype", "fp8"}}), "kernel.dtype"},  // no FP8 tensor cores on A100
      {with(gemm, {{"op", "conv2d"}}), "kernel.op"},
      {with(gemm, {{"seq_len", 2048}}), "kernel.seq_len"},  // not a GEMM field
      {{{"op", "hbm_copy"}, {"gpu", "h100-sxm"}}, "kernel.bytes"},
      {with(ring, {{"ranks", 1}}), "kernel.ranks"},
      {with(ring, {{"ranks", "8"}}), "kernel.ranks"},
      {with(ring, {{"algorithm", nullptr}}), "kernel.algorithm"},
      {with(ring, {{"algorithm", "tree"}}), "kernel.algorithm"},  // read, then not modelled
      {with(attention("h100-sxm", false), {{"causal", nullptr}}), "kernel.causal"},
      {with(attention("h100-sxm", false), {{"direction", "sideways"}}), "kernel.direction"},
      {with(attention("h100-sxm", false), {{"dtype", "fp8"}}), "kernel.dtype"},  // fused attention is timed in 16-bit
      {with(attention("h100-sxm", false), {{"head_dim", "128"}}), "kernel.head_dim"},
      {with(attention("h100-sxm", false), {{"impl", "FlashAttention-2"}}), "kernel.impl"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.kernel.dump());
    const nlohmann::json rec = kernel_record(c.kernel, 500);
    const ValidationRow x = only_row(rec);
    CHECK(x.status == "skipped");
    CHECK(x.skip_field == c.field);
    CHECK_FALSE(x.skip_reason.empty());
  }
  // A kernel op under another op's convention, and a kernel record with unpublished knobs.
  nlohmann::json wrong = kernel_record(gemm, 500);
  wrong["measured"] = {{"metric", "busbw_gbps"}, {"value", 300}, {"unit", "GB/s"}, {"convention", "kernel_nccl"}};
  CHECK(only_row(wrong).skip_field == "measured.convention");
  nlohmann::json listed = kernel_record(gemm, 500);
  listed["unpublished"] = {"training.micro_batch"};
  CHECK(only_row(listed).skip_field == "unpublished");
}
