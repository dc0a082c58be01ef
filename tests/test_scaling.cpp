// Compute-optimal sizing (Hoffmann et al. 2022) and GPUs for a deadline.
#include <cmath>

#include "llmc/scaling.h"
#include "test_util.h"

using namespace llmc;
using namespace llmc::test;

TEST_CASE("the parametric law's compute-optimal exponents are the paper's a = 0.46, b = 0.54") {
  const ComputeOptimal lo = optimal_parametric(1e21, nullptr), hi = optimal_parametric(1e25, nullptr);
  const double a = std::log(hi.params / lo.params) / std::log(1e4), b = std::log(hi.tokens / lo.tokens) / std::log(1e4);
  CHECK(a == doctest::Approx(0.4516).epsilon(0.001));  // β/(α+β) = 0.28/0.62; Table 2 approach 3: 0.46
  CHECK(b == doctest::Approx(0.5484).epsilon(0.001));
  CHECK(lo.params * lo.tokens * 6 == doctest::Approx(1e21));
}

TEST_CASE("the 20 tokens per parameter rule: Chinchilla 70B on 1.4T tokens") {
  const ComputeOptimal o = budget_for_params(70e9, nullptr);
  CHECK(o.tokens == doctest::Approx(1.4e12));
  CHECK(o.compute_flops == doctest::Approx(5.88e23));
  const ComputeOptimal back = optimal_20_tokens_per_param(5.88e23, nullptr);
  CHECK(back.params == doctest::Approx(70e9));
}

TEST_CASE("the parametric loss at Chinchilla's size") {
  // L(70B, 1.4T) = 1.69 + 406.4/70e9^0.34 + 410.7/1.4e12^0.28 = 1.937.
  CHECK(chinchilla_loss(70e9, 1.4e12) == doctest::Approx(1.9367).epsilon(1e-3));
}

TEST_CASE("GPUs for a deadline: seed 000's 3.79e25 FLOPs in 27.4 days at 1000 TFLOP/s needs 16,000 H100s") {
  CHECK(gpus_for_deadline(3.7908e25, 27.42 * 86400, 1000e12, nullptr) == doctest::Approx(16000).epsilon(0.001));
}

TEST_CASE("the deterministic pow agrees with the C library to 1e-12") {
  // scaling.cpp uses its own log/exp so native and wasm print the same bits (tests/golden).
  ComputeOptimal o = optimal_parametric(5.76e23, nullptr);
  const double a = 0.28 / 0.62, g = std::pow(0.34 * 406.4 / (0.28 * 410.7), 1 / 0.62);
  CHECK(o.params == doctest::Approx(g * std::pow(5.76e23 / 6, a)).epsilon(1e-12));
  CHECK(chinchilla_loss(1e9, 2e10) ==
        doctest::Approx(1.69 + 406.4 / std::pow(1e9, 0.34) + 410.7 / std::pow(2e10, 0.28)).epsilon(1e-12));
}
