#include "core/early_context.hpp"

#include <cuda_runtime.h>

namespace spk {

EarlyDeviceContext::EarlyDeviceContext(int device)
    : thread_([device] {
        // Errors are the solver's to report (see the header): cleared here, not checked.
        if (cudaSetDevice(device) != cudaSuccess || cudaFree(nullptr) != cudaSuccess)
          (void)cudaGetLastError();
      }) {}

namespace {

int current_device() {
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess) (void)cudaGetLastError();
  return device;
}

}  // namespace

EarlyDeviceContext::EarlyDeviceContext() : EarlyDeviceContext(current_device()) {}

EarlyDeviceContext::~EarlyDeviceContext() {
  thread_.join();
}

}  // namespace spk
