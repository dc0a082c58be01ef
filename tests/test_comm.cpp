// Communication per step (core/src/estimate/comm.cpp): volumes and ring factors per collective,
// tiers (NVLink inside a node, NICs across), NCCL's ring latency, overlap windows and what NCCL's
// SMs cost the compute they hide behind.
#include <algorithm>
#include <cmath>

#include "test_util.h"

using namespace llmc;
using namespace llmc::test;

// Overlapped communication is not free: NCCL's kernels hold 16 SMs (one CTA per channel, never
// shared with compute kernels; NVIDIA/nccl#689) of H100 SXM's 132 while a hidden collective runs,
// so compute takes hidden × 16/132 longer. With hardware.nccl_sms = 0 the overlap is free.
TEST_CASE("overlapped communication slows compute by the SMs NCCL holds") {
  Sets base = {{"model.preset", "llama3.1-8b"},
               {"hardware.gpu_count", "64"},
               {"training.global_batch_seqs", "64"},
               {"training.zero_stage", "3"},
               {"training.recompute", "full"}};
  Estimate e = run(base);
  double hidden = 0;
  for (const CommItem& c : e.comm)
    if (c.overlapped) hidden += c.time_s - c.exposed_s;
  REQUIRE(hidden > 0.1);
  CHECK(e.time.comm_contention_s == doctest::Approx(hidden * 16 / 132).epsilon(1e-12));
  base.push_back({"hardware.nccl_sms", "0"});
  Estimate free = run(base);
  CHECK(free.time.comm_contention_s == 0);
  CHECK(e.time.compute_s - free.time.compute_s == doctest::Approx(e.time.comm_contention_s).epsilon(1e-9));
  CHECK(e.time.step_s - free.time.step_s == doctest::Approx(e.time.comm_contention_s).epsilon(1e-9));
}

// Gradient reductions per step (training.grad_reduce): ZeRO-2/3 reduce after every micro-batch
// by default, each hiding behind that micro-batch's backward; ZeRO-0/1 once, after the last.
TEST_CASE("training.grad_reduce: one reduction per micro-batch or one per step") {
  Sets base = {{"model.preset", "llama3.1-8b"},
               {"hardware.gpu_count", "16"},
               {"training.seq_len", "2048"},
               {"training.global_batch_seqs", "64"},
               {"hardware.inter_node_bandwidth_gbps", "2"},
               {"parallel.dp_bucket_mb", "1000000"}};  // dp 16, m = 4; one bucket per reduction
  auto grads = [](const Estimate& e) {
    for (const CommItem& c : e.comm)
      if (c.name == "dp" && c.collective != "all_gather") return c;
    return CommItem{};
  };
  auto with = [&](Sets extra) {
    Sets s = base;
    s.insert(s.end(), extra.begin(), extra.end());
    return run(s);
  };
  const CommItem z2 = grads(with({{"training.zero_stage", "2"}}));
  const CommItem z2_once = grads(with({{"training.zero_stage", "2"}, {"training.grad_reduce", "step"}}));
  CHECK(z2.calls == 4);
  CHECK(z2_once.calls == 1);
  CHECK(z2.bytes_per_step == doctest::Approx(4 * z2_once.bytes_per_step).epsilon(1e-12));
  // Each reduction is longer than a micro-batch's backward at 2 GB/s, so each leaves the same
  // remainder exposed: what hides is one backward per reduction.
  REQUIRE(z2_once.exposed_s > 0);
  const double backward = z2_once.time_s - z2_once.exposed_s;
  CHECK(z2.time_s - z2.exposed_s == doctest::Approx(4 * backward).epsilon(1e-9));
  CHECK(grads(with({{"training.zero_stage", "1"}})).calls == 1);
  CHECK(grads(with({{"training.zero_stage", "0"}, {"training.grad_reduce", "micro_batch"}})).calls ==
        4);  // DDP without no_sync
  // FSDP: one reduce-scatter per layer per reduction.
  const CommItem z3 = grads(with({{"training.zero_stage", "3"}}));
  const CommItem z3_once = grads(with({{"training.zero_stage", "3"}, {"training.grad_reduce", "step"}}));
  CHECK(z3.calls == 4 * 32);
  CHECK(z3_once.calls == 32);
}

// DDP / ZeRO-1/2 reduce gradients in buckets (parallel.dp_bucket_mb) as the backward produces
// them: Megatron-core's default bucket is max(40M, 1M × dp) parameters (fp32 gradients: 160 MB at
// dp 16), PyTorch DDP's 25 MB under eager kernels. Each bucket pays the collective's latency; the
// last one, ready only when the backward ends, cannot hide: n buckets of a reduction of t over a
// backward of B leave max(t/n, t − B·(n − 1)/n) exposed.
TEST_CASE("parallel.dp_bucket_mb: gradients reduced in buckets, the last one exposed") {
  Sets base = {{"model.preset", "llama3.1-8b"},
               {"hardware.gpu_count", "16"},
               {"training.seq_len", "2048"},
               {"training.global_batch_seqs", "64"},
               {"training.zero_stage", "1"}};  // dp 16, one reduction per step
  auto grads = [](const Estimate& e) {
    for (const CommItem& c : e.comm)
      if (c.name == "dp" && c.collective == "reduce_scatter") return c;
    FAIL("no dp reduce_scatter");
    return CommItem{};
  };
  auto with = [&](Sets extra) {
    Sets s = base;
    s.insert(s.end(), extra.begin(), extra.end());
    return run(s);
  };
  const Estimate e = with({});
  const double grad_bytes = e.params.per_gpu * 4;  // fp32 gradients (bf16_mixed)
  const CommItem megatron = grads(e);
  const CommItem one = grads(with({{"parallel.dp_bucket_mb", "1000000"}}));
  const CommItem eager = grads(with({{"training.fused_elementwise", "false"}}));
  CHECK(megatron.calls == std::ceil(grad_bytes / 160e6));
  CHECK(eager.calls == std::ceil(grad_bytes / 25e6));
  CHECK(one.calls == 1);
  CHECK(megatron.bytes_per_step == doctest::Approx(one.bytes_per_step).epsilon(1e-12));
  CHECK(megatron.time_s > one.time_s);  // a latency per bucket
  // One bucket is ready only when the backward ends: nothing hides.
  CHECK(one.exposed_s == doctest::Approx(one.time_s).epsilon(1e-12));
  // 8K-token micro-batches, 1 TB/s across nodes: the reduction is shorter than the last
  // micro-batch's backward, so only the last bucket shows.
  const CommItem fast = grads(with({{"training.seq_len", "8192"}, {"hardware.inter_node_bandwidth_gbps", "1000"}}));
  CHECK(fast.exposed_s == doctest::Approx(fast.time_s / fast.calls).epsilon(1e-12));
  // At 2 GB/s the reduction outlasts the backward B: t − B·(n − 1)/n shows, the same B at any n.
  const CommItem a = grads(with({{"hardware.inter_node_bandwidth_gbps", "2"}, {"parallel.dp_bucket_mb", "400"}}));
  const CommItem b = grads(with({{"hardware.inter_node_bandwidth_gbps", "2"}, {"parallel.dp_bucket_mb", "100"}}));
  REQUIRE(a.exposed_s > a.time_s / a.calls);
  const double backward = (a.time_s - a.exposed_s) * a.calls / (a.calls - 1);
  CHECK(backward > 0);
  CHECK(backward < e.time.compute_s);
  CHECK(b.exposed_s == doctest::Approx(b.time_s - backward * (b.calls - 1) / b.calls).epsilon(1e-9));
}

// Hybrid sharding (HSDP, training.zero_shard_group = 8 on 8-GPU nodes): FSDP's gathers and
// reduce-scatters stay on NVLink inside each node, and each rank's 1/8 gradient shard is
// all-reduced across the 8 nodes (PyTorch FSDP HYBRID_SHARD), sharing the reduce-scatter's
// window. The same holds for ZeRO-1/2 with a shard group.
TEST_CASE("communication: hybrid sharding gathers inside the shard group and all-reduces the shard across replicas") {
  Sets base = {{"model.preset", "llama3.1-8b"},
               {"hardware.gpu_count", "64"},
               {"training.global_batch_seqs", "64"},
               {"training.zero_stage", "3"},
               {"hardware.inter_node_bandwidth_gbps", "5"}};
  auto item = [](const Estimate& e, const std::string& name, const std::string& collective) {
    for (const CommItem& c : e.comm)
      if (c.name == name && c.collective == collective) return c;
    FAIL("no " << name << " " << collective);
    return CommItem{};
  };
  const Estimate full = run(base);
  base.push_back({"training.zero_shard_group", "8"});
  const Estimate hsdp = run(base);
  const CommItem ag = item(hsdp, "fsdp", "all_gather"), rs = item(hsdp, "dp", "reduce_scatter"),
                 ar = item(hsdp, "hsdp", "all_reduce");
  CHECK(ag.group == 8);
  CHECK(ag.tier == "intra_node");
  CHECK(rs.group == 8);
  CHECK(rs.tier == "intra_node");
  CHECK(ar.group == 8);
  CHECK(ar.tier == "inter_node");
  CHECK(ag.bytes_per_step == doctest::Approx(item(full, "fsdp", "all_gather").bytes_per_step).epsilon(1e-12));
  CHECK(ar.bytes_per_step == doctest::Approx(rs.bytes_per_step / 8).epsilon(1e-12));  // each rank's shard
  CHECK(ar.calls == rs.calls);                                                        // one per FSDP unit per reduction
  CHECK(ag.time_s < item(full, "fsdp", "all_gather").time_s);  // NVLink instead of 5 GB/s per GPU
  // The shard's all-reduce over 8 ranks, one per node, is a flat ring on the network: 2·7/8 of
  // the shard per call at 0.9 × 5 GB/s, plus its latency.
  const double shard_bytes = ar.bytes_per_step / ar.calls;
  CHECK(ar.time_s ==
        doctest::Approx(ar.calls * (ar.latency_s + 2 * 7.0 / 8 * shard_bytes / (0.9 * 5e9))).epsilon(1e-6));
  // Both reductions share one window: their exposed times are what the pair leaves exposed.
  CHECK(ar.exposed_s >= 0);
  CHECK(ar.exposed_s <= ar.time_s);
  // Without hybrid sharding nothing is all-reduced across replicas.
  for (const CommItem& c : full.comm) CHECK(c.name != "hsdp");
  // ZeRO-2 with a shard group: reduce-scatter and parameter all-gather in the group, the shard
  // all-reduced across replicas once per reduction.
  base.push_back({"training.zero_stage", "2"});
  const Estimate z2 = run(base);
  CHECK(item(z2, "dp", "reduce_scatter").group == 8);
  CHECK(item(z2, "dp", "all_gather").group == 8);
  CHECK(item(z2, "hsdp", "all_reduce").calls == item(z2, "dp", "reduce_scatter").calls);
}

// Across nodes an all-to-all sends only the (group − k)/group of its bytes bound for other nodes
// through the NIC; the k − 1 peers on its own node are reached over NVLink at the same time.
TEST_CASE("communication: an all-to-all across nodes puts only the off-node share on the network") {
  // etp = tp = 2 (the default): expert groups put etp innermost, so the ep group's ranks are 2
  // apart and 4 of its 8 share a node (2 nodes).
  const Estimate e = run({{"model.preset", "mixtral-8x7b"},
                          {"parallel.tp", "2"},
                          {"parallel.ep", "8"},
                          {"hardware.gpu_count", "64"},
                          {"training.global_batch_seqs", "256"},
                          {"training.seq_len", "4096"},
                          {"training.zero_stage", "1"},
                          {"hardware.inter_node_bandwidth_gbps", "50"}});
  const CommItem* ep = find_comm(e, "ep");
  REQUIRE(ep);
  CHECK(ep->tier == "inter_node");
  const double bytes = ep->bytes_per_step / ep->calls;
  const double net_s = bytes * (8.0 - 4.0) / 8.0 / (inter_node_busbw_gbps(50) * 1e9);
  CHECK(ep->time_s / ep->calls == doctest::Approx(ep->latency_s + net_s).epsilon(1e-9));
  // With etp = 1 the same 8 ranks are adjacent: one node, NVLink only (Megatron-core's expert
  // RankGenerator; spacing them tp apart would send the all-to-all across two nodes).
  const Estimate e1 = run({{"model.preset", "mixtral-8x7b"},
                           {"parallel.tp", "2"},
                           {"parallel.ep", "8"},
                           {"parallel.etp", "1"},
                           {"hardware.gpu_count", "64"},
                           {"training.global_batch_seqs", "256"},
                           {"training.seq_len", "4096"},
                           {"training.zero_stage", "1"}});
  REQUIRE(find_comm(e1, "ep"));
  CHECK(find_comm(e1, "ep")->tier == "intra_node");
}

TEST_CASE("communication: tensor-parallel all-reduce volume and ring factor") {
  Estimate e = run({{"model.preset", "llama3.1-8b"},
                    {"parallel.tp", "8"},
                    {"hardware.gpu_count", "8"},
                    {"training.global_batch_seqs", "4"}});
  const CommItem* tp = find_comm(e, "tp");
  REQUIRE(tp);
  CHECK(tp->tier == "intra_node");
  // 4 all-reduces per layer per micro-batch of b·s·h·2 bytes; 32 layers, 4 micro-batches.
  const double bytes = 2.0 * 8192 * 4096;
  CHECK(tp->bytes_per_step == doctest::Approx(bytes * 4 * 32 * 4));
  const double busbw = 0.78 * 450e9;
  // Latency: NCCL's ring model, Simple protocol (the fastest at 64 MiB): 8.4 µs + 2·(8 − 1)
  // NVLink hops of 3.4 µs (NVIDIA/nccl src/graph/tuning.cc).
  const double latency = 8.4e-6 + 14 * 3.4e-6;
  CHECK(tp->time_s == doctest::Approx(4 * 32 * 4 * (latency + 2 * 7.0 / 8 * bytes / busbw)).epsilon(1e-12));
  CHECK(tp->exposed_s == tp->time_s);
}

// Megatron's pipeline scatter/gather (Narayanan et al. 2021 §4.1): each tp rank sends 1/tp of the
// boundary activation through its own NIC; without sequence parallelism the receivers all-gather
// the pieces over NVLink.
TEST_CASE("communication: pipeline sends carry 1/tp of the activation; without SP an NVLink all-gather follows") {
  Sets base = {{"model.preset", "llama3.1-70b"},
               {"parallel.tp", "8"},
               {"parallel.pp", "4"},
               {"hardware.gpu_count", "32"},
               {"training.global_batch_seqs", "16"},
               {"training.sequence_parallel", "false"}};
  Estimate e = run(base);
  const double tensor_bytes = 2.0 * 8192 * 8192;  // b·s·h in bf16: one micro-batch of 8,192 tokens, hidden 8,192
  const double count = 2 * (16 + 4 - 1);          // forward and backward, (m·v + p − 1) on the critical path
  const CommItem* send = find_comm(e, "pp", "send_recv");
  const CommItem* gather = find_comm(e, "pp", "all_gather");
  REQUIRE(send);
  REQUIRE(gather);
  CHECK(send->tier == "inter_node");
  CHECK(send->bytes_per_step == doctest::Approx(tensor_bytes / 8 * count));
  CHECK(send->time_s == doctest::Approx(count * (30e-6 + tensor_bytes / 8 / (0.9 * 50e9))).epsilon(1e-12));
  CHECK(gather->tier == "intra_node");
  // NCCL's ring latency for an 8-GPU all-gather: 8.4 µs + 7 NVLink hops of 3.4 µs (Simple).
  CHECK(gather->time_s ==
        doctest::Approx(count * (8.4e-6 + 7 * 3.4e-6 + 7.0 / 8 * tensor_bytes / (0.78 * 450e9))).epsilon(1e-12));
  // With sequence parallelism the activation is already split over tp: the same sends, no gather.
  base.back() = {"training.sequence_parallel", "true"};
  Estimate sp = run(base);
  int gathers = 0;
  for (const CommItem& c : sp.comm) {
    if (c.name == "pp" && c.collective == "send_recv") CHECK(c.bytes_per_step == doctest::Approx(send->bytes_per_step));
    gathers += c.name == "pp" && c.collective == "all_gather";
  }
  CHECK(gathers == 0);
}

// Megatron-core's overlap_p2p_comm (its default with virtual stages; NeMo and Megatron-Bridge set
// it for vp > 1): in the interleaved schedule's steady phase each send runs beside the next model
// chunk's compute, so only the fill and drain sends, 2·(p − 1), stay on the critical path.
TEST_CASE("parallel.pp_overlap: the interleaved schedule's steady-phase sends hide behind a model chunk") {
  Sets base = {{"model.preset", "llama3.1-70b"},  {"parallel.tp", "8"},
               {"parallel.pp", "4"},              {"parallel.virtual_stages", "5"},
               {"parallel.schedule", "interleaved"}, {"hardware.gpu_count", "32"},
               {"training.global_batch_seqs", "16"}, {"training.sequence_parallel", "true"}};
  const Estimate e = run(base);
  const CommItem* send = find_comm(e, "pp", "send_recv");
  REQUIRE(send);
  CHECK(send->overlapped);
  CHECK(send->calls == 2 * (16 * 5 + 4 - 1));
  // Each send (8,192 × 8,192 × 2 bytes / 8 over a 45 GB/s NIC, ~0.4 ms) is far shorter than a
  // chunk of 16 layers / 5 of 70B's forward, so what is exposed is the 6 fill and drain sends.
  const double one = send->time_s / send->calls;
  CHECK(one == doctest::Approx(30e-6 + 2.0 * 8192 * 8192 / 8 / (0.9 * 50e9)).epsilon(1e-12));
  CHECK(send->exposed_s == doctest::Approx(2 * 3 * one).epsilon(1e-12));
  const Term* term = e.trace.find("comm.pp_exposed_s");
  REQUIRE(term);
  CHECK(term->value == doctest::Approx(send->exposed_s).epsilon(1e-12));
  // Off, or without virtual stages (Megatron-core refuses the overlap for plain 1F1B), every send waits.
  const Estimate off = run(with_extra(base, {{"parallel.pp_overlap", "false"}}));
  const CommItem* waited = find_comm(off, "pp", "send_recv");
  REQUIRE(waited);
  CHECK_FALSE(waited->overlapped);
  CHECK(waited->exposed_s == waited->time_s);
  CHECK(off.time.comm_exposed_s - e.time.comm_exposed_s ==
        doctest::Approx(waited->time_s - send->exposed_s).epsilon(1e-9));
  const Estimate plain =
      run(with_extra(base, {{"parallel.virtual_stages", "1"}, {"parallel.schedule", "1f1b"}}));
  const CommItem* flat = find_comm(plain, "pp", "send_recv");
  REQUIRE(flat);
  CHECK_FALSE(flat->overlapped);
  CHECK(flat->exposed_s == flat->time_s);
  CHECK(plain.trace.find("comm.pp_exposed_s") == nullptr);
}

TEST_CASE("data-parallel gradient all-reduce crosses nodes past one node and overlaps the backward") {
  Estimate e = run({{"model.preset", "llama3.1-8b"},
                    {"hardware.gpu_count", "64"},
                    {"training.global_batch_seqs", "64"},
                    {"training.zero_stage", "1"}});
  bool seen_rs = false;
  for (const CommItem& c : e.comm) {
    if (c.name == "dp" && c.collective == "reduce_scatter") {
      seen_rs = true;
      CHECK(c.tier == "inter_node");
      CHECK(c.overlapped);
      CHECK(c.exposed_s <= c.time_s);
    }
  }
  CHECK(seen_rs);
}

// NCCL's ring latency (NVIDIA/nccl src/graph/tuning.cc): base + one hop per ring step, so an
// all-gather over 2,048 GPUs waits milliseconds per call, which FSDP pays once per layer. The
// protocol is NCCL's choice: the least latency + bytes / its share of the bandwidth.
TEST_CASE("communication: FSDP all-gathers per layer pay NCCL's ring latency, which grows with the ring") {
  auto fsdp_ag = [](const char* gpus) {
    Estimate e = run({{"model.preset", "llama3.1-8b"},
                      {"hardware.gpu", "a100-sxm-80gb"},
                      {"hardware.gpu_count", gpus},
                      {"training.zero_stage", "3"},
                      {"training.seq_len", "2048"},
                      {"training.global_batch_seqs", gpus}});
    for (const CommItem& c : e.comm)
      if (c.name == "fsdp") return std::make_pair(c, e);
    FAIL("no fsdp item");
    return std::make_pair(CommItem{}, e);
  };
  const auto [ag, e] = fsdp_ag("2048");
  CHECK(ag.tier == "inter_node");
  const double layers = 32, calls = 2 * layers;  // one micro-batch: a forward and a backward gather per layer
  const double bytes = e.params.per_gpu * 2 / layers;
  CHECK(ag.bytes_per_step == doctest::Approx(bytes * calls));
  // Bandwidth: 8 ranks on NVLink (0.78 × 300 GB/s) + 256 nodes on bytes/8 through each GPU's NIC (0.9 × 25 GB/s).
  const double bw = 7.0 / 8 * bytes / (0.78 * 300e9) + 255.0 / 256 * (bytes / 8) / (0.9 * 25e9);
  // 2,047 ring steps, 255 of them across the network: LL, LL128, Simple.
  const double ll = 1e-6 * (6.6 + 1792 * 0.6 + 255 * 2.7) + bw * 4;
  const double ll128 = 1e-6 * (14.0 + 1792 * 1.9 + 255 * 4.0) + bw / 0.92;
  const double simple = 1e-6 * (8.4 + 1792 * 3.4 + 255 * 14.0) + bw;
  CHECK(ag.time_s / calls == doctest::Approx(std::min({ll, ll128, simple})).epsilon(1e-9));
  CHECK(ag.time_s / calls > bw + 1.7e-3);  // at least LL's latency: 1.77 ms
  // Sixteen GPUs (2 nodes): the same per-GPU bytes cost 15 ring steps, not 2,047.
  const auto [ag16, e16] = fsdp_ag("16");
  const double bw16 = 7.0 / 8 * bytes / (0.78 * 300e9) + 1.0 / 2 * (bytes / 8) / (0.9 * 25e9);
  const double simple16 = 1e-6 * (8.4 + 14 * 3.4 + 1 * 14.0) + bw16;
  CHECK(ag16.time_s / calls == doctest::Approx(simple16).epsilon(1e-9));
}

TEST_CASE("communication: TP overlap hides each collective behind its own GEMM, all but the first of tp chunks") {
  // Transformer Engine's userbuffers (Megatron --tp-comm-overlap) split each all-gather and
  // reduce-scatter into tp chunks exchanged while the adjacent GEMM computes: the first chunk is
  // exposed, the rest hide only behind that GEMM.
  const Sets base = {{"model.preset", "llama3.1-70b"},       {"parallel.tp", "8"},
                     {"hardware.gpu_count", "64"},           {"training.global_batch_seqs", "64"},
                     {"training.sequence_parallel", "true"}, {"training.zero_stage", "1"}};
  Sets on = base;
  on.push_back({"parallel.tp_overlap", "true"});
  const Estimate off = run(base), e = run(on);
  const CommItem* off_tp = find_comm(off, "tp");
  const CommItem* on_tp = find_comm(e, "tp");
  REQUIRE(off_tp);
  REQUIRE(on_tp);
  CHECK(off_tp->exposed_s == off_tp->time_s);
  CHECK(on_tp->time_s == doctest::Approx(off_tp->time_s).epsilon(1e-12));
  CHECK(on_tp->exposed_s >= on_tp->time_s / 8 * (1 - 1e-12));  // the first chunk of each collective
  CHECK(on_tp->exposed_s < 0.5 * on_tp->time_s);               // 70B's GEMMs hide most of the rest
  // Without sequence parallelism there is no TP overlap: all-reduces stay exposed, with a warning.
  Sets no_sp = on;
  no_sp.push_back({"training.sequence_parallel", "false"});
  const Estimate w = run(no_sp);
  CHECK(find_comm(w, "tp")->exposed_s == find_comm(w, "tp")->time_s);
  bool warned = false;
  for (const std::string& m : w.warnings)
    warned = warned || contains(m, "parallel.tp_overlap needs training.sequence_parallel");
  CHECK(warned);
}

TEST_CASE("communication: PyTorch's async TP leaves the backward's reduce-scatters exposed (tp_overlap_method)") {
  // Its backward graph has no matmul→reduce-scatter to fuse (pytorch/pytorch#149946): per backward
  // pair of time c, the reduce-scatter half waits whole and the all-gather half overlaps as
  // userbuffers' does, c/2 + c/(2k) exposed where userbuffers leaves c/k (70B's GEMMs hide both).
  // Without recompute half the pairs are the backward's: the difference is time × (k − 1)/(4k).
  const Sets base = {{"model.preset", "llama3.1-70b"},       {"parallel.tp", "8"},
                     {"hardware.gpu_count", "64"},           {"training.global_batch_seqs", "64"},
                     {"training.sequence_parallel", "true"}, {"training.zero_stage", "1"},
                     {"training.recompute", "none"},         {"parallel.tp_overlap", "true"}};
  const Estimate ub = run(base), async_tp = run(with_extra(base, {{"parallel.tp_overlap_method", "async_tp"}}));
  const CommItem* u = find_comm(ub, "tp");
  const CommItem* a = find_comm(async_tp, "tp");
  REQUIRE(u);
  REQUIRE(a);
  CHECK(a->time_s == doctest::Approx(u->time_s).epsilon(1e-12));
  CHECK(u->exposed_s == doctest::Approx(u->time_s / 8));
  CHECK(a->exposed_s - u->exposed_s == doctest::Approx(u->time_s * 7 / 32));
  CHECK(async_tp.time.step_s > ub.time.step_s);
  // Only with tp_overlap: the method alone overlaps nothing.
  const Estimate off =
      run(with_extra(base, {{"parallel.tp_overlap", "false"}, {"parallel.tp_overlap_method", "async_tp"}}));
  CHECK(find_comm(off, "tp")->exposed_s == find_comm(off, "tp")->time_s);
  // With rowwise FP8 scales it fuses no all-gather either (pytorch/pytorch#149990): the forward
  // pairs' all-gather halves and the backward pairs whole wait, c/2 + c/(2k) forward and c
  // backward: exposed = time × (1/2 + 1/(2k)) / 2 + time / 2 = time × 25/32 here.
  const Sets fp8 = with_extra(base, {{"training.precision", "fp8_mixed"}, {"parallel.tp_overlap_method", "async_tp"}});
  const Estimate tensorwise = run(fp8), rowwise = run(with_extra(fp8, {{"training.fp8_recipe", "rowwise"}}));
  const CommItem* tw = find_comm(tensorwise, "tp");
  const CommItem* rw = find_comm(rowwise, "tp");
  REQUIRE(tw);
  REQUIRE(rw);
  CHECK(tw->exposed_s == doctest::Approx(tw->time_s * (1.0 / 8 + 7.0 / 32)));
  CHECK(rw->exposed_s == doctest::Approx(rw->time_s * 25 / 32));
}

TEST_CASE("communication: ZeRO-1/2's parameter gather waits after the step (parallel.param_gather_overlap)") {
  // Hidden behind the next forward by default (Megatron's --overlap-param-gather): exposed only
  // what the forward of one micro-batch cannot cover. DeepSpeed ZeRO-1/2, PyTorch's
  // ZeroRedundancyOptimizer and nanotron gather after the optimizer step and wait for it whole;
  // the part that was hidden then no longer slows compute by NCCL's SMs (16 of H100's 132).
  const Sets base = {{"model.preset", "llama3.1-8b"},
                     {"hardware.gpu_count", "256"},
                     {"training.seq_len", "4096"},
                     {"training.global_batch_seqs", "256"},
                     {"training.zero_stage", "1"}};
  const Estimate hidden = run(base), waited = run(with_extra(base, {{"parallel.param_gather_overlap", "false"}}));
  const CommItem* h = find_comm(hidden, "dp", "all_gather");
  const CommItem* w = find_comm(waited, "dp", "all_gather");
  REQUIRE(h);
  REQUIRE(w);
  CHECK(h->overlapped);
  CHECK_FALSE(w->overlapped);
  CHECK(w->time_s == doctest::Approx(h->time_s).epsilon(1e-12));
  CHECK(w->exposed_s == w->time_s);
  const double was_hidden = h->time_s - h->exposed_s;
  REQUIRE(was_hidden > 0);
  CHECK(waited.time.step_s - hidden.time.step_s == doctest::Approx(was_hidden * (1 - 16.0 / 132)).epsilon(1e-9));
  const Term* term = waited.trace.find("comm.dp_param_gather_exposed_s");
  REQUIRE(term);
  CHECK(term->value == w->exposed_s);
  CHECK(term_input(*term, "overlapped") == 0);
  // The gradient reduce-scatter keeps its overlap; without dp_overlap both already wait.
  CHECK(find_comm(waited, "dp", "reduce_scatter")->exposed_s == find_comm(hidden, "dp", "reduce_scatter")->exposed_s);
  const Sets no_dp_overlap = with_extra(base, {{"parallel.dp_overlap", "false"}});
  CHECK(run(no_dp_overlap).time.step_s ==
        run(with_extra(no_dp_overlap, {{"parallel.param_gather_overlap", "false"}})).time.step_s);
}

TEST_CASE("communication: ZeRO-1's parameters handed back by one broadcast per rank (parallel.param_gather)") {
  // InternEvo's broadcast_params: every rank broadcasts its shard in turn. The bytes each GPU
  // receives are the all-gather's, but each of the n calls pays a ring's latency (a broadcast is a
  // pipelined chain through all n ranks): on 1,024 A100s, 128 nodes, NCCL's LL model gives
  // 6.6 + 896 × 0.6 + 127 × 2.7 µs = 0.887 ms a call before any bytes, 0.9 s for the 1,024.
  const Sets base = {{"model.preset", "llama2-7b"},
                     {"hardware.gpu", "a100-sxm-80gb"},
                     {"hardware.gpu_count", "1024"},
                     {"training.seq_len", "2048"},
                     {"training.global_batch_seqs", "4096"},
                     {"training.zero_stage", "1"},
                     {"parallel.param_gather_overlap", "false"}};
  const Estimate gather = run(base), bcast = run(with_extra(base, {{"parallel.param_gather", "broadcast"}}));
  const CommItem* g = find_comm(gather, "dp", "all_gather");
  const CommItem* b = find_comm(bcast, "dp", "broadcast");
  REQUIRE(g);
  REQUIRE(b);
  CHECK(find_comm(bcast, "dp", "all_gather") == nullptr);
  CHECK(b->calls == 1024);
  CHECK(b->bytes_per_step == doctest::Approx(g->bytes_per_step).epsilon(1e-12));
  CHECK(b->latency_s >= 0.887e-3 * 0.999);
  CHECK(b->time_s > g->time_s + 1024 * 0.887e-3 * 0.9);
  CHECK(b->exposed_s == b->time_s);
  // Inside one node the calls are short: eight broadcasts of an 8-GPU group cost about the gather.
  const Sets node = with_extra(base, {{"hardware.gpu_count", "8"}, {"training.global_batch_seqs", "32"}});
  const Estimate gather8 = run(node), bcast8 = run(with_extra(node, {{"parallel.param_gather", "broadcast"}}));
  const CommItem* g8 = find_comm(gather8, "dp", "all_gather");
  const CommItem* b8 = find_comm(bcast8, "dp", "broadcast");
  REQUIRE(g8);
  REQUIRE(b8);
  CHECK(b8->time_s / g8->time_s == doctest::Approx(8.0 / 7.0).epsilon(0.05));  // factor 1 against (n − 1)/n
}

TEST_CASE("communication: context parallelism by ring, all-gather or all-to-all (parallel.cp_method)") {
  const Sets base = {{"model.preset", "llama3.1-8b"},
                     {"parallel.cp", "4"},
                     {"hardware.gpu_count", "8"},
                     {"training.seq_len", "32768"},
                     {"training.global_batch_seqs", "8"}};
  auto with = [&](const char* method) {
    Sets s = base;
    s.push_back({"parallel.cp_method", method});
    return run(s);
  };
  const Estimate ring = with("p2p"), gather = with("all_gather"), ulysses = with("a2a");
  const CommItem* r = find_comm(ring, "cp");
  REQUIRE(r);
  CHECK(r->collective == "send_recv");
  // Each K,V transfer hides behind one attention block; at 32k tokens the blocks cover most of it.
  CHECK(r->exposed_s < r->time_s);
  // Ring blocks are cp kernels of s/cp keys each, slower per FLOP than one kernel over all keys.
  CHECK(ring.time.attention_s > gather.time.attention_s);
  CHECK(find_comm(gather, "cp")->collective == "all_gather+reduce_scatter");
  CHECK(find_comm(gather, "cp")->exposed_s == find_comm(gather, "cp")->time_s);
  CHECK(find_comm(ulysses, "cp")->collective == "all_to_all");
  CHECK(find_comm(ulysses, "cp")->exposed_s == find_comm(ulysses, "cp")->time_s);
  // Ulysses splits heads: 8 kv heads over cp 16 cannot.
  Sets bad = base;
  bad.push_back({"parallel.cp", "16"});
  bad.push_back({"hardware.gpu_count", "16"});
  bad.push_back({"training.global_batch_seqs", "16"});
  bad.push_back({"parallel.cp_method", "a2a"});
  const Error e = run_error(bad);
  CHECK(e.field == "parallel.cp_method");
  CHECK(contains(e.text(), "must be divisible by parallel.cp (16)"));
}

TEST_CASE("communication: a ring step's exchange that outlasts its attention block is exposed") {
  // 4k tokens over cp 8: blocks of 512 queries × 512 keys are short; the K,V transfers are not.
  const Estimate e = run({{"model.preset", "llama3.1-8b"},
                          {"parallel.cp", "8"},
                          {"hardware.gpu_count", "8"},
                          {"training.seq_len", "4096"},
                          {"training.global_batch_seqs", "8"}});
  const CommItem* c = find_comm(e, "cp");
  REQUIRE(c);
  CHECK(c->exposed_s > 0);
}

// FSDP shards LoRA's frozen base like any weight (memory holds 1/d of it), so its all-gathers move
// every weight, the base as stored (QLoRA's NF4 in half a byte), while the reduce-scatter carries
// only the adapters' gradients. Until 2026-11-26 the gathers moved the adapters alone.
TEST_CASE("communication: under ZeRO-3, LoRA gathers the frozen base weights as stored") {
  auto lora = [](Sets extra) {
    return run(with_extra({{"model.preset", "llama2-7b"},
                           {"hardware.gpu", "a100-sxm-80gb"},
                           {"hardware.gpu_count", "8"},
                           {"training.zero_stage", "3"},
                           {"training.seq_len", "2048"},
                           {"training.global_batch_seqs", "8"},
                           {"training.precision", "bf16_pure"},
                           {"training.finetune", "lora"},
                           {"training.lora_rank", "64"}},
                          extra));
  };
  const Estimate e = lora({});
  const CommItem* ag = find_comm(e, "fsdp");
  const CommItem* rs = find_comm(e, "dp", "reduce_scatter");
  REQUIRE(ag != nullptr);
  REQUIRE(rs != nullptr);
  const double layers = 32, calls = 2 * layers;  // one micro-batch: a forward and a backward gather per layer
  CHECK(ag->bytes_per_step == doctest::Approx(e.params.per_gpu * 2 * calls / layers));
  CHECK(rs->bytes_per_step == doctest::Approx(e.params.trainable * 2));
  // QLoRA: the blocks' linear weights in 4 bits, the embeddings, norms and output layer in bf16.
  const Estimate q = lora({{"training.base_weight_dtype", "fp4"}});
  const CommItem* qag = find_comm(q, "fsdp");
  REQUIRE(qag != nullptr);
  const double linear = q.params.per_gpu_linear, rest = q.params.per_gpu - linear;
  CHECK(qag->bytes_per_step == doctest::Approx((rest * 2 + linear * 0.5) * calls / layers));
}
