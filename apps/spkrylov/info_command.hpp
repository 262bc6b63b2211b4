#pragma once
// `spkrylov info MATRIX.mtx` or `spkrylov info --generate kind=poisson3d,n=64`: the matrix
// statistics the ELLPACK-R paper tabulates.
#include <string>

namespace spk::app {

struct InfoCommandOptions {
  std::string matrix_path;
  std::string generate;    // "kind=poisson3d,n=64,stencil=27"
  std::string write_path;  // also write the matrix as Matrix Market (e.g. for SciPy)
  // also write the generator's node coordinates (nodes x dimension) and load vector (beam3d)
  // as Matrix Market arrays (e.g. for PyAMG's rigid-body modes)
  std::string coordinates_path;
  std::string load_path;
};

int run_info_command(const InfoCommandOptions& options);

}  // namespace spk::app
