// Every convention (llmc_validate/conventions.h): the source's count, and llmcalc's predicted
// step time put into it, worked out by hand from the row's own step time.
#include <doctest/doctest.h>

#include <set>

#include "llmc/estimate.h"
#include "llmc_validate/conventions.h"
#include "llmc_validate/markdown.h"
#include "validate_helpers.h"

using namespace llmc;
using namespace llmc::test;
using validate::find_convention;
using validate::flop_conventions;

namespace {

// training_record() measured under `convention` (its metric and unit from the table).
nlohmann::json under(const std::string& convention, double value,
                     const nlohmann::json& patch = nlohmann::json::object()) {
  const validate::FlopConvention* c = find_convention(convention);
  REQUIRE(c != nullptr);
  nlohmann::json rec = training_record(
      {{"measured", {{"metric", c->metric}, {"value", value}, {"unit", c->unit}, {"convention", convention}}}});
  rec.merge_patch(patch);
  return rec;
}

// Llama 2 13B on 64 GPUs, 64 sequences of 4,096 tokens per step.
constexpr double kTokens = 64.0 * 4096, kGpus = 64;

}  // namespace

TEST_CASE("conventions: one row each, every column filled, ids unique") {
  std::set<std::string> ids;
  for (const validate::FlopConvention& c : flop_conventions()) {
    CAPTURE(c.id);
    CHECK(ids.insert(c.id).second);
    CHECK_FALSE(c.source.empty());
    CHECK_FALSE(c.metric.empty());
    CHECK_FALSE(c.unit.empty());
    CHECK_FALSE(c.formula.empty());
    CHECK_FALSE(c.conversion.empty());
    CHECK(c.time_metric == (c.unit == "s"));
  }
  CHECK(ids.size() == 19);
}

TEST_CASE("conventions: Megatron-LM's eq. 3 gives Table 1's aggregate and counts llmcalc's hardware FLOPs") {
  // 1.7B: B = 512, s = 2048, l = 24, h = 2304, V = 51200.
  const double f = validate::megatron2021_flops_per_step(512, 2048, 24, 2304, 51200);
  const double by_hand =
      96.0 * 512 * 2048 * 24 * 2304.0 * 2304.0 * (1 + 2048.0 / (6 * 2304) + 51200.0 / (16 * 24 * 2304));
  CHECK(f == doctest::Approx(by_hand).epsilon(1e-12));
  // Fed the measured 137 TFLOP/s on 32 GPUs, the step time gives back the printed 4.4 PFLOP/s.
  const double step = f / (137e12 * 32);
  CHECK(f / step / 1e15 == doctest::Approx(4.4).epsilon(0.01));
  // Eq. 3 counts the same work as llmcalc's hardware FLOPs (4 forward passes with full
  // recompute, unhalved attention without a fused kernel): within 2% (it drops biases, norms
  // and the position embedding).
  const Estimate e = run({{"model.preset", "narayanan2021-1.7b"},
                          {"hardware.gpu", "a100-sxm-80gb"},
                          {"hardware.gpu_count", "32"},
                          {"training.micro_batch", "16"},
                          {"training.global_batch_seqs", "512"},
                          {"training.recompute", "full"},
                          {"training.flash_attention", "false"},
                          {"training.causal_attention_flops", "false"},
                          {"training.precision", "fp16_mixed"}});
  CHECK(e.flops.hardware_per_token * 512 * 2048 == doctest::Approx(f).epsilon(0.02));
  // The row: eq. 3 over the predicted step and the GPUs.
  const ValidationRow x = row(run_text(public_json()), "narayanan2021_table1_1.7B");
  CHECK(x.convention == "megatron2021");
  CHECK(x.predicted == doctest::Approx(f / (x.step_s * 32) / 1e12).epsilon(1e-12));
}

TEST_CASE("conventions: Megatron-DeepSpeed counts 4 forward passes with checkpointing, 3 without") {
  const ValidationRow full =
      only_row(under("megatron_deepspeed", 150, {{"scenario", {{"training", {{"recompute", "full"}}}}}}));
  const ValidationRow none =
      only_row(under("megatron_deepspeed", 150, {{"scenario", {{"training", {{"recompute", "none"}}}}}}));
  const ValidationRow sel =
      only_row(under("megatron_deepspeed", 150, {{"scenario", {{"training", {{"recompute", "selective"}}}}}}));
  const double f = validate::megatron2021_flops_per_step(64, 4096, 40, 5120, 32000);
  CHECK(full.predicted == doctest::Approx(f / (full.step_s * kGpus) / 1e12).epsilon(1e-12));
  CHECK(sel.predicted == doctest::Approx(f / (sel.step_s * kGpus) / 1e12).epsilon(1e-12));
  CHECK(none.predicted == doctest::Approx(0.75 * f / (none.step_s * kGpus) / 1e12).epsilon(1e-12));
  // Left to the rule, the factor follows the rule's choice, and the row says so.
  const ValidationRow searched = only_row(under("megatron_deepspeed", 150, {{"unpublished", {"training.recompute"}}}));
  CHECK(has_note(searched, "the FLOP count's factor follows the rule's choice"));
}

TEST_CASE("conventions: Llama 3's model FLOPs, FlashAttention-2's 6·s·N + 12·L·h·s²") {
  const ValidationRow l3 = only_row(under("llama3", 400));
  const Estimate e = run_scenario(l3.scenario);
  CHECK(l3.predicted == doctest::Approx(e.flops.model_per_token * kTokens / (l3.step_s * kGpus) / 1e12).epsilon(1e-12));
  CHECK(has_note(l3, "with PaLM's unhalved attention FLOPs"));
  // FlashAttention-2 Table 1 per sequence for GPT3-1.3B at 2k (N = 1.3e9): 1.6e13 + 2.47e12.
  CHECK(validate::flashattention2_flops_per_seq(2048, 1.3e9, 24, 2048) ==
        doctest::Approx(6.0 * 2048 * 1.3e9 + 12.0 * 24 * 2048 * 2048.0 * 2048));
  const ValidationRow fa2 = only_row(under("flashattention2", 180));
  const double per_seq = validate::flashattention2_flops_per_seq(4096, e.params.total, 40, 5120);
  CHECK(fa2.predicted == doctest::Approx(per_seq * 64 / (fa2.step_s * kGpus) / 1e12).epsilon(1e-12));
}

TEST_CASE("conventions: times and rates need no FLOP count; a time's error is that of throughput") {
  for (const char* id : {"korthikanti2022", "step_time"}) {
    CAPTURE(id);
    const ValidationRow t = only_row(under(id, 10.0));
    CHECK(t.status == "compared");
    CHECK(t.in_mae);
    CHECK(t.predicted == t.step_s);
    CHECK(t.error == doctest::Approx(10.0 / t.predicted - 1).epsilon(1e-12));  // + = predicted faster, as everywhere
  }
  const ValidationRow per_gpu = only_row(under("tokens_per_gpu", 2000));
  CHECK(per_gpu.predicted == doctest::Approx(kTokens / (per_gpu.step_s * kGpus)).epsilon(1e-12));
  CHECK(per_gpu.error == doctest::Approx((per_gpu.predicted - 2000) / 2000).epsilon(1e-12));
  const ValidationRow job = only_row(under("tokens_per_s", 100000));
  CHECK(job.predicted == doctest::Approx(kTokens / job.step_s).epsilon(1e-12));
  const ValidationRow samples = only_row(under("samples_per_s", 30));
  CHECK(samples.predicted == doctest::Approx(64 / samples.step_s).epsilon(1e-12));
  CHECK(run_text(file_of(under("samples_per_s", 30))).summary.throughput.rows == 1);
}

TEST_CASE("conventions: an unknown FLOP count's TFLOP/s or MFU is shown, outside every target") {
  const ValidationReport rate = run_text(file_of(under("tflops_unknown", 140)));
  const ValidationRow& d = rate.rows.at(0);
  CHECK(d.status == "shown");
  CHECK_FALSE(d.in_mae);
  CHECK(rate.summary.throughput.rows == 0);
  CHECK(rate.summary.shown.rows == 1);
  const Estimate e = run_scenario(d.scenario);
  CHECK(d.predicted ==
        doctest::Approx(e.flops.hardware_per_token * kTokens / (d.step_s * kGpus) / 1e12).epsilon(1e-12));
  const ValidationRow mfu = only_row(under("mfu_unknown", 0.45));
  CHECK(mfu.status == "shown");
  CHECK(mfu.predicted == doctest::Approx(e.time.mfu).epsilon(1e-12));
  CHECK(mfu.predicted > 0.2);
  CHECK(mfu.predicted < 0.7);
}

TEST_CASE("conventions: whole-run GPU-hours and days need the run's tokens") {
  for (const char* id : {"gpu_hours", "training_days"}) {
    CAPTURE(id);
    const ValidationRow missing = only_row(under(id, 1000));
    CHECK(missing.status == "skipped");
    CHECK(missing.skip_field == "scenario.training.tokens");
    const ValidationRow x = only_row(under(id, 1000, {{"scenario", {{"training", {{"tokens", 2e11}}}}}}));
    CHECK(x.status == "shown");
    const Estimate e = run_scenario(x.scenario);
    CHECK(x.predicted ==
          doctest::Approx(std::string(id) == "gpu_hours" ? e.time.gpu_hours : e.time.total_days).epsilon(1e-12));
    CHECK(x.predicted > 0);
  }
}

TEST_CASE("conventions: the ZeRO figure's model states, exactly") {
  ValidateOptions opt;
  opt.only_prefix = "zero_paper";
  const ValidationReport r = run_text(public_json(), opt);
  REQUIRE(r.summary.memory.rows == 4);
  const double psi = 7.5e9, nd = 64;
  struct {
    const char* id;
    double exact_gb;
  } stages[] = {{"zero_paper_fig1_7p5B_64gpu_baseline", 16 * psi / 1e9},
                {"zero_paper_fig1_7p5B_64gpu_zero1", (4 * psi + 12 * psi / nd) / 1e9},
                {"zero_paper_fig1_7p5B_64gpu_zero2", (2 * psi + 14 * psi / nd) / 1e9},
                {"zero_paper_fig1_7p5B_64gpu_zero3", 16 * psi / nd / 1e9}};
  for (const auto& st : stages) {
    const ValidationRow& x = row(r, st.id);
    INFO(st.id << ": predicted " << x.predicted << ", printed " << x.measured);
    CHECK(x.convention == "model_states");
    CHECK(x.predicted == doctest::Approx(st.exact_gb).epsilon(1e-9));  // the paper's formula, exactly
    // Within 1% of the printed figure, except where the print's own rounding is larger (1.875 → "1.9").
    CHECK(std::fabs(x.error) <= std::max(0.01, 0.05 / x.measured));
  }
}

// A peak memory is compared with the part of llmcalc's memory.per_gpu the source's counter sees:
// PyTorch's max allocated has neither the CUDA context nor the allocator's reserve, its max
// reserved has the reserve, device memory has both.
TEST_CASE("conventions: peak memory per GPU by the counter the source read, in its own summary group") {
  auto peak = [](const char* kind, double gib) {
    return under("peak_memory", gib,
                 {{"measured", {{"memory_kind", kind}}},
                  {"scenario", {{"hardware", {{"cuda_context_gib", 0.75}, {"fragmentation_fraction", 0.1}}}}}});
  };
  const ValidationRow allocated = only_row(peak("allocated", 30));
  const ValidationRow reserved = only_row(peak("reserved", 30));
  const ValidationRow device = only_row(peak("device", 30));
  for (const ValidationRow* x : {&allocated, &reserved, &device}) {
    CAPTURE(x->memory_kind);
    CHECK(x->status == "compared");
    CHECK(x->kind == "peak_memory");
    CHECK_FALSE(x->in_mae);
    CHECK(x->error == doctest::Approx((x->predicted - 30) / 30).epsilon(1e-12));  // + = llmcalc predicts more memory
    CHECK(has_note(*x, "peak memory, " + x->memory_kind + ": total "));
  }
  const Estimate e = run_scenario(device.scenario);
  const double gib = 1073741824.0;
  CHECK(e.mem.cuda_context_bytes == doctest::Approx(0.75 * gib));
  CHECK(e.mem.fragmentation_bytes >
        1.0 * gib);  // 10 % of what is allocated: the three counters differ by more than rounding
  CHECK(device.predicted == doctest::Approx(e.mem.total_bytes / gib).epsilon(1e-12));
  // PyTorch's two counters see neither the context nor NCCL's buffers; nvidia-smi sees both.
  const double pool = e.mem.total_bytes - e.mem.cuda_context_bytes - e.mem.comm_buffers_bytes;
  CHECK(e.mem.comm_buffers_bytes > 0);
  CHECK(reserved.predicted == doctest::Approx(pool / gib).epsilon(1e-12));
  CHECK(allocated.predicted == doctest::Approx((pool - e.mem.fragmentation_bytes) / gib).epsilon(1e-12));
  CHECK(
      allocated.predicted ==
      doctest::Approx((e.mem.model_states_bytes + e.mem.activations_bytes + e.mem.logits_bytes) / gib).epsilon(1e-12));
  CHECK(validate::peak_memory_gib(e.mem, "reserved") == reserved.predicted);

  // Its own group: not in the throughput targets, not in the family's time rows, a column of its own.
  const ValidationReport r =
      run_text(nlohmann::json::array({peak("reserved", 30), training_record({{"id", "t"}})}).dump());
  CHECK(r.summary.peak_memory.rows == 1);
  CHECK(r.summary.throughput.rows == 1);
  CHECK(r.summary.shown.rows == 0);
  REQUIRE(r.summary.families.size() == 1);
  CHECK(r.summary.families[0].all.rows == 1);
  CHECK(r.summary.families[0].peak_memory.rows == 1);
  CHECK(r.summary.families[0].peak_memory.mae == doctest::Approx(std::fabs(r.rows[0].error)));
  CHECK(contains(validate::markdown_families(r), "| peak-memory rows | peak-memory MAE |"));
  CHECK(contains(validate::summary_lines(r.summary).back(), "peak memory per GPU: 1 rows"));
  const nlohmann::json j = nlohmann::json::parse(validate::validation_to_json(r));
  CHECK(j["summary"]["peak_memory"]["rows"] == 1);
  CHECK(j["summary"]["families"][0]["peak_memory"]["rows"] == 1);
  CHECK(j["rows"][0]["memory_kind"] == "reserved");
  CHECK_FALSE(j["rows"][1].contains("memory_kind"));
}
