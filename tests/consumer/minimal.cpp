#include <algorithm>
#include <iostream>
#include <spkrylov/spkrylov.hpp>
#include <vector>
int main() {  // CG on the 1-D Laplacian tridiag(-1, 2, -1) x = b
  const int n = 1000;
  std::vector<int> offsets{0}, columns;
  std::vector<double> values, b(n, 1.0), x(n, 0.0);
  for (int i = 0; i < n; offsets.push_back(int(columns.size())), ++i)
    for (int j = std::max(i - 1, 0); j <= std::min(i + 1, n - 1); ++j)
      columns.push_back(j), values.push_back(i == j ? 2.0 : -1.0);
  spk::Solver<double> solver({n, n, offsets.data(), columns.data(), values.data()}, spk::Options{});
  const spk::SolveResult result = solver.solve(b, x);  // GPU if usable, else CPU
  std::cout << result.message << "\n";
  return result.converged() ? 0 : 2;
}
