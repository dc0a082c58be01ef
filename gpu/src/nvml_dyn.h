// NVML telemetry (clocks, power, temperature, throttle reasons), loaded at run time with dlopen:
// libnvidia-ml.so.1 ships with the driver, not the toolkit, and this build machine has neither
// nvml.h nor the library. Without it every reading is marked invalid and the run goes on.
#pragma once
#include <string>

#include "llmc_bench/profile_builder.h"

namespace llmc::bench {

class Nvml {
 public:
  Nvml();  // loads and initialises NVML; available() says whether it worked
  ~Nvml();
  Nvml(const Nvml&) = delete;
  Nvml& operator=(const Nvml&) = delete;
  bool available() const { return dev_ != nullptr; }
  const std::string& why_unavailable() const { return why_; }
  // Binds to the CUDA device with this PCI bus id (CUDA and NVML may number devices differently).
  void bind(const std::string& pci_bus_id);
  Telemetry read() const;
  std::string driver_version() const;
  // "max SM clock N MHz, application SM clock M MHz" (what clocks the GPU may run at).
  std::string clock_policy() const;

 private:
  void* lib_ = nullptr;
  void* dev_ = nullptr;
  std::string why_;
};

}  // namespace llmc::bench
