// Time model: bases (MFU, achieved TFLOP/s, compute efficiency, profile), the pipeline bubble,
// totals and the error bar. Communication: test_comm.cpp; the step's kernels: test_compute_times.cpp.
#include <algorithm>

#include "llmc/error_bars.h"
#include "test_util.h"

using namespace llmc;
using namespace llmc::test;

TEST_CASE("compute_efficiency basis: compute = hardware FLOPs / (gpus × peak × efficiency)") {
  Estimate e = run(
      {{"model.preset", "llama3.1-8b"}, {"hardware.compute_efficiency", "0.5"}, {"training.global_batch_seqs", "4"}});
  const double hw_step = e.flops.hardware_per_token * 4 * 8192;
  CHECK(e.time.basis == "compute_efficiency");
  CHECK(e.time.compute_s == doctest::Approx(hw_step / (989.4e12 * 0.5)).epsilon(1e-12));
  CHECK(e.time.step_s == doctest::Approx(e.time.compute_s + e.time.bubble_s + e.time.comm_exposed_s).epsilon(1e-12));
}

TEST_CASE("the pipeline bubble adds (p − 1)/m micro-batch slots; zero bubble a third of it") {
  Sets base = {{"model.preset", "llama3.1-70b"},
               {"parallel.tp", "8"},
               {"parallel.pp", "4"},
               {"hardware.gpu_count", "32"},
               {"training.global_batch_seqs", "16"}};
  Estimate f1b = run(base);
  // The bubble is (p − 1) micro-batch slots of the slowest stage: its kernels and the tensor-parallel
  // communication each micro-batch waits on (Narayanan et al. 2021 §2.2: (p − 1)·(t_f + t_b));
  // neither the optimizer step nor the once-per-step DP and pipeline transfers are in a slot.
  const CommItem* tp_item = find_comm(f1b, "tp");
  REQUIRE(tp_item);
  const double tp_exposed = tp_item->exposed_s;
  REQUIRE(tp_exposed > 0);
  CHECK(f1b.time.bubble_s ==
        doctest::Approx((f1b.time.compute_s - f1b.time.optimizer_s + tp_exposed) * 3.0 / 16).epsilon(1e-12));
  // The same layout with tp overlapped behind its GEMMs (sequence parallelism, which TP overlap
  // needs): the slots hold the kernels and the part of the collectives that stays exposed.
  Sets overlapped = base;
  overlapped.push_back({"parallel.tp_overlap", "true"});
  overlapped.push_back({"training.sequence_parallel", "true"});
  Estimate ov = run(overlapped);
  CHECK(ov.time.comm_contention_s > 0);  // the hidden tp collectives hold NCCL's SMs
  const double ov_exposed = find_comm(ov, "tp")->exposed_s;
  CHECK(ov.time.bubble_s ==
        doctest::Approx((ov.time.compute_s - ov.time.optimizer_s - ov.time.comm_contention_s + ov_exposed) * 3.0 / 16)
            .epsilon(1e-12));
  base.push_back({"parallel.schedule", "zero_bubble"});
  Estimate zb = run(base);
  CHECK(zb.time.bubble_fraction == doctest::Approx(1.0 / 16));
}

// FSDP's forward all-gathers hide behind forward passes only and the backward ones behind
// backward passes. In the flat-efficiency basis a pass is a third (forward) or two thirds
// (backward) of the compute; 8B at 3K tokens on 64 GPUs over 25 GB/s per GPU leaves the forward
// gathers partly exposed although the whole step's compute would cover them.
TEST_CASE("FSDP all-gathers overlap their own pass: forward gathers cannot hide behind backward compute") {
  Estimate e = run({{"model.preset", "llama3.1-8b"},
                    {"hardware.gpu_count", "64"},
                    {"training.global_batch_seqs", "64"},
                    {"training.zero_stage", "3"},
                    {"training.seq_len", "3072"},
                    {"hardware.inter_node_bandwidth_gbps", "25"},
                    {"hardware.compute_efficiency", "0.5"}});
  const CommItem* ag = nullptr;
  for (const CommItem& c : e.comm)
    if (c.name == "fsdp") ag = &c;
  REQUIRE(ag);
  const double C = e.time.compute_s - e.time.comm_contention_s, half = ag->time_s / 2;
  REQUIRE(half > C / 3);
  REQUIRE(ag->time_s < C);  // all of it would hide behind the whole step's compute
  CHECK(ag->exposed_s == doctest::Approx(half - C / 3 + std::max(0.0, half - 2 * C / 3)).epsilon(1e-9));
}

// Expert-parallel all-to-all waits for the tokens (GShard) unless the schedule hides it behind
// another micro-batch's compute (Megatron-core's combined 1F1B, DualPipe): a forward paired with
// another micro-batch's backward, each still waiting for its own all-to-alls, and the warm-up and
// cool-down micro-batches unpaired (1F1B: min(m, pp)). Hidden, it still holds NCCL's SMs.
namespace {
double paired_exposed(const Estimate& e, double comm_s, bool splits_dw, double unpaired) {
  const Term* ct = e.trace.find("time.compute_s");
  REQUIRE(ct);
  const double m = term_input(*ct, "m"), fwd = term_input(*ct, "forward_s"), bwd = term_input(*ct, "backward_s");
  const double per_mb = comm_s / m;
  const double pair = std::max({fwd + bwd, per_mb, fwd + per_mb / 2, (splits_dw ? bwd / 2 : bwd) + per_mb / 2});
  return (m - unpaired) * (pair - fwd - bwd) + unpaired * per_mb;
}
}  // namespace

TEST_CASE("parallel.ep_overlap hides the expert all-to-all behind compute, at the SM contention price") {
  Sets base = {{"model.preset", "mixtral-8x7b"},
               {"parallel.tp", "2"},
               {"parallel.ep", "8"},
               {"hardware.gpu_count", "64"},
               {"training.global_batch_seqs", "256"},
               {"training.zero_stage", "1"}};
  Estimate waits = run(base);
  REQUIRE(find_comm(waits, "ep"));
  const CommItem a = *find_comm(waits, "ep");
  REQUIRE(a.time_s > 0);
  CHECK_FALSE(a.overlapped);
  CHECK(a.exposed_s == a.time_s);
  base.push_back({"parallel.ep_overlap", "true"});
  Estimate hidden = run(base);
  REQUIRE(find_comm(hidden, "ep"));
  const CommItem b = *find_comm(hidden, "ep");
  CHECK(b.overlapped);
  CHECK(b.time_s == doctest::Approx(a.time_s));
  REQUIRE(b.time_s < hidden.time.compute_s);
  // The expert-tensor-parallel gather/scatter (etp = tp = 2 by default) rides the same stream:
  // the two pair with the compute as one chain, each showing its share of what is left.
  REQUIRE(find_comm(hidden, "etp"));
  const CommItem etp = *find_comm(hidden, "etp");
  REQUIRE(etp.time_s > 0);
  const double chain = b.time_s + etp.time_s, shown = paired_exposed(hidden, chain, false, 1);
  CHECK(b.exposed_s == doctest::Approx(shown * b.time_s / chain).epsilon(1e-9));
  CHECK(etp.exposed_s == doctest::Approx(shown * etp.time_s / chain).epsilon(1e-9));
  const Term* term = hidden.trace.find("comm.ep_exposed_s");  // explain shows the pairing
  REQUIRE(term);
  CHECK(term->value == doctest::Approx(b.exposed_s + etp.exposed_s).epsilon(1e-12));
  CHECK(term_input(*term, "unpaired") == 1);
  CHECK(term_input(*term, "expert_tp") == etp.time_s);
  CHECK_FALSE(waits.trace.find("comm.ep_exposed_s"));
  CHECK(b.exposed_s > 0);  // the first forward and the last backward have no partner
  CHECK(b.exposed_s < 0.5 * b.time_s);
  CHECK(hidden.time.comm_contention_s - waits.time.comm_contention_s ==
        doctest::Approx((b.time_s - b.exposed_s + etp.time_s - etp.exposed_s) * 16 / 132).epsilon(1e-9));
  CHECK(hidden.time.step_s < waits.time.step_s);

  // One micro-batch has no partner at all: nothing hides.
  Sets single = base;
  single.push_back({"training.global_batch_seqs", "32"});
  const CommItem lone = *find_comm(run(single), "ep");
  CHECK(lone.exposed_s == doctest::Approx(lone.time_s).epsilon(1e-12));
}

// Which micro-batches go unpaired is the schedule's warm-up: Megatron-core's interleaved schedule
// runs (p − 1)·2 + (v − 1)·p chunk forwards on stage 0 before its first backward, and
// all-forward-all-backward runs every forward first, so nothing pairs.
TEST_CASE("EP overlap: the schedule's warm-up forwards go unpaired") {
  const Sets base = {{"model.preset", "mixtral-8x7b"},
                     {"parallel.tp", "2"},
                     {"parallel.pp", "2"},
                     {"parallel.ep", "8"},
                     {"parallel.ep_overlap", "true"},
                     {"hardware.gpu_count", "64"},
                     {"training.global_batch_seqs", "256"},
                     {"training.zero_stage", "1"}};
  const Estimate inter =
      run(with_extra(base, {{"parallel.schedule", "interleaved"}, {"parallel.virtual_stages", "2"}}));
  const Term* term = inter.trace.find("comm.ep_exposed_s");
  REQUIRE(term);
  CHECK(term_input(*term, "m") == 16);
  CHECK(term_input(*term, "unpaired") == doctest::Approx((2.0 * 1 + 1 * 2 + 1) / 2));  // 4 + 1 chunks, v = 2
  REQUIRE(find_comm(inter, "ep"));
  REQUIRE(find_comm(inter, "etp"));
  const CommItem a2a = *find_comm(inter, "ep"), etp = *find_comm(inter, "etp");
  CHECK(a2a.exposed_s + etp.exposed_s ==
        doctest::Approx(paired_exposed(inter, a2a.time_s + etp.time_s, false, 2.5)).epsilon(1e-9));

  const Estimate afab = run(with_extra(base, {{"parallel.schedule", "afab"}}));
  REQUIRE(find_comm(afab, "ep"));
  const CommItem lone = *find_comm(afab, "ep");
  CHECK(lone.exposed_s == doctest::Approx(lone.time_s).epsilon(1e-12));
  const Term* all_first = afab.trace.find("comm.ep_exposed_s");
  REQUIRE(all_first);
  CHECK(term_input(*all_first, "unpaired") == 16);
}

// Qwen3-30B-A3B with EP 16 over two H100 nodes (Megatron-Bridge's EP-overlap pair,
// validation/megatron-bridge-skills.json): its all-to-alls outlast a micro-batch's compute, and
// half of them, waited for by their own backward, outlast the forward they pair with.
TEST_CASE("EP overlap: each micro-batch waits for its own all-to-alls; zero bubble's weight gradients fill the wait") {
  const Sets qwen3 = {{"model.layers", "48"},         {"model.hidden", "2048"},
                      {"model.heads", "32"},          {"model.kv_heads", "4"},
                      {"model.head_dim", "128"},      {"model.ffn_hidden", "6144"},
                      {"model.vocab", "151936"},      {"model.experts", "128"},
                      {"model.top_k", "8"},           {"model.expert_ffn_hidden", "768"},
                      {"model.seq_len", "4096"},      {"training.global_batch_seqs", "1024"},
                      {"training.micro_batch", "1"},  {"training.zero_stage", "1"},
                      {"hardware.gpu", "h100-sxm"},   {"parallel.ep", "16"},
                      {"parallel.ep_overlap", "true"}};
  const Estimate e = run(with_extra(qwen3, {{"hardware.gpu_count", "16"}}));
  const CommItem c = *find_comm(e, "ep");
  const Term* ct = e.trace.find("time.compute_s");
  REQUIRE(ct);
  const double m = term_input(*ct, "m"), fwd = term_input(*ct, "forward_s"), bwd = term_input(*ct, "backward_s");
  const double a = c.time_s / m;
  REQUIRE(a > fwd + bwd);    // more all-to-all than compute per micro-batch
  REQUIRE(bwd + a / 2 > a);  // and the backward's chain longer still
  CHECK(c.exposed_s == doctest::Approx(paired_exposed(e, c.time_s, false, 1)).epsilon(1e-9));
  CHECK(c.exposed_s > c.time_s - m * (fwd + bwd));  // more than the whole-step overlap left

  // With tp 2 (etp 2) the experts' gather/scatter joins the same stream's chain: the compute that
  // the all-to-alls already outlast cannot hide it as well.
  const Estimate t2 = run(with_extra(qwen3, {{"hardware.gpu_count", "32"}, {"parallel.tp", "2"}}));
  REQUIRE(find_comm(t2, "ep"));
  REQUIRE(find_comm(t2, "etp"));
  const CommItem a2a = *find_comm(t2, "ep"), etp = *find_comm(t2, "etp");
  const double chain = a2a.time_s + etp.time_s;
  CHECK(a2a.exposed_s + etp.exposed_s == doctest::Approx(paired_exposed(t2, chain, false, 1)).epsilon(1e-9));
  CHECK(a2a.exposed_s + etp.exposed_s >
        1.01 * (paired_exposed(t2, a2a.time_s, false, 1) + paired_exposed(t2, etp.time_s, false, 1)));

  // The same model on 32 GPUs, two pipeline stages, zero bubble: the backward's chain is its
  // input gradients (half of it) and its all-to-alls, no longer the longest; two unpaired.
  const Estimate z = run(
      with_extra(qwen3, {{"hardware.gpu_count", "32"}, {"parallel.pp", "2"}, {"parallel.schedule", "zero_bubble"}}));
  const CommItem zc = *find_comm(z, "ep");
  CHECK(zc.exposed_s == doctest::Approx(paired_exposed(z, zc.time_s, true, 2)).epsilon(1e-9));
  CHECK(zc.exposed_s < paired_exposed(z, zc.time_s, false, 2));
}

// Megatron-core MoE with sequence parallelism: each tp rank dispatches its 1/tp of the tokens,
// and an expert's work per rank is T·top_k·ffn/tp whichever way the ranks split it (etp).
TEST_CASE("MoE: expert work per rank does not depend on etp; the all-to-all carries this rank's tokens") {
  Sets base = {{"model.preset", "mixtral-8x7b"},
               {"parallel.tp", "2"},
               {"parallel.ep", "8"},
               {"hardware.gpu_count", "64"},
               {"training.global_batch_seqs", "256"},
               {"training.seq_len", "4096"},
               {"training.zero_stage", "1"}};
  auto with = [&](const Sets& more) {
    Sets s = base;
    s.insert(s.end(), more.begin(), more.end());
    return run(s);
  };
  auto ep_item = [](const Estimate& e) {
    REQUIRE(find_comm(e, "ep"));
    return *find_comm(e, "ep");
  };
  // etp = 1: the full ffn on half the rows; etp = 2: half the ffn on all of them. Equal FLOPs; the
  // datasheet GEMM fit (overhead + FLOPs at one rate) times them within 1 %. Counting every token
  // on every tp rank with etp = 1 (the old reading) made the experts twice as slow.
  const Estimate etp1 = with({{"parallel.etp", "1"}}), etp2 = with({{"parallel.etp", "2"}});
  CHECK(etp1.time.compute_s == doctest::Approx(etp2.time.compute_s).epsilon(0.01));
  // Dispatch + combine, forward and backward: each of (tokens / tp) · top_k · hidden · 2 bytes,
  // the rank's own share of the tokens with or without sequence parallelism (Megatron-core
  // requires it; DeepSpeed-MoE splits the tokens over tp ranks itself), as the experts' rows are.
  const Estimate sp_on = with({{"training.sequence_parallel", "true"}});
  const CommItem sp = ep_item(sp_on);
  const CommItem no_sp = ep_item(with({{"training.sequence_parallel", "false"}}));
  REQUIRE(sp.calls > 0);
  CHECK(sp.bytes_per_step / sp.calls == doctest::Approx(4096.0 / 2 * 2 * 4096 * 2));
  CHECK(no_sp.bytes_per_step == sp.bytes_per_step);
  // 32 layers on one stage, 256 / (32 dp · 1) = 8 micro-batches: 4 all-to-alls per layer each.
  CHECK(sp.calls == 32 * 8 * 4);
  // With etp = tp = 2 the experts' shards all-gather the received copies and reduce-scatter the
  // outputs (one pair forward, one backward), and the MLP's own tp pair is gone: the tensor-
  // parallel collectives are the attention's alone, 2 per layer and micro-batch.
  const CommItem* etp = find_comm(sp_on, "etp");
  const CommItem* tp = find_comm(sp_on, "tp");
  REQUIRE(etp);
  REQUIRE(tp);
  CHECK(etp->calls == 32 * 8 * 2);
  CHECK(etp->bytes_per_step / etp->calls == doctest::Approx(4096.0 / 2 * 2 * 2 * 4096 * 2));
  CHECK(tp->calls == 32 * 8 * 2);
  CHECK(ep_item(etp1).calls > 0);
  CHECK_FALSE(find_comm(etp1, "etp"));
}

TEST_CASE("an MFU higher than the layout allows is flagged") {
  Estimate e = run({{"model.preset", "llama3.1-70b"},
                    {"parallel.tp", "8"},
                    {"parallel.pp", "8"},
                    {"hardware.gpu_count", "64"},
                    {"training.global_batch_seqs", "8"},
                    {"hardware.mfu", "1.0"},
                    {"hardware.inter_node_bandwidth_gbps", "0.01"}});
  bool warned = false;
  for (const std::string& w : e.warnings) warned |= contains(w, "leaves no time for compute");
  CHECK(warned);
}

TEST_CASE("cost, GPU-hours and energy follow the step time") {
  Estimate e = run({{"model.preset", "llama3.1-8b"},
                    {"hardware.gpu_count", "8"},
                    {"hardware.mfu", "0.4"},
                    {"training.tokens", "1e11"},
                    {"hardware.price_per_gpu_hour_usd", "2"}});
  CHECK(e.time.gpu_hours == doctest::Approx(e.flops.model_total / (8 * 989.4e12 * 0.4) * 8 / 3600).epsilon(1e-12));
  CHECK(e.time.cost_usd == doctest::Approx(2 * e.time.gpu_hours));
  CHECK(e.time.energy_kwh == doctest::Approx(0.7 * e.time.gpu_hours));
}

// Every time carries a range (issue 5): the step's 68 % bounds, carried to the run's days
// and cost; a user-given MFU fixes the step, so there the range is the value.
TEST_CASE("time: the step's error bar is carried to total days and cost; a given MFU has none") {
  const Estimate e = run({{"model.preset", "llama3.1-8b"}, {"hardware.gpu_count", "64"}, {"training.tokens", "1e12"}});
  const TimeEstimate& t = e.time;
  REQUIRE(t.step_low_s < t.step_s);
  REQUIRE(t.step_high_s > t.step_s);
  CHECK(t.total_days_low == doctest::Approx(t.steps * t.step_low_s / 86400).epsilon(1e-12));
  CHECK(t.total_days_high == doctest::Approx(t.steps * t.step_high_s / 86400).epsilon(1e-12));
  CHECK(t.total_days_low < t.total_days);
  CHECK(t.total_days_high > t.total_days);
  // cost scales with time: the bounds are the cost at the bounds
  CHECK(t.cost_usd_low == doctest::Approx(t.cost_usd * t.step_low_s / t.step_s).epsilon(1e-9));
  CHECK(t.cost_usd_high == doctest::Approx(t.cost_usd * t.step_high_s / t.step_s).epsilon(1e-9));
  REQUIRE(e.trace.find("time.cost_usd_high"));
  const Estimate given = run({{"model.preset", "llama3.1-8b"}, {"hardware.gpu_count", "64"}, {"hardware.mfu", "0.4"}});
  CHECK(given.time.step_low_s == given.time.step_s);
  CHECK(given.time.step_high_s == given.time.step_s);
  CHECK(given.time.total_days_low == doctest::Approx(given.time.total_days).epsilon(1e-12));
  CHECK(given.trace.find("time.step_high_s"));  // the range's source is traced in every basis
  const Estimate flat =
      run({{"model.preset", "llama3.1-8b"}, {"hardware.gpu_count", "64"}, {"hardware.compute_efficiency", "0.5"}});
  CHECK(flat.time.step_high_s ==
        doctest::Approx(flat.time.step_s * error_bar("multi-node, dense").high).epsilon(1e-12));
  CHECK(flat.trace.find("time.step_low_s"));
}

TEST_CASE("selective_op is refused for MoE, biased and size-only models, naming the field") {
  const Error moe = run_error(
      {{"model.preset", "mixtral-8x7b"}, {"hardware.gpu_count", "8"}, {"training.recompute", "selective_op"}});
  CHECK(moe.field == "training.recompute");
  CHECK(moe.message.find("MoE") != std::string::npos);
  // GPT-3 has linear biases: aten.addmm, which torchtitan's policy neither counts nor saves.
  const Error biased = run_error({{"model.preset", "gpt3-175b"},
                                  {"parallel.tp", "8"},
                                  {"hardware.gpu_count", "8"},
                                  {"training.recompute", "selective_op"}});
  CHECK(biased.field == "training.recompute");
  CHECK(biased.message.find("linear biases") != std::string::npos);
  const Error size_only = run_error({{"model.params", "7e9"}, {"training.recompute", "selective_op"}});
  CHECK(size_only.field == "training.recompute");
  CHECK(size_only.message.find("model shape") != std::string::npos);
}
