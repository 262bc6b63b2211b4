#pragma once
// DeviceBuffer<T>: an owning, move-only array in device memory. Allocation failures throw
// spk::OutOfDeviceMemory with the bytes requested and the bytes free, so a user can pick
// a more compact format, and the library's largest live arrays, so a setup that ran out says
// what took the memory. The memory is released on every path, errors included. Every
// allocation and release is counted (device_memory_meter.hpp): the setups report their peak.
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "core/cuda_check.hpp"

namespace spk {

// Allocates `bytes` of device memory; `what` names the array in the error message and in the
// meter (device_memory_meter.hpp).
void* device_allocate(std::size_t bytes, const std::string& what);
void device_free(void* pointer) noexcept;

// The current device's memory as cudaMemGetInfo sees it (all users: this process's arrays,
// CUDA libraries' workspaces, other processes); zeros when it cannot be read. Never throws.
struct DeviceMemoryInfo {
  std::size_t free_bytes = 0;
  std::size_t total_bytes = 0;
};
DeviceMemoryInfo device_memory_info() noexcept;
// A host<->device copy that has landed when it returns. It runs on the calling thread's
// default stream (cudaStreamPerThread), so it neither synchronizes the device nor orders
// against the caller's streams; callers that share the buffer with a stream synchronize
// that stream first.
void copy_synchronously(void* destination, const void* source, std::size_t bytes,
                        cudaMemcpyKind kind);

template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t count, const std::string& what = "device array")
      : count_(count) {
    if (count_ > 0) data_ = static_cast<T*>(device_allocate(count_ * sizeof(T), what));
  }
  DeviceBuffer(const std::vector<T>& host, const std::string& what = "device array")
      : DeviceBuffer(host.size(), what) {
    copy_from_host(host);
  }
  ~DeviceBuffer() { device_free(data_); }

  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    if (this != &other) {
      device_free(data_);
      data_ = std::exchange(other.data_, nullptr);
      count_ = std::exchange(other.count_, 0);
    }
    return *this;
  }

  T* data() { return data_; }
  const T* data() const { return data_; }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }

  void copy_from_host(const std::vector<T>& host) {
    if (host.size() != count_) throw Error("DeviceBuffer::copy_from_host: size mismatch");
    if (count_ > 0) copy_synchronously(data_, host.data(), bytes(), cudaMemcpyHostToDevice);
  }
  std::vector<T> to_host() const {
    std::vector<T> host(count_);
    if (count_ > 0) copy_synchronously(host.data(), data_, bytes(), cudaMemcpyDeviceToHost);
    return host;
  }

 private:
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

// A new device array of `count` elements copied from the device array `source`, on `stream`
// (asynchronous: `source` must stay valid until the stream has run the copy).
template <class U>
DeviceBuffer<U> copy_device_array(const U* source, std::size_t count, const std::string& what,
                                  cudaStream_t stream) {
  DeviceBuffer<U> copy(count, what);
  if (count > 0)
    SPK_CUDA_CHECK(
        cudaMemcpyAsync(copy.data(), source, count * sizeof(U), cudaMemcpyDeviceToDevice, stream));
  return copy;
}

// `count` elements of a device array, copied to the host on `stream` (landed on return).
template <class U>
std::vector<U> download_array(const U* source, std::size_t count, cudaStream_t stream) {
  std::vector<U> host(count);
  if (count == 0) return host;
  SPK_CUDA_CHECK(
      cudaMemcpyAsync(host.data(), source, count * sizeof(U), cudaMemcpyDeviceToHost, stream));
  SPK_CUDA_CHECK(cudaStreamSynchronize(stream));
  return host;
}

}  // namespace spk
