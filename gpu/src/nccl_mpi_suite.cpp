// NCCL collectives across nodes: llmcalc-bench --mpi under mpirun, one process per GPU
// (docs/bench.md, "Several machines"). Rank 0 makes the ncclUniqueId and broadcasts it, every
// rank joins with ncclCommInitRank and drives its own GPU. Each sample starts after an
// MPI_Barrier and counts as long as the slowest rank (MPI_Allreduce MAX of the event times),
// so every rank holds the same samples; rank 0 decides when the median is stable and says so
// to the others, and only rank 0 records. The tier is inter_node when the ranks span hosts.
#include "mpi_world.h"
#include "nccl_ops.h"
#include "suites.h"

#if defined(LLMC_HAVE_MPI) && defined(LLMC_HAVE_NCCL)
#include <mpi.h>

#include <cstdint>

#include "dtypes.h"
#endif

namespace llmc::bench {

#if !defined(LLMC_HAVE_MPI) || !defined(LLMC_HAVE_NCCL)
void run_nccl_mpi_suite(BenchContext& ctx, const MpiWorld&) {
  ctx.note("nccl (mpi): skipped (this llmcalc-bench was built without MPI or without NCCL)");
}
#else

namespace {

struct Buffers {
  void* send = nullptr;
  void* recv = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;
  ncclComm_t comm = nullptr;
  ~Buffers() {
    cudaFree(send);
    cudaFree(recv);
    if (start) cudaEventDestroy(start);
    if (stop) cudaEventDestroy(stop);
    if (comm) ncclCommDestroy(comm);
  }
};

// One sample: seconds of the slowest rank, the same value on every rank.
double timed(const std::string& op, Buffers& b, std::size_t bytes, const MpiWorld& w, cudaStream_t stream) {
  MPI_Barrier(MPI_COMM_WORLD);
  CUDA_CHECK(cudaEventRecord(b.start, stream));
  enqueue_collective(op, b.send, b.recv, bytes, w.rank, w.size, b.comm, stream);
  CUDA_CHECK(cudaEventRecord(b.stop, stream));
  CUDA_CHECK(cudaEventSynchronize(b.stop));
  float ms = 0;
  CUDA_CHECK(cudaEventElapsedTime(&ms, b.start, b.stop));
  double mine = double(ms) * 1e-3, slowest = 0;
  MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return slowest;
}

// All-reduce of rank+1 must give n(n+1)/2 on every rank; true on every rank only if so.
bool check_all_reduce(Buffers& b, const MpiWorld& w, cudaStream_t stream) {
  const std::size_t count = 4096;
  std::vector<float> h(count, float(w.rank + 1));
  CUDA_CHECK(cudaMemcpy(b.send, h.data(), count * sizeof(float), cudaMemcpyHostToDevice));
  enqueue_collective("all_reduce", b.send, b.recv, count * sizeof(float), w.rank, w.size, b.comm, stream);
  CUDA_CHECK(cudaStreamSynchronize(stream));
  CUDA_CHECK(cudaMemcpy(h.data(), b.recv, count * sizeof(float), cudaMemcpyDeviceToHost));
  const float want = float(w.size) * float(w.size + 1) / 2;
  int ok = 1, all_ok = 0;
  for (float x : h) ok &= x == want ? 1 : 0;
  MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return all_ok == 1;
}

}  // namespace

void run_nccl_mpi_suite(BenchContext& ctx, const MpiWorld& w) {
  const bool root = w.rank == 0;
  if (w.size < 2) {
    ctx.note("nccl (mpi): skipped (1 MPI rank; start one process per GPU, e.g. mpirun -np 16 -H a:8,b:8)");
    return;
  }
  // The largest message every rank has room for (send + recv + slack).
  std::size_t free_b = 0, total_b = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
  long long mine = (long long)(free_b / 3), cap = 0;
  MPI_Allreduce(&mine, &cap, 1, MPI_LONG_LONG, MPI_MIN, MPI_COMM_WORLD);
  const std::vector<int64_t> sizes = message_sizes_bytes(ctx.opt.quick, int64_t(cap));
  if (sizes.empty()) {
    ctx.note("nccl (mpi): skipped (not enough free GPU memory for a 1 KiB message on some rank)");
    return;
  }
  ncclUniqueId id;
  if (root) NCCL_CHECK(ncclGetUniqueId(&id));
  MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD);
  Buffers b;
  NCCL_CHECK(ncclCommInitRank(&b.comm, w.size, id, w.rank));
  const std::size_t max_bytes = std::size_t(sizes.back());
  CUDA_CHECK(cudaMalloc(&b.send, max_bytes));
  CUDA_CHECK(cudaMalloc(&b.recv, max_bytes));
  CUDA_CHECK(cudaEventCreate(&b.start));
  CUDA_CHECK(cudaEventCreate(&b.stop));
  fill_normal(b.send, Elem::f32, max_bytes / sizeof(float), 1, uint64_t(100 + w.rank), ctx.stream);
  CUDA_CHECK(cudaStreamSynchronize(ctx.stream));

  if (!check_all_reduce(b, w, ctx.stream)) {
    ctx.note("nccl (mpi): all-reduce correctness check FAILED on some rank; collectives not timed");
    ctx.correctness_failed = true;
    return;
  }
  const std::string where = std::to_string(w.size) + " ranks on " + std::to_string(w.layout.nodes) + " node(s)";
  for (const char* op : kNcclOps) {
    CollectiveTable table;
    table.op = op;
    table.group = w.size;
    table.tier = w.layout.tier;
    for (int64_t size : sizes) {
      const std::size_t bytes = whole_floats(size, w.size);
      const std::string label = std::string("nccl-mpi ") + op + " " + where + " " + std::to_string(size) + " B";
      if (root && ctx.progress) ctx.progress->step(label, ctx.policy.budget_s);
      if (bytes == 0) continue;
      for (int i = 0; i < ctx.policy.warmup; ++i) timed(op, b, bytes, w, ctx.stream);
      // Every rank has the same samples, but only rank 0's clock decides, so all stop together.
      auto rank0_decides = [](bool more) {
        int m = more ? 1 : 0;
        MPI_Bcast(&m, 1, MPI_INT, 0, MPI_COMM_WORLD);
        return m != 0;
      };
      const std::vector<double> t = sample_collective(
          ctx.policy, [&] { return timed(op, b, bytes, w, ctx.stream); }, rank0_decides);
      if (!root) continue;
      record_collective(
          ctx, "nccl-mpi", label,
          {{"op", op}, {"ranks", w.size}, {"nodes", w.layout.nodes}, {"tier", w.layout.tier}, {"bytes", bytes}}, op,
          w.size, bytes, t, table);
    }
    if (root) ctx.profile.collectives.push_back(std::move(table));
  }
}
#endif

}  // namespace llmc::bench
