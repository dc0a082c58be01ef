// A validation record (validation/README.md, docs/validation.md): one published measurement and
// the scenario it was measured on, as reviewable data. Training records carry the scenario JSON
// that `llmcalc estimate FILE` reads; kernel benchmark records carry a kernel description. Every
// choice the source did not print is either a judgment (an explicit field with its reason) or a
// knob listed as unpublished, which the validator's one rule chooses (unpublished.h).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "llmc/hardware.h"
#include "llmc/result.h"
#include "llmc/scenario.h"

namespace llmc::validate {

struct Measured {
  std::string metric;  // the convention's metric ("tflops_per_gpu")
  double value = 0;
  std::string unit;        // the convention's unit ("TFLOP/s/GPU")
  std::string convention;  // conventions.h id ("megatron2021")
  std::string
      memory_kind;  // peak_memory only: the counter the source read (allocated, reserved, device; conventions.h)
};

// A choice made for the source: a record field it sets ("training.precision", "kernel.heads",
// "measured.value") or a topic without one, the value chosen and why, in words a reviewer checks.
struct Judgment {
  std::string field;   // a scenario field key, kernel.<key> or measured.<key>; "" with a topic
  std::string topic;   // "" with a field
  std::string choice;  // the value as JSON text ("fp16_mixed" is written fp16_mixed, numbers as printed)
  std::string why;
};

// What a kernel benchmark timed: one kernel or one collective, alone on one GPU type.
struct KernelSpec {
  std::string
      op;  // gemm, attention, hbm_copy, hbm_triad, all_reduce, all_gather, reduce_scatter, all_to_all, send_recv
  std::string gpu;                                         // catalog GPU id
  Dtype dtype = Dtype::bf16;                               // gemm, attention
  double m = 0, n = 0, k = 0;                              // gemm
  double batch = 0, seq_len = 0, heads = 0, head_dim = 0;  // attention
  bool causal = false, forward = false, backward = false;  // attention: direction fwd, bwd or fwd+bwd
  bool ampere_kernel = false;                              // attention: an Ampere-generation kernel (FlashAttention-2)
  double bytes = 0;       // hbm: bytes moved; collectives: bytes per rank (nccl-tests' size)
  int64_t ranks = 0;      // collectives
  std::string algorithm;  // collectives: NCCL's ring (others are not modelled)
  bool is_collective() const;
};

struct Record {
  std::string id, family, citation;
  bool kernel = false;
  Scenario scenario;                     // training records: default_scenario() + the record's scenario JSON
  std::string scenario_json;             // as written in the record (compact)
  KernelSpec kernel_spec;                // kernel records
  std::vector<std::string> unpublished;  // scenario field keys chosen by the rule (unpublished.h)
  Measured measured;
  std::vector<Judgment> judgments;
};

// The scenario fields a record may list as unpublished: the layout knobs search_layouts() varies,
// and sequence parallelism.
const std::vector<std::string>& unpublished_fields();

// One entry of a records file: its id (or "#<index>" when it has none) and family, and the record
// or the first error in it (a field path such as "scenario.training.tp" or "measured.unit").
struct RecordEntry {
  std::string id, family;
  Result<Record> record = Error{};
};

// A records file: a JSON array of records. Error: the text is not JSON or not an array (the whole
// file is refused); a malformed record is an entry with its error, and the others are read.
Result<std::vector<RecordEntry>> parse_records(const std::string& json_text);

}  // namespace llmc::validate
