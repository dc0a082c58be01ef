// Preset parameter counts against the published totals (and MoE active counts).
#include "llmc/catalog.h"
#include "test_util.h"

#include <algorithm>
#include <cmath>

using namespace llmc;
using namespace llmc::test;

namespace {

// A published figure printed with `digits` significant digits covers [x − ½ulp, x + ½ulp);
// vendors also truncate ("37B active" for 37.55B), so accept the truncation band too.
bool matches_published(double computed, double published, int digits) {
  if (digits <= 0) return std::fabs(computed - published) <= 0.005 * published;  // within 0.5%
  const double unit = std::pow(10.0, std::floor(std::log10(published)) - (digits - 1));
  const bool rounds = std::fabs(computed - published) <= 0.5 * unit;
  const bool truncates = computed >= published && computed < published + unit;
  return rounds || truncates || std::fabs(computed - published) <= 0.005 * published;
}

}  // namespace

TEST_CASE("preset ids come sorted (core lists them as cmake/embed_data.cmake embeds the files)") {
  const std::vector<std::string> models = model_preset_ids(), gpus = gpu_ids();
  CHECK(std::is_sorted(models.begin(), models.end()));
  CHECK(std::is_sorted(gpus.begin(), gpus.end()));
  CHECK(std::adjacent_find(models.begin(), models.end()) == models.end());
  CHECK(std::adjacent_find(gpus.begin(), gpus.end()) == gpus.end());
}

TEST_CASE("every preset's parameter count matches its published total") {
  const std::vector<std::string> ids = model_preset_ids();
  CHECK(ids.size() >= 25);
  for (const std::string& id : ids) {
    CAPTURE(id);
    Result<ModelPreset> p = find_model_preset(id);
    REQUIRE(p.ok());
    REQUIRE(p->published_total > 0);
    Estimate e = run({{"model.preset", id}, {"training.tokens", "1e9"}});
    CAPTURE(e.params.total);
    CHECK(matches_published(e.params.total, p->published_total, p->published_digits));
    if (p->published_active > 0) {
      CAPTURE(e.params.active);
      CHECK(matches_published(e.params.active, p->published_active, p->published_digits ? 2 : 3));
    }
  }
}

TEST_CASE("exact totals for models whose checkpoints give an exact count") {
  CHECK(run({{"model.preset", "llama3.1-405b"}}).params.total == 405853388800.0);
  CHECK(run({{"model.preset", "llama2-70b"}}).params.total == 68976648192.0);
  CHECK(run({{"model.preset", "mixtral-8x7b"}}).params.total == 46702792704.0);
  CHECK(run({{"model.preset", "qwen2.5-7b"}}).params.total == 7615616512.0);     // q/k/v biases
  CHECK(run({{"model.preset", "gemma2-9b"}}).params.total == 9241705984.0);      // 4 norms per layer, tied
  CHECK(run({{"model.preset", "deepseek-v3"}}).params.total == 671026404352.0);  // MLA + 256 experts
}

TEST_CASE("MoE active parameters count top-k routed plus shared experts") {
  Estimate mixtral = run({{"model.preset", "mixtral-8x7b"}});
  CHECK(mixtral.params.active == doctest::Approx(12.9e9).epsilon(0.005));
  Estimate ds = run({{"model.preset", "deepseek-v3"}});
  // 37.55B from the config; DeepSeek prints "37B" (truncated), see docs/seeds.md#presets.
  CHECK(ds.params.active == doctest::Approx(37.55e9).epsilon(0.001));
  CHECK(ds.params.moe_layers == 58);
  CHECK(ds.params.dense_layers == 3);
}

TEST_CASE("GPT parameter count follows Narayanan et al. 2021 eq. 2 up to the bias terms") {
  // P = 12·l·h²·(1 + 13/(12h) + (V + s)/(12·l·h)) with V = 51200, s = 2048.
  for (const char* id : {"narayanan2021-1.7b", "narayanan2021-39b", "narayanan2021-1t"}) {
    CAPTURE(id);
    Estimate e = run({{"model.preset", id}});
    const double l = double(e.r.m.layers), h = double(e.r.m.hidden);
    const double eq2 = 12 * l * h * h * (1 + 13 / (12 * h) + (51200 + 2048) / (12 * l * h));
    CHECK(e.params.total == doctest::Approx(eq2).epsilon(1e-4));
  }
}

TEST_CASE("size-only models: model.params is N everywhere") {
  Estimate e = run({{"model.params", "13e9"}});
  CHECK(e.params.total == 13e9);
  CHECK(e.params.active == 13e9);
  CHECK_FALSE(e.params.from_shape);
}

TEST_CASE("model.params overrides the shape's count but keeps the shape for activations") {
  Estimate e = run({{"model.preset", "llama2-7b"}, {"model.params", "7e9"}});
  CHECK(e.params.total == 7e9);
  CHECK(e.mem.activations_bytes > 0);
}

TEST_CASE("LoRA trainable parameters: r·(in + out) per adapted matrix") {
  Estimate e = run({{"model.preset", "llama2-7b"}, {"training.finetune", "lora"}, {"training.lora_rank", "8"}});
  // Llama 2 7B: per layer q,k,v,o: 4·8·(4096+4096); gate, up, down: 3·8·(4096+11008); 32 layers.
  const double per_layer = 4 * 8 * 8192.0 + 3 * 8 * (4096.0 + 11008.0);
  CHECK(e.params.trainable == doctest::Approx(32 * per_layer));
  CHECK(e.params.trainable == doctest::Approx(19988480));  // PEFT all-linear r=8 on Llama-2-7b: 19,988,480
}
