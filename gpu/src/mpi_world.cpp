#include "mpi_world.h"

#ifdef LLMC_HAVE_MPI
#include <mpi.h>

#include <vector>
#endif

namespace llmc::bench {

#ifndef LLMC_HAVE_MPI
bool mpi_built() { return false; }
std::string mpi_start(int*, char***, MpiWorld&) {
  return "this llmcalc-bench was built without MPI (configure with -DLLMC_BENCH_MPI=ON; Debian: libopenmpi-dev)";
}
void mpi_finish(const MpiWorld&, bool) {}
#else
bool mpi_built() { return true; }

std::string mpi_start(int* argc, char*** argv, MpiWorld& w) {
  if (MPI_Init(argc, argv) != MPI_SUCCESS) return "MPI_Init failed (run under mpirun / mpiexec)";
  w.active = true;
  MPI_Comm_rank(MPI_COMM_WORLD, &w.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &w.size);
  char name[MPI_MAX_PROCESSOR_NAME] = {};
  int len = 0;
  MPI_Get_processor_name(name, &len);
  std::vector<char> all(std::size_t(w.size) * MPI_MAX_PROCESSOR_NAME);
  MPI_Allgather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all.data(), MPI_MAX_PROCESSOR_NAME, MPI_CHAR, MPI_COMM_WORLD);
  std::vector<std::string> hosts;
  for (int r = 0; r < w.size; ++r) hosts.emplace_back(all.data() + std::size_t(r) * MPI_MAX_PROCESSOR_NAME);
  w.layout = rank_layout(hosts);
  return "";
}

void mpi_finish(const MpiWorld& w, bool failed) {
  if (!w.active) return;
  if (failed) MPI_Abort(MPI_COMM_WORLD, 1);
  MPI_Finalize();
}
#endif

}  // namespace llmc::bench
