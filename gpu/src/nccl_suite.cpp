// NCCL collectives across all local GPUs from one process (ncclCommInitAll, one communicator per
// device, launched in one group). Sizes are nccl-tests' "size": the all-reduce buffer, the
// all-gather output, the reduce-scatter input, the all-to-all send buffer, the send/recv message.
// Bus bandwidth uses nccl-tests' factors (llmc_bench/fit.h). Across nodes: nccl_mpi_suite.cpp.
#include "dtypes.h"
#include "nccl_ops.h"
#include "suites.h"

#ifdef LLMC_HAVE_NCCL
#include <algorithm>
#endif

namespace llmc::bench {

int nccl_measurement_count(const BenchContext& ctx, int gpus) {
  if (gpus < 2) return 0;
  constexpr std::size_t kOps = 5;  // kNcclOps (nccl_ops.h, which needs nccl.h)
  return int(kOps * message_sizes_bytes(ctx.opt.quick, int64_t(8) << 30).size());
}

#ifndef LLMC_HAVE_NCCL
void run_nccl_suite(BenchContext& ctx) {
  ctx.note("nccl: skipped (built without NCCL: nccl.h or libnccl not found at configure time)");
}
#else

namespace {

struct Rank {
  int device = 0;
  ncclComm_t comm = nullptr;
  cudaStream_t stream = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;
  void* send = nullptr;
  void* recv = nullptr;
};

// Enqueues one collective of `bytes` on every rank inside one NCCL group.
void launch(const std::string& op, std::vector<Rank>& ranks, std::size_t bytes) {
  const int n = int(ranks.size());
  NCCL_CHECK(ncclGroupStart());
  for (int r = 0; r < n; ++r) {
    Rank& k = ranks[std::size_t(r)];
    enqueue_collective(op, k.send, k.recv, bytes, r, n, k.comm, k.stream);
  }
  NCCL_CHECK(ncclGroupEnd());
}

// Seconds of the slowest rank (a collective ends when its last rank does).
double timed(const std::string& op, std::vector<Rank>& ranks, std::size_t bytes) {
  for (Rank& k : ranks) {
    CUDA_CHECK(cudaSetDevice(k.device));
    CUDA_CHECK(cudaEventRecord(k.start, k.stream));
  }
  launch(op, ranks, bytes);
  double worst = 0;
  for (Rank& k : ranks) {
    CUDA_CHECK(cudaSetDevice(k.device));
    CUDA_CHECK(cudaEventRecord(k.stop, k.stream));
  }
  for (Rank& k : ranks) {
    CUDA_CHECK(cudaSetDevice(k.device));
    CUDA_CHECK(cudaEventSynchronize(k.stop));
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, k.start, k.stop));
    worst = std::max(worst, double(ms) * 1e-3);
  }
  return worst;
}

// All-reduce of rank+1 on every rank must give n(n+1)/2 everywhere.
bool check_all_reduce(std::vector<Rank>& ranks) {
  const std::size_t count = 4096;
  const int n = int(ranks.size());
  for (int r = 0; r < n; ++r) {
    std::vector<float> h(count, float(r + 1));
    CUDA_CHECK(cudaSetDevice(ranks[std::size_t(r)].device));
    CUDA_CHECK(cudaMemcpy(ranks[std::size_t(r)].send, h.data(), count * sizeof(float), cudaMemcpyHostToDevice));
  }
  launch("all_reduce", ranks, count * sizeof(float));
  const float want = float(n * (n + 1) / 2);
  for (Rank& k : ranks) {
    std::vector<float> h(count);
    CUDA_CHECK(cudaSetDevice(k.device));
    CUDA_CHECK(cudaStreamSynchronize(k.stream));
    CUDA_CHECK(cudaMemcpy(h.data(), k.recv, count * sizeof(float), cudaMemcpyDeviceToHost));
    for (float x : h)
      if (x != want) return false;
  }
  return true;
}

}  // namespace

void run_nccl_suite(BenchContext& ctx) {
  int n = 0;
  CUDA_CHECK(cudaGetDeviceCount(&n));
  if (n < 2) {
    ctx.note("nccl: skipped (" + std::to_string(n) +
             " GPU visible; collectives need at least 2 on this machine; for several "
             "machines see docs/bench.md, multi-node)");
    return;
  }
  // Buffers: the largest size that leaves room on the smallest GPU (send + recv + slack).
  std::size_t free_min = SIZE_MAX;
  for (int d = 0; d < n; ++d) {
    CUDA_CHECK(cudaSetDevice(d));
    std::size_t fr = 0, tot = 0;
    CUDA_CHECK(cudaMemGetInfo(&fr, &tot));
    free_min = std::min(free_min, fr);
  }
  const int64_t cap = int64_t(free_min / 3);
  std::vector<int64_t> sizes = message_sizes_bytes(ctx.opt.quick, cap);
  if (sizes.empty()) {
    ctx.note("nccl: skipped (not enough free GPU memory for a 1 KiB message)");
    return;
  }
  const std::size_t max_bytes = std::size_t(sizes.back());
  std::vector<Rank> ranks(static_cast<std::size_t>(n));
  std::vector<ncclComm_t> comms(static_cast<std::size_t>(n));
  NCCL_CHECK(ncclCommInitAll(comms.data(), n, nullptr));
  for (int d = 0; d < n; ++d) {
    Rank& k = ranks[std::size_t(d)];
    k.device = d;
    k.comm = comms[std::size_t(d)];
    CUDA_CHECK(cudaSetDevice(d));
    CUDA_CHECK(cudaStreamCreateWithFlags(&k.stream, cudaStreamNonBlocking));
    CUDA_CHECK(cudaEventCreate(&k.start));
    CUDA_CHECK(cudaEventCreate(&k.stop));
    CUDA_CHECK(cudaMalloc(&k.send, max_bytes));
    CUDA_CHECK(cudaMalloc(&k.recv, max_bytes));
    fill_normal(k.send, Elem::f32, max_bytes / sizeof(float), 1, uint64_t(100 + d), k.stream);
  }
  auto cleanup = [&] {
    for (Rank& k : ranks) {
      cudaSetDevice(k.device);
      cudaFree(k.send);
      cudaFree(k.recv);
      cudaEventDestroy(k.start);
      cudaEventDestroy(k.stop);
      cudaStreamDestroy(k.stream);
      ncclCommDestroy(k.comm);
    }
    cudaSetDevice(ctx.device);
  };
  try {
    if (!check_all_reduce(ranks)) {
      ctx.note("nccl: all-reduce correctness check FAILED; collectives not timed");
      ctx.correctness_failed = true;
      cleanup();
      return;
    }
    for (const char* op : kNcclOps) {
      CollectiveTable table;
      table.op = op;
      table.group = n;
      table.tier = "intra_node";
      for (int64_t size : sizes) {
        const std::size_t bytes = whole_floats(size, n);
        const std::string label =
            std::string("nccl ") + op + " " + std::to_string(n) + " GPUs " + std::to_string(size) + " B";
        if (ctx.progress) ctx.progress->step(label, ctx.policy.budget_s);
        if (bytes == 0) continue;
        for (int w = 0; w < ctx.policy.warmup; ++w) timed(op, ranks, bytes);
        const std::vector<double> t = sample_collective(
            ctx.policy, [&] { return timed(op, ranks, bytes); }, [](bool more) { return more; });
        record_collective(ctx, "nccl", label, {{"op", op}, {"ranks", n}, {"bytes", bytes}}, op, n, bytes, t, table);
      }
      ctx.profile.collectives.push_back(std::move(table));
    }
  } catch (...) {
    cleanup();
    throw;
  }
  cleanup();
}
#endif

}  // namespace llmc::bench
