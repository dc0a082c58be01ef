#include "nvml_dyn.h"

#include <dlfcn.h>

namespace llmc::bench {
namespace {

// The few NVML entry points used, with the C ABI of nvml.h (return 0 = NVML_SUCCESS).
using InitFn = int (*)();
using ShutdownFn = int (*)();
using ByPciFn = int (*)(const char*, void**);
using ClockFn = int (*)(void*, int, unsigned*);  // nvmlClockType_t: 1 = SM, 2 = MEM
using PowerFn = int (*)(void*, unsigned*);       // milliwatts
using TempFn = int (*)(void*, int, unsigned*);   // sensor 0 = GPU
using ReasonsFn = int (*)(void*, unsigned long long*);
using DriverFn = int (*)(char*, unsigned);

template <class F>
F sym(void* lib, const char* name) {
  return lib ? reinterpret_cast<F>(dlsym(lib, name)) : nullptr;
}

}  // namespace

Nvml::Nvml() {
  lib_ = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib_) {
    why_ = std::string("cannot load libnvidia-ml.so.1: ") + dlerror();
    return;
  }
  auto init = sym<InitFn>(lib_, "nvmlInit_v2");
  if (!init || init() != 0) {
    why_ = "nvmlInit_v2 failed";
    dlclose(lib_);
    lib_ = nullptr;
  }
}

Nvml::~Nvml() {
  if (!lib_) return;
  if (auto shut = sym<ShutdownFn>(lib_, "nvmlShutdown")) shut();
  dlclose(lib_);
}

void Nvml::bind(const std::string& pci) {
  auto by_pci = sym<ByPciFn>(lib_, "nvmlDeviceGetHandleByPciBusId_v2");
  if (!by_pci) {
    if (why_.empty()) why_ = "NVML lacks nvmlDeviceGetHandleByPciBusId_v2";
    return;
  }
  void* d = nullptr;
  if (by_pci(pci.c_str(), &d) == 0)
    dev_ = d;
  else
    why_ = "NVML does not know PCI device " + pci;
}

Telemetry Nvml::read() const {
  Telemetry t;
  if (!dev_) return t;
  unsigned v = 0;
  if (auto clk = sym<ClockFn>(lib_, "nvmlDeviceGetClockInfo")) {
    if (clk(dev_, 1, &v) == 0) t.sm_clock_mhz = v;
    if (clk(dev_, 2, &v) == 0) t.mem_clock_mhz = v;
  }
  if (auto pw = sym<PowerFn>(lib_, "nvmlDeviceGetPowerUsage"); pw && pw(dev_, &v) == 0) t.power_w = v / 1000.0;
  if (auto tf = sym<TempFn>(lib_, "nvmlDeviceGetTemperature"); tf && tf(dev_, 0, &v) == 0) t.temperature_c = v;
  unsigned long long reasons = 0;
  auto rf = sym<ReasonsFn>(lib_, "nvmlDeviceGetCurrentClocksEventReasons");
  if (!rf) rf = sym<ReasonsFn>(lib_, "nvmlDeviceGetCurrentClocksThrottleReasons");  // older drivers
  if (rf && rf(dev_, &reasons) == 0) t.throttle_reasons = reasons;
  t.valid = true;
  return t;
}

std::string Nvml::driver_version() const {
  char buf[96] = {};
  auto f = sym<DriverFn>(lib_, "nvmlSystemGetDriverVersion");
  if (f && f(buf, sizeof buf) == 0) return buf;
  return "";
}

std::string Nvml::clock_policy() const {
  if (!dev_) return "unknown (NVML unavailable: " + why_ + ")";
  unsigned max_sm = 0, app_sm = 0;
  auto max_clk = sym<ClockFn>(lib_, "nvmlDeviceGetMaxClockInfo");
  auto app_clk = sym<ClockFn>(lib_, "nvmlDeviceGetApplicationsClock");
  if (max_clk) max_clk(dev_, 1, &max_sm);
  if (app_clk) app_clk(dev_, 1, &app_sm);
  return "clocks not locked by llmcalc-bench; max SM clock " + std::to_string(max_sm) + " MHz, application SM clock " +
         std::to_string(app_sm) + " MHz (per-measurement clocks under metadata.telemetry)";
}

}  // namespace llmc::bench
