#!/usr/bin/env bash
# The CPU path's time per CG iteration against the thread count and the problem size, to place
# the rows a thread needs before another thread pays (solver/host_threads.hpp). Prints one
# line per size: rows, then ms per iteration for each thread count (OMP_NUM_THREADS).
#   tools/cpu-threads-runs.sh [SPKRYLOV] [THREAD COUNTS...]     (default: 1 2 4 8 16 up to nproc)
set -uo pipefail
cd "$(dirname "$0")/.."
cli=${1:-build/apps/spkrylov}
shift || true
counts=("$@")
if [ ${#counts[@]} -eq 0 ]; then
  for t in 1 2 4 8 16 32 64; do [ "$t" -le "$(nproc)" ] && counts+=("$t"); done
fi
printf '%-9s %-9s' n rows
for t in "${counts[@]}"; do printf ' %10s' "${t}t ms/it"; done
printf '\n'
for n in 10 13 16 20 25 32 40 50 64 80 100; do
  printf '%-9s %-9s' "$n" "$((n * n * n))"
  for t in "${counts[@]}"; do
    ms=$(OMP_NUM_THREADS=$t "$cli" solve --quiet --set device=cpu --set matrix.generate.n="$n" \
           --set solver.max_iterations=100 --set solver.tolerance=1e-15 2>/dev/null |
         grep -o '[0-9.]* ms per iteration' | cut -d' ' -f1)
    printf ' %10s' "${ms:-?}"
  done
  printf '\n'
done
