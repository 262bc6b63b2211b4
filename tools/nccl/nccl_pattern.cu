// spk_nccl_pattern: times the NCCL call patterns of a distributed CG iteration on this machine,
// to tell NCCL's own latency from the solver's: allreduces alone, halo exchanges alone, the two
// alternating, and each with idle gaps (a spinning kernel) between calls, as an iteration has.
//   mpirun -np 2 spk_nccl_pattern [halo entries] [channels]   (one GPU per process; channels:
//   NCCL's maxCTAs, default 8 as DistributedOptions::nccl_channels, 0: NCCL's own choice)
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

#include "core/cuda_check.hpp"
#include "core/event_timer.hpp"
#include "distributed/device_binding.hpp"
#include "distributed/device_halo_exchange.hpp"
#include "distributed/nccl_communicator.hpp"
#include "solver/device_context.hpp"
#include "solver/device_space.hpp"
#include "spkrylov/distributed_info.hpp"

namespace {

__global__ void spin(long long cycles) {
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
}

int run(int argc, char** argv) {
  using namespace spk;
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const index_t halo = argc > 1 ? std::atoi(argv[1]) : 16384;
  bind_device(MPI_COMM_WORLD, true);
  const int channels = argc > 2 ? std::atoi(argv[2]) : DistributedOptions{}.nccl_channels;
  NcclCommunicator nccl(MPI_COMM_WORLD, channels);
  CudaStream stream, local;
  // Each process sends `halo` entries to each other process and receives as many.
  HaloPlan plan;
  for (int q = 0; q < size; ++q) {
    if (q == rank) continue;
    plan.sources.push_back({q, static_cast<index_t>(plan.sources.size()) * halo, halo});
    plan.targets.push_back({q, static_cast<index_t>(plan.targets.size()) * halo, halo});
  }
  plan.halo_size = halo * (size - 1);
  for (index_t k = 0; k < plan.halo_size; ++k) plan.send_rows.push_back(k);
  DeviceHaloExchange<double> exchange(MPI_COMM_WORLD, &nccl, plan, stream.get(), local.get());
  DeviceBuffer<double> x(static_cast<std::size_t>(plan.halo_size) + 1, "x"), scalar(1, "scalar");
  SPK_CUDA_CHECK(cudaMemset(x.data(), 0, x.size() * sizeof(double)));
  SPK_CUDA_CHECK(cudaMemset(scalar.data(), 0, sizeof(double)));
  const auto allreduce = [&] {
    SPK_NCCL_CHECK(nccl.library().all_reduce(scalar.data(), scalar.data(), 1, ncclFloat64, ncclSum,
                                             nccl.get(), stream.get()));
  };
  const auto product = [&] {
    exchange.start(x.data());
    exchange.finish();
  };
  const auto gap = [&] { spin<<<1, 1, 0, stream.get()>>>(50000); };  // ~25 us at 2 GHz
  const int repeats = 200;
  // `repeats` runs of `body` on `on`, between two events after a barrier; us per run.
  const auto time_pattern = [&](cudaStream_t on, const char* name, int calls,
                                const std::function<void()>& body) {
    MPI_Barrier(MPI_COMM_WORLD);
    const TimingSummary t = time_on_stream(on, 2, 5, [&] {
      for (int i = 0; i < repeats; ++i) body();
    });
    if (rank == 0)
      std::printf("%-44s %9.2f us per run of the pattern (%d NCCL calls each)\n", name,
                  1e3 * t.median_ms / repeats, calls);
  };
  const auto time = [&](const char* name, int calls, const std::function<void()>& body) {
    time_pattern(stream.get(), name, calls, body);
  };
  // A dot product of 1M entries in device pointer mode, its result summed, as CG does.
  const int n = 1 << 20;
  DeviceBuffer<double> v(n, "v");
  SPK_CUDA_CHECK(cudaMemset(v.data(), 0, n * sizeof(double)));
  cublasHandle_t cublas = nullptr;
  if (cublasCreate(&cublas) != CUBLAS_STATUS_SUCCESS) throw Error("cublasCreate failed");
  cublasSetStream(cublas, stream.get());
  cublasSetPointerMode(cublas, CUBLAS_POINTER_MODE_DEVICE);
  const auto dot = [&] {
    if (cublasDdot(cublas, n, v.data(), 1, v.data(), 1, scalar.data()) != CUBLAS_STATUS_SUCCESS)
      throw Error("cublasDdot failed");
  };
  // Cold: the first calls of the communicator, in chunks of 50 CG-like iterations.
  for (int chunk = 0; chunk < 6; ++chunk) {
    MPI_Barrier(MPI_COMM_WORLD);
    const TimingSummary t = time_on_stream(stream.get(), 0, 1, [&] {
      for (int i = 0; i < 50; ++i) {
        product();
        dot();
        allreduce();
        dot();
        allreduce();
        dot();
        allreduce();
      }
    });
    if (rank == 0)
      std::printf("cold chunk %d: %9.2f us per CG-like iteration\n", chunk, 1e3 * t.median_ms / 50);
  }
  time("gap alone", 0, gap);
  time("allreduce", 1, allreduce);
  time("halo exchange", 1, product);
  time("exchange + allreduce", 2, [&] {
    product();
    allreduce();
  });
  time("allreduce + gap", 1, [&] {
    allreduce();
    gap();
  });
  time("exchange + gap", 1, [&] {
    product();
    gap();
  });
  time("exchange + gap + allreduce + gap", 2, [&] {
    product();
    gap();
    allreduce();
    gap();
  });
  time("exchange + gap + 2 x (allreduce + gap)", 3, [&] {
    product();
    gap();
    allreduce();
    gap();
    allreduce();
    gap();
  });
  time("dot", 0, dot);
  time("dot + allreduce", 1, [&] {
    dot();
    allreduce();
  });
  time("exchange + dot + allreduce + dot + allreduce", 3, [&] {
    product();
    dot();
    allreduce();
    dot();
    allreduce();
  });
  cublasDestroy(cublas);

  // The same through the solver's own DeviceContext and DeviceSpace, into its KrylovScalars.
  DeviceContext context;
  DeviceSpace<double> space(context);
  double* rho = &space.scalars()->rho;
  const auto time_on = [&](const char* name, int calls, const std::function<void()>& body) {
    time_pattern(context.stream(), name, calls, body);
  };
  const auto sum_on = [&](double* value) {
    SPK_NCCL_CHECK(nccl.library().all_reduce(value, value, 1, ncclFloat64, ncclSum, nccl.get(),
                                             context.stream()));
  };
  time_on("space dot", 0, [&] { space.dot(n, v.data(), v.data(), rho); });
  time_on("space dot + allreduce (scalars)", 1, [&] {
    space.dot(n, v.data(), v.data(), rho);
    sum_on(rho);
  });
  time_on("allreduce (scalars) alone", 1, [&] { sum_on(rho); });
  time_on("allreduce (own buffer) on context stream", 1, [&] { sum_on(scalar.data()); });
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int code = 1;
  try {
    code = run(argc, argv);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "error: %s\n", error.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Finalize();
  return code;
}
