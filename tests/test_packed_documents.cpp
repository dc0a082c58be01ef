// training.document_tokens: documents packed into a sequence, attention inside each one (varlen
// fused kernels over cu_seqlens), so a query attends to its own document's keys only; the
// rules resolve() holds it to. The packed fine-tuning records that use it: test_validate_files.cpp.
#include "test_util.h"

using namespace llmc;
using namespace llmc::test;

namespace {

const Sets kLlama8b = {{"model.preset", "llama3.1-8b"}, {"hardware.gpu", "h100-sxm"},
                       {"hardware.gpu_count", "8"},     {"training.seq_len", "8192"},
                       {"training.micro_batch", "1"},   {"training.global_batch_seqs", "64"},
                       {"training.recompute", "full"}};

}  // namespace

TEST_CASE("training.document_tokens: attention FLOPs scale with the document, nothing else moves") {
  const Estimate whole = run(kLlama8b);
  const Estimate packed = run(with_extra(kLlama8b, {{"training.document_tokens", "512"}}));
  // Llama 3.1 8B: 3 × 32 layers × 2·s·a·(d_qk + d_v) × ½ per token; s = 512 instead of 8192.
  CHECK(packed.flops.attention_per_token == 3 * 32 * 2.0 * 512 * 32 * 256 / 2);
  CHECK(packed.flops.attention_per_token * 16 == whole.flops.attention_per_token);
  CHECK(whole.flops.model_per_token - packed.flops.model_per_token ==
        doctest::Approx(whole.flops.attention_per_token - packed.flops.attention_per_token).epsilon(1e-12));
  CHECK(packed.mem.total_bytes == whole.mem.total_bytes);  // flash keeps per-token state
  CHECK(packed.time.step_s < whole.time.step_s);
  // One document filling the sequence is the unpacked case, bit for bit.
  const Estimate full_doc = run(with_extra(kLlama8b, {{"training.document_tokens", "8192"}}));
  CHECK(full_doc.time.step_s == whole.time.step_s);
  CHECK(full_doc.flops.model_per_token == whole.flops.model_per_token);
}

TEST_CASE("training.document_tokens: a sequence of 8 documents of 1,024 tokens costs what 8 sequences of 1,024 do") {
  // The same tokens per micro-batch and per step; every op but attention is per token, and the
  // varlen kernel runs each document as a sequence of its own.
  const Estimate packed = run(with_extra(kLlama8b, {{"training.document_tokens", "1024"}}));
  const Estimate short_seqs = run(with_extra(
      kLlama8b, {{"training.seq_len", "1024"}, {"training.micro_batch", "8"}, {"training.global_batch_seqs", "512"}}));
  CHECK(packed.flops.model_per_token == short_seqs.flops.model_per_token);
  CHECK(packed.time.compute_s == doctest::Approx(short_seqs.time.compute_s).epsilon(1e-12));
}

TEST_CASE(
    "training.document_tokens: refused beyond the sequence, without flash attention and with context parallelism") {
  auto refused = [](const Sets& extra) {
    Result<Estimate> e = estimate(scenario(with_extra(kLlama8b, extra)));
    REQUIRE_FALSE(e.ok());
    CHECK(e.error().field == "training.document_tokens");
    return e.error().text();
  };
  CHECK(refused({{"training.document_tokens", "8193"}}).find("at most training.seq_len (8192); got 8193") !=
        std::string::npos);
  CHECK(refused({{"training.document_tokens", "512"}, {"training.attention_backend", "eager"}})
            .find("needs flash attention") != std::string::npos);
  CHECK(refused({{"training.document_tokens", "512"}, {"parallel.cp", "2"}}).find("context parallelism") !=
        std::string::npos);
  Scenario s = default_scenario();
  CHECK_FALSE(set_field(s, "training.document_tokens", "-1").ok());
}
