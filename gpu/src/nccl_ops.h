// What the two NCCL suites share (nccl_suite.cpp: every local GPU from one process;
// nccl_mpi_suite.cpp: one GPU per MPI rank): the operations, the error check, how one rank
// enqueues one of them, the sampling rule and how a measurement is kept. Sizes are nccl-tests'
// "size" (llmc_bench/fit.h has the bus factors).
#pragma once
#ifdef LLMC_HAVE_NCCL
#include <cuda_runtime.h>
#include <nccl.h>

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

#include "context.h"
#include "cuda_check.h"
#include "llmc_bench/fit.h"
#include "llmc_bench/stats.h"

#define NCCL_CHECK(call) LLMC_LIB_CHECK("NCCL", ncclResult_t, ncclSuccess, ncclGetErrorString, call)

namespace llmc::bench {

inline const char* const kNcclOps[] = {"all_reduce", "all_gather", "reduce_scatter", "all_to_all", "send_recv"};

// Rank `r` of `n` enqueues `op` of `bytes` (fp32 elements) on `stream`. Inside an NCCL group
// when one process drives several ranks.
inline void enqueue_collective(const std::string& op, void* send, void* recv, std::size_t bytes, int r, int n,
                               ncclComm_t comm, cudaStream_t stream) {
  const std::size_t count = bytes / sizeof(float);
  if (op == "all_reduce") {
    NCCL_CHECK(ncclAllReduce(send, recv, count, ncclFloat, ncclSum, comm, stream));
  } else if (op == "all_gather") {
    NCCL_CHECK(ncclAllGather(send, recv, count / std::size_t(n), ncclFloat, comm, stream));
  } else if (op == "reduce_scatter") {
    NCCL_CHECK(ncclReduceScatter(send, recv, count / std::size_t(n), ncclFloat, ncclSum, comm, stream));
  } else if (op == "all_to_all") {
    const std::size_t chunk = count / std::size_t(n);
    NCCL_CHECK(ncclGroupStart());
    for (int p = 0; p < n; ++p) {
      NCCL_CHECK(ncclSend(static_cast<float*>(send) + std::size_t(p) * chunk, chunk, ncclFloat, p, comm, stream));
      NCCL_CHECK(ncclRecv(static_cast<float*>(recv) + std::size_t(p) * chunk, chunk, ncclFloat, p, comm, stream));
    }
    NCCL_CHECK(ncclGroupEnd());
  } else {  // send_recv: a ring, every rank sends to the next and receives from the previous
    NCCL_CHECK(ncclGroupStart());
    NCCL_CHECK(ncclSend(send, count, ncclFloat, (r + 1) % n, comm, stream));
    NCCL_CHECK(ncclRecv(recv, count, ncclFloat, (r + n - 1) % n, comm, stream));
    NCCL_CHECK(ncclGroupEnd());
  }
}

// `size` bytes rounded down to whole floats in every rank's chunk.
inline std::size_t whole_floats(int64_t size, int ranks) {
  const std::size_t unit = sizeof(float) * std::size_t(ranks);
  return std::size_t(size) / unit * unit;
}

// Samples `one()` until the median is stable, max_samples are taken, or the time budget is spent
// (with at least 3). `agree(more)` returns the decision every process follows (several MPI ranks
// must stop together); one process passes it through.
template <class Sample, class Agree>
std::vector<double> sample_collective(const SamplePolicy& p, Sample one, Agree agree) {
  std::vector<double> t;
  const auto start = std::chrono::steady_clock::now();
  for (bool more = true; more;) {
    t.push_back(one());
    const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    more = agree(!(t.size() >= p.max_samples || median_is_stable(t, p.rel_halfwidth, p.min_samples) ||
                   (spent > p.budget_s && t.size() >= 3)));
  }
  return t;
}

// Keeps one collective measurement: NVML telemetry, the raw record (every sample, statistics,
// bus bandwidth; `params` says what was measured) and the profile table's point.
inline void record_collective(BenchContext& ctx, const char* suite, const std::string& label, nlohmann::json params,
                              const std::string& op, int ranks, std::size_t bytes, const std::vector<double>& t,
                              CollectiveTable& table) {
  const Telemetry tel = ctx.nvml ? ctx.nvml->read() : Telemetry{};
  ctx.meta.telemetry.push_back({"nccl", label, tel});
  const SampleStats st = summarize(t);
  ctx.raw.push_back({{"suite", suite},
                     {"label", label},
                     {"params", std::move(params)},
                     {"seconds", t},
                     {"median_s", st.median},
                     {"p10_s", st.p10},
                     {"p90_s", st.p90},
                     {"cv", st.cv},
                     {"busbw_gbps", busbw_gbps(op, ranks, double(bytes), st.median)}});
  table.points.push_back(collective_point(op, ranks, double(bytes), t));
}

}  // namespace llmc::bench
#endif
