#pragma once
// The library's own device memory, counted: every DeviceBuffer allocation and release goes
// through device_allocate/device_free (device_buffer.hpp), which tell the process's meter
// (device_memory_meter()). It keeps
//
//   held        bytes the library's live arrays hold now (allocated - freed)
//   live        the live arrays by name: an out-of-device-memory error lists the largest
//               holders (largest_holders), so a failed setup says which level or buffer took
//               the memory
//
// and a DeviceMemoryWatch measures one span (a solver's setup) against it: the most the held
// bytes rose above their level when the watch began (peak), what they are when it ends
// (steady), the largest single array allocated in between, and what the library held at the
// peak, by name (peak_holders: taken each time the held bytes pass the last snapshot's by
// 1/64, so within about 1.6% of the peak, at a cost of O(live arrays) per snapshot). Memory CUDA
// libraries take for themselves (cuBLAS/cuSPARSE workspaces, NCCL) is not counted: cudaMemGetInfo
// snapshots (device_memory_snapshot, device_buffer.hpp) see it.
//
// One meter per process (per module that links spk_core: the MPI plugin has its own), all
// devices together; thread-safe (one mutex: an allocation costs far more than the lock).
// Nothing here calls CUDA: the CPU tests drive the meter with made-up sizes.
#include <cstddef>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace spk {

class DeviceMemoryWatch;

// An array, or all live arrays of one name, and their bytes.
struct MemoryHolder {
  std::string what;
  std::size_t bytes = 0;
  std::size_t arrays = 1;
};

class DeviceMemoryMeter {
 public:
  // `pointer` (any unique key) now holds `bytes` allocated for `what`.
  void allocated(const void* pointer, std::size_t bytes, const std::string& what);
  // `pointer` is released; unknown pointers (null, or allocated before counting) are ignored.
  void freed(const void* pointer);
  // `pointer` now holds `what` (an array taken over by another owner: the solver's values
  // that AMG's A_0 takes); unknown pointers are ignored.
  void renamed(const void* pointer, const std::string& what);

  std::size_t held_bytes() const;
  std::size_t live_arrays() const;
  // The live arrays grouped by name, largest total first, at most `count` of them.
  std::vector<MemoryHolder> largest_holders(std::size_t count) const;
  // One line for an error message: "the library holds 12.5 GB in 40 arrays; largest: AMG A_0
  // values 8.0 GB, ellpack-r values 2.1 GB (3 arrays), ..." ("" when it holds nothing).
  std::string holders_text(std::size_t count = 4) const;

 private:
  friend class DeviceMemoryWatch;
  struct Live {
    std::size_t bytes;
    std::string what;
  };
  mutable std::mutex mutex_;
  std::unordered_map<const void*, Live> live_;
  std::size_t held_ = 0;
  std::vector<DeviceMemoryWatch*> watches_;
};

// The process's meter, which device_allocate/device_free tell.
DeviceMemoryMeter& device_memory_meter();

// What a span of work (a setup) did to the library's device memory, in bytes.
struct DeviceMemorySpan {
  std::size_t held_at_start = 0;  // the library's arrays when the span began
  std::size_t peak = 0;           // the most they rose above held_at_start during it
  std::size_t steady = 0;         // held now - held_at_start (0 if less): what the span kept
  std::size_t largest_bytes = 0;  // the largest single array allocated during the span
  std::string largest_what;       // and its name
  // Everything the library held (arrays from before the span included) at the snapshot
  // nearest the peak, grouped by name, largest first, at most DeviceMemoryWatch::holders_kept.
  std::vector<MemoryHolder> peak_holders;
};

// Watches `meter` from construction to destruction (RAII; several may overlap, each sees all
// the meter's allocations: those of other threads too).
class DeviceMemoryWatch {
 public:
  explicit DeviceMemoryWatch(DeviceMemoryMeter& meter = device_memory_meter());
  ~DeviceMemoryWatch();
  DeviceMemoryWatch(const DeviceMemoryWatch&) = delete;
  DeviceMemoryWatch& operator=(const DeviceMemoryWatch&) = delete;

  DeviceMemorySpan span() const;

  static constexpr std::size_t holders_kept = 16;

 private:
  friend class DeviceMemoryMeter;
  // Called by the meter under its lock.
  void saw(std::size_t held, std::size_t bytes, const std::string& what);
  void snapshot_holders();  // under the meter's lock

  DeviceMemoryMeter& meter_;
  std::size_t start_ = 0;
  std::size_t top_ = 0;  // the most held seen
  std::size_t largest_bytes_ = 0;
  std::string largest_what_;
  std::size_t snapshot_held_ = 0;  // held bytes at the last peak_holders_ snapshot
  std::vector<MemoryHolder> peak_holders_;
};

// 1536 -> "1.5 KB", 8e9 -> "8.0 GB" (powers of 1000, one decimal; "0 B" for 0).
std::string byte_text(std::size_t bytes);

}  // namespace spk
