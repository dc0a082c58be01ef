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
    return make_error("training.loss_chunks", "must be at most seq_len / cp = " + message_number(positions) + "; got " +
                                                  message_number(t.loss_chunks));
  if (t.activation_offload && host_copy_rates(h.gpu, h.profile.get()).d2h_gbps <= 0)
    return make_error("training.activation_offload",
                      h.gpu.name + " has no host link rate (host_link_gbps) and the profile no h2d/d2h");
  if (!t.optimizer_in_backward) return ok_status();
  auto refuse = [](const std::string& why) { return make_error("training.optimizer_in_backward", why); };
  if (!r.m.has_shape()) return refuse("needs the model shape (model.layers, model.hidden, ...)");
  // Each parameter is stepped as its gradient is ready: nothing to accumulate into, nothing to
  // reduce first (torchtune requires gradient_accumulation_steps 1 and runs it on one replica).
  if (r.micro_batches > 1)
    return refuse("needs one micro-batch per step; this one has " + message_number(r.micro_batches));
  if (p.dp * p.cp > 1) return refuse("needs one data-parallel replica; dp x cp = " + message_number(p.dp * p.cp));
  if (p.pp > 1) return refuse("is modelled without pipeline parallelism; got pp " + message_number(p.pp));
  return ok_status();
}

}  // namespace llmc::detail
