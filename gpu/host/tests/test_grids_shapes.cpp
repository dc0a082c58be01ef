// Size grids and the model layer shapes the GEMM suite measures.
#include <doctest/doctest.h>

#include "llmc_bench/grids.h"
#include "llmc_bench/layer_shapes.h"
#include "llmc_bench/options.h"
#include "llmc_bench/rank_layout.h"

using namespace llmc::bench;

TEST_CASE("log_grid: both endpoints, powers of the factor between") {
  CHECK(log_grid(1, 16, 2) == std::vector<int64_t>{1, 2, 4, 8, 16});
  CHECK(log_grid(1024, 5000, 4) == std::vector<int64_t>{1024, 4096, 5000});  // hi appended
  CHECK(log_grid(7, 7, 2) == std::vector<int64_t>{7});
  CHECK(log_grid(8, 4, 2).empty());
  CHECK(log_grid(1, 10, 1).empty());
  // No overflow near INT64_MAX.
  const int64_t big = int64_t(1) << 62;
  CHECK(log_grid(big, big * 1, 2) == std::vector<int64_t>{big});
}

TEST_CASE("message sizes: 1 KiB to 8 GiB by ×4, quick by ×16 up to 1 GiB, capped by memory") {
  const int64_t kib = 1024, gib = int64_t(1) << 30;
  std::vector<int64_t> full = message_sizes_bytes(false, int64_t(1) << 40);
  CHECK(full.front() == kib);
  CHECK(full.back() == 8 * gib);
  CHECK(full.size() == 13);  // 2^10, 2^12, ..., 2^32 (12 powers of 4), then 2^33 appended
  CHECK(full[1] == 4 * kib);
  std::vector<int64_t> quick = message_sizes_bytes(true, int64_t(1) << 40);
  CHECK(quick == std::vector<int64_t>{kib, 16 * kib, 256 * kib, 4 * kib * kib, 64 * kib * kib, gib});
  std::vector<int64_t> capped = message_sizes_bytes(false, gib);
  CHECK(capped.back() == gib);
}

TEST_CASE("gemm grid, seq_len grid, bandwidth sizes") {
  std::vector<GemmShape> g = gemm_grid(false);
  CHECK(g.front() == GemmShape{256, 256, 256, ""});
  CHECK(g[6] == GemmShape{16384, 16384, 16384, ""});
  CHECK(g.size() == 7 + 6);
  CHECK(gemm_grid(true).size() == 4 + 2);
  CHECK(g[0].flops() == 2.0 * 256 * 256 * 256);
  CHECK(seq_len_grid(false) == std::vector<int64_t>{512, 1024, 2048, 4096, 8192, 16384});
  CHECK(seq_len_grid(true) == std::vector<int64_t>{1024, 4096, 8192});
  CHECK(bandwidth_sizes_bytes(false).front() == int64_t(1) << 20);
  CHECK(bandwidth_sizes_bytes(false).back() == int64_t(1) << 32);
  CHECK(bandwidth_sizes_bytes(true).back() == int64_t(1) << 30);
}

TEST_CASE("Llama 3.1 8B, tp=2, micro-batch 1, seq 8192: hand-computed shapes") {
  // hidden 4096, heads 32, kv_heads 8, head_dim 128, ffn 14336 (SwiGLU), vocab 128256.
  auto r = layer_gemm_shapes({"llama3.1-8b", 2, 1, 8192});
  REQUIRE(r.ok());
  const std::vector<GemmShape>& s = *r;
  REQUIRE(s.size() == 15);
  const int64_t T = 8192;
  // qkv: (32 + 2·8)·128 / 2 = 3072 outputs per rank.
  CHECK(s[0] == GemmShape{T, 3072, 4096, ""});
  CHECK(s[0].label == "llama3.1-8b tp2 qkv fwd");
  CHECK(s[1] == GemmShape{T, 4096, 3072, ""});  // dX
  CHECK(s[2] == GemmShape{4096, 3072, T, ""});  // dW
  // out_proj: 32·128 / 2 = 2048 inputs per rank.
  CHECK(s[3] == GemmShape{T, 4096, 2048, ""});
  // mlp up+gate fused: 2·14336 / 2 = 14336 outputs; down: 14336 / 2 = 7168 inputs.
  CHECK(s[6] == GemmShape{T, 14336, 4096, ""});
  CHECK(s[6].label == "llama3.1-8b tp2 mlp_up_gate fwd");
  CHECK(s[9] == GemmShape{T, 4096, 7168, ""});
  CHECK(s[11] == GemmShape{7168, 4096, T, ""});
  // logits: 128256 / 2 = 64128.
  CHECK(s[12] == GemmShape{T, 64128, 4096, ""});
}

TEST_CASE("layer shapes: micro-batch multiplies tokens; errors name the field") {
  auto r = layer_gemm_shapes({"llama3.1-8b", 1, 2, 4096});
  REQUIRE(r.ok());
  CHECK((*r)[0] == GemmShape{8192, 6144, 4096, ""});
  auto seq_default = layer_gemm_shapes({"llama3.1-8b", 1, 1, 0});
  REQUIRE(seq_default.ok());
  CHECK((*seq_default)[0].m == 8192);  // the model's pre-training seq_len
  auto bad_tp = layer_gemm_shapes({"llama3.1-8b", 3, 1, 8192});
  REQUIRE_FALSE(bad_tp.ok());
  CHECK(bad_tp.error().field == "model.heads");
  auto bad_kv = layer_gemm_shapes({"llama3.1-8b", 16, 1, 8192});
  REQUIRE_FALSE(bad_kv.ok());
  CHECK(bad_kv.error().field == "model.kv_heads");
  auto unknown = layer_gemm_shapes({"no-such-model", 1, 1, 8192});
  REQUIRE_FALSE(unknown.ok());
  CHECK(unknown.error().field == "model");
  auto mla = layer_gemm_shapes({"deepseek-v3", 1, 1, 4096});
  REQUIRE_FALSE(mla.ok());
  CHECK(mla.error().field == "model.attention");
}

TEST_CASE("options: suites, numbers, raw path, errors") {
  auto o = parse_options(
      {"--quick", "--out", "p/h100.json", "--suites", "gemm,nccl", "--tp", "2", "--model", "llama3.1-70b"});
  REQUIRE(o.ok());
  CHECK(o->quick);
  CHECK(o->raw_out == "p/h100.raw.json");
  CHECK(o->want("gemm"));
  CHECK(o->want("nccl"));
  CHECK_FALSE(o->want("attention"));
  CHECK(o->tp == 2);
  CHECK(o->model == "llama3.1-70b");
  auto all = parse_options({});
  REQUIRE(all.ok());
  CHECK(all->want("h2d"));
  auto bad = parse_options({"--suites", "gemm,bogus"});
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().text() == "--suites: unknown suite 'bogus' (known: gemm, attention, membound, nccl, h2d, launch)");
  CHECK(all->want("launch"));
  auto over = parse_options({"--suites", "launch", "--overheads-json", "o.json"});
  REQUIRE(over.ok());
  CHECK(over->overheads_json == "o.json");
  CHECK_FALSE(over->want("gemm"));
  CHECK(parse_options({"--overheads-json", ""}).error().text() == "--overheads-json: must not be empty");
  CHECK(parse_options({"--tp", "0"}).error().field == "--tp");
  CHECK(parse_options({"--tp", "2x"}).error().field == "--tp");
  CHECK(parse_options({"--out"}).error().text() == "--out: needs a value");
  CHECK(parse_options({"--frobnicate"}).error().field == "--frobnicate");
  CHECK(raw_path_for("x") == "x.raw.json");
  CHECK_FALSE(all->mpi);
  CHECK(parse_options({"--mpi", "--suites", "nccl"})->mpi);
}

TEST_CASE("rank layout: local ranks, nodes and the tier an MPI run measures") {
  // mpirun -np 4 -H a:2,b:2 with a round-robin mapping: ranks alternate hosts.
  const RankLayout two = rank_layout({"a", "b", "a", "b"});
  CHECK(two.local_rank == std::vector<int>{0, 0, 1, 1});
  CHECK(two.nodes == 2);
  CHECK(two.max_ranks_per_node == 2);
  CHECK(two.tier == "inter_node");
  const RankLayout one = rank_layout({"h", "h", "h"});
  CHECK(one.local_rank == std::vector<int>{0, 1, 2});
  CHECK(one.nodes == 1);
  CHECK(one.tier == "intra_node");
  const RankLayout uneven = rank_layout({"a", "a", "a", "b"});
  CHECK(uneven.max_ranks_per_node == 3);
  CHECK(uneven.local_rank.back() == 0);
  CHECK(rank_layout({}).tier.empty());
  // Each rank drives GPU local_rank: a host with more ranks than GPUs is refused, not wrapped.
  CHECK(gpus_per_host_problem(two, 8).empty());
  CHECK(gpus_per_host_problem(uneven, 3).empty());
  CHECK(gpus_per_host_problem(uneven, 2) ==
        "3 ranks on one host, but only 2 GPU(s) visible there; start one rank per GPU (mpirun --map-by ppr:2:node)");
}
