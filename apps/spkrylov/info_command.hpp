#pragma once
// `spkrylov info MATRIX.mtx` or `spkrylov info --generate kind=poisson3d,n=64`: the matrix
// statistics the ELLPACK-R paper tabulates.
#include <string>

namespace spk::app {

struct InfoCommandOptions {
  std::string matrix_path;
  std::string generate;    // "kind=poisson3d,n=64,stencil=27"
  std::string write_path;  // also write the matrix as Matrix Market (e.g. for SciPy)
};

int run_info_command(const InfoCommandOptions& options);

}  // namespace spk::app
