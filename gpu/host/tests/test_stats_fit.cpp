// Sample statistics, the stable-median rule, and the two fits.
#include <doctest/doctest.h>

#include <cmath>

#include "llmc_bench/fit.h"
#include "llmc_bench/progress.h"
#include "llmc_bench/stats.h"

using namespace llmc::bench;

TEST_CASE("summarize: median, p10, p90 with linear interpolation; sample stddev; cv") {
  // 1..10 shuffled: numpy.percentile gives median 5.5, p10 1.9, p90 9.1.
  SampleStats s = summarize({7, 3, 10, 1, 5, 9, 2, 8, 4, 6});
  CHECK(s.n == 10);
  CHECK(s.median == doctest::Approx(5.5));
  CHECK(s.p10 == doctest::Approx(1.9));
  CHECK(s.p90 == doctest::Approx(9.1));
  CHECK(s.mean == doctest::Approx(5.5));
  CHECK(s.stddev == doctest::Approx(std::sqrt(82.5 / 9)));
  CHECK(s.cv == doctest::Approx(std::sqrt(82.5 / 9) / 5.5));
  CHECK(s.min == 1);
  CHECK(s.max == 10);
  SampleStats odd = summarize({3, 1, 2});
  CHECK(odd.median == 2);
  CHECK(odd.p10 == doctest::Approx(1.2));
  SampleStats one = summarize({4});
  CHECK(one.median == 4);
  CHECK(one.cv == 0);
  CHECK(summarize({}).n == 0);
}

TEST_CASE("median_ci95 and the stable-median rule") {
  std::vector<double> v;
  for (int i = 1; i <= 25; ++i) v.push_back(i);
  // n = 25: ranks floor(12.5 − 4.9) = 7 and ceil(13.5 + 4.9) = 19.
  Interval ci = median_ci95(v);
  CHECK(ci.lo == 7);
  CHECK(ci.hi == 19);
  CHECK_FALSE(median_is_stable(v, 0.01));  // spread of ±46% around 13
  std::vector<double> tight(25, 1.0);
  for (int i = 0; i < 25; ++i) tight[std::size_t(i)] = 1.0 + 0.001 * (i % 5);
  CHECK(median_is_stable(tight, 0.01));
  CHECK_FALSE(median_is_stable({1.0, 1.0, 1.0}, 0.01, 5));  // too few samples
  CHECK(median_is_stable({1.0, 1.0, 1.0, 1.0, 1.0}, 0.01, 5));
}

TEST_CASE("fit_throughput recovers overhead and peak from exact data") {
  // 7.5 µs + FLOPs / 771 TFLOP/s over a log grid.
  std::vector<WorkTime> pts;
  for (double s = 256; s <= 16384; s *= 2) {
    const double flops = 2 * s * s * s;
    pts.push_back({flops, 7.5e-6 + flops / 771e12});
  }
  auto f = fit_throughput(pts, 1e12);
  REQUIRE(f.ok());
  CHECK(f->peak == doctest::Approx(771).epsilon(1e-9));
  CHECK(f->overhead_us == doctest::Approx(7.5).epsilon(1e-9));
}

TEST_CASE("fit_throughput: negative intercept clamps to zero; errors") {
  // Times that imply a negative overhead: refit through the origin.
  auto f = fit_throughput({{1e9, 0.9e-3}, {2e9, 2.0e-3}, {4e9, 4.1e-3}}, 1e9);
  REQUIRE(f.ok());
  CHECK(f->overhead_us == 0);
  CHECK(f->peak > 900);
  CHECK(f->peak < 1100);
  CHECK_FALSE(fit_throughput({{1e9, 1e-3}, {1e9, 1.1e-3}}, 1e9).ok());  // one distinct size
  CHECK_FALSE(fit_throughput({{1e9, 0}, {2e9, 1e-3}}, 1e9).ok());
  CHECK_FALSE(fit_throughput({{1e9, 2e-3}, {2e9, 1e-3}}, 1e9).ok());  // time falls with size
}

TEST_CASE("busbw factors and the alpha-beta fit recover known values") {
  CHECK(busbw_factor("all_reduce", 8) == doctest::Approx(1.75));
  CHECK(busbw_factor("all_gather", 8) == doctest::Approx(0.875));
  CHECK(busbw_factor("reduce_scatter", 4) == doctest::Approx(0.75));
  CHECK(busbw_factor("all_to_all", 2) == doctest::Approx(0.5));
  CHECK(busbw_factor("send_recv", 2) == 1);
  CHECK(busbw_factor("broadcast", 8) == 0);
  // 1 GiB all-reduce over 8 ranks in 5 ms: algbw 214.7 GB/s, busbw 375.8 GB/s.
  CHECK(busbw_gbps("all_reduce", 8, 1073741824.0, 5e-3) == doctest::Approx(1.75 * 1073741824.0 / 5e-3 / 1e9));

  for (const char* op : {"all_reduce", "all_gather", "reduce_scatter", "all_to_all", "send_recv"}) {
    const int64_t n = std::string(op) == "send_recv" ? 2 : 8;
    const double alpha = 18.5e-6, bus = 360.2;
    std::vector<WorkTime> pts;
    for (double b = 1024; b <= 8.0 * (1 << 30); b *= 4)
      pts.push_back({b, alpha + busbw_factor(op, n) * b / (bus * 1e9)});
    auto ab = fit_alpha_beta(op, n, pts);
    REQUIRE(ab.ok());
    CHECK(ab->alpha_s == doctest::Approx(alpha).epsilon(1e-9));
    CHECK(ab->busbw_gbps == doctest::Approx(bus).epsilon(1e-9));
  }
  CHECK_FALSE(fit_alpha_beta("broadcast", 8, {{1, 1}, {2, 2}}).ok());
}

TEST_CASE("progress: ETA scales the remaining plan by the observed pace") {
  CHECK(Progress::eta_seconds(100, 0, 0) == 100);
  CHECK(Progress::eta_seconds(100, 50, 100) == doctest::Approx(100));  // running 2× slower than plan
  CHECK(Progress::eta_seconds(100, 100, 80) == 0);
  CHECK(format_duration(72) == "1m12s");
  CHECK(format_duration(45) == "45s");
  CHECK(format_duration(3780) == "1h03m");
}
