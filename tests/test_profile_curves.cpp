// Profiles' measured tables as curves (the Hardware tab's profile comparison).
#include "llmc/profile_curves.h"
#include "test_util.h"

using namespace llmc;
using namespace llmc::test;

namespace {
HardwareProfile load(const std::string& rel) {
  std::ifstream f(std::string(LLMC_SOURCE_DIR) + "/" + rel);
  std::stringstream ss;
  ss << f.rdbuf();
  Result<HardwareProfile> p = profile_from_json(ss.str());
  REQUIRE(p.ok());
  return *p;
}
const ProfileCurve* find(const std::vector<ProfileCurve>& cs, const std::string& key) {
  for (const ProfileCurve& c : cs)
    if (c.key == key) return &c;
  return nullptr;
}
}  // namespace

TEST_CASE("a measured profile's GEMM and memory tables become sorted curves with their source keys") {
  const std::vector<ProfileCurve> cs = profile_curves(load("site/profiles/h100-sxm.json"));
  REQUIRE(cs.size() >= 3);
  CHECK(cs[0].key == "gemm.bf16");  // fixed order: GEMMs bf16 first
  const ProfileCurve* g = find(cs, "gemm.bf16");
  REQUIRE(g);
  CHECK(g->y_unit == "TFLOP/s");
  CHECK(g->source == "gemm.bf16.points[].tflops");
  REQUIRE(g->points.size() > 2);
  CHECK(g->points[0].x == 2.0 * 256 * 256 * 256);  // the smallest GEMM of the table
  CHECK(g->points[0].shape ==
        "256\xC3\x97"
        "256\xC3\x97"
        "256");
  for (size_t i = 1; i < g->points.size(); ++i) CHECK(g->points[i - 1].x <= g->points[i].x);
  const ProfileCurve* hbm = find(cs, "memory_bound.hbm_copy");
  REQUIRE(hbm);
  CHECK(hbm->title == "HBM copy");
  CHECK(hbm->y_unit == "GB/s");
  CHECK(hbm->points.back().y > 1000);  // an H100 copies at TB/s
}

TEST_CASE("collectives become bus-bandwidth curves; a datasheet profile has none; bad points are left out") {
  const std::vector<ProfileCurve> cs = profile_curves(load("site/profiles/h100-sxm.published.json"));
  const ProfileCurve* ar = find(cs, "collectives.all_reduce.intra_node.8");
  REQUIRE(ar);
  CHECK(ar->title == "all-reduce, 8 GPUs, intra-node");
  CHECK(ar->x_label == "bytes per rank");
  CHECK(ar->points.front().x == 1048576.0);
  CHECK(ar->points.front().y == doctest::Approx(43.7));
  HardwareProfile p;  // datasheet-like: no tables
  CHECK(profile_curves(p).empty());
  p.gemm["bf16"].points = {{0, 1, 1, 5, 0, 0, 0}, {64, 64, 64, 2.5, 0, 0, 0}};
  const std::vector<ProfileCurve> one = profile_curves(p);
  REQUIRE(one.size() == 1);
  REQUIRE(one[0].points.size() == 1);  // m = 0 gives no FLOPs: left out
  CHECK(one[0].points[0].y == 2.5);
}
