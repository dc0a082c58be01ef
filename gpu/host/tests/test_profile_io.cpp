// Points from samples, profile assembly, the round trip through core's reader, atomic writes.
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "llmc/catalog.h"
#include "llmc/profile.h"
#include "llmc_bench/atomic_write.h"
#include "llmc_bench/attention_import.h"
#include "llmc_bench/layer_shapes.h"
#include "llmc_bench/overheads_import.h"
#include "llmc_bench/profile_builder.h"

using namespace llmc::bench;
using llmc::BandwidthPoint;
using llmc::GemmPoint;
namespace fs = std::filesystem;

namespace {

fs::path scratch_dir() {
  fs::path d = fs::temp_directory_path() / ("llmc_bench_test_" + std::to_string(::getpid()));
  fs::create_directories(d);
  return d;
}

std::string slurp(const fs::path& p) {
  std::ifstream f(p);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

}  // namespace

TEST_CASE("points: throughput statistics from sample times") {
  GemmShape s{8192, 8192, 8192, "x"};
  const double flops = s.flops();
  // Times giving exactly 700, 750, 800 TFLOP/s.
  GemmPoint p = gemm_point(s, {flops / 750e12, flops / 700e12, flops / 800e12});
  CHECK(p.tflops == doctest::Approx(750));
  CHECK(p.p10 == doctest::Approx(710));
  CHECK(p.p90 == doctest::Approx(790));
  CHECK(p.m == 8192);
  BandwidthPoint b = bandwidth_point(2e9, {1e-3, 1e-3});
  CHECK(b.gbps == doctest::Approx(2000));
  CHECK(b.cv == 0);
  // All-reduce of 1 GB on 8 ranks in 5 ms: busbw = 1.75 · 1e9 / 5e-3 / 1e9 = 350 GB/s.
  BandwidthPoint c = collective_point("all_reduce", 8, 1e9, {5e-3});
  CHECK(c.bytes == 1e9);
  CHECK(c.gbps == doctest::Approx(350));
  CHECK(attention_fwd_flops(2, 8192, 64, 128, true) == doctest::Approx(2.0 * 2 * 8192.0 * 8192 * 64 * 128));
  CHECK(attention_score_elements(2, 8192, 64, true) == doctest::Approx(8192.0 * 8192 * 64));
  CHECK(attention_score_elements(2, 8192, 64, false) == doctest::Approx(2 * 8192.0 * 8192 * 64));
  llmc::AttentionPoint a = attention_point(1, 1024, 8, 8, 128, false, {1e-3}, {2.5e-3});
  CHECK(a.fwd_tflops == doctest::Approx(4.0 * 1024 * 1024 * 8 * 128 / 1e-3 / 1e12));
  CHECK(a.bwd_tflops == doctest::Approx(a.fwd_tflops));
}

TEST_CASE("gpu id from the CUDA device name") {
  CHECK(*gpu_id_for_device("NVIDIA H100 80GB HBM3", 85e9) == "h100-sxm");
  CHECK(*gpu_id_for_device("NVIDIA H100 PCIe", 85e9) == "h100-pcie");
  CHECK(*gpu_id_for_device("NVIDIA H100 NVL", 100e9) == "h100-nvl");
  CHECK(*gpu_id_for_device("NVIDIA H200", 150e9) == "h200");
  CHECK(*gpu_id_for_device("NVIDIA A100-SXM4-80GB", 85e9) == "a100-sxm-80gb");
  CHECK(*gpu_id_for_device("NVIDIA A100-SXM4-40GB", 42e9) == "a100-sxm-40gb");
  CHECK(*gpu_id_for_device("NVIDIA A100 80GB PCIe", 85e9) == "a100-pcie-80gb");
  CHECK(*gpu_id_for_device("NVIDIA H800", 85e9) == "h800");
  CHECK(*gpu_id_for_device("NVIDIA A800-SXM4-80GB", 85e9) == "a800-sxm-80gb");
  CHECK_FALSE(gpu_id_for_device("NVIDIA A800 80GB PCIe", 85e9));  // no PCIe A800 in the catalog
  auto unknown = gpu_id_for_device("NVIDIA GeForce GTX 1080", 8e9);
  REQUIRE_FALSE(unknown.ok());
  CHECK(unknown.error().field == "--gpu");
  CHECK(throttle_reason_names(0x4 | 0x40) == std::vector<std::string>{"sw_power_cap", "hw_thermal_slowdown"});
}

// A measured profile as the bench assembles it, on synthetic numbers.
llmc::HardwareProfile synthetic_profile(std::vector<std::string>& notes, std::vector<GemmShape>& shapes) {
  llmc::GpuSpec gpu = *llmc::find_gpu("h100-sxm");
  shapes = *layer_gemm_shapes({"llama3.1-8b", 1, 1, 8192});
  llmc::HardwareProfile p;
  llmc::GemmTable& g = p.gemm["bf16"];
  // Every model shape at 7 µs + flops / 780 TFLOP/s, plus one impossible point (above 989).
  for (const GemmShape& s : shapes) {
    const double t = 7e-6 + s.flops() / 780e12;
    g.points.push_back(gemm_point(s, {t, t * 1.01, t * 0.99}));
  }
  GemmShape fake{512, 512, 512, "l2"};
  g.points.push_back(gemm_point(fake, {fake.flops() / 1200e12}));
  llmc::BandwidthTable& copy = p.memory_bound["hbm_copy"];
  for (double b = 1 << 20; b <= double(1LL << 32); b *= 4)
    copy.points.push_back(bandwidth_point(b, {4e-6 + b / 3000e9}));
  llmc::CollectiveTable ar;
  ar.op = "all_reduce";
  ar.group = 8;
  ar.tier = "intra_node";
  for (double b = 1024; b <= double(1LL << 33); b *= 4)
    ar.points.push_back(collective_point("all_reduce", 8, b, {20e-6 + 1.75 * b / 360e9}));
  p.collectives.push_back(ar);
  p.attention["bf16"].points.push_back(attention_point(1, 8192, 32, 8, 128, true, {2e-3}, {5.5e-3}));
  p.attention["bf16"].points.push_back(attention_point(1, 2048, 32, 8, 128, true, {0.2e-3}, {0.5e-3}));
  p.h2d_gbps = 52;
  p.host_issue = {38.5, 41.0, 3.9};
  p.d2h_gbps = 50;
  p.usable_memory_bytes = 80e9;
  RunMetadata md;
  md.device_name = "NVIDIA H100 80GB HBM3";
  md.argv = {"llmcalc-bench", "--quick"};
  md.telemetry.push_back({"gemm", "bf16 8192³", {true, 1980, 2619, 690, 61, 0x4}});
  p.metadata_json = metadata_to_json(md);
  return finalize_profile(p, gpu, shapes, notes);
}

TEST_CASE("finalize_profile: fits, headline numbers, spec caps, comm tier") {
  std::vector<std::string> notes;
  std::vector<GemmShape> shapes;
  llmc::HardwareProfile p = synthetic_profile(notes, shapes);
  CHECK(p.source == "measured");
  CHECK(p.gpu_id == "h100-sxm");
  const llmc::GemmTable& g = p.gemm.at("bf16");
  CHECK(g.points.size() == shapes.size());  // the 1200 TFLOP/s point was dropped ...
  REQUIRE(notes.size() >= 1);
  CHECK(notes[0].find("gemm.bf16: dropped a point at 1200") == 0);  // ... with a note
  CHECK(g.fit.peak == doctest::Approx(780).epsilon(1e-6));
  CHECK(g.fit.overhead_us == doctest::Approx(7).epsilon(1e-6));
  CHECK(g.max_tflops < 780);
  CHECK(g.max_tflops > 770);
  // compute_efficiency = Σflops / Σtime over the model's shapes / the dense bf16 peak (989.4).
  double flops = 0, secs = 0;
  for (const GemmShape& s : shapes) flops += s.flops(), secs += 7e-6 + s.flops() / 780e12;
  CHECK(p.compute_efficiency ==
        doctest::Approx(flops / secs / 1e12 / llmc::find_gpu("h100-sxm")->peak_bf16_tflops).epsilon(1e-9));
  CHECK(p.memory_bound.at("hbm_copy").fit.peak == doctest::Approx(3000).epsilon(1e-6));
  CHECK(p.memory_bound.at("hbm_copy").fit.overhead_us == doctest::Approx(4).epsilon(1e-6));
  CHECK(p.intra_node.alpha_s == doctest::Approx(20e-6).epsilon(1e-6));
  CHECK(p.intra_node.busbw_gbps == doctest::Approx(360).epsilon(1e-6));
  CHECK(p.collectives[0].fit.busbw_gbps == doctest::Approx(360).epsilon(1e-6));
  CHECK(p.inter_node.busbw_gbps == llmc::datasheet_profile(*llmc::find_gpu("h100-sxm")).inter_node.busbw_gbps);
}

TEST_CASE("finalize_profile: the attention fit is of the matmul part, the exponentials apart") {
  // Points made of 10 µs + FLOPs at 900 (forward) / 600 (backward) TFLOP/s + one exponential per
  // score element at H100's 132 × 16 × 1.83 GHz, at head dims 64 and 128: the fit gives back 900
  // and 600 and records the exponential rate, so head dim 256 follows without a point there.
  const llmc::GpuSpec gpu = *llmc::find_gpu("h100-sxm");
  const double exp_rate = 132 * 16 * 1830e-6;
  auto point = [&](int64_t s, int64_t d, double fwd_rate, double bwd_rate) {
    const double f = attention_fwd_flops(4, s, 16, d, false), scores = 4.0 * s * s * 16;
    return attention_point(4, s, 16, 16, d, false, {10e-6 + f / (fwd_rate * 1e12) + scores / (exp_rate * 1e12)},
                           {10e-6 + 2.5 * f / (bwd_rate * 1e12) + scores / (exp_rate * 1e12)});
  };
  std::vector<std::string> notes;
  llmc::HardwareProfile p;
  for (int64_t d : {64, 128})
    for (int64_t s : {1024, 4096, 16384}) p.attention["bf16"].points.push_back(point(s, d, 900, 600));
  const llmc::AttentionTable t = finalize_profile(p, gpu, {}, notes).attention.at("bf16");
  CHECK(t.exp_tera_per_s == doctest::Approx(exp_rate).epsilon(1e-12));
  CHECK(t.fwd_fit.peak == doctest::Approx(900).epsilon(1e-3));
  CHECK(t.bwd_fit.peak == doctest::Approx(600).epsilon(1e-3));
  CHECK(t.fwd_fit.overhead_us == doctest::Approx(10).epsilon(1e-3));
  CHECK(llmc::attention_tflops(t, false, 256) ==
        doctest::Approx(1 / (1 / 900.0 + 1 / (4 * 256 * exp_rate))).epsilon(1e-3));
  // Points faster than the exponentials allow (head dim 32 at 900 TFLOP/s with none) keep a flat
  // rate, with a note.
  llmc::HardwareProfile fast;
  for (int64_t s : {1024, 4096, 16384}) {
    const double f = attention_fwd_flops(4, s, 16, 32, false);
    fast.attention["bf16"].points.push_back(attention_point(4, s, 16, 16, 32, false, {f / 900e12}, {2.5 * f / 900e12}));
  }
  std::vector<std::string> fast_notes;
  const llmc::AttentionTable flat = finalize_profile(fast, gpu, {}, fast_notes).attention.at("bf16");
  CHECK(flat.exp_tera_per_s == 0);
  CHECK(flat.fwd_fit.peak == doctest::Approx(900).epsilon(1e-3));
  bool noted = false;
  for (const std::string& n : fast_notes) noted = noted || n.find("attention.bf16: points faster than") == 0;
  CHECK(noted);
}

TEST_CASE("the assembled profile survives core's writer and reader (schema v1 validation)") {
  std::vector<std::string> notes;
  std::vector<GemmShape> shapes;
  llmc::HardwareProfile p = synthetic_profile(notes, shapes);
  const std::string text = llmc::profile_to_json(p);
  auto back = llmc::profile_from_json(text);
  INFO(text.substr(0, 400));
  REQUIRE_MESSAGE(back.ok(), (back.ok() ? "" : back.error().text()));
  CHECK(back->source == "measured");
  CHECK(back->compute_efficiency == doctest::Approx(p.compute_efficiency));
  CHECK(back->intra_node.busbw_gbps == doctest::Approx(360).epsilon(1e-6));
  // Needs core's reader/writer of the optional tables (docs/profile-schema.md).
  REQUIRE(back->gemm.count("bf16") == 1);
  CHECK(back->gemm.at("bf16").points.size() == shapes.size());
  CHECK(back->gemm.at("bf16").fit.peak == doctest::Approx(780).epsilon(1e-6));
  CHECK(back->memory_bound.at("hbm_copy").points.size() == p.memory_bound.at("hbm_copy").points.size());
  REQUIRE(back->collectives.size() == 1);
  CHECK(back->collectives[0].points.size() == p.collectives[0].points.size());
  CHECK(back->h2d_gbps == 52);
  CHECK(back->host_issue == p.host_issue);
  const auto md = nlohmann::json::parse(back->metadata_json);
  CHECK(md.at("device") == "NVIDIA H100 80GB HBM3");
  CHECK(md.at("telemetry").at(0).at("throttle_reasons").at(0) == "sw_power_cap");
}

TEST_CASE("atomic write: complete file or none") {
  const fs::path dir = scratch_dir();
  const std::string path = (dir / "profile.json").string();
  REQUIRE(write_file_atomic(path, std::string("{\"a\": 1}\n")).ok());
  CHECK(slurp(path) == "{\"a\": 1}\n");
  CHECK_FALSE(fs::exists(temp_path_for(path)));

  // A writer that throws midway: the old file stays as it was and no .tmp is left.
  CHECK_THROWS_AS(write_file_atomic(path,
                                    [](std::ostream& os) {
                                      os << "{\"half\": ";
                                      throw std::runtime_error("measurement failed");
                                    }),
                  std::runtime_error);
  CHECK(slurp(path) == "{\"a\": 1}\n");
  CHECK_FALSE(fs::exists(temp_path_for(path)));

  // A new file whose writer throws is never created.
  const std::string fresh = (dir / "fresh.json").string();
  CHECK_THROWS(write_file_atomic(fresh, [](std::ostream& os) {
    os << "partial";
    throw std::runtime_error("interrupted");
  }));
  CHECK_FALSE(fs::exists(fresh));
  CHECK_FALSE(fs::exists(temp_path_for(fresh)));

  // An unwritable place is an error naming the path, not a crash.
  auto bad = write_file_atomic((dir / "no/such/dir/x.json").string(), std::string("x"));
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().field.find("x.json.tmp") != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("attention points imported from the PyTorch script's JSON") {
  const std::string text = R"({"dtype": "bf16", "backend": "torch SDPA [cudnn, flash]", "points": [
    {"batch": 1, "seq_len": 1024, "heads": 8, "kv_heads": 8, "head_dim": 128, "causal": false, "backend": "cudnn",
     "fwd_seconds": [1e-3, 1e-3, 1e-3], "bwd_seconds": [2.5e-3]},
    {"batch": 1, "seq_len": 1024, "heads": 8, "kv_heads": 8, "head_dim": 128, "causal": false, "backend": "flash",
     "fwd_seconds": [2e-3], "bwd_seconds": [5e-3]},
    {"batch": 1, "seq_len": 1024, "heads": 8, "kv_heads": 8, "head_dim": 128, "causal": false, "backend": "efficient",
     "fwd_seconds": [3e-3], "bwd_seconds": [7.5e-3]},
    {"batch": 1, "seq_len": 1024, "heads": 8, "kv_heads": 8, "head_dim": 128, "causal": false, "backend": "flex",
     "fwd_seconds": [4e-3], "bwd_seconds": [1e-2]}]})";
  auto r = import_attention_samples(text);
  REQUIRE(r.ok());
  CHECK(r->backend == "torch SDPA [cudnn, flash]");
  // One table per backend: cuDNN's, FlashAttention-2's (SDPA's "flash"), FlexAttention's, and the
  // unnamed one.
  REQUIRE(r->tables.size() == 4);
  REQUIRE(r->points() == 4);
  const llmc::AttentionPoint& cudnn = r->tables.at("bf16.cudnn").at(0);
  CHECK(cudnn.fwd_tflops == doctest::Approx(4.0 * 1024 * 1024 * 8 * 128 / 1e-3 / 1e12));
  CHECK(cudnn.bwd_tflops == doctest::Approx(cudnn.fwd_tflops));
  CHECK_FALSE(cudnn.causal);
  CHECK(r->tables.at("bf16.fa2").at(0).fwd_tflops == doctest::Approx(cudnn.fwd_tflops / 2));
  CHECK(r->tables.at("bf16").at(0).fwd_tflops == doctest::Approx(cudnn.fwd_tflops / 3));
  CHECK(r->tables.at("bf16.flex").at(0).fwd_tflops == doctest::Approx(cudnn.fwd_tflops / 4));
  auto bad =
      import_attention_samples(R"({"points": [{"batch": 1, "seq_len": 1024, "heads": 8, "kv_heads": 3, "head_dim": 128,
    "causal": true, "fwd_seconds": [1], "bwd_seconds": [1]}]})");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().field == "attention-json.points[0].kv_heads");
  CHECK(import_attention_samples("{").error().field == "attention-json");
}

TEST_CASE("host cost per kernel imported from overheads.py's runs: the slope between depths") {
  // Two depths per mode: (forward + backward host seconds) over (their kernels), deeper − shallower.
  const std::string text = R"({"runs": [
    {"layers": 2, "elementwise": "eager", "optimizer": "fused", "host_s": {"forward": 0.003, "backward": 0.004},
     "device_items": {"forward": 90, "backward": 140}},
    {"layers": 10, "elementwise": "eager", "optimizer": "fused", "host_s": {"forward": 0.015, "backward": 0.024},
     "device_items": {"forward": 390, "backward": 640}},
    {"layers": 2, "elementwise": "eager", "optimizer": "foreach", "host_s": {"forward": 1, "backward": 1},
     "device_items": {"forward": 1, "backward": 1}},
    {"layers": 2, "elementwise": "compiled", "optimizer": "fused", "host_s": {"forward": 0.002, "backward": 0.003},
     "device_items": {"forward": 50, "backward": 70}}]})";
  auto r = import_overheads(text);
  REQUIRE(r.ok());
  CHECK(r->python_eager_us == doctest::Approx((0.039 - 0.007) / (1030 - 230) * 1e6));  // 40 µs
  CHECK(r->python_fused_us == 0);                                                      // one depth only: no slope
  CHECK(r->native_us == 0);
  // The H100 run of 2026-11-27: eager 39.7 µs, compiled 31.7 µs a kernel (docs/formulas.md, Host issue).
  auto measured = import_overheads(
      slurp(fs::path(LLMC_SOURCE_DIR) / "gpu/measurements/2026-11-27-nvidia-h100-80gb-hbm3/overheads.json"));
  REQUIRE(measured.ok());
  CHECK(measured->python_eager_us == doctest::Approx(39.69).epsilon(0.001));
  CHECK(measured->python_fused_us == doctest::Approx(31.72).epsilon(0.001));
  auto bad = import_overheads(R"({"runs": [{"layers": 2, "elementwise": "eager", "optimizer": "fused",
    "host_s": {"forward": -1, "backward": 1}, "device_items": {"forward": 1, "backward": 1}}]})");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().field == "overheads-json.runs[0].host_s.forward");
  CHECK(import_overheads("{").error().field == "overheads-json");
  CHECK(import_overheads(R"({"runs": []})").error().field == "overheads-json.runs");
  CHECK(import_overheads(R"({"runs": [{"layers": 2, "elementwise": "jit", "optimizer": "fused"}]})").error().field ==
        "overheads-json.runs[0].elementwise");
}
