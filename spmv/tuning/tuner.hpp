#pragma once
// run_tuning: the measured choice behind `spmv.format: auto` (after the auto-tuning framework
// for CUDA SpMV parameters that builds on Bell & Garland's CSR vector kernel: time the candidates
// on the real matrix, keep the fastest, amortise over the solve's many SpMVs). The device work sits
// behind CandidateBench, so this choice logic runs, and is tested with injected timings, without a
// GPU.
//
//   1. Stage 1: build each planned format (tuning_candidates.hpp) and time it. A format that
//      refuses the matrix (BadInput, OutOfDeviceMemory) is recorded as refused.
//   2. Stage 2: re-launch the fastest with each launch variant (no conversion) and time it.
//   3. The fastest of everything timed wins; the bench keeps that backend.
// Budget: a candidate is started only while bench.elapsed_ms() < budget_ms; the rest are
// recorded as "skipped: tune_budget_ms". The first candidate (csr, the default format) is
// always timed, so there is always a choice and a baseline.
#include <string>

#include "spkrylov/options.hpp"
#include "spkrylov/setup_info.hpp"
#include "spmv/tuning/tuning_candidates.hpp"

namespace spk {

class CandidateBench {
 public:
  virtual ~CandidateBench() = default;
  // Builds `options`' format as the new current candidate (dropping the previous candidate
  // unless it was kept) and returns its median SpMV time in ms. Throws BadInput or
  // OutOfDeviceMemory when the format refuses the matrix.
  virtual double time_format(const SpmvOptions& options) = 0;
  // Makes the current candidate the kept one (the best so far).
  virtual void keep_current() = 0;
  // Sets the kept backend's launch to `options` (same format) and returns its median SpMV
  // time in ms. Throws BadInput when the backend refuses (e.g. texture past its limit).
  virtual double time_launch(const SpmvOptions& options) = 0;
  // Sets the kept backend's launch to `options` without timing it.
  virtual void set_launch(const SpmvOptions& options) = 0;
  // Milliseconds since tuning started.
  virtual double elapsed_ms() const = 0;
};

// Fills report.trials, chosen, chosen_label, chosen_ms, baseline_ms, tuning_ms. On return
// the bench's kept backend is launched with report.chosen.
void run_tuning(const CandidatePlan& plan, double budget_ms, CandidateBench& bench,
                TuningReport& report);

}  // namespace spk
