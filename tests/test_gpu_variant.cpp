// GPU variants (hardware.memory_gib, hbm_tbps, power_limit_w): another memory size or bandwidth
// of the same chip, and a lowered power limit, applied to the datasheet profile.
#include <cmath>

#include "test_util.h"

using namespace llmc;
using namespace llmc::test;

namespace {
const Sets kBase = {{"model.preset", "llama3.1-8b"}, {"hardware.gpu_count", "8"}, {"training.global_batch_seqs", "8"}};
Sets with(Sets s, const std::string& k, const std::string& v) {
  s.push_back({k, v});
  return s;
}
}  // namespace

TEST_CASE("GPU variant: memory size and HBM bandwidth of the same chip") {
  const Estimate base = run(kBase);
  const Estimate big = run(with(kBase, "hardware.memory_gib", "96"));
  CHECK(big.mem.capacity_bytes == doctest::Approx(96.0 * 1024 * 1024 * 1024));
  CHECK(big.time.step_s == base.time.step_s);
  // HBM2e at 2.4 TB/s instead of HBM3's 3.35: memory-bound kernels slow by 3.35 / 2.4, GEMMs do not.
  const Estimate hbm2e = run(with(kBase, "hardware.hbm_tbps", "2.4"));
  CHECK(hbm2e.time.gemm_s == doctest::Approx(base.time.gemm_s).epsilon(1e-3));
  CHECK(hbm2e.time.memory_bound_s > 1.2 * base.time.memory_bound_s);
}

TEST_CASE("GPU variant: a lowered power limit slows compute by the cube root of the power ratio") {
  const Estimate base = run(kBase);
  const Estimate capped = run(with(kBase, "hardware.power_limit_w", "500"));  // H100 SXM's TDP is 700 W
  const double clock = std::cbrt(500.0 / 700.0);                              // 0.894
  CHECK(capped.r.s.hardware.gpu.clock_ratio == doctest::Approx(clock).epsilon(1e-12));
  // Large GEMMs are compute-bound: their time grows by 1/clock (launch costs aside).
  CHECK(capped.time.gemm_s / base.time.gemm_s == doctest::Approx(1 / clock).epsilon(0.01));
  CHECK(capped.time.memory_bound_s == doctest::Approx(base.time.memory_bound_s));  // HBM is not the SMs' clock
  CHECK(capped.time.energy_kwh / capped.time.gpu_hours == doctest::Approx(0.5));   // kWh per GPU-hour at 500 W
  CHECK(capped.time.mfu < base.time.mfu);  // MFU stays against the datasheet peak
  const Error over = run_error(with(kBase, "hardware.power_limit_w", "800"));
  CHECK(over.field == "hardware.power_limit_w");
  CHECK(contains(over.text(), "at most"));
}

TEST_CASE("GPU variant: refused with a loaded profile, which measured the GPU as it is") {
  Result<HardwareProfile> p = profile_from_json(source_text("site/profiles/h100-sxm.json"));
  REQUIRE(p.ok());
  Scenario s = scenario(with(kBase, "hardware.power_limit_w", "500"));
  attach_profile(s, *p);
  const Result<Estimate> e = estimate(s);
  REQUIRE_FALSE(e.ok());
  CHECK(e.error().field == "hardware.power_limit_w");
}
