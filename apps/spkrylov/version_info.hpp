#pragma once
// `spkrylov --version`: the version, the git commit it was built from, the CUDA runtime and
// driver versions, the architectures compiled for, and the GPU found (or why none).
#include <string>

namespace spk::app {

std::string version_text();

}  // namespace spk::app
