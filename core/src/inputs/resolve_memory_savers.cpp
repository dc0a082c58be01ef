// The memory savers' rules: what each needs of the rest of the scenario (docs/formulas.md,
// "Chunked loss", "Activation offloading", "Optimizer step in backward").
#include "inputs/resolve_memory_savers.h"

#include <string>

#include "inputs/resolve_hardware.h"

namespace llmc::detail {

Status resolve_memory_savers(const Resolved& r) {
  const TrainingSpec& t = r.s.training;
  const ParallelSpec& p = r.s.parallel;
  const HardwareSpec& h = r.s.hardware;
  // torchtune splits the logits along the sequence: a chunk holds at least one position.
  const int64_t positions = t.seq_len / p.cp;
  if (t.loss_chunks > positions)
    return make_error("training.loss_chunks", "chunks split the sequence (" + message_number(positions) +
                                                  " positions per GPU with context parallelism " +
                                                  message_number(p.cp) + "); got " + message_number(t.loss_chunks));
  if (t.activation_offload) {
    const bool measured = h.profile && h.profile->h2d_gbps > 0 && h.profile->d2h_gbps > 0;
    if (!measured && h.gpu.host_link_gbps <= 0)
      return make_error("training.activation_offload",
                        h.gpu.name +
                            " has no host link rate in the catalog (host_link_gbps) and the profile measured no "
                            "host copies: its offloading copies cannot be timed; set the GPU's host_link_gbps or load "
                            "a profile with h2d and d2h");
  }
  if (t.optimizer_in_backward) {
    if (!r.m.has_shape())
      return make_error("training.optimizer_in_backward",
                        "frees each weight tensor's gradient in turn, so it needs the model shape (model.layers, "
                        "model.hidden, ...), not only model.params");
    if (r.micro_batches > 1)
      return make_error("training.optimizer_in_backward",
                        "steps each parameter as its gradient is ready, so a step has one micro-batch (torchtune "
                        "requires gradient_accumulation_steps 1); this one has " +
                            message_number(r.micro_batches) + ": raise training.micro_batch or lower the global batch");
    if (p.dp * p.cp > 1)
      return make_error("training.optimizer_in_backward",
                        "is modelled for one data-parallel replica (torchtune's single-device recipes): with dp × cp "
                        "= " +
                            message_number(p.dp * p.cp) +
                            " each gradient must be reduced before its step; use dp = cp = 1 or turn it off");
    if (p.pp > 1)
      return make_error("training.optimizer_in_backward",
                        "is modelled without pipeline parallelism; got pp " + message_number(p.pp));
  }
  return ok_status();
}

}  // namespace llmc::detail
