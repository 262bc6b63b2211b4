#pragma once
// The `tuning` part of a solve report for `spmv.format: auto`: what was tried, what it cost,
// and what the choice saved over this solve (so the amortisation is visible).
#include <ostream>

#include "frontend/json_writer.hpp"
#include "spkrylov/options.hpp"
#include "spkrylov/result.hpp"
#include "spkrylov/setup_info.hpp"

namespace spk::app {

// SpMVs the solve ran: the iterations executed times SpMVs per iteration, plus the initial
// and the final (true) residual.
long long solve_spmv_count(const SolveResult& result, Method method);

// Milliseconds the choice saved over the default format (csr) in this solve; 0 when the
// tuning did not time the baseline (a cache hit).
double tuning_saved_ms(const TuningReport& tuning, long long spmvs);

void print_tuning_summary(std::ostream& out, const TuningReport& tuning, long long spmvs);
void write_tuning_json(JsonWriter& json, const TuningReport& tuning, long long spmvs);

}  // namespace spk::app
