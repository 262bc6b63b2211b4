#pragma once
// EarlyDeviceContext: a GPU's primary context created on a thread of its own (cudaSetDevice,
// then cudaFree(nullptr)), so that the caller's host work meanwhile (the app reading or
// generating the matrix) hides it. The solver's setup then finds the context made, instead of
// waiting for it: 0.2 s on one H200, 0.35-0.45 s when four processes create theirs at once.
// A failure is left for the solver's own calls to report (it is not ours to name: the config
// may fall back to the CPU). The destructor waits for the thread.
#include <thread>

namespace spk {

class EarlyDeviceContext {
 public:
  explicit EarlyDeviceContext(int device);
  EarlyDeviceContext();  // the calling thread's current device (cudaGetDevice: no context yet)
  ~EarlyDeviceContext();
  EarlyDeviceContext(const EarlyDeviceContext&) = delete;
  EarlyDeviceContext& operator=(const EarlyDeviceContext&) = delete;

 private:
  std::thread thread_;
};

}  // namespace spk
