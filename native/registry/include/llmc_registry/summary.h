// The figures a registry list shows for one profile, read from the profile core has parsed:
// what ran (GPU, device, driver, CUDA, bench version and commit) and what it measured (16-bit and
// fp8 GEMM maximum, HBM copy bandwidth, NCCL all-reduce bus bandwidth). Absent → null.
#pragma once
#include <nlohmann/json.hpp>

#include "llmc/hardware.h"

namespace llmc::registry {

// Keys, in this order (docs/registry.md, "List entry"): gpu, source, description, device,
// measured_at, bench_version, bench_git_sha, driver, cuda, gemm_bf16_max_tflops,
// gemm_fp8_max_tflops, hbm_copy_tbps, all_reduce_busbw_gbps, all_reduce_group.
nlohmann::ordered_json summary_fields(const HardwareProfile& p);

}  // namespace llmc::registry
