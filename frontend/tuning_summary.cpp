#include "frontend/tuning_summary.hpp"

#include <cstdio>
#include <optional>
#include <string>

#include "frontend/number_text.hpp"

namespace spk::app {

long long solve_spmv_count(const SolveResult& result, Method method) {
  return static_cast<long long>(result.iterations_executed) * spmv_per_iteration(method) + 2;
}

double tuning_saved_ms(const TuningReport& tuning, long long spmvs) {
  if (tuning.from_cache || tuning.baseline_ms < 0.0 || tuning.chosen_ms < 0.0) return 0.0;
  return (tuning.baseline_ms - tuning.chosen_ms) * static_cast<double>(spmvs);
}

void print_tuning_summary(std::ostream& out, const TuningReport& tuning, long long spmvs) {
  if (!tuning.used) return;
  if (tuning.from_cache) {
    out << "tuning       from the tuning cache " << tuning.cache_path << ": no tuning ("
        << number_text("%.1f ms", tuning.tuning_ms)
        << " fingerprint, lookup and conversion); chose " << tuning.chosen_label << ", "
        << number_text("%.4f ms", tuning.chosen_ms) << " per SpMV when tuned\n";
  } else {
    int timed = 0;
    for (const TuningTrial& trial : tuning.trials) timed += trial.spmv_ms >= 0.0;
    out << "tuning       tuned in " << number_text("%.1f ms", tuning.tuning_ms) << ": " << timed
        << " of " << tuning.trials.size() << " candidates timed; chose " << tuning.chosen_label
        << " " << number_text("%.4f ms", tuning.chosen_ms) << " per SpMV, csr (default) "
        << number_text("%.4f ms", tuning.baseline_ms) << "\n";
    const double saved = tuning_saved_ms(tuning, spmvs);
    out << "             saved " << number_text("%.1f ms", saved) << " over this solve's " << spmvs
        << " SpMVs, against " << number_text("%.1f ms", tuning.tuning_ms) << " of tuning";
    const double per_spmv = tuning.baseline_ms - tuning.chosen_ms;
    if (per_spmv > 0.0)
      out << " (pays back after " << number_text("%.0f", tuning.tuning_ms / per_spmv)
          << " SpMVs; the cache makes later runs free)";
    out << "\n";
    out << "             cache: " << (tuning.cache_path.empty() ? "off" : tuning.cache_path)
        << "\n";
    for (const TuningTrial& trial : tuning.trials) {
      out << "               " << trial.label << ": ";
      if (trial.spmv_ms >= 0.0)
        out << number_text("%.4f ms", trial.spmv_ms)
            << (trial.label == tuning.chosen_label ? "  <- chosen" : "");
      else
        out << trial.outcome;
      out << "\n";
    }
  }
  for (const std::string& note : tuning.cache_notes) out << "             note: " << note << "\n";
}

// A time in ms, or nothing when it was not measured (< 0).
std::optional<double> measured(double ms) {
  return ms >= 0.0 ? std::optional<double>(ms) : std::nullopt;
}

void write_tuning_json(JsonWriter& json, const TuningReport& tuning, long long spmvs) {
  json.key("tuning").begin_object();
  json.field("source", tuning.from_cache ? "cache" : "tuned");
  json.field("cache", tuning.cache_path);
  json.field("chosen", tuning.chosen_label);
  json.key("chosen_ms").optional(measured(tuning.chosen_ms));
  json.key("baseline_ms").optional(measured(tuning.baseline_ms));
  json.field("tuning_ms", tuning.tuning_ms);
  json.field("solve_spmvs", spmvs);
  json.field("saved_ms", tuning_saved_ms(tuning, spmvs));
  json.key("candidates").begin_array();
  for (const TuningTrial& trial : tuning.trials) {
    json.begin_object();
    json.field("label", trial.label);
    json.key("spmv_ms").optional(measured(trial.spmv_ms));
    json.field("outcome", trial.outcome);
    json.end_object();
  }
  json.end_array();
  json.key("notes").begin_array();
  for (const std::string& note : tuning.cache_notes) json.value(note);
  json.end_array();
  json.end_object();
}

}  // namespace spk::app
