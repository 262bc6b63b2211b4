#pragma once
// How kernels read the input vector x: the `spmv.x_cache` option of every hand-written
// format. Kernels take an XReader<T, cache> by value and call `x.load(column)`.
//
//   XCache::none     plain global load
//   XCache::ldg      read-only data cache (__ldg on a const __restrict__ pointer)
//   XCache::texture  tex1Dfetch on a cudaTextureObject_t over x (Baskaran & Bordawekar's
//                    texture-cached input vector). double is fetched as int2 and rebuilt
//                    with __hiloint2double, since textures have no 64-bit float channel.
//
// XTextureCache (host side) creates the texture object for an x pointer once and reuses
// it: a solver applies the operator to the same few workspace vectors every iteration.
#include <cuda_runtime.h>

#include <cstddef>
#include <map>
#include <utility>

#include "spmv/base/cuda_check.hpp"
#include "spmv/spmv_options.hpp"

namespace spk {

template <class T, XCache cache>
struct XReader;

template <class T>
struct XReader<T, XCache::none> {
  const T* x;
  __device__ __forceinline__ T load(int column) const { return x[column]; }
};

template <class T>
struct XReader<T, XCache::ldg> {
  const T* __restrict__ x;
  __device__ __forceinline__ T load(int column) const { return __ldg(x + column); }
};

template <>
struct XReader<float, XCache::texture> {
  cudaTextureObject_t texture;
  __device__ __forceinline__ float load(int column) const {
    return tex1Dfetch<float>(texture, column);
  }
};

template <>
struct XReader<double, XCache::texture> {
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
  ~XTextureCache() {
    for (auto& entry : textures_) (void)cudaDestroyTextureObject(entry.second);
  }

  cudaTextureObject_t get(const T* x, std::size_t length) {
    const auto key = std::make_pair(static_cast<const void*>(x), length);
    const auto found = textures_.find(key);
    if (found != textures_.end()) return found->second;
    cudaResourceDesc resource{};
    resource.resType = cudaResourceTypeLinear;
    resource.res.linear.devPtr = const_cast<T*>(x);
    resource.res.linear.desc = sizeof(T) == 8 ? cudaCreateChannelDesc<int2>()
                                              : cudaCreateChannelDesc<float>();
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
  }
}

}  // namespace spk
