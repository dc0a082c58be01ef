// Pinned host <-> device copy bandwidth (what offloading and data loading see), one large copy
// each way; no L2 flush (the copy engines bypass the compute caches).
#include "dtypes.h"
#include "suites.h"

namespace llmc::bench {

void run_h2d_suite(BenchContext& ctx) {
  const std::size_t bytes = ctx.opt.quick ? (std::size_t(256) << 20) : (std::size_t(1) << 30);
  PinnedBuffer host(bytes);
  DeviceBuffer dev(bytes);
  fill_normal(dev.get(), Elem::f32, bytes / 4, 1, 40, ctx.stream);
  CUDA_CHECK(cudaMemcpyAsync(host.get(), dev.get(), bytes, cudaMemcpyDeviceToHost, ctx.stream));
  CUDA_CHECK(cudaStreamSynchronize(ctx.stream));
  const nlohmann::json params{{"bytes", bytes}, {"memory", "pinned"}};
  if (ctx.progress) ctx.progress->step("h2d host->device", ctx.policy.budget_s);
  auto h2d = ctx.time(
      "h2d", "host->device pinned",
      [&](cudaStream_t s) { CUDA_CHECK(cudaMemcpyAsync(dev.get(), host.get(), bytes, cudaMemcpyHostToDevice, s)); },
      params, false);
  if (ctx.progress) ctx.progress->step("h2d device->host", ctx.policy.budget_s);
  auto d2h = ctx.time(
      "h2d", "device->host pinned",
      [&](cudaStream_t s) { CUDA_CHECK(cudaMemcpyAsync(host.get(), dev.get(), bytes, cudaMemcpyDeviceToHost, s)); },
      params, false);
  ctx.profile.h2d_gbps = bandwidth_point(double(bytes), h2d).gbps;
  ctx.profile.d2h_gbps = bandwidth_point(double(bytes), d2h).gbps;
}

}  // namespace llmc::bench
