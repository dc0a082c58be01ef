// The MPI side of `llmcalc-bench --mpi` (configure with -DLLMC_BENCH_MPI=ON; Debian
// libopenmpi-dev): the world's size, this process's rank, and where the ranks sit.
#pragma once
#include <string>

#include "context.h"
#include "llmc_bench/rank_layout.h"

namespace llmc::bench {

struct MpiWorld {
  bool active = false;  // MPI_Init was called (--mpi)
  int rank = 0, size = 1;
  RankLayout layout;
  int local_rank() const { return layout.local_rank.empty() ? 0 : layout.local_rank[std::size_t(rank)]; }
};

// Whether this build can run --mpi.
bool mpi_built();
// MPI_Init and the rank layout (every rank's MPI_Get_processor_name); "" on success, else why not.
std::string mpi_start(int* argc, char*** argv, MpiWorld& w);
// MPI_Finalize when started; MPI_Abort instead when `failed`, so no rank waits forever on a
// collective another rank will never join.
void mpi_finish(const MpiWorld& w, bool failed);

// The collectives across every rank of the world (nccl_mpi_suite.cpp).
void run_nccl_mpi_suite(BenchContext& ctx, const MpiWorld& w);

}  // namespace llmc::bench
