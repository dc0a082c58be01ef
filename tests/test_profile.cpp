// Hardware profile files: schema v1 parsing and the loader's refusals.

#include "llmc/catalog.h"
#include "llmc/profile.h"
#include "test_util.h"

using namespace llmc;
using namespace llmc::test;

namespace {
std::string doc(const std::string& eff = "0.6", const std::string& version = "1", const std::string& alpha = "15",
                const std::string& extra = "") {
  return R"({"schema_version": )" + version +
         R"(, "gpu": "h100-sxm", "source": "published", "citations": ["nccl-tests"],)" + extra +
         R"( "compute_efficiency": )" + eff + R"(, "collectives": {"intra_node": {"alpha_us": )" + alpha +
         R"(, "busbw_gbps": 360}, "inter_node": {"alpha_us": 30, "busbw_gbps": 45}}})";
}
}  // namespace

TEST_CASE("a valid profile drives the time estimate") {
  Result<HardwareProfile> p = profile_from_json(doc());
  REQUIRE(p.ok());
  CHECK(p->intra_node.alpha_s == doctest::Approx(15e-6));
  Scenario s = scenario({{"model.preset", "llama3.1-8b"},
                         {"parallel.tp", "8"},
                         {"hardware.gpu_count", "8"},
                         {"training.global_batch_seqs", "8"}});
  const Estimate base = run_scenario(s);
  const Estimate prof = run_with_profile(s, *p);
  // This profile has no kernel tables or fits: its kernels are timed from the spec peaks at the
  // datasheet fractions (the same rates as the datasheet profile's fits, labelled "spec"), and
  // its collectives replace the datasheet's.
  CHECK(prof.time.kernels_from_spec > 0);
  CHECK(prof.time.kernels_from_fit == 0);
  CHECK(base.time.kernels_from_fit > 0);
  CHECK(prof.time.gemm_s == doctest::Approx(base.time.gemm_s).epsilon(1e-12));
  CHECK(prof.time.comm_exposed_s != base.time.comm_exposed_s);
  CHECK(prof.r.s.hardware.profile->source == "published");
}

TEST_CASE("round trip: the datasheet profile written out reads back") {
  HardwareProfile d = datasheet_profile(*find_gpu("a100-sxm-80gb"));
  Result<HardwareProfile> back = profile_from_json(profile_to_json(d));
  REQUIRE(back.ok());
  CHECK(back->compute_efficiency == d.compute_efficiency);
  CHECK(back->intra_node.busbw_gbps == d.intra_node.busbw_gbps);
}

TEST_CASE("implausible or malformed profiles are refused with the field named") {
  CHECK(profile_from_json(doc("1.2")).error().field == "profile: compute_efficiency");
  CHECK(contains(profile_from_json(doc("1.2")).error().message, "got 1.2"));
  CHECK(profile_from_json(doc("0")).error().field == "profile: compute_efficiency");
  CHECK(contains(profile_from_json(doc("0.5", "2")).error().message, "unknown version 2"));
  CHECK(profile_from_json(doc("0.5", "1", "-3")).error().field == "profile: collectives.intra_node.alpha_us");
  CHECK(profile_from_json(doc("0.5", "1", "15", R"( "gemmm": 1,)")).error().field == "profile: gemmm");
  CHECK(contains(
      profile_from_json(R"({"schema_version": 1, "gpu": "h100-sxm", "source": "datasheet", "compute_efficiency": 0.5})")
          .error()
          .message,
      "cite"));
  CHECK(contains(profile_from_json("{").error().message, "not valid JSON"));
  Result<HardwareProfile> wrong_gpu = profile_from_json(doc());
  Scenario s = scenario({{"model.preset", "llama3.1-8b"}, {"hardware.gpu", "a100-sxm-80gb"}});
  attach_profile(s, *wrong_gpu);
  Result<Estimate> e = estimate(s);
  REQUIRE_FALSE(e.ok());
  CHECK(e.error().field == "hardware.profile");
}

namespace {
// A profile with one of each measured table; `gemm_tflops` and `extra_point` let a test break it.
std::string tables_doc(const std::string& gemm_tflops = "765.2", const std::string& p10 = "760.1",
                       const std::string& kernel = "rmsnorm", const std::string& bytes = "1073741824") {
  return doc("0.6", "1", "15",
             R"( "gemm": {"bf16": {"max_tflops": 790.3, "fit": {"peak_tflops": 771, "overhead_us": 7.5},
      "points": [{"m": 8192, "n": 8192, "k": 8192, "tflops": )" +
                 gemm_tflops + R"(, "p10": )" + p10 + R"(, "p90": 768, "cv": 0.004}]}},
    "attention": {"bf16": {"fit": {"fwd": {"peak_tflops": 610, "overhead_us": 12}, "bwd": {"peak_tflops": 480, "overhead_us": 25}},
      "points": [{"batch": 2, "seq_len": 8192, "heads": 64, "kv_heads": 8, "head_dim": 128, "causal": true, "fwd_tflops": 590, "bwd_tflops": 455, "cv": 0.01}]}},
    "memory_bound": {")" +
                 kernel + R"(": {"fit": {"peak_gbps": 2600, "overhead_us": 5}, "points": [{"bytes": )" + bytes +
                 R"(, "gbps": 2550, "cv": 0.01}]}},
    "host_device": {"h2d_gbps": 52.1, "d2h_gbps": 50.3}, "usable_memory_bytes": 84974239744,)");
}
}  // namespace

TEST_CASE("measured tables: read, validated against the GPU's spec, written back unchanged") {
  Result<HardwareProfile> p = profile_from_json(tables_doc());
  REQUIRE(p.ok());
  REQUIRE(p->gemm.count("bf16") == 1);
  CHECK(p->gemm.at("bf16").points.at(0).tflops == 765.2);
  CHECK(p->gemm.at("bf16").fit.overhead_us == 7.5);
  CHECK(p->attention.at("bf16").points.at(0).kv_heads == 8);
  CHECK(p->attention.at("bf16").bwd_fit.peak == 480);
  CHECK(p->memory_bound.at("rmsnorm").fit.peak == 2600);
  CHECK(p->h2d_gbps == 52.1);
  CHECK(p->usable_memory_bytes == 84974239744.0);
  Result<HardwareProfile> back = profile_from_json(profile_to_json(*p));
  REQUIRE(back.ok());
  CHECK(profile_to_json(*back) == profile_to_json(*p));
  CHECK(back->citations == std::vector<std::string>{"nccl-tests"});
}

TEST_CASE("host_issue: optional per-kernel host costs, read, bounded and written back; the step uses them") {
  auto with_host = [](const std::string& obj) {
    std::string d = tables_doc();
    const std::string key = R"("usable_memory_bytes": 84974239744,)";
    d.replace(d.find(key), key.size(), key + R"( "host_issue": )" + obj + ",");
    return profile_from_json(d);
  };
  CHECK(profile_from_json(tables_doc())->host_issue == HostIssue{});  // absent: the datasheet's values
  Result<HardwareProfile> p = with_host(R"({"python_eager_us": 20, "native_us": 2.5})");
  REQUIRE(p.ok());
  CHECK(p->host_issue == HostIssue{20, 0, 2.5});
  Result<HardwareProfile> back = profile_from_json(profile_to_json(*p));
  REQUIRE(back.ok());
  CHECK(back->host_issue == p->host_issue);
  for (const char* bad : {R"({"native_us": 0})", R"({"native_us": 20000})", R"({"python_fused_us": "slow"})", "3"}) {
    INFO(bad);
    Result<HardwareProfile> r = with_host(bad);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().field.rfind("profile: host_issue", 0) == 0);
  }
  // A 125M eager Llama at one sequence is host-bound: halving the host's cost per kernel halves
  // the wait, and the profile's value replaces the datasheet's 39.7 µs.
  const Sets small{{"model.layers", "12"},
                   {"model.hidden", "768"},
                   {"model.heads", "12"},
                   {"model.kv_heads", "12"},
                   {"model.ffn_hidden", "2048"},
                   {"model.vocab", "32000"},
                   {"training.seq_len", "1024"},
                   {"training.micro_batch", "1"},
                   {"training.global_batch_seqs", "1"},
                   {"training.fused_elementwise", "false"},
                   {"hardware.gpu", "h100-sxm"},
                   {"hardware.gpu_count", "1"}};
  const Estimate datasheet = run(small);
  REQUIRE(datasheet.time.host_wait_s > 0);
  HardwareProfile half = *datasheet.r.s.hardware.profile;
  half.host_issue.python_eager_us = 39.7 / 2;
  const Estimate e = run_with_profile(scenario(small), half);
  CHECK(e.time.host_issue_s == doctest::Approx(datasheet.time.host_issue_s / 2));
  CHECK(e.time.step_s < datasheet.time.step_s);
  // Native launches (llm.c) at 3.8 µs and CUDA graphs leave no wait for this model.
  CHECK(run(with_extra(small, {{"training.kernel_launch", "native"}})).time.host_wait_s == 0);
  const Estimate graphs = run(with_extra(small, {{"training.kernel_launch", "cuda_graphs"}}));
  CHECK(graphs.time.host_issue_s == 0);
  CHECK(graphs.time.step_s == doctest::Approx(datasheet.time.step_s - datasheet.time.host_wait_s));
}

TEST_CASE("attention fit: the optional exponential rate is read, bounded by the fp32 peak, and written back") {
  auto with_exp = [](const std::string& value) {
    std::string d = tables_doc();
    const std::string bwd = R"("bwd": {"peak_tflops": 480, "overhead_us": 25}})";
    d.replace(d.find(bwd), bwd.size(),
              R"("bwd": {"peak_tflops": 480, "overhead_us": 25}, "exp_tera_per_s": )" + value + "}");
    return profile_from_json(d);
  };
  CHECK(profile_from_json(tables_doc())->attention.at("bf16").exp_tera_per_s == 0);  // absent: a flat rate
  Result<HardwareProfile> p = with_exp("3.865");
  REQUIRE(p.ok());
  CHECK(p->attention.at("bf16").exp_tera_per_s == 3.865);
  Result<HardwareProfile> back = profile_from_json(profile_to_json(*p));
  REQUIRE(back.ok());
  CHECK(back->attention.at("bf16").exp_tera_per_s == 3.865);
  // H100's fp32 peak is 66.9 TFLOP/s; the special function units run an eighth of it.
  for (const char* bad : {"0", "-1", "100", "\"fast\""}) {
    CAPTURE(bad);
    Result<HardwareProfile> r = with_exp(bad);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().field == "profile: attention.bf16.fit.exp_tera_per_s");
  }
}

TEST_CASE("measured tables: implausible values are refused with the path and the value") {
  // Above the H100's 989 TFLOP/s dense bf16 peak: an efficiency above 1.
  Result<HardwareProfile> over = profile_from_json(tables_doc("1200", "760"));
  REQUIRE_FALSE(over.ok());
  CHECK(over.error().field == "profile: gemm.bf16.points[0].tflops");
  CHECK(contains(over.error().message, "got 1200"));
  CHECK(profile_from_json(tables_doc("765.2", "770")).error().field == "profile: gemm.bf16.points[0].p10");
  CHECK(profile_from_json(tables_doc("765.2", "760.1", "rmsnrom")).error().field == "profile: memory_bound.rmsnrom");
  CHECK(profile_from_json(tables_doc("765.2", "760.1", "rmsnorm", "-5")).error().field ==
        "profile: memory_bound.rmsnorm.points[0].bytes");
  CHECK(profile_from_json(tables_doc("-1")).error().field == "profile: gemm.bf16.points[0].tflops");
  CHECK(profile_from_json(doc("0.6", "1", "15", R"( "gemm": {"int4": {}},)")).error().field == "profile: gemm.int4");
}

// site/profiles/h100-sxm.published.json, built by gpu/host/tools/published_profiles.cpp from the
// kernel records of validation/sources/public.json (the ctest published_profiles_up_to_date checks the
// file is what the records give). Its tables carry the cited numbers and the time model reads them.
TEST_CASE("the published H100 profile: cited kernel numbers, read by the time model") {
  Result<HardwareProfile> p = profile_from_json(source_text("site/profiles/h100-sxm.published.json"));
  REQUIRE(p.ok());
  CHECK(p->source == "published");
  // FlashAttention-2 fwd+bwd, causal, head dim 128, 8k: 308 TFLOP/s (fa2_h100_fwdbwd_hdim128_causal).
  bool fa2 = false;
  for (const AttentionPoint& a : p->attention.at("bf16").points)
    if (a.seq_len == 8192 && a.head_dim == 128 && a.causal)
      fa2 = a.fwd_tflops == 308 && a.bwd_tflops == 308 && a.batch == 2 && a.heads == 16;
  CHECK(fa2);
  CHECK(p->gemm.at("fp8").max_tflops == 1402.6);                            // mamf_h100_sxm_fp8_e4m3fn
  CHECK(p->gemm.at("bf16").max_tflops == 794.5);                            // mamf_h100_sxm_bf16
  CHECK(p->memory_bound.at("hbm_copy").fit.peak == doctest::Approx(2900));  // azure_h100_babelstream
  int ring = 0;
  for (const CollectiveTable& c : p->collectives)
    ring +=
        (c.op == "all_gather" && c.fit.busbw_gbps == 361.4) || (c.op == "reduce_scatter" && c.fit.busbw_gbps == 362.9);
  CHECK(ring == 2);  // nccl_nvlink4_8gpu_h200_ring_vs_nvls

  // Llama 3.1 8B on one node with sequence parallelism: attention from the FA2 table, tp traffic
  // as ring all-gather + reduce-scatter (slower than the NVLS all-reduce fit of the same node).
  Scenario s = scenario({{"model.preset", "llama3.1-8b"},
                         {"parallel.tp", "8"},
                         {"hardware.gpu_count", "8"},
                         {"training.global_batch_seqs", "8"},
                         {"training.sequence_parallel", "true"}});
  const Estimate e = run_with_profile(s, *p);
  CHECK(e.time.kernels_from_table > 0);
  bool tp = false;
  for (const CommItem& c : e.comm)
    if (c.name == "tp") tp = c.collective == "all_gather+reduce_scatter";
  CHECK(tp);
}

// site/profiles/h100-sxm.json: measured by llmcalc-bench on an H100 80GB HBM3 (SXM, 700 W) on
// 2026-11-22 (gpu/measurements/2026-11-22-nvidia-h100-80gb-hbm3). Its maxima against the anchors
// the project compares against (the mamf-finder maxima, BabelStream/nvbandwidth copy rates), with bands wide enough for
// run-to-run variation (three runs that day gave bf16 812, 789 and 808 TFLOP/s) and narrow enough to catch a broken
// suite.
TEST_CASE("the measured H100 profile: loads, meets the anchors, and times the layers it measured") {
  Result<HardwareProfile> p = profile_from_json(source_text("site/profiles/h100-sxm.json"));
  REQUIRE(p.ok());
  CHECK(p->source == "measured");
  CHECK(p->gpu_id == "h100-sxm");
  // bf16 max achievable: MAMF's 794.5 TFLOP/s on H100 SXM, ±5 %.
  CHECK(p->gemm.at("bf16").max_tflops == doctest::Approx(794.5).epsilon(0.05));
  // fp8 e4m3 with fast accumulation: at least MAMF's 1402.6 less 5 %, below the 1979 dense peak.
  CHECK(p->gemm.at("fp8").max_tflops > 0.95 * 1402.6);
  CHECK(p->gemm.at("fp8").max_tflops < 1979);
  // HBM copy (read + write): 2.9-3.2 TB/s published; 5 % below that band at most, under 3.35 spec.
  CHECK(p->memory_bound.at("hbm_copy").fit.peak > 0.95 * 2900);
  CHECK(p->memory_bound.at("hbm_copy").fit.peak < 3350);

  // The bench measured Llama 3.1 8B's layer GEMMs (tp 1, 8192 tokens): an estimate of that model
  // reads them from the table, and comes out faster than the datasheet's fits.
  Scenario s = scenario({{"model.preset", "llama3.1-8b"}, {"hardware.gpu", "h100-sxm"}});
  const Estimate sheet = run_scenario(s);
  const Estimate e = run_with_profile(s, *p);
  CHECK(e.time.kernels_from_table > 20);
  CHECK(e.time.gemm_s < sheet.time.gemm_s);
  // Capacity: the free memory the bench found (84,465,090,560 B after its context) and the
  // context llmcalc counts, instead of the datasheet's 80 GiB.
  CHECK(sheet.mem.capacity_bytes == 80.0 * 1073741824.0);
  CHECK(e.mem.capacity_bytes == 84465090560.0 + e.mem.cuda_context_bytes);
}
