// The host's cost of issuing one kernel from a native loop (docs/formulas.md, "Host issue"): an
// empty kernel launched back to back, host time per launch (the GPU runs each faster than the
// host issues it, so the host's rate is what is measured). With --overheads-json, PyTorch's
// costs per kernel measured by gpu/groundtruth/overheads.py join it in the profile.
#include <algorithm>
#include <chrono>
#include <vector>

#include "llmc_bench/overheads_import.h"
#include "suites.h"

namespace llmc::bench {

namespace {
__global__ void empty_kernel() {}
}  // namespace

void run_launch_suite(BenchContext& ctx) {
  const int launches = ctx.opt.quick ? 5000 : 20000, reps = 7;
  if (ctx.progress) ctx.progress->step("launch native", ctx.policy.budget_s);
  for (int i = 0; i < 1000; ++i) empty_kernel<<<1, 1, 0, ctx.stream>>>();
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaStreamSynchronize(ctx.stream));
  std::vector<double> us;
  for (int r = 0; r < reps; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < launches; ++i) empty_kernel<<<1, 1, 0, ctx.stream>>>();
    const auto t1 = std::chrono::steady_clock::now();
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaStreamSynchronize(ctx.stream));
    us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / launches);
  }
  std::vector<double> sorted = us;
  std::sort(sorted.begin(), sorted.end());
  ctx.profile.host_issue.native_us = sorted[sorted.size() / 2];
  ctx.raw.push_back({{"suite", "launch"},
                     {"label", "empty kernel, host microseconds per launch"},
                     {"launches", launches},
                     {"samples_us", us}});
  std::string python = "; PyTorch's not measured (run gpu/groundtruth/overheads.py, pass --overheads-json)";
  if (!ctx.opt.overheads_json.empty()) {
    Result<HostIssue> imp = import_overheads(read_flag_file("launch", "--overheads-json", ctx.opt.overheads_json));
    if (!imp) throw BenchError("launch: " + imp.error().text());
    ctx.profile.host_issue.python_eager_us = imp->python_eager_us;
    ctx.profile.host_issue.python_fused_us = imp->python_fused_us;
    python = "; PyTorch eager " + std::to_string(imp->python_eager_us) + " µs, fused " +
             std::to_string(imp->python_fused_us) + " µs per kernel from " + ctx.opt.overheads_json;
  }
  ctx.note("launch: native " + std::to_string(ctx.profile.host_issue.native_us) + " µs per kernel" + python);
}

}  // namespace llmc::bench
