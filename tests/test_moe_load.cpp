// training.moe_capacity_factor: the busiest expert rank's routed load over an even share (a padded
// capacity factor, or dropless routing's max/mean). The step waits for that rank, so its expert
// GEMMs, saved activations and all-to-all bytes scale with it; the model FLOPs do not.
#include "test_util.h"

using namespace llmc;
using namespace llmc::test;

namespace {
// Mixtral 8x7B on 64 H100s, tp 2, ep 8: 32 micro-batches of 4096 tokens per step.
const Sets kMixtral = {{"model.preset", "mixtral-8x7b"},
                       {"hardware.gpu", "h100-sxm"},
                       {"hardware.gpu_count", "64"},
                       {"parallel.tp", "2"},
                       {"parallel.ep", "8"},
                       {"training.seq_len", "4096"},
                       {"training.global_batch_seqs", "1024"},
                       {"training.zero_stage", "1"}};
Estimate at(double load) {
  Sets s = kMixtral;
  s.push_back({"training.moe_capacity_factor", std::to_string(load)});
  return run(s);
}
}  // namespace

TEST_CASE("training.moe_capacity_factor: the busiest expert rank's load scales its experts and all-to-all") {
  const Estimate one = at(1), two = at(2), three = at(3);
  // The dispatch and combine move the busiest rank's token copies: bytes in proportion.
  const CommItem* a1 = find_comm(one, "ep");
  const CommItem* a2 = find_comm(two, "ep");
  REQUIRE(a1);
  REQUIRE(a2);
  CHECK(a2->bytes_per_step == doctest::Approx(2 * a1->bytes_per_step).epsilon(1e-12));
  CHECK(a2->time_s > 1.9 * a1->time_s);  // bandwidth-bound at these sizes
  // The routed experts' GEMMs grow linearly with the load (m = C·T·k/E rows per expert, large
  // enough here that tile quantisation barely moves), the rest of the layer not at all.
  const double step1 = two.time.gemm_s - one.time.gemm_s, step2 = three.time.gemm_s - two.time.gemm_s;
  CHECK(step1 > 0.5 * one.time.gemm_s);  // the routed experts are most of Mixtral's GEMM time
  CHECK(step2 == doctest::Approx(step1).epsilon(0.02));
  // Saved activations: the routed rows' share is linear in the load.
  const double mem1 = two.mem.activations_bytes - one.mem.activations_bytes;
  CHECK(mem1 > 0);
  CHECK(three.mem.activations_bytes - two.mem.activations_bytes == doctest::Approx(mem1).epsilon(1e-9));
  // FLOPs count the routed tokens, not the padding or the imbalance.
  CHECK(two.flops.model_per_token == one.flops.model_per_token);
  CHECK(two.time.mfu < one.time.mfu);
  // explain shows the load with the GEMM time it scales.
  const Term* t = two.trace.find("time.gemm_s");
  REQUIRE(t);
  CHECK(term_input(*t, "moe_capacity_factor") == 2);
}

TEST_CASE("training.moe_capacity_factor: refused on a dense model and beyond every copy on one expert") {
  const Error dense = run_error({{"model.preset", "llama3.1-8b"}, {"training.moe_capacity_factor", "1.25"}});
  CHECK(dense.field == "training.moe_capacity_factor");
  CHECK(contains(dense.message, "MoE models"));
  Sets over = kMixtral;
  over.push_back({"training.moe_capacity_factor", "4.5"});  // 8 experts, top-2: at most 4
  const Error e = run_error(over);
  CHECK(e.field == "training.moe_capacity_factor");
  CHECK(contains(e.message, "at most model.experts / model.top_k = 4"));
  CHECK(contains(e.message, "got 4.5"));
  // Below an even share is no rank's load: the field's range starts at 1.
  Scenario s = default_scenario();
  const Status under = set_field(s, "training.moe_capacity_factor", "0.5");
  REQUIRE_FALSE(under.ok());
  CHECK(under.error().field == "training.moe_capacity_factor");
  CHECK(contains(under.error().message, "[1, 10000]"));
}
