// Estimate: everything llmcalc computes for one scenario. JSON contract: docs/json-contract.md.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "llmc/explain.h"
#include "llmc/scenario.h"

namespace llmc {

struct ParamCounts {
  double total = 0, active = 0;  // active: per token (MoE counts top-k + shared experts)
  double embedding = 0;          // token (+ position) embeddings, + untied output layer
  double non_embedding = 0;
  double trainable = 0;  // LoRA adapters only, when finetune = lora
  // Per layer (one layer of each kind).
  double attention_per_layer = 0, mlp_per_dense_layer = 0, moe_per_layer = 0, router_per_layer = 0, norm_per_layer = 0;
  double expert_params = 0;  // one routed expert
  int64_t dense_layers = 0, moe_layers = 0;
  double per_gpu = 0;         // parameters held by the most loaded GPU (before ZeRO-3)
  double per_gpu_linear = 0;  // of per_gpu, the layers' linear weights (what FP8 GEMMs read)
  bool from_shape = false;    // false: size-only (model.params)
};

struct FlopCounts {
  double six_nd = 0;           // 6·N·D (Kaplan et al. 2020), N = active params
  double model_per_token = 0;  // forward + backward, per token
  double forward_per_token = 0, backward_per_token = 0;
  double attention_per_token = 0;  // the s² term (causal halved by default)
  double logits_per_token = 0;
  double model_total = 0;         // model_per_token × tokens (or six_nd with flops_formula=6nd)
  double hardware_per_token = 0;  // + recomputed forward
  double hardware_total = 0;
  double pflop_days = 0;  // model_total / (1e15 · 86400)
};

struct MemoryPerGpu {
  double weights_bytes = 0, gradients_bytes = 0, optimizer_bytes = 0, master_weights_bytes = 0,
         reference_model_bytes = 0, model_states_bytes = 0, activations_bytes = 0, activations_per_layer_bytes = 0,
         logits_bytes = 0, comm_buffers_bytes = 0, cuda_context_bytes = 0, fragmentation_bytes = 0, total_bytes = 0,
         capacity_bytes = 0, headroom_bytes = 0;
  double cpu_offload_bytes = 0;            // optimizer states moved to host memory
  double activations_offloaded_bytes = 0;  // saved activations in host memory (training.activation_offload)
  int64_t in_flight_micro_batches = 0;     // activations held at the peak (first pipeline stage)
};

struct CommItem {
  std::string name;           // "tp", "tp_logits", "dp", "fsdp", "hsdp", "pp", "cp", "ep", "etp"
  std::string collective;     // all_reduce, all_gather, reduce_scatter, send_recv, all_to_all
  int64_t group = 1;          // ranks in the collective
  std::string tier;           // intra_node | inter_node
  double bytes_per_step = 0;  // payload per GPU per step (before the ring factor)
  double calls = 0;           // collectives per step
  double latency_s = 0;       // latency of one call (NCCL's ring model, or the tier's alpha)
  double time_s = 0;          // calls × (latency + bandwidth time), per step
  bool overlapped = false;
  double exposed_s = 0;  // what adds to the step time
  // Runs inside every micro-batch's forward/backward (tp, cp, ep), so each idle slot of the
  // pipeline bubble lasts as long as that exposed part too, not just the kernels.
  bool in_micro_batch = false;
};

struct TimeEstimate {
  double step_s = 0, compute_s = 0, bubble_s = 0, comm_exposed_s = 0;
  double comm_contention_s = 0;  // part of compute_s: compute slowed by NCCL's SMs during overlap
  // Profile basis: host seconds issuing the step's kernels, and the part of compute_s the GPU
  // waits for them (micro-batches and optimizer steps whose kernels are shorter than issuing them).
  double host_issue_s = 0, host_wait_s = 0;
  double bubble_fraction = 0;  // bubble ÷ ideal compute, (p−1)/m for 1F1B (Narayanan 2021)
  double tokens_per_s = 0, tokens_per_gpu_per_step = 0;
  double steps = 0;
  double total_s = 0, total_days = 0, gpu_hours = 0, cost_usd = 0, energy_kwh = 0;
  double mfu = 0, hfu = 0;
  double peak_tflops = 0;  // dense peak of the compute dtype
  double achieved_model_tflops_per_gpu = 0;
  std::string basis;  // "mfu", "achieved_tflops", "compute_efficiency" or "profile"
  // Profile basis: the step's kernels by family (per step, the slowest pipeline stage), how they
  // were timed, and the error bar (one sigma from the profile's spread and the model's error).
  double gemm_s = 0, attention_s = 0, memory_bound_s = 0, optimizer_s = 0;
  int kernels_from_table = 0, kernels_from_fit = 0, kernels_from_spec = 0;
  double step_low_s = 0, step_high_s = 0;
  // The same one-sigma range carried to the totals (steps × step_low/high): what a budget needs.
  // With a given MFU or TFLOP/s the step is the user's, so the range is the value itself.
  double total_days_low = 0, total_days_high = 0, cost_usd_low = 0, cost_usd_high = 0;
};

struct Estimate {
  Resolved r;
  ParamCounts params;
  FlopCounts flops;
  MemoryPerGpu mem;
  bool fits = false;
  int64_t max_micro_batch = 0;  // largest micro-batch that fits (0: none)
  int64_t min_gpus = 0;         // fewest GPUs that fit with this tp/pp/cp and ZeRO stage (0: none)
  std::vector<CommItem> comm;
  TimeEstimate time;
  double dataset_bytes = 0;  // tokens × bytes_per_token_on_disk
  std::vector<std::string> warnings;
  Trace trace;
};

// The one entry point: scenario in, everything out (or the first input error).
Result<Estimate> estimate(const Scenario& s);

}  // namespace llmc
