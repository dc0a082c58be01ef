// What the two NCCL suites share (nccl_suite.cpp: every local GPU from one process;
// nccl_mpi_suite.cpp: one GPU per MPI rank): the operations, the error check, and how one rank
// enqueues one of them. Sizes are nccl-tests' "size" (llmc_bench/fit.h has the bus factors).
#pragma once
#ifdef LLMC_HAVE_NCCL
#include <cuda_runtime.h>
#include <nccl.h>

#include <cstddef>
#include <string>

#include "cuda_check.h"

#define NCCL_CHECK(call) LLMC_LIB_CHECK("NCCL", ncclResult_t, ncclSuccess, ncclGetErrorString, call)

namespace llmc::bench {

inline const char* const kNcclOps[] = {"all_reduce", "all_gather", "reduce_scatter", "all_to_all", "send_recv"};

// Rank `r` of `n` enqueues `op` of `bytes` (fp32 elements) on `stream`. Inside an NCCL group
// when one process drives several ranks.
inline void enqueue_collective(const std::string& op, void* send, void* recv, std::size_t bytes, int r, int n, ncclComm_t comm,
                               cudaStream_t stream) {
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

}  // namespace llmc::bench
#endif
