#include "core/device_memory_meter.hpp"

#include <algorithm>
#include <cstdio>
#include <map>

namespace spk {

void DeviceMemoryMeter::allocated(const void* pointer, std::size_t bytes, const std::string& what) {
  const std::lock_guard<std::mutex> lock(mutex_);
  const auto [entry, inserted] = live_.emplace(pointer, Live{bytes, what});
  if (!inserted) {  // a key reused without its release: count the new size only
    held_ -= entry->second.bytes;
    entry->second = Live{bytes, what};
  }
  held_ += bytes;
  for (DeviceMemoryWatch* watch : watches_) watch->saw(held_, bytes, what);
}

void DeviceMemoryMeter::freed(const void* pointer) {
  if (pointer == nullptr) return;
  const std::lock_guard<std::mutex> lock(mutex_);
  const auto entry = live_.find(pointer);
  if (entry == live_.end()) return;
  held_ -= entry->second.bytes;
  live_.erase(entry);
}

void DeviceMemoryMeter::renamed(const void* pointer, const std::string& what) {
  if (pointer == nullptr) return;
  const std::lock_guard<std::mutex> lock(mutex_);
  const auto entry = live_.find(pointer);
  if (entry != live_.end()) entry->second.what = what;
}

std::size_t DeviceMemoryMeter::held_bytes() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return held_;
}

std::size_t DeviceMemoryMeter::live_arrays() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return live_.size();
}

namespace {

// The live arrays grouped by name, largest total first, at most `count` (caller holds the lock).
template <class Live>
std::vector<MemoryHolder> group_by_name(const Live& live_arrays, std::size_t count) {
  std::map<std::string, MemoryHolder> by_name;
  for (const auto& [pointer, live] : live_arrays) {
    MemoryHolder& holder = by_name[live.what];
    if (holder.what.empty()) {
      holder = {live.what, live.bytes, 1};
    } else {
      holder.bytes += live.bytes;
      ++holder.arrays;
    }
  }
  std::vector<MemoryHolder> holders;
  for (auto& [name, holder] : by_name) holders.push_back(std::move(holder));
  std::sort(holders.begin(), holders.end(), [](const MemoryHolder& a, const MemoryHolder& b) {
    return a.bytes != b.bytes ? a.bytes > b.bytes : a.what < b.what;
  });
  if (holders.size() > count) holders.resize(count);
  return holders;
}

}  // namespace

std::vector<MemoryHolder> DeviceMemoryMeter::largest_holders(std::size_t count) const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return group_by_name(live_, count);
}

std::string DeviceMemoryMeter::holders_text(std::size_t count) const {
  std::size_t held = 0, arrays = 0;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    held = held_;
    arrays = live_.size();
  }
  if (arrays == 0) return "";
  std::string text = "the library holds " + byte_text(held) + " in " + std::to_string(arrays) +
                     (arrays == 1 ? " array" : " arrays") + "; largest:";
  const std::vector<MemoryHolder> holders = largest_holders(count);
  for (std::size_t i = 0; i < holders.size(); ++i) {
    text += (i == 0 ? " " : ", ") + holders[i].what + " " + byte_text(holders[i].bytes);
    if (holders[i].arrays > 1) text += " (" + std::to_string(holders[i].arrays) + " arrays)";
  }
  return text;
}

DeviceMemoryMeter& device_memory_meter() {
  // Never destroyed: a DeviceBuffer released during the program's exit (a static's destructor,
  // an object the Python module frees late) must still find it.
  static DeviceMemoryMeter* const meter = new DeviceMemoryMeter;
  return *meter;
}

DeviceMemoryWatch::DeviceMemoryWatch(DeviceMemoryMeter& meter) : meter_(meter) {
  const std::lock_guard<std::mutex> lock(meter_.mutex_);
  start_ = top_ = meter_.held_;
  meter_.watches_.push_back(this);
}

DeviceMemoryWatch::~DeviceMemoryWatch() {
  const std::lock_guard<std::mutex> lock(meter_.mutex_);
  auto& watches = meter_.watches_;
  watches.erase(std::remove(watches.begin(), watches.end(), this), watches.end());
}

void DeviceMemoryWatch::saw(std::size_t held, std::size_t bytes, const std::string& what) {
  top_ = std::max(top_, held);
  if (held > snapshot_held_ + snapshot_held_ / 64) snapshot_holders();
  if (bytes > largest_bytes_) {
    largest_bytes_ = bytes;
    largest_what_ = what;
  }
}

void DeviceMemoryWatch::snapshot_holders() {
  snapshot_held_ = meter_.held_;
  peak_holders_ = group_by_name(meter_.live_, holders_kept);
}

DeviceMemorySpan DeviceMemoryWatch::span() const {
  const std::lock_guard<std::mutex> lock(meter_.mutex_);
  DeviceMemorySpan span;
  span.held_at_start = start_;
  span.peak = top_ - start_;
  span.steady = meter_.held_ > start_ ? meter_.held_ - start_ : 0;
  span.largest_bytes = largest_bytes_;
  span.largest_what = largest_what_;
  span.peak_holders = peak_holders_;
  return span;
}

std::string byte_text(std::size_t bytes) {
  static const char* const units[] = {"B", "KB", "MB", "GB", "TB", "PB"};
  if (bytes < 1000) return std::to_string(bytes) + " B";
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 999.95 && unit < 5) {
    value /= 1000.0;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, "%.1f %s", value, units[unit]);
  return text;
}

}  // namespace spk
