// The FP8 copies of the weights Transformer Engine keeps through a step, and FP8 parameters
// (training.fp8_params, Megatron's --fp8-param-gather) that replace the 16-bit weights with them.
#include "test_util.h"

using namespace llmc;
using namespace llmc::test;

namespace {
// Llama 3 70B (h 8192, 64 heads, 8 KV heads of 128, ffn 28672, 80 layers) on tp 4 × pp 4: every
// stage holds 20 layers, so every stage holds the same linear weights whichever is the peak.
// One layer's linear weights: QKV 8192·(8192 + 2·1024) + out 8192² + MLP 3·8192·28672
// = 855,638,016; a GPU holds 20 of them split 4 ways: 4,278,190,080.
constexpr double kLinearPerGpu = 20.0 * (8192.0 * (8192 + 2 * 1024) + 8192.0 * 8192 + 3 * 8192.0 * 28672) / 4;

Sets llama70b(Sets extra) {
  return with_extra({{"model.preset", "llama3.1-70b"},
                     {"hardware.gpu", "h100-sxm"},
                     {"hardware.gpu_count", "64"},
                     {"parallel.tp", "4"},
                     {"parallel.pp", "4"},
                     {"training.seq_len", "8192"},
                     {"training.global_batch_seqs", "64"},
                     {"training.zero_stage", "1"}},
                    extra);
}

double weights(Sets extra) { return run(llama70b(std::move(extra))).mem.weights_bytes; }

}  // namespace

TEST_CASE("FP8 weights: Transformer Engine's cached copy and transpose, 2 bytes per linear weight") {
  const double bf16 = weights({});
  CHECK(run(llama70b({})).params.per_gpu_linear == doctest::Approx(kLinearPerGpu).epsilon(1e-12));
  // Transformer Engine, 16-bit parameters: the FP8 copy and its transpose beside them.
  CHECK(weights({{"training.precision", "fp8_mixed"}}) - bf16 == doctest::Approx(2 * kLinearPerGpu).epsilon(1e-12));
  // FP8 parameters: the copy is the parameter (1 byte) and the transpose stays (1 byte), which
  // is what the 16-bit weight took.
  CHECK(weights({{"training.precision", "fp8_mixed"}, {"training.fp8_params", "true"}}) ==
        doctest::Approx(bf16).epsilon(1e-12));
  // torchao's Float8Linear (eager) casts every forward and caches nothing.
  CHECK(weights({{"training.precision", "fp8_mixed"}, {"training.fused_elementwise", "false"}}) ==
        doctest::Approx(bf16).epsilon(1e-12));
  // A one-byte weight_dtype is the whole storage (seed 004's 10Ψ recipe).
  CHECK(weights({{"training.precision", "fp8_mixed"}, {"training.weight_dtype", "fp8"}}) ==
        doctest::Approx(bf16 / 2).epsilon(1e-12));
  // ZeRO-3 shards the copies over dp (4 here) like the weights.
  const double z3 = weights({{"training.zero_stage", "3"}});
  CHECK(weights({{"training.zero_stage", "3"}, {"training.precision", "fp8_mixed"}}) - z3 ==
        doctest::Approx(2 * kLinearPerGpu / 4).epsilon(1e-12));
}

TEST_CASE("FP8 weights: the trace names the linear weights and the extra bytes") {
  const Estimate e = run(llama70b({{"training.precision", "fp8_mixed"}}));
  const Term* w = e.trace.find("memory.per_gpu.weights_bytes");
  REQUIRE(w != nullptr);
  CHECK(contains(w->formula, "linear_weights_local × (base_bytes + fp8_extra_bytes)"));
  CHECK(term_input(*w, "fp8_extra_bytes") == 2.0);
  CHECK(term_input(*w, "linear_weights_local") == doctest::Approx(kLinearPerGpu).epsilon(1e-12));
}

TEST_CASE("FP8 parameters are gathered in FP8 by ZeRO's parameter all-gather") {
  const Estimate cached = run(llama70b({{"training.precision", "fp8_mixed"}}));
  const Estimate fp8 = run(llama70b({{"training.precision", "fp8_mixed"}, {"training.fp8_params", "true"}}));
  const CommItem* a = find_comm(cached, "dp", "all_gather");
  const CommItem* b = find_comm(fp8, "dp", "all_gather");
  REQUIRE(a != nullptr);
  REQUIRE(b != nullptr);
  // The 16-bit gather moves 2 bytes per parameter; FP8 parameters save one byte per linear weight.
  CHECK(a->bytes_per_step == doctest::Approx(2 * cached.params.per_gpu).epsilon(1e-12));
  CHECK(a->bytes_per_step - b->bytes_per_step == doctest::Approx(kLinearPerGpu).epsilon(1e-12));
  CHECK(b->time_s < a->time_s);
}

TEST_CASE("FP8 parameters: ZeRO-3's gather buffers hold the largest layer's linear weights in 1 byte") {
  // Two layers gathered (the one in use and the prefetched one): with FP8 parameters each linear
  // weight of the layer is one byte instead of two, so the buffers shrink by 2 × one layer's
  // linear weights ÷ tp (855,638,016 / 4).
  auto gather = [](Sets extra) {
    extra.push_back({"training.zero_stage", "3"});
    const Estimate e = run(llama70b(std::move(extra)));
    const Term* t = e.trace.find("memory.per_gpu.model_states_bytes");
    REQUIRE(t != nullptr);
    return term_input(*t, "gather_buffers");
  };
  const double cached = gather({{"training.precision", "fp8_mixed"}});
  const double fp8 = gather({{"training.precision", "fp8_mixed"}, {"training.fp8_params", "true"}});
  CHECK(cached > 0);
  CHECK(cached - fp8 == doctest::Approx(2 * 855638016.0 / 4).epsilon(1e-12));
}

TEST_CASE("FP8 parameters need Transformer Engine's FP8 recipe") {
  const Error bf16 = run_error(llama70b({{"training.fp8_params", "true"}}));
  CHECK(bf16.field == "training.fp8_params");
  CHECK(contains(bf16.text(), "got precision bf16_mixed"));
  const Error eager = run_error(llama70b(
      {{"training.fp8_params", "true"}, {"training.precision", "fp8_mixed"}, {"training.fused_elementwise", "false"}}));
  CHECK(eager.field == "training.fp8_params");
  CHECK(contains(eager.text(), "fused_elementwise false"));
}
