#pragma once
// SPK_HOST_DEVICE: marks a small inline function that both the host code and the kernels call
// (__host__ __device__ under nvcc, nothing for the host compiler), so that a rule such as
// "where slot j of row r goes" is written once and the CPU and GPU paths cannot disagree.
#if defined(__CUDACC__)
#define SPK_HOST_DEVICE __host__ __device__
#else
#define SPK_HOST_DEVICE
#endif

// SPK_UNROLL: `#pragma unroll` for the device pass of nvcc, nothing for a host compiler (which
// would warn about an unknown pragma).
#if defined(__CUDA_ARCH__)
#define SPK_UNROLL _Pragma("unroll")
#else
#define SPK_UNROLL
#endif

// SPK_NOINLINE: a host-device function kept out of line in device code (its registers then
// do not count against the kernel that calls it: GMRES's Arnoldi step, called once a launch
// by one thread of a streaming kernel); nothing for a host compiler.
#if defined(__CUDA_ARCH__)
#define SPK_NOINLINE __noinline__
#else
#define SPK_NOINLINE
#endif
