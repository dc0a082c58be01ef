// Command line of llmcalc-bench (parsed here, in plain C++, so it is tested without a GPU).
#pragma once
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "llmc/result.h"

namespace llmc::bench {

inline const std::vector<std::string>& all_suites() {
  static const std::vector<std::string> s{"gemm", "attention", "membound", "nccl", "h2d", "launch"};
  return s;
}

struct Options {
  bool quick = false;  // ≤ 2 min on one H100: fewer sizes, fewer samples
  bool help = false;
  bool version = false;
  std::string out;      // profile path; "" = site/profiles/<gpu>.json is chosen by the caller
  std::string raw_out;  // every sample and telemetry; "" = <out without .json>.raw.json
  std::string model = "llama3.1-8b";
  int64_t tp = 1, micro_batch = 1, seq_len = 0;  // seq_len 0: the model's own
  std::string attention_json;                    // attention points from gpu/groundtruth/attention_bench.py
  std::string overheads_json;                    // PyTorch's host cost per kernel from gpu/groundtruth/overheads.py
  std::string gpu_id;                            // catalog id; "" = derived from the device name
  std::set<std::string> suites;                  // empty = all
  int device = 0;                                // CUDA device for the single-GPU suites
  // One process per GPU under an MPI launcher (mpirun): the collectives span every rank of
  // MPI_COMM_WORLD, across nodes; rank 0 also runs the single-GPU suites and writes the profile.
  bool mpi = false;
  // After a run that passed its checks, upload the profile to this registry (docs/registry.md);
  // the token from --token-file or $LLMCALC_TOKEN. The profile file is written as always.
  std::string upload_url, token_file, upload_label;
  bool want(const std::string& suite) const { return suites.empty() || suites.count(suite) > 0; }
};

// argv[1..]; errors name the flag and the value.
Result<Options> parse_options(const std::vector<std::string>& args);

std::string usage_text();

// "<stem>.raw.json" for "<stem>.json" (or "<path>.raw.json" for other names).
std::string raw_path_for(const std::string& profile_path);

}  // namespace llmc::bench
