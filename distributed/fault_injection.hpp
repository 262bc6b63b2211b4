#pragma once
// Test-only: a hook that lets a test make one process fail at a chosen point inside an
// iteration of a distributed solve (tests/mpi/test_rank_failure.cpp), where the public
// ProgressCallback, called at the check blocks only, cannot reach: the failure then finds the
// other processes in a halo wait or in an inner product's sum. Not part of the public API.
// With no hook set (always, outside those tests) each point costs a load and a branch.
namespace spk {

enum class FaultPoint {
  halo_exchange,       // a distributed product, before its halo exchange starts
  sum_over_processes,  // an inner product's sum over the processes, before it starts
};

using FaultHook = void (*)(FaultPoint point);

// The hook the points call; null: none. Set by a test only (the hook may throw).
inline FaultHook fault_hook_for_testing = nullptr;

inline void fault_point(FaultPoint point) {
  if (fault_hook_for_testing != nullptr) fault_hook_for_testing(point);
}

}  // namespace spk
