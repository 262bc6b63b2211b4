#include "info_command.hpp"

#include <iostream>
#include <sstream>

#include "frontend/config/config_loader.hpp"
#include "frontend/problem.hpp"
#include "spkrylov/errors.hpp"
#include "spmv/host/matrix_market.hpp"
#include "spmv/host/matrix_stats.hpp"

namespace spk::app {

namespace {

// "kind=poisson3d,n=64" -> the same keys as the config's matrix.generate, validated by the
// config loader (so errors name the key and list the valid ones).
MatrixSpec generator_from_text(const std::string& text) {
  std::vector<std::string> overrides;
  std::stringstream items(text);
  for (std::string item; std::getline(items, item, ',');)
    if (!item.empty()) overrides.push_back("matrix.generate." + item);
  const RunConfig config = parse_run_config("matrix: {generate: {}}\n", "--generate", overrides);
  return config.matrix;
}

}  // namespace

int run_info_command(const InfoCommandOptions& options) {
  if (options.matrix_path.empty() == options.generate.empty())
    throw BadInput("info: give either a MATRIX file or --generate kind=...,n=...");
  MatrixSpec spec;
  if (options.generate.empty())
    spec.file = options.matrix_path;
  else
    spec = generator_from_text(options.generate);
  const Problem problem = load_matrix(spec, !options.coordinates_path.empty());
  if (!options.coordinates_path.empty() && problem.coordinates.empty())
    throw BadInput("info --write-coordinates: " + problem.name + " has no coordinates");
  if (!options.load_path.empty() && problem.load.empty())
    throw BadInput("info --write-load: " + problem.name + " has no load vector (beam3d has)");
  std::cout << "matrix  " << problem.name << "\n"
            << format_matrix_stats(compute_matrix_stats(problem.matrix)) << "\n";
  if (!options.write_path.empty()) {
    write_matrix_market(options.write_path, problem.matrix);
    std::cout << "wrote   " << options.write_path << "\n";
  }
  if (!options.coordinates_path.empty()) {
    const auto nodes = static_cast<index_t>(problem.coordinates.size() /
                                            static_cast<std::size_t>(problem.dimension));
    write_dense_market(options.coordinates_path,
                       DenseMatrix{nodes, problem.dimension, problem.coordinates});
    std::cout << "wrote   " << options.coordinates_path << "\n";
  }
  if (!options.load_path.empty()) {
    write_vector_market(options.load_path, problem.load);
    std::cout << "wrote   " << options.load_path << "\n";
  }
  return 0;
}

}  // namespace spk::app
