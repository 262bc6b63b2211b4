#include "spmv/tuning/tuner.hpp"

#include <vector>

#include "spkrylov/errors.hpp"

namespace spk {

namespace {

// Runs `time` unless the budget is spent; records the trial. Returns the time or -1.
template <class Time>
double try_candidate(const SpmvOptions& options, bool always, double budget_ms,
                     CandidateBench& bench, TuningReport& report, Time&& time) {
  TuningTrial trial{candidate_label(options), options, -1.0, "timed"};
  if (!always && bench.elapsed_ms() >= budget_ms) {
    trial.outcome = "skipped: tune_budget_ms spent";
  } else {
    try {
      trial.spmv_ms = time(options);
    } catch (const OutOfDeviceMemory& error) {
      trial.outcome = std::string("refused: out of device memory: ") + error.what();
    } catch (const BadInput& error) {
      trial.outcome = std::string("refused: ") + error.what();
    }
  }
  report.trials.push_back(trial);
  return trial.spmv_ms;
}

}  // namespace

void run_tuning(const CandidatePlan& plan, double budget_ms, CandidateBench& bench,
                TuningReport& report) {
  report.used = true;
  bool first = true;
  bool have_best = false;
  for (const SpmvOptions& options : plan.formats) {
    const double ms = try_candidate(options, first, budget_ms, bench, report,
                                    [&](const SpmvOptions& o) { return bench.time_format(o); });
    if (first) report.baseline_ms = ms;
    first = false;
    if (ms >= 0.0 && (!have_best || ms < report.chosen_ms)) {
      bench.keep_current();
      have_best = true;
      report.chosen = options;
      report.chosen_ms = ms;
    }
  }
  for (const SkippedCandidate& skipped : plan.skipped)
    report.trials.push_back(
        {candidate_label(skipped.options), skipped.options, -1.0, "skipped: " + skipped.reason});
  if (!have_best) throw BadInput("spmv.format auto: every candidate format refused this matrix");

  const std::vector<SpmvOptions> variants = launch_variants(report.chosen);
  for (const SpmvOptions& options : variants) {
    const double ms = try_candidate(options, false, budget_ms, bench, report,
                                    [&](const SpmvOptions& o) { return bench.time_launch(o); });
    if (ms >= 0.0 && ms < report.chosen_ms) {
      report.chosen = options;
      report.chosen_ms = ms;
    }
  }
  // The last variant timed is rarely the chosen one: launch the kept backend as chosen.
  if (!variants.empty()) bench.set_launch(report.chosen);
  report.chosen_label = candidate_label(report.chosen);
  report.tuning_ms = bench.elapsed_ms();
}

}  // namespace spk
