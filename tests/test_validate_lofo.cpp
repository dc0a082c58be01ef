// Leave one family out (llmc_validate/lofo.h) and the error bars core makes of it
// (llmc/error_bars.h): the fit per held-out family, the out-of-sample errors, the percentiles.
#include <cmath>
#include <filesystem>

#include "llmc/catalog.h"
#include "llmc/error_bars.h"
#include "llmc_validate/lofo.h"
#include "validate_helpers.h"

using namespace llmc;
using namespace llmc::test;

namespace {

// A stand-in for validating records at a fraction: each family's one row is exact at its own
// fraction f0 and off elsewhere by ln(measured / predicted) = 10 (f − f0)², so a fit over several
// families lands on the mean of their f0 (one minimum, no ties). With `gpu`, every row is on it
// and each family has `copies` such rows.
validate::FractionRun synthetic(const std::vector<std::pair<std::string, double>>& families, const char* gpu = nullptr,
                                int copies = 1) {
  return [families, gpu, copies](double f) -> Result<ValidationReport> {
    ValidationReport r;
    for (const auto& [family, f0] : families)
      for (int i = 0; i < copies; ++i) {
        ValidationRow x;
        x.id = family + "_run" + (i ? std::to_string(i) : "");
        if (gpu) x.scenario.hardware.gpu = *find_gpu(gpu);
        x.family = family;
        x.kind = "training_run";
        x.status = "compared";
        x.in_mae = true;
        x.regime = "multi-node, dense";
        x.scenario.hardware.gpu_count = 64;
        x.error = std::expm1(10 * (f - f0) * (f - f0));
        r.rows.push_back(x);
      }
    ValidationRow kernel;  // kernel and skipped rows take no part
    kernel.id = "kernel", kernel.family = "k", kernel.kind = "kernel_gemm", kernel.status = "compared",
    kernel.kernel = true, kernel.error = 5;
    r.rows.push_back(kernel);
    return r;
  };
}

}  // namespace

TEST_CASE("leave one family out: each family is predicted with the fraction fitted on the others") {
  // Families exact at 0.6, 0.7 and 0.8: all three fit 0.7; without a, 0.75; without b, 0.7; without c, 0.65.
  const std::vector<double> grid = {0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9};
  Result<validate::LofoReport> r =
      validate::leave_one_family_out(synthetic({{"a", 0.6}, {"b", 0.7}, {"c", 0.8}}), grid);
  REQUIRE(r.ok());
  CHECK(r->fraction == 0.7);
  REQUIRE(r->families.size() == 3);
  REQUIRE(r->rows.size() == 3);  // the kernel row is not one
  CHECK(r->families[0].fraction == 0.75);
  CHECK(r->families[1].fraction == 0.7);
  CHECK(r->families[2].fraction == 0.65);
  const double off = std::expm1(10 * 0.15 * 0.15);  // 0.15 from its own f0
  CHECK(r->rows[0].lofo == doctest::Approx(off).epsilon(1e-12));
  CHECK(r->rows[1].lofo == doctest::Approx(0).epsilon(1e-12));
  CHECK(r->rows[2].lofo == doctest::Approx(off).epsilon(1e-12));
  CHECK(r->rows[0].in_sample == doctest::Approx(std::expm1(10 * 0.1 * 0.1)).epsilon(1e-12));
  CHECK(r->lofo_mae == doctest::Approx(2 * off / 3).epsilon(1e-12));
  CHECK(r->lofo_bias == doctest::Approx(2 * off / 3).epsilon(1e-12));
  CHECK(r->lofo_median == doctest::Approx(off).epsilon(1e-12));
  // Bars: the 16th and 84th percentiles of ln(measured / predicted), interpolated over the rows.
  REQUIRE(r->bars.size() == 3);  // all, multi-node, multi-node dense
  CHECK(r->bars[0].regime == "all");
  CHECK(r->bars[1].regime == "multi-node");
  CHECK(r->bars[2].regime == "multi-node, dense");
  const double q16 = 0.32 * 0.225, q84 = 0.225;  // logs sorted: 0, 0.225, 0.225
  CHECK(r->bars[0].low == doctest::Approx(std::exp(q16)).epsilon(1e-12));
  CHECK(r->bars[0].high == doctest::Approx(std::exp(q84)).epsilon(1e-12));
  CHECK(r->bars[0].rows == 3);
  CHECK(r->bars[0].max_gpus == 64);
  // Coverage with bars made without each row's family: a's +25 % lies above the [1, e^(0.84·0.225)]
  // of b and c, b's 0 inside a and c's [1, 1.25], c's like a's: one of three.
  CHECK(r->coverage == doctest::Approx(1.0 / 3));
  const std::string md = validate::markdown_lofo(*r);
  CHECK(md.find("| a | 1 | 0.75 | 10.5 % | 25.2 % | +25.2 % |") != std::string::npos);
  const std::string cpp = validate::error_bars_source(*r);
  CHECK(cpp.find("{\"all\", 3, 1.0747, 1.2523, 64},") != std::string::npos);
  CHECK(cpp.find("3 step-time records of 3 source families") != std::string::npos);
  CHECK(cpp.find("fitted on all: pooled 0.70\"") != std::string::npos);
  // One family cannot be left out of anything; no grid, no fit.
  CHECK(!validate::leave_one_family_out(synthetic({{"a", 0.6}}), grid).ok());
  CHECK(!validate::leave_one_family_out(synthetic({{"a", 0.6}, {"b", 0.7}}), {}).ok());
}

TEST_CASE("leave one family out: an architecture with rows of enough families gets its own fraction") {
  // Three families' Blackwell rows, 3 each (9 ≥ kMinRegimeRows), exact at 0.5, 0.55 and 0.6:
  // fitted on their own rows, 0.55 on all, without one the mean of the other two; with two
  // families only (fewer than kMinArchFamilies) the pooled fit stands.
  const std::vector<double> grid = {0.5, 0.525, 0.55, 0.575, 0.6, 0.65, 0.7};
  auto merged = [](std::vector<validate::FractionRun> runs) -> validate::FractionRun {
    return [runs](double f) -> Result<ValidationReport> {
      ValidationReport all;
      for (const validate::FractionRun& run : runs) {
        Result<ValidationReport> r = run(f);
        all.rows.insert(all.rows.end(), r->rows.begin(), r->rows.end());
      }
      return all;
    };
  };
  Result<validate::LofoReport> r = validate::leave_one_family_out(
      merged({synthetic({{"x", 0.5}, {"y", 0.55}, {"z", 0.6}}, "b200", 3), synthetic({{"h", 0.7}}, "h100-sxm")}), grid);
  REQUIRE(r.ok());
  REQUIRE(r->arches.size() == 2);
  CHECK(r->arches[0].arch == "blackwell");
  CHECK(r->arches[0].own);
  CHECK(r->arches[0].fraction == 0.55);
  CHECK(r->arches[0].rows == 9);
  CHECK(r->arches[0].families == 3);
  CHECK(r->arches[1].arch == "hopper");
  CHECK_FALSE(r->arches[1].own);  // one family: the pooled fraction
  CHECK(r->arches[1].fraction == r->fraction);
  // Left out, a Blackwell family sees two families of its architecture: the pooled fit.
  for (const validate::LofoFamily& f : r->families) {
    CAPTURE(f.family);
    REQUIRE(f.arch_fractions.size() == 1);
    CHECK_FALSE(f.arch_fractions[0].own);
    CHECK(f.arch_fractions[0].fraction == f.fraction);
  }
  // Four Blackwell families: left out, each is predicted at the others' own fit.
  Result<validate::LofoReport> four =
      validate::leave_one_family_out(synthetic({{"w", 0.5}, {"x", 0.5}, {"y", 0.6}, {"z", 0.6}}, "b200", 3), grid);
  REQUIRE(four.ok());
  CHECK(four->families[0].arch_fractions[0].own);
  CHECK(four->families[0].arch_fractions[0].fraction == 0.575);  // x, y, z: mean of 0.5, 0.6, 0.6
  CHECK(four->rows[0].lofo == doctest::Approx(std::expm1(10 * 0.075 * 0.075)).epsilon(1e-12));
}

TEST_CASE("error bars: a regime with few validated runs borrows a broader regime's bar, else all runs'") {
  const std::vector<ErrorBar>& bars = error_bars();
  REQUIRE(!bars.empty());
  CHECK(bars.front().regime == "all");
  CHECK(bars.front().rows >= kMinRegimeRows);
  for (const ErrorBar& b : bars) {
    CHECK(b.low <= b.high);
    CHECK(b.low > 0);
    const ErrorBar& got = error_bar(b.regime);
    if (b.rows >= kMinRegimeRows)
      CHECK(got.regime == b.regime);
    else
      CHECK(got.regime != b.regime);
  }
  CHECK(error_bar("no such regime").regime == "all");
  // The step's range in the compute_efficiency basis is the bar itself (no kernel spread).
  const Estimate flat =
      run({{"model.preset", "llama3.1-8b"}, {"hardware.gpu_count", "64"}, {"hardware.compute_efficiency", "0.5"}});
  CHECK(error_regime(flat.r) == "multi-node, dense");
  const ErrorBar& b = error_bar("multi-node, dense");
  CHECK(flat.time.step_high_s == doctest::Approx(flat.time.step_s * std::max(1.0, b.high)).epsilon(1e-12));
  CHECK(flat.time.step_low_s == doctest::Approx(flat.time.step_s * std::max(0.1, std::min(1.0, b.low))).epsilon(1e-12));
  const Estimate moe_one = run({{"model.preset", "mixtral-8x7b"}, {"hardware.gpu_count", "8"}, {"parallel.ep", "8"}});
  CHECK(error_regime(moe_one.r) == "1 node, MoE, expert parallel");
  // Each comma-separated prefix is a broader regime; a narrow one with few runs borrows the
  // longest prefix that has enough.
  CHECK(regime_and_prefixes("multi-node, MoE, expert parallel, context parallel") ==
        std::vector<std::string>{"multi-node, MoE, expert parallel, context parallel",
                                 "multi-node, MoE, expert parallel", "multi-node, MoE", "multi-node", "all"});
  const std::vector<ErrorBar> made = {{"all", 30, 0.8, 1.2, 64},
                                      {"multi-node", 20, 0.85, 1.15, 64},
                                      {"multi-node, dense", 9, 0.9, 1.1, 64},
                                      {"multi-node, dense, context parallel", 3, 0.5, 2.0, 64}};
  CHECK(pick_error_bar(made, "multi-node, dense, context parallel").regime == "multi-node, dense");
  CHECK(pick_error_bar(made, "multi-node, MoE, expert parallel").regime == "multi-node");
  CHECK(pick_error_bar(made, "1 GPU, dense").regime == "all");
  const Estimate cp = run({{"model.preset", "llama3.1-8b"},
                           {"hardware.gpu_count", "16"},
                           {"parallel.cp", "2"},
                           {"training.seq_len", "16384"}});
  CHECK(error_regime(cp.r) == "multi-node, dense, context parallel");
}

// The records themselves: the fractions core ships are the ones the fit picks on every family
// (pooled, and per architecture), each family left out picks the pooled one or a grid step beside
// it (without torchtitan's two B200 rows, 0.76), and the out-of-sample error is pinned where it is
// (it fails if it grows): 13.1 % mean absolute, +2.9 % bias over 323 step-time rows of 27 families
// (first look, before issue 28's mechanisms and this fit: 37 % and +33 %). The error-bar table core compiles
// is made from the same rows (scripts/test.sh checks it is regenerated unchanged).
TEST_CASE("leave one family out on validation/: the shipped fraction, the pinned out-of-sample error") {
  std::vector<std::string> texts;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(LLMC_SOURCE_DIR) + "/validation")) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() == ".json" && name.rfind("first-look", 0) != 0) texts.push_back(validation_file(name));
  }
  REQUIRE(texts.size() >= 28);
  auto run = [&](double f) -> Result<ValidationReport> {
    ValidationReport all;
    ValidateOptions opt;
    opt.datasheet_gemm_mamf_fraction = f;
    for (const std::string& t : texts) {
      Result<ValidationReport> r = validate::validate_records(t, opt);
      if (!r) return r.error();
      all.rows.insert(all.rows.end(), r->rows.begin(), r->rows.end());
    }
    return all;
  };
  Result<validate::LofoReport> r = validate::leave_one_family_out(run, validate::default_lofo_grid());
  REQUIRE(r.ok());
  CHECK(r->fraction == 0.74);  // core/src/inputs/datasheet.h kDatasheetGemmMamfFraction
  // Per architecture, what core ships (datasheet_gemm_mamf_fraction): each fitted on its own rows.
  REQUIRE(r->arches.size() == 3);
  for (const auto& [arch, gpu] :
       {std::pair{"ampere", "a100-sxm-80gb"}, {"blackwell", "b200"}, {"hopper", "h100-sxm"}}) {
    const validate::ArchFraction* a = nullptr;
    for (const validate::ArchFraction& x : r->arches)
      if (x.arch == arch) a = &x;
    REQUIRE(a);
    CHECK(a->own);
    CHECK(a->fraction == datasheet_gemm_mamf_fraction(*find_gpu(gpu)));
  }
  for (const validate::LofoFamily& f : r->families) {
    CAPTURE(f.family);
    CHECK(std::fabs(f.fraction - 0.74) <= 0.02 + 1e-9);
  }
  CHECK(r->families.size() == 28);
  CHECK(r->rows.size() == size_t(error_bars().front().rows));
  INFO("LOFO MAE " << r->lofo_mae << ", bias " << r->lofo_bias << ", median " << r->lofo_median);
  // 11.9 %, 7.9 % and +2.9 % over 325 rows of 28 families since Megatron-Bridge's EP-overlap pair
  // (Hopper's fraction 0.74 -> 0.72, 2026-12-02); 11.8 %, 7.5 % and +3.2 % over 323 rows since
  // Qwen3-30B-A3B's H100 rows overlap their expert
  // all-to-alls as their configs do (2026-12-02; 11.3 % with AMD's FP8 GEMMs at their bf16 share
  // before); 11.6 %, 7.6 % and +3.1 % since InternEvo's per-rank broadcasts (2026-12-01);
  // 11.7 % with async TP's unfused rowwise all-gathers and NeMo 24.07's interleaved fine-tuning,
  // 12.0 % with FlexAttention's rows, 11.9 % once
  // KempnerForge's, MLPerf 405B's and torchtune's 2 x 4090 configurations were read, the same
  // day; 12.1 %, 7.5 % and +3.4 % before (overlapped
  // pipeline sends, NeMo 24.07's TP overlap, FSDP2's copy-out, batch-first sequence parallelism); 12.5 %, 8.0 % and
  // +3.9 % since 2026-11-28 (DeepEP's dispatch, sliding windows,
  // the TP-overlap judgments); 13.1 %, 8.3 % and +2.9 % since the fraction is fitted per architecture; 13.7 %,
  // 8.9 %, +3.9 % pooled, since InternEvo's ZeRO-1 waits for its parameter broadcast
  // (param_gather_overlap false on its 8 rows); 13.8 %, 9.0 %, +4.0 % before that.
  CHECK(r->lofo_mae <= 0.119);
  CHECK(r->lofo_median <= 0.08);
  CHECK(std::fabs(r->lofo_bias) <= 0.04);
  // The 68 % ranges cover about two thirds of the rows out of sample (the goal).
  CHECK(r->coverage >= 0.60);
  CHECK(r->coverage <= 0.80);
  // Peak memory fits nothing, so in sample is out of sample: 9.3 % over 66 rows since PyTorch
  // pipelining's buffers (2026-12-02); 9.8 % since 2026-12-01
  // (KempnerForge's whole fp32 gradients and bf16 loss, MLPerf 405B's bf16 gradients, PyTorch's
  // loss_parallel), 12.5 % before; the goal is 8 %.
  Result<ValidationReport> shipped = run(0.74);
  REQUIRE(shipped.ok());
  double abs_sum = 0;
  int memory_rows = 0;
  for (const ValidationRow& x : shipped->rows)
    if (x.kind == "peak_memory") abs_sum += std::fabs(x.error), ++memory_rows;
  CHECK(memory_rows == 66);
  INFO("peak memory MAE " << abs_sum / memory_rows);
  CHECK(abs_sum / memory_rows <= 0.094);
}
