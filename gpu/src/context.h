// What every suite shares: the device, a stream, the L2 flush buffer, the sampling policy,
// telemetry, the raw log and the profile under construction.
#pragma once
#include <cuda_runtime.h>

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "device_buffer.h"
#include "llmc/hardware.h"
#include "llmc_bench/grids.h"
#include "llmc_bench/options.h"
#include "llmc_bench/profile_builder.h"
#include "llmc_bench/progress.h"
#include "nvml_dyn.h"

namespace llmc::bench {

// How long to sample one measurement: stop when the median is stable (±1% 95% CI, ≥ min
// samples), or at max_samples, or when the time budget is spent (whichever first).
struct SamplePolicy {
  int warmup = 3;
  std::size_t min_samples = 5, max_samples = 50;
  double budget_s = 0.5;  // wall-clock seconds of sampling per measurement
  double rel_halfwidth = 0.01;
};

struct BenchContext {
  Options opt;
  int device = 0;
  cudaDeviceProp prop{};
  cudaStream_t stream = nullptr;
  DeviceBuffer l2_flush;  // > L2 size; memset between samples evicts the previous inputs
  Nvml* nvml = nullptr;
  SamplePolicy policy;
  std::vector<GemmShape> model_shapes;
  HardwareProfile profile;  // tables filled by the suites
  RunMetadata meta;
  nlohmann::json raw = nlohmann::json::array();  // every measurement with its samples
  Progress* progress = nullptr;
  bool correctness_failed = false;

  // Times `launch` (enqueued on `stream`) with CUDA events; the L2 is flushed before each sample.
  // Records the samples, their statistics and an NVML reading in the raw log and telemetry.
  std::vector<double> time(const std::string& suite, const std::string& label,
                           const std::function<void(cudaStream_t)>& launch, const nlohmann::json& params = {},
                           bool flush_l2 = true);
  // The same for a single short trial (algorithm selection): median of `reps` samples, no log.
  double quick_median(const std::function<void(cudaStream_t)>& launch, int reps);
  void flush();
  void note(const std::string& s);  // a skipped suite or point: printed and kept in metadata
};

// The text of the file a flag names (--attention-json, --overheads-json); throws BenchError
// "<suite>: cannot read <flag> <path>" when it cannot be read.
std::string read_flag_file(const std::string& suite, const std::string& flag, const std::string& path);

}  // namespace llmc::bench
