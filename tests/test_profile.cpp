// Hardware profile files: schema v1 parsing and the loader's refusals.
#include "llmc/catalog.h"
#include "llmc/profile.h"
#include "test_util.h"

using namespace llmc;
using namespace llmc::test;

namespace {
std::string doc(const std::string& eff = "0.6", const std::string& version = "1", const std::string& alpha = "15", const std::string& extra = "") {
  return R"({"schema_version": )" + version + R"(, "gpu": "h100-sxm", "source": "published", "citations": ["nccl-tests"],)" + extra +
         R"( "compute_efficiency": )" + eff + R"(, "collectives": {"intra_node": {"alpha_us": )" + alpha +
         R"(, "busbw_gbps": 360}, "inter_node": {"alpha_us": 30, "busbw_gbps": 45}}})";
}
}  // namespace

TEST_CASE("a valid profile drives the time estimate") {
  Result<HardwareProfile> p = profile_from_json(doc());
  REQUIRE(p.ok());
  CHECK(p->intra_node.alpha_s == doctest::Approx(15e-6));
  Scenario s = scenario({{"model.preset", "llama3.1-8b"}, {"parallel.tp", "8"}, {"hardware.gpu_count", "8"}, {"training.global_batch_seqs", "8"}});
  Result<Estimate> base = estimate(s);
  attach_profile(s, *p);
  Result<Estimate> prof = estimate(s);
  REQUIRE(base.ok());
  REQUIRE(prof.ok());
  CHECK(prof->time.compute_s == doctest::Approx(base->time.compute_s * 0.5 / 0.6));
  CHECK(prof->r.s.hardware.profile.source == "published");
}

TEST_CASE("round trip: the datasheet profile written out reads back") {
  HardwareProfile d = datasheet_profile(*find_gpu("a100-sxm-80gb"));
  Result<HardwareProfile> back = profile_from_json(profile_to_json(d));
  REQUIRE(back.ok());
  CHECK(back->compute_efficiency == d.compute_efficiency);
  CHECK(back->intra_node.busbw_gbps == d.intra_node.busbw_gbps);
}

TEST_CASE("implausible or malformed profiles are refused with the field named") {
  CHECK(profile_from_json(doc("1.2")).error().field == "profile: compute_efficiency");
  CHECK(contains(profile_from_json(doc("1.2")).error().message, "got 1.2"));
  CHECK(profile_from_json(doc("0")).error().field == "profile: compute_efficiency");
  CHECK(contains(profile_from_json(doc("0.5", "2")).error().message, "unknown version 2"));
  CHECK(profile_from_json(doc("0.5", "1", "-3")).error().field == "profile: collectives.intra_node.alpha_us");
  CHECK(profile_from_json(doc("0.5", "1", "15", R"( "gemmm": 1,)")).error().field == "profile: gemmm");
  CHECK(contains(profile_from_json(R"({"schema_version": 1, "gpu": "h100-sxm", "source": "datasheet", "compute_efficiency": 0.5})").error().message, "cite"));
  CHECK(contains(profile_from_json("{").error().message, "not valid JSON"));
  Result<HardwareProfile> wrong_gpu = profile_from_json(doc());
  Scenario s = scenario({{"model.preset", "llama3.1-8b"}, {"hardware.gpu", "a100-sxm-80gb"}});
  attach_profile(s, *wrong_gpu);
  Result<Estimate> e = estimate(s);
  REQUIRE_FALSE(e.ok());
  CHECK(e.error().field == "hardware.profile");
}
