// Activation offloading's copies (training.activation_offload): each micro-batch's stored
// activations go to host memory during its forward and come back during its backward, on the
// copy engines beside the compute stream (torchtune's OffloadActivations, use_streams). They cost
// the step only what outlasts the pass they run beside (docs/formulas.md, Activation offloading).
#include <algorithm>

#include "estimate/compute_times.h"
#include "estimate/memory.h"

namespace llmc::detail {

bool offloads_activations(const Resolved& r) { return r.s.training.activation_offload && r.m.has_shape(); }

CommItem activation_offload(const Resolved& r, const StepPlan& plan, const ComputeTimes& ct, const FlopCounts& f,
                            Trace* t) {
  const HardwareSpec& hw = r.s.hardware;
  const double mb = double(r.micro_batches), L = double(r.layers_per_stage);
  const double stored = stored_activations(r, layer_activations(r, plan, r.s.training.micro_batch), L).per_micro;
  const double bytes = stored - offload_kept_bytes(stored, L);
  const HostCopyRates rates = host_copy_rates(hw.gpu, hw.profile.get());
  const double d2h_gbps = rates.d2h_gbps, h2d_gbps = rates.h2d_gbps;
  const double out_s = bytes / (d2h_gbps * 1e9), in_s = bytes / (h2d_gbps * 1e9);
  // The passes they hide behind: the stage's forward and backward (with its recomputed forward).
  const bool flat = hw.compute_efficiency > 0;
  const double micro_s = flat ? compute_seconds(r, f) / mb : ct.micro_batch_s();
  const double fwd_s = flat ? micro_s / 3 : ct.stage_fwd.total(), bwd_s = micro_s - fwd_s;
  CommItem c;
  c.name = "offload";
  c.collective = "d2h+h2d";
  c.tier = "host";
  c.bytes_per_step = 2 * bytes * mb;
  c.calls = 2 * mb;
  c.time_s = mb * (out_s + in_s);
  c.overlapped = true;
  c.exposed_s = mb * (std::max(0.0, out_s - fwd_s) + std::max(0.0, in_s - bwd_s));
  c.in_micro_batch = true;
  if (t)
    t->add("comm.activation_offload_s",
           "m × B × (1/d2h + 1/h2d); exposed m × (max(0, B/d2h − forward) + max(0, B/h2d − backward)); B = stored "
           "activations but two layers'",
           "s", "profile's h2d/d2h, else host link × 0.85; torchtune's OffloadActivations", c.time_s,
           {{"micro_batches", mb},
            {"offloaded_bytes", bytes},
            {"d2h_gbps", d2h_gbps},
            {"h2d_gbps", h2d_gbps},
            {"forward_s", fwd_s},
            {"backward_s", bwd_s},
            {"exposed_s", c.exposed_s}});
  return c;
}

}  // namespace llmc::detail
