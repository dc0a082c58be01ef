// PyTorch's pipelining (torch.distributed.pipelining, which FSDP2 runs under: torchtitan, NeMo
// AutoModel) allocates a receive buffer per micro-batch for each chunk's input and for its
// output's gradient, and keeps every micro-batch's chunk output until the step ends
// (PipelineStage._prepare_forward_infra, _create_grad_recv_info, output_chunks). Against the
// formula, on torchtitan's Llama 3.1 405B layout (FSDP 8, TP 8, PP 8, local batch 32 in 8
// micro-batches of 4 × 8192 tokens); docs/validation.md compares its page's peak memories.
#include <string>

#include "test_util.h"

using namespace llmc;
using namespace llmc::test;

namespace {

constexpr double b = 4, s = 8192, h = 16384, tp = 8, m = 8;

Sets titan_405b(Sets extra) {
  return with_extra({{"model.preset", "llama3.1-405b"},
                     {"training.seq_len", "8192"},
                     {"training.global_batch_seqs", "256"},
                     {"training.micro_batch", "4"},
                     {"training.precision", "bf16_mixed"},
                     {"training.zero_stage", "3"},
                     {"training.recompute", "full"},
                     {"training.sequence_parallel", "true"},
                     {"training.reshard_after_forward", "false"},
                     {"training.fsdp_impl", "fsdp2"},
                     {"hardware.gpu", "h100-sxm"},
                     {"hardware.gpu_count", "512"},
                     {"parallel.tp", "8"},
                     {"parallel.pp", "8"}},
                    extra);
}

double buffers(const Estimate& e) {
  const Term* t = e.trace.find("memory.per_gpu.activations_bytes");
  REQUIRE(t != nullptr);
  return term_input(*t, "pipeline_buffers");
}

}  // namespace

TEST_CASE("PyTorch pipelining: per micro-batch receive buffers and kept outputs, under FSDP2 with pp") {
  // One chunk boundary: the sequence-parallel shard of a micro-batch's hidden states, in bf16.
  const double boundary = 2 * b * s * h / tp;
  const Estimate e = run(titan_405b({}));
  // The peak is a middle stage (16 layers, seven micro-batches in flight): its input's buffers,
  // its output gradient's and its kept outputs, m of each.
  REQUIRE(e.mem.in_flight_micro_batches == 7);
  CHECK(buffers(e) == doctest::Approx(3 * m * boundary));
  CHECK(buffers(e) / kGiB == doctest::Approx(3.0));
  // Interleaved: every model chunk of the rank is a stage of its own, with its own buffers.
  const Estimate two = run(titan_405b({{"parallel.schedule", "interleaved"}, {"parallel.virtual_stages", "2"}}));
  CHECK(buffers(two) >= (2 * 2 + 2 - 1) * m * boundary);
  // Megatron-core's schedules (flat ZeRO-3 buffers, as Megatron's FSDP) receive into one buffer
  // per send and keep no outputs: none of these.
  CHECK(buffers(run(titan_405b({{"training.fsdp_impl", "flat"}}))) == 0);
  CHECK(buffers(run(titan_405b({{"parallel.pp", "1"}, {"parallel.tp", "8"}}))) == 0);
  // The last stage receives its input and keeps the other micro-batches' logits: with a small
  // model and a large vocabulary it is the peak stage (4 layers of hidden 4096, two a stage,
  // vocabulary 256,000, eight micro-batches of one 4,096-token sequence).
  const Estimate last = run({{"model.layers", "4"},
                             {"model.hidden", "4096"},
                             {"model.heads", "32"},
                             {"model.vocab", "256000"},
                             {"training.seq_len", "4096"},
                             {"training.micro_batch", "1"},
                             {"training.global_batch_seqs", "16"},
                             {"training.zero_stage", "3"},
                             {"training.fsdp_impl", "fsdp2"},
                             {"hardware.gpu", "h100-sxm"},
                             {"hardware.gpu_count", "4"},
                             {"parallel.pp", "2"}});
  REQUIRE(last.mem.logits_bytes > 0);  // the last stage's terms
  CHECK(buffers(last) == doctest::Approx(m * 2 * 4096 * 4096 + (m - 1) * 2 * 4096 * 256000.0));
}
