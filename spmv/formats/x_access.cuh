#pragma once
// How kernels read the input vector x: the `spmv.x_cache` option of every hand-written
// format. Kernels take an XReader<T, cache> by value and call `x.load(column)`; T, the vector
// type (XReader::value_type), is also the type kernels accumulate in.
//
//   XCache::none     plain global load
//   XCache::ldg      read-only data cache (__ldg on a const __restrict__ pointer)
//   XCache::texture  tex1Dfetch on a cudaTextureObject_t over x (Baskaran & Bordawekar's
//                    texture-cached input vector). double is fetched as int2 and rebuilt
//                    with __hiloint2double, since textures have no 64-bit float channel.
//   XCache::shared   csr-vector only (other formats refuse it: x_cache_refusal): each warp
//                    copies the slice of x its rows touch into shared memory and reads it
//                    there (shared_x_tile.cuh, Mazzucchi's Algorithm 4). The reader itself holds
//                    x only and loads through __ldg: what a kernel without a tile does with it
//                    (csr-vector's long-row passes) and the tile's fallback.
//
// XTextureCache (host side) creates the texture object for an x pointer once and reuses
// it: a solver applies the operator to the same few workspace vectors every iteration.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <utility>

#include "core/cuda_check.hpp"
#include "spkrylov/options.hpp"

namespace spk {

template <class T, XCache cache>
struct XReader;

template <class T>
struct XReader<T, XCache::none> {
  using value_type = T;
  const T* x;
  __device__ __forceinline__ T load(int column) const { return x[column]; }
};

template <class T>
struct XReader<T, XCache::ldg> {
  using value_type = T;
  const T* __restrict__ x;
  __device__ __forceinline__ T load(int column) const { return __ldg(x + column); }
};

template <class T>
struct XReader<T, XCache::shared> {
  using value_type = T;
  const T* __restrict__ x;
  __device__ __forceinline__ T load(int column) const { return __ldg(x + column); }
};

template <>
struct XReader<float, XCache::texture> {
  using value_type = float;
  cudaTextureObject_t texture;
  __device__ __forceinline__ float load(int column) const {
    return tex1Dfetch<float>(texture, column);
  }
};

template <>
struct XReader<double, XCache::texture> {
  using value_type = double;
  cudaTextureObject_t texture;
  __device__ __forceinline__ double load(int column) const {
    const int2 bits = tex1Dfetch<int2>(texture, column);
    return __hiloint2double(bits.y, bits.x);
  }
};

// Creates and caches one texture object per (x pointer, length). Destroys them on
// destruction. Not thread-safe (a backend is used from one host thread at a time).
template <class T>
class XTextureCache {
 public:
  XTextureCache() = default;
  XTextureCache(const XTextureCache&) = delete;
  XTextureCache& operator=(const XTextureCache&) = delete;
  ~XTextureCache() { clear(); }

  // Destroys every cached object: the x vectors they were made over may be freed, and a new
  // vector at a freed address must not be read through an old object.
  void clear() {
    for (auto& entry : textures_) (void)cudaDestroyTextureObject(entry.second);
    textures_.clear();
  }

  cudaTextureObject_t get(const T* x, std::size_t length) {
    const auto key = std::make_pair(static_cast<const void*>(x), length);
    const auto found = textures_.find(key);
    if (found != textures_.end()) return found->second;
    cudaResourceDesc resource{};
    resource.resType = cudaResourceTypeLinear;
    resource.res.linear.devPtr = const_cast<T*>(x);
    resource.res.linear.desc =
        sizeof(T) == 8 ? cudaCreateChannelDesc<int2>() : cudaCreateChannelDesc<float>();
    resource.res.linear.sizeInBytes = (length == 0 ? 1 : length) * sizeof(T);
    cudaTextureDesc description{};
    description.readMode = cudaReadModeElementType;
    cudaTextureObject_t texture = 0;
    SPK_CUDA_CHECK(cudaCreateTextureObject(&texture, &resource, &description, nullptr));
    textures_.emplace(key, texture);
    return texture;
  }

 private:
  std::map<std::pair<const void*, std::size_t>, cudaTextureObject_t> textures_;
};

// Calls `launch(XReader<T, cache>{...})` with the reader the option asks for.
// `textures` is only used for XCache::texture.
template <class T, class Launch>
void with_x_reader(XCache cache, const T* x, std::size_t length, XTextureCache<T>& textures,
                   Launch&& launch) {
  switch (cache) {
    case XCache::none: launch(XReader<T, XCache::none>{x}); return;
    case XCache::ldg: launch(XReader<T, XCache::ldg>{x}); return;
    case XCache::texture: launch(XReader<T, XCache::texture>{textures.get(x, length)}); return;
    case XCache::shared: launch(XReader<T, XCache::shared>{x}); return;
  }
}

// The current device's limits on a texture over x (cudaDeviceProp::maxTexture1DLinear and
// ::textureAlignment), queried once when a backend is built.
struct XTextureLimits {
  std::size_t max_elements = 0;
  std::size_t alignment_bytes = 1;
};

inline XTextureLimits query_x_texture_limits() {
  int device = 0, max_width = 0, alignment = 0;
  SPK_CUDA_CHECK(cudaGetDevice(&device));
  SPK_CUDA_CHECK(cudaDeviceGetAttribute(&max_width, cudaDevAttrMaxTexture1DLinearWidth, device));
  SPK_CUDA_CHECK(cudaDeviceGetAttribute(&alignment, cudaDevAttrTextureAlignment, device));
  return XTextureLimits{static_cast<std::size_t>(max_width),
                        static_cast<std::size_t>(alignment > 0 ? alignment : 1)};
}

// Setup-time check for x_cache: texture. Throws BadInput when x (`length` elements) is longer
// than a linear texture may be.
inline void check_x_texture_length(std::size_t length, const XTextureLimits& limits,
                                   const std::string& format) {
  if (length > limits.max_elements)
    throw BadInput(format + ": spmv.x_cache: texture cannot cover x of " + std::to_string(length) +
                   " entries (the device's maxTexture1DLinear is " +
                   std::to_string(limits.max_elements) + "); use x_cache: ldg");
}

// with_x_reader, except that an x the texture cannot start at (not aligned to
// textureAlignment, e.g. a pointer into the middle of a vector) is read through __ldg: the
// same result, never an error.
template <class T, class Launch>
void with_x_reader(XCache cache, const T* x, std::size_t length, XTextureCache<T>& textures,
                   const XTextureLimits& limits, Launch&& launch) {
  if (cache == XCache::texture && reinterpret_cast<std::uintptr_t>(x) % limits.alignment_bytes != 0)
    cache = XCache::ldg;
  with_x_reader(cache, x, length, textures, launch);
}

}  // namespace spk
