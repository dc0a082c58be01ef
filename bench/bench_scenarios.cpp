#include "bench_scenarios.h"

#include <cstdio>
#include <cstdlib>
#include <utility>

#include "llmc/estimate.h"
#include "llmc/fields.h"

namespace llmc::bench_scenarios {

namespace {

using Sets = std::vector<std::pair<const char*, const char*>>;

// default_scenario() + set_field for each key=value; any error aborts (a bench on a broken
// scenario would time the error path).
Scenario make(const Sets& sets) {
  Scenario s = default_scenario();
  for (const auto& [k, v] : sets) {
    Status st = set_field(s, k, v);
    if (!st) {
      std::fprintf(stderr, "bench: set_field %s=%s: %s\n", k, v, st.error().text().c_str());
      std::abort();
    }
  }
  Result<Estimate> r = estimate(s);
  if (!r) {
    std::fprintf(stderr, "bench: scenario does not estimate: %s\n", r.error().text().c_str());
    std::abort();
  }
  return s;
}

}  // namespace

// Llama 3.1 8B on one 8×H100 node: tp 1, dp 8, 4M-token batch at 8K (512 sequences), ZeRO-1
// and full recompute, so it fits (max micro-batch 2).
Scenario llama8b_8gpu() {
  return make({{"model.preset", "llama3.1-8b"},
               {"hardware.gpu", "h100-sxm"},
               {"hardware.gpu_count", "8"},
               {"training.seq_len", "8192"},
               {"training.global_batch_seqs", "512"},
               {"training.tokens", "15e12"},
               {"training.zero_stage", "1"},
               {"training.recompute", "full"}});
}

// The same with every other setting at its default (ZeRO-0, no recompute): does not fit, so
// the micro-batch search finds nothing (the slow path).
Scenario llama8b_8gpu_nofit() {
  return make({{"model.preset", "llama3.1-8b"},
               {"hardware.gpu", "h100-sxm"},
               {"hardware.gpu_count", "8"},
               {"training.seq_len", "8192"},
               {"training.global_batch_seqs", "512"},
               {"training.tokens", "15e12"}});
}

// Llama 3.1 405B as in the Llama 3 paper (arXiv:2407.21783 Table 4): 16,384 H100s, tp 8, pp 16,
// dp 128, 8K sequences, 16M-token batch (2048 sequences), interleaved with 2 virtual stages.
// 126 layers over 16 stages is uneven (resolve() warns: the first and last take 7, the others 8).
// ZeRO-1, no recompute: llmcalc says it needs ~87 GB of 86 GB, so the micro-batch search runs to
// the end.
Scenario llama405b_16k() {
  return make({{"model.preset", "llama3.1-405b"},
               {"hardware.gpu", "h100-sxm"},
               {"hardware.gpu_count", "16384"},
               {"parallel.tp", "8"},
               {"parallel.pp", "16"},
               {"parallel.schedule", "interleaved"},
               {"parallel.virtual_stages", "2"},
               {"training.sequence_parallel", "true"},
               {"training.seq_len", "8192"},
               {"training.global_batch_seqs", "2048"},
               {"training.tokens", "15.6e12"},
               {"training.zero_stage", "1"}});
}

// Mixtral 8x7B with expert parallelism: 64 GPUs, tp 2, ep 8, dp 32, 4K sequences.
Scenario mixtral_ep() {
  return make({{"model.preset", "mixtral-8x7b"},
               {"hardware.gpu", "h100-sxm"},
               {"hardware.gpu_count", "64"},
               {"parallel.tp", "2"},
               {"parallel.ep", "8"},
               {"training.seq_len", "4096"},
               {"training.global_batch_seqs", "1024"},
               {"training.zero_stage", "1"},
               {"training.tokens", "1e12"}});
}

// Size-only: N = 7e9, 6·N·D, no shape (model states only), ZeRO-3 over 8 GPUs, MFU 40%.
Scenario size_only_6nd() {
  return make({{"model.params", "7e9"},
               {"training.flops_formula", "6nd"},
               {"training.tokens", "1.4e11"},
               {"hardware.gpu", "h100-sxm"},
               {"hardware.gpu_count", "8"},
               {"hardware.mfu", "0.4"},
               {"training.zero_stage", "3"}});
}

const std::vector<NamedScenario>& estimate_scenarios() {
  static const std::vector<NamedScenario> all = {{"llama3_1_8b_8xh100", llama8b_8gpu},
                                                 {"llama3_1_8b_8xh100_nofit", llama8b_8gpu_nofit},
                                                 {"llama3_1_405b_16384_tp8_pp16_vpp2", llama405b_16k},
                                                 {"mixtral_8x7b_64_tp2_ep8", mixtral_ep},
                                                 {"size_only_6nd_7b", size_only_6nd}};
  return all;
}

// Layout search (docs/search.md). 22B: Calculon's megatron-22B on 64 GPUs (the anchor: ~47
// core-minutes in Calculon), 1024 × 2048-token batch. 405B: Llama 3.1 on 16,384 H100s with its
// 2048 × 8192-token batch. Counters: the search's candidate counts.
SearchSpec search_22b_64() {
  SearchSpec s;
  s.base = make({{"model.preset", "megatron-22b"},
                 {"hardware.gpu", "h100-sxm"},
                 {"hardware.gpu_count", "64"},
                 {"training.global_batch_seqs", "1024"},
                 {"training.tokens", "1e12"}});
  return s;
}

SearchSpec search_405b_16k() {
  SearchSpec s;
  s.base = make({{"model.preset", "llama3.1-405b"},
                 {"hardware.gpu", "h100-sxm"},
                 {"hardware.gpu_count", "16384"},
                 {"parallel.tp", "8"},  // make() checks the base estimates; the search ignores its layout
                 {"parallel.pp", "16"},
                 {"training.seq_len", "8192"},
                 {"training.global_batch_seqs", "2048"},
                 {"training.tokens", "15.6e12"},
                 {"training.sequence_parallel", "true"}});
  return s;
}

}  // namespace llmc::bench_scenarios
