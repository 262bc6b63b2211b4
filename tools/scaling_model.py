#!/usr/bin/env python3
"""Scaling model for the distributed CG/BiCGSTAB solves (issue 13, "scale on paper").

For a matrix split the way spkrylov splits it (contiguous row blocks balanced by stored
entries, distributed/row_partition.cpp; halo = the distinct columns a block reads outside
itself, distributed/local_halo_split.hpp), this computes per rank the bytes of the local
product, of the halo product, and of the halo sent and received, and predicts the time of one
iteration on P GPUs from the single-GPU figures measured on the H100 (BENCHMARKS.md) and from
vendor and reported link figures (labelled as such in LINKS; none is measured here):

  t_rank = k_spmv * (pack + max(local, exchange) + halo_product) + vector_ops
           + k_sums * allreduce
  t(P)   = the largest t_rank (every sum waits for the slowest rank)

local, halo_product and pack are their bytes at the effective bandwidth of the measured
single-GPU SpMV; vector_ops is the measured single-GPU figure at the rank's row count; each of
these compute terms is multiplied by o, the measured loop-overhead ratio of the single-GPU row.
Without overlap, max() becomes a sum; the host-staged mpi transport adds its copies to the host
and back before and after the local product.

The halo of the power-law matrix is computed on its exact pattern: generate_powerlaw
(spmv/host/powerlaw_generator.cpp) is reimplemented here with the same SplitMix64 streams;
--check BIN compares every per-rank count with what `mpirun -np P BIN solve` reports.

  tools/scaling_model.py                     # the markdown tables of BENCHMARKS.md
  tools/scaling_model.py --check build/apps/spkrylov   # counts against the CLI (CPU, small)
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

import numpy as np

# ---------------------------------------------------------------------------------------------
# Measured single-GPU figures (H100 80GB HBM3, BENCHMARKS.md "Solver loop" table; every row from
# benchmarks/h100-2026-11-23/solvers.txt, format ellpack-r/ldg, the scaling run's default).
# ms/iter = solve time / iterations executed; spmv_ms, vec_ms: the SpMV and the iteration's
# vector calls alone; graph / no graph: with and without CUDA graphs.
SOLVERS_TXT = "benchmarks/h100-2026-11-23/solvers.txt"
MEASURED = {
    "cg7": dict(source=SOLVERS_TXT + ", poisson3d-7pt n=160, ellpack-r/ldg", rows=4096000,
                nnz=28518400, ms_graph=0.3231, ms_nograph=0.3389, spmv_ms=0.1509, vec_ms=0.1804),
    "cg27": dict(source=SOLVERS_TXT + ", poisson3d-27pt n=100, ellpack-r/ldg", rows=1000000,
                 nnz=26463592, ms_graph=0.1683, ms_nograph=0.1802, spmv_ms=0.1217, vec_ms=0.0499),
    "bicgstab7": dict(source=SOLVERS_TXT + ", convdiff3d upwind Pe=0.1 n=160, ellpack-r/ldg",
                      rows=4096000, nnz=28518400, ms_graph=0.6840, ms_nograph=0.7193,
                      spmv_ms=0.1512, vec_ms=0.4116),
    # SpMV alone (BENCHMARKS.md "SpMV bandwidth" table, hyb/ldg: ellpack-r refuses this matrix)
    "powerlaw": dict(source="benchmarks/h100-2026-11-23/bench.csv, powerlaw 2M rows avg 8, hyb/ldg",
                     rows=2000000, nnz=15982471, spmv_ms=0.152768),
}
# CG's vector calls alone, measured at three sizes (same file: elasticity3d n=50, poisson3d
# 27-pt n=100, poisson3d 7-pt n=160): (rows, ms). Between them: linear interpolation; above:
# proportional to the rows; below the smallest: held at its figure (small calls cost their
# launch and reduction latency, not bytes: 375k rows move 45 MB, 0.015 ms at copy bandwidth).
CG_VECTOR_OPS = [(375000, 0.0417), (1000000, 0.0499), (4096000, 0.1804)]
# BiCGSTAB's vector calls: CG's curve times the ratio measured at 4.1M rows (0.4116 / 0.1804);
# at 2.1M rows that gives 0.219 ms against the 0.2277 ms measured (convdiff3d central n=128).
BICGSTAB_OVER_CG_VECTOR = 0.4116 / 0.1804

# Reductions (sums over the processes) and products per iteration, from solver/cg.hpp and
# solver/bicgstab.hpp (no preconditioner): CG (p,Ap) and (r,r); BiCGSTAB (r_hat,r),
# (r_hat,v), ||s||, (t,s), (t,t), ||r||. Each dot is one sum (distributed/distributed_space.hpp).
SOLVERS = {"cg": dict(spmvs=1, sums=2), "bicgstab": dict(spmvs=2, sums=6)}

# ---------------------------------------------------------------------------------------------
# Link figures: vendor or reported, none measured here. Two scenarios bracket them:
# "fast" = vendor bandwidth and the lowest reported latency, "slow" = reported achieved
# bandwidth and the highest reported latency.
LINKS = {
    "nvlink": dict(
        name="NVLink 4 (H100/H200 SXM, intra-node)",
        bw={"fast": 450.0, "slow": 376.0},
        bw_source="vendor: 900 GB/s bidirectional per GPU = 450 GB/s a direction; reported: "
                  "~376 GB/s unidirectional P2P writes on an HGX H100 (NVIDIA/nccl#1264)",
        p2p_us={"fast": 3.7, "slow": 16.5},
        p2p_source="reported: NCCL sendrecv_perf 3.7 us on 4x H800 (NVIDIA/nccl#1984); "
                   "16.5 us send/recv on a DGX A100 (NVIDIA/nccl#568)",
        sum_us={"fast": 13.5, "slow": 17.7},
        sum_source="measured here (issue 14), 2 x H200, NCCL 2.28.3: 0.0135-0.0177 ms per "
                   "allreduce of one scalar in the solver's stream (time_phases); the reported "
                   "3.5-6 us (NVIDIA/nccl#1984, #1259) this model first used were 3-4x too low"),
    "ib": dict(
        name="InfiniBand NDR 400 Gb/s, one NIC per GPU (inter-node)",
        bw={"fast": 50.0, "slow": 46.0},
        bw_source="vendor: 400 Gb/s = 50 GB/s a direction; reported: 46-48 GB/s per NDR NIC "
                  "expected by an NCCL maintainer (NVIDIA/nccl-tests#290)",
        p2p_us={"fast": 19.0, "slow": 31.0},
        p2p_source="reported: 19-20 us for an 8-byte allreduce over 2 nodes (HDR, A100; "
                   "NVIDIA/nccl-tests#150), taken for a send/recv, no NDR figure found; "
                   "31-34 us sendrecv_perf over 2 nodes (A40; NVIDIA/nccl-tests#214)",
        sum_us={"fast": 19.0, "slow": 47.6},
        sum_source="reported: 8-byte allreduce, 19-20 us over 2 nodes x 1 A100 (HDR, "
                   "NVIDIA/nccl-tests#150); 47.6 us over 2 nodes x 8 H20 (NDR, NVLSTree, "
                   "NVIDIA/nccl#1244); growth with 8 nodes not modelled"),
    "pcie": dict(
        name="PCIe 5 x16 (host staging; GPUs without NVLink)",
        labels={"p2p_us": "small host copy latency", "sum_us": "MPI shared-memory latency"},
        bw={"fast": 64.0, "slow": 64.0},
        bw_source="vendor: 64 GB/s a direction (PCIe 5 x16)",
        p2p_us={"fast": 10.0, "slow": 10.0},
        p2p_source="reported: ~10 us fixed cost of a small cudaMemcpy (GTX 280, PCIe 2; "
                   "cs.virginia.edu/~mwb7w/cuda_support/memory_transfer_overhead.html), a stand-in",
        sum_us={"fast": 0.3, "slow": 0.3},
        sum_source="reported: 0.28 us osu_latency, Open MPI shared memory, 8 bytes "
                   "(ofiwg/libfabric#6480)"),
}
GPUS_PER_NODE = 8  # ranks fill a node in order (mpirun's default mapping), 8 GPUs a node


# ---------------------------------------------------------------------------------------------
# Patterns: grid stencils (closed form) and the power-law generator (exact reimplementation).
class Grid:
    """poisson3d (7 or 27 points; convdiff3d has the 7-point pattern) on an n^3 grid, unknowns
    x fastest, then y, then z, neighbours outside the grid dropped (spmv/host/generators.hpp)."""

    def __init__(self, n, stencil):
        self.n, self.stencil, self.rows = n, stencil, n ** 3
        if stencil == 7:
            self.offsets = [(0, 0, 0), (1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0),
                            (0, 0, 1), (0, 0, -1)]
        else:
            self.offsets = [(dx, dy, dz) for dz in (-1, 0, 1) for dy in (-1, 0, 1)
                            for dx in (-1, 0, 1)]

    def entries_before(self, row):
        """grid_entries_before (spmv/host/grid_stencil.cpp): for each offset, the grid points
        before `row` whose neighbour at that offset is inside the grid."""
        n = self.n
        point = (row % n, (row // n) % n, row // (n * n))
        total = 0
        for offset in self.offsets:
            lo = [max(0, -d) for d in offset]
            hi = [max(l, n - max(0, d)) for l, d in zip(lo, offset)]
            width, depth = hi[0] - lo[0], hi[1] - lo[1]
            x, y, z = point
            count = max(0, min(z, hi[2]) - lo[2]) * width * depth
            if lo[2] <= z < hi[2]:
                count += max(0, min(y, hi[1]) - lo[1]) * width
                if lo[1] <= y < hi[1]:
                    count += max(0, min(x, hi[0]) - lo[0])
            total += count
        return total

    def off_block_entries(self, first, end):
        """(row, column) of the entries of rows [first, end) whose column lies outside it: for
        an offset d < 0 only rows [first, first - d) can reach below the block, for d > 0 only
        rows [end - d, end) above it."""
        n = self.n
        row_parts, column_parts = [], []
        for dx, dy, dz in self.offsets:
            d = dx + dy * n + dz * n * n
            if d == 0:
                continue
            lo, hi = (first, min(end, first - d)) if d < 0 else (max(first, end - d), end)
            rows = np.arange(lo, hi, dtype=np.int64)
            x, y, z = rows % n, (rows // n) % n, rows // (n * n)
            inside = ((x + dx >= 0) & (x + dx < n) & (y + dy >= 0) & (y + dy < n)
                      & (z + dz >= 0) & (z + dz < n))
            columns = rows + d
            outside = inside & ((columns < first) | (columns >= end))
            row_parts.append(rows[outside])
            column_parts.append(columns[outside])
        return np.concatenate(row_parts), np.concatenate(column_parts)


def _distinct(values):
    """Sorted distinct values (np.unique's hash path is slow on large int arrays in numpy 2)."""
    ordered = np.sort(values)
    if len(ordered) == 0:
        return ordered
    return ordered[np.concatenate(([True], ordered[1:] != ordered[:-1]))]


MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def _mix(z):  # SplitMix64's finaliser (spmv/host/seeded_rng.hpp), numpy uint64 arrays
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


def _mix_int(z):  # the same on Python integers
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


class _Rng:
    """SeededRng on Python integers (the exact path for the few rows redrawn)."""

    def __init__(self, seed, stream):
        self.state = _mix_int(seed ^ _mix_int(stream + 1))

    def uniform(self):
        self.state = (self.state + GOLDEN) & MASK64
        return (_mix_int(self.state) >> 11) * 2.0 ** -53

    def below(self, bound):
        value = int(self.uniform() * float(bound))
        return value if value < bound else bound - 1


def _expected_off_diagonal(scale, exponent, cap):
    flat = min(cap, int(scale))
    total = float(flat)
    exact_end = min(cap, flat + 4096)
    for j in range(flat + 1, exact_end + 1):
        total += math.pow(scale / float(j), exponent)
    if exact_end < cap:
        lower, upper = exact_end + 0.5, cap + 0.5
        total += (math.pow(scale, exponent) * (math.pow(lower, 1.0 - exponent)
                  - math.pow(upper, 1.0 - exponent)) / (exponent - 1.0))
    return total


def _solve_scale(target, exponent, cap):
    low, high = 0.0, float(cap) + 1.0
    for _ in range(100):
        middle = 0.5 * (low + high)
        if _expected_off_diagonal(middle, exponent, cap) < target:
            low = middle
        else:
            high = middle
    return 0.5 * (low + high)


def powerlaw_pattern(n, avg_row_length=8.0, exponent=2.0, seed=1):
    """generate_powerlaw's pattern: (row_offsets, row of each entry, column of each entry)."""
    cap = n - 1
    target = avg_row_length - 1.0
    scale = 0.0 if target <= 0.0 else _solve_scale(target, exponent, cap)
    rows = np.arange(n, dtype=np.uint64)
    state0 = _mix(np.uint64(seed) ^ _mix(rows + np.uint64(1)))
    gold = np.uint64(GOLDEN)
    counts = np.zeros(n, dtype=np.int64)
    if scale > 0.0:
        uniform = (_mix(state0 + gold) >> np.uint64(11)).astype(np.float64) * 2.0 ** -53
        x = scale * np.power(1.0 - uniform, -1.0 / exponent)
        # numpy's pow may differ from libm's in the last bit: redo the draws near an integer
        near = np.abs(x - np.round(x)) <= 1e-9 * np.maximum(1.0, x)
        for i in np.nonzero(near)[0]:
            x[i] = scale * math.pow(1.0 - float(uniform[i]), -1.0 / exponent)
        counts = np.where(x >= cap, cap, np.floor(x)).astype(np.int64)
    # Columns: `count` distinct candidates of [0, cap), drawn below(cap) from draw 2 on (draw 1
    # was the count), sorted and deduplicated; rows with duplicates (or drawing the complement)
    # are redrawn exactly on Python integers below.
    first_draw = 2 if scale > 0.0 else 1
    total = int(counts.sum())
    row_of = np.repeat(np.arange(n, dtype=np.int64), counts)
    starts = np.cumsum(counts) - counts
    draw = np.arange(total, dtype=np.int64) - np.repeat(starts, counts) + first_draw
    state = state0[row_of] + draw.astype(np.uint64) * gold
    uniform = (_mix(state) >> np.uint64(11)).astype(np.float64) * 2.0 ** -53
    candidate = np.minimum((uniform * float(cap)).astype(np.int64), cap - 1)
    del state, uniform, draw
    key = _distinct(row_of * n + candidate)
    key_rows = key // n
    distinct = np.bincount(key_rows, minlength=n)
    redo = np.nonzero((distinct != counts) | (counts > cap // 2))[0]
    keep = ~np.isin(key_rows, redo)
    row_parts, candidate_parts = [key_rows[keep]], [key[keep] % n]
    for row in redo:
        rng = _Rng(seed, int(row))
        for _ in range(first_draw - 1):
            rng.uniform()
        chosen = _choose_distinct(int(counts[row]), cap, rng)
        row_parts.append(np.full(len(chosen), row, dtype=np.int64))
        candidate_parts.append(np.array(chosen, dtype=np.int64))
    row_of, candidate = np.concatenate(row_parts), np.concatenate(candidate_parts)
    column = candidate + (candidate >= row_of)  # candidates 0..n-2 skip the diagonal
    row_of = np.concatenate([row_of, np.arange(n, dtype=np.int64)])
    column = np.concatenate([column, np.arange(n, dtype=np.int64)])  # the diagonal
    order = np.argsort(row_of, kind="stable")
    row_of, column = row_of[order], column[order]
    row_offsets = np.zeros(n + 1, dtype=np.int64)
    row_offsets[1:] = np.cumsum(counts + 1)
    return row_offsets, row_of, column


def _choose_few_distinct(count, bound, rng):
    chosen = []
    while len(chosen) < count:
        chosen += [rng.below(bound) for _ in range(count - len(chosen))]
        chosen = sorted(set(chosen))
    return chosen


def _choose_distinct(count, bound, rng):
    if count <= bound // 2:
        return _choose_few_distinct(count, bound, rng)
    excluded = set(_choose_few_distinct(bound - count, bound, rng))
    return [v for v in range(bound) if v not in excluded]


class PatternMatrix:
    """A pattern held whole (the power-law matrix), with the interface Grid offers."""

    def __init__(self, row_offsets, row_of, column):
        self.row_offsets, self.row_of, self.column = row_offsets, row_of, column
        self.rows = len(row_offsets) - 1

    def entries_before(self, row):
        return int(self.row_offsets[row])

    def off_block_entries(self, first, end):
        lo, hi = self.row_offsets[first], self.row_offsets[end]
        r, c = self.row_of[lo:hi], self.column[lo:hi]
        outside = (c < first) | (c >= end)
        return r[outside], c[outside]


# ---------------------------------------------------------------------------------------------
# Partition and per-rank counts (what the report's "distributed.per_process" holds).
def partition(rows, processes, entries_before):
    """partition_rows with RowBalance::nonzeros (distributed/row_partition.cpp)."""
    offsets = [0] * (processes + 1)
    offsets[-1] = rows
    entries = entries_before(rows)
    for p in range(1, processes):
        target = p * (entries // processes) + p * (entries % processes) // processes
        low, high = offsets[p - 1], rows
        while low < high:
            middle = low + (high - low) // 2
            if entries_before(middle) >= target:
                high = middle
            else:
                low = middle + 1
        offsets[p] = low
    return offsets


def rank_counts(matrix, processes):
    """Per rank: first_row, rows, nnz, local_nnz, halo_nnz, halo_size, send_size, neighbours,
    halo_rows (rows with a halo entry) and receive counts by source rank."""
    offsets = partition(matrix.rows, processes, matrix.entries_before)
    starts = np.array(offsets[:-1], dtype=np.int64)
    ranks = []
    for p in range(processes):
        first, end = offsets[p], offsets[p + 1]
        nnz = matrix.entries_before(end) - matrix.entries_before(first)
        rows, columns = matrix.off_block_entries(first, end)
        halo = _distinct(columns)
        owners = np.searchsorted(starts, halo, side="right") - 1
        per_owner = np.bincount(owners, minlength=processes)
        sources = {q: int(c) for q, c in enumerate(per_owner) if c > 0}
        ranks.append(dict(rank=p, first_row=first, rows=end - first, nnz=nnz,
                          local_nnz=nnz - len(columns), halo_nnz=len(columns),
                          halo_size=len(halo), halo_rows=len(_distinct(rows)),
                          receives={int(q): int(c) for q, c in sources.items()}))
    for info in ranks:
        info["sends"] = {q["rank"]: q["receives"][info["rank"]] for q in ranks
                         if info["rank"] in q["receives"]}
        info["send_size"] = sum(info["sends"].values())
        info["neighbours"] = len(set(info["receives"]) | set(info["sends"]))
    return ranks


# ---------------------------------------------------------------------------------------------
# Bytes (fp64 values, 4-byte indices) and times.
def local_bytes(info):
    """The local block's product, CSR-minimal as BENCHMARKS.md counts it: each entry's value
    and column, a row pointer or length, x and y once."""
    return 12 * info["local_nnz"] + 20 * info["rows"]


def halo_product_bytes(info, every_row=False):
    """y += A_halo x_halo. The halo block keeps its non-empty rows only
    (distributed/compressed_rows_operator.hpp): the backend over those rows (ELLPACK-R: a length, the
    entries, x_halo, the product t written) and one scatter-add (a row number, t, y read and
    written): 40 bytes a halo row. every_row: the block over all the process's rows, as before
    that change (each row's length, y read and written, empty rows too; ell_kernels.cuh)."""
    if info["halo_nnz"] == 0:
        return 0
    rows = 20 * info["rows"] if every_row else 40 * info["halo_rows"]
    return 12 * info["halo_nnz"] + 8 * info["halo_size"] + rows


def pack_bytes(info):
    """The gather of the entries sent: an index, x and the send buffer per entry."""
    return 20 * info["send_size"]


def csr_minimal_bytes(rows, nnz):
    return 12 * nnz + 20 * rows + 4


def vector_ms(solver, rows):
    """The iteration's vector calls at `rows` rows (see CG_VECTOR_OPS)."""
    points = CG_VECTOR_OPS
    if rows <= points[0][0]:
        ms = points[0][1]
    elif rows >= points[-1][0]:
        ms = points[-1][1] * rows / points[-1][0]
    else:
        ms = float(np.interp(rows, [p[0] for p in points], [p[1] for p in points]))
    return ms * (BICGSTAB_OVER_CG_VECTOR if solver == "bicgstab" else 1.0)


def link_between(p, q, topology):
    """The link two ranks use: within a node NVLink (or the topology given: 'nvlink', 'pcie'),
    across nodes ('cluster': 8 GPUs a node, ranks in order) InfiniBand."""
    if topology != "cluster":
        return topology
    return "nvlink" if p // GPUS_PER_NODE == q // GPUS_PER_NODE else "ib"


def _figure(link, key, scenario):
    """A link's figure; NCCL over PCIe takes PCIe's bandwidth and NVLink's latencies (no PCIe
    figure for NCCL was found)."""
    if link == "pcie" and key != "bw":
        link = "nvlink"
    return LINKS[link][key][scenario]


def exchange_ms(info, topology, transport, scenario):
    """One halo exchange as (before, during, after) the local product, in ms.
    nccl (distributed/device_halo_exchange.hpp): send/recv on a second stream while the local
      product runs; per link used, its latency + the larger of the bytes sent and received over
      its bandwidth, links in parallel.
    mpi: the packed entries are copied to the host before the local product (PCIe), MPI runs
      while it computes, the halo is copied back after it; host memory copies not modelled."""
    per_link = {}
    for q, count in info["receives"].items():
        per_link.setdefault(link_between(info["rank"], q, topology), [0, 0])[0] += 8 * count
    for q, count in info["sends"].items():
        per_link.setdefault(link_between(info["rank"], q, topology), [0, 0])[1] += 8 * count
    if not per_link:
        return 0.0, 0.0, 0.0
    if transport == "nccl":
        return 0.0, max(_figure(k, "p2p_us", scenario) * 1e-3
                        + max(v) / (_figure(k, "bw", scenario) * 1e6)
                        for k, v in per_link.items()), 0.0
    received = sum(v[0] for v in per_link.values())
    sent = sum(v[1] for v in per_link.values())
    copy_ms = LINKS["pcie"]["p2p_us"][scenario] * 1e-3
    pcie = LINKS["pcie"]["bw"][scenario] * 1e6
    network = max([LINKS["pcie"]["sum_us"][scenario] * 1e-3]  # shared memory: its latency only
                  + [LINKS["ib"]["p2p_us"][scenario] * 1e-3
                     + max(v) / (LINKS["ib"]["bw"][scenario] * 1e6)
                     for k, v in per_link.items() if k == "ib"])
    return copy_ms + sent / pcie, network, copy_ms + received / pcie


def allreduce_ms(processes, topology, transport, scenario):
    """One scalar summed over the processes. mpi: the dot is read back (a small copy, which
    waits for the stream), MPI_Allgather, and written back."""
    if processes == 1:
        return 0.0
    across_nodes = topology == "cluster" and processes > GPUS_PER_NODE
    if transport == "mpi":
        network = LINKS["ib" if across_nodes else "pcie"]["sum_us"][scenario]
        return (2 * LINKS["pcie"]["p2p_us"][scenario] + network) * 1e-3
    link = "ib" if across_nodes else ("nvlink" if topology == "cluster" else topology)
    return _figure(link, "sum_us", scenario) * 1e-3


# Measured on 2 x H200 (issue 14, BENCHMARKS "Two GPUs measured"), per product, whatever the
# size: the halo product's two small kernels (non-empty rows, then the scatter-add) cost their
# launch floor, 0.010-0.012 ms, not their bytes; and the pack kernel and the join of the two
# streams leave 0.010 ms of the exchange unhidden behind the local product (nccl).
HALO_PRODUCT_FLOOR_MS = 0.011
EXCHANGE_UNHIDDEN_MS = 0.010


def iteration_ms(ranks, base, solver, topology="cluster", transport="nccl", overlap=True,
                 scenario="fast", compute_scale=1.0, halo_every_row=False):
    """Predicted ms per iteration and the slowest rank's parts. base: a MEASURED entry: its
    SpMV sets the bandwidth, ms / (SpMVs x SpMV + vector calls) the overhead ratio o (with CUDA
    graphs; without for the mpi transport, which cannot be captured), applied to every compute
    term. compute_scale multiplies them too (calibration to another GPU's 1-GPU run)."""
    processes = len(ranks)
    spec = SOLVERS[solver]
    bw = csr_minimal_bytes(base["rows"], base["nnz"]) / base["spmv_ms"]  # bytes per ms
    ms = base["ms_nograph"] if transport == "mpi" and processes > 1 else base["ms_graph"]
    overhead = ms / (spec["spmvs"] * base["spmv_ms"] + vector_ms(solver, base["rows"]))
    scale = overhead * compute_scale
    sums = spec["sums"] * allreduce_ms(processes, topology, transport, scenario)
    worst = None
    for info in ranks:
        local = local_bytes(info) / bw * scale
        halo = halo_product_bytes(info, halo_every_row) / bw * scale
        pack = pack_bytes(info) / bw * scale
        before, during, after = exchange_ms(info, topology, transport, scenario)
        if info["receives"]:  # the measured floors (see above)
            halo = max(halo, HALO_PRODUCT_FLOOR_MS)
            pack = max(pack, EXCHANGE_UNHIDDEN_MS)
        middle = max(local, during) if overlap else local + during
        product = pack + before + middle + after + halo
        vector = vector_ms(solver, info["rows"]) * scale
        total = spec["spmvs"] * product + vector + sums
        parts = dict(total=total, local=local, exchange=before + during + after, halo=halo,
                     pack=pack, vector=vector, sums=sums, overhead=overhead)
        if worst is None or total > worst["total"]:
            worst = parts
    return worst


def spmv_ms(ranks, base, topology="cluster", scenario="fast"):
    """The distributed product alone (power-law matrix: no solver figure was measured)."""
    bw = csr_minimal_bytes(base["rows"], base["nnz"]) / base["spmv_ms"]
    worst = 0.0
    for info in ranks:
        exchange = exchange_ms(info, topology, "nccl", scenario)[1]
        t = (pack_bytes(info) + halo_product_bytes(info)) / bw + max(local_bytes(info) / bw,
                                                                      exchange)
        worst = max(worst, t)
    return worst


# ---------------------------------------------------------------------------------------------
# The cases of issue 14 and their matrices.
CASES = {
    "poisson7-256": dict(label="Poisson 7-pt 256³ CG", stencil=7, n=256, solver="cg", base="cg7"),
    "poisson27-160": dict(label="Poisson 27-pt 160³ CG", stencil=27, n=160, solver="cg",
                          base="cg27"),
    "convdiff-160": dict(label="convdiff 160³ BiCGSTAB", stencil=7, n=160, solver="bicgstab",
                         base="bicgstab7"),
    # weak scaling: about 8.49M rows (204³) per GPU; the generator makes cubes only, so the grid
    # is the cube nearest P x 204³ (257³ = 1.0000 x 2 x 204³ rows, 324³ = 1.0015 x 4 x 204³,
    # exact at 8 and 64)
    "weak7": dict(label="Poisson 7-pt weak, 204³ per GPU", stencil=7, solver="cg", base="cg7",
                  n_by_gpus={1: 204, 2: 257, 4: 324, 8: 408, 64: 816}),
}
GPU_COUNTS = [2, 4, 8, 64]

_matrix_cache = {}


def case_matrix(case, gpus=1):
    spec = CASES[case]
    n = spec["n_by_gpus"][gpus] if "n_by_gpus" in spec else spec["n"]
    key = (spec["stencil"], n)
    if key not in _matrix_cache:
        _matrix_cache[key] = Grid(n, spec["stencil"])
    return _matrix_cache[key]


_ranks_cache = {}


def case_ranks(case, gpus):
    matrix = case_matrix(case, gpus)
    key = (matrix.stencil, matrix.n, gpus)
    if key not in _ranks_cache:
        _ranks_cache[key] = rank_counts(matrix, gpus)
    return _ranks_cache[key]


def predict(case, gpus, topology="cluster", transport="nccl", overlap=True, scenario="fast",
            compute_scale=1.0, halo_every_row=False):
    spec = CASES[case]
    return iteration_ms(case_ranks(case, gpus), MEASURED[spec["base"]], spec["solver"], topology,
                        transport, overlap, scenario, compute_scale, halo_every_row)


def calibrated_prediction(case, gpus, measured_1gpu_ms, topology, transport, overlap):
    """Predictions for a run on another GPU: compute terms scaled so that the model's 1-GPU time
    equals the measured 1-GPU ms/iteration of the same run; links as in LINKS. (fast, slow)."""
    scale = measured_1gpu_ms / predict(case, 1)["total"]
    return tuple(predict(case, gpus, topology, transport, overlap, s, scale)["total"]
                 for s in ("fast", "slow"))


# ---------------------------------------------------------------------------------------------
# Tables.
def _mb(x):
    return f"{x / 1e6:.2f}"


def efficiency_cell(fast, slow, one, factor):
    """'ms · efficiency' for the fast and slow links; efficiency = one / (factor x ms)."""
    return (f"{span(fast, slow, '{:.4f}')} · "
            f"{span(100 * one / (factor * fast), 100 * one / (factor * slow), '{:.0f}')}%")


def span(a, b, fmt):
    """'a–b' in fmt, or 'a' where the two print the same."""
    low, high = fmt.format(a), fmt.format(b)
    return low if low == high else low + "–" + high


def parameter_table():
    lines = ["| link | figure | fast | slow | source |", "|---|---|---|---|---|"]
    for link in LINKS.values():
        for key, label, unit in (("bw", "bandwidth a direction", "GB/s"),
                                 ("p2p_us", "send/recv latency", "µs"),
                                 ("sum_us", "8-byte sum latency", "µs")):
            source = link[{"bw": "bw_source", "p2p_us": "p2p_source", "sum_us": "sum_source"}[key]]
            label = link.get("labels", {}).get(key, label)
            lines.append(f"| {link['name']} | {label} | {link[key]['fast']:g} {unit} | "
                         f"{link[key]['slow']:g} {unit} | {source} |")
    return "\n".join(lines)


def bytes_table(powerlaw):
    lines = ["| matrix | GPUs | rows per GPU (largest) | local product MB | halo product MB | "
             "halo received MB | sent MB | received / local | neighbours |",
             "|---|---|---|---|---|---|---|---|---|"]
    rows = [(CASES[c]["label"], c) for c in ("poisson7-256", "poisson27-160", "weak7")]
    rows.append(("power-law 2M rows, avg 8", "powerlaw"))
    for label, case in rows:
        for gpus in GPU_COUNTS:
            ranks = rank_counts(powerlaw, gpus) if case == "powerlaw" else case_ranks(case, gpus)
            worst = max(ranks, key=lambda r: (r["halo_size"], local_bytes(r)))
            lines.append(
                f"| {label} | {gpus} | {max(r['rows'] for r in ranks):,} | "
                f"{_mb(local_bytes(worst))} | {_mb(halo_product_bytes(worst))} | "
                f"{_mb(8 * worst['halo_size'])} | {_mb(8 * worst['send_size'])} | "
                f"{100.0 * 8 * worst['halo_size'] / local_bytes(worst):.1f}% | "
                f"{max(r['neighbours'] for r in ranks)} |")
    return "\n".join(lines)


def topology_of(gpus):
    return "NVLink" if gpus <= GPUS_PER_NODE else "IB + NVLink"


def time_table(cases, weak=False):
    head = "| case | 1 GPU ms | " + " | ".join(
        f"{g} GPUs ({topology_of(g)}) ms · efficiency" for g in GPU_COUNTS) + " |"
    lines = [head, "|---" * (2 + len(GPU_COUNTS)) + "|"]
    for case in cases:
        one = predict(case, 1)["total"]
        cells = []
        for gpus in GPU_COUNTS:
            fast, slow = (predict(case, gpus, scenario=s)["total"] for s in ("fast", "slow"))
            factor = 1.0 if weak else gpus
            cells.append(efficiency_cell(fast, slow, one, factor))
        lines.append(f"| {CASES[case]['label']} | {one:.4f} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def every_row_table(cases):
    heads = " | ".join(f"{g} GPUs" for g in GPU_COUNTS)
    lines = ["| case | " + heads + " |", "|---" * (1 + len(GPU_COUNTS)) + "|"]
    for case in cases:
        one = predict(case, 1)["total"]
        cells = [f"{100 * one / (g * predict(case, g, halo_every_row=True)['total']):.0f}% → "
                 f"{100 * one / (g * predict(case, g)['total']):.0f}%" for g in GPU_COUNTS]
        lines.append(f"| {CASES[case]['label']} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def parts_table(cases, gpus_list=(2, 64)):
    lines = ["| case | GPUs | local product | exchange | halo product | pack | vector calls | "
             "sums | total (ms, fast links) |", "|---|---|---|---|---|---|---|---|---|"]
    for case in cases:
        for gpus in gpus_list:
            p = predict(case, gpus)
            lines.append(f"| {CASES[case]['label']} | {gpus} | {p['local']:.4f} | "
                         f"{p['exchange']:.4f} | {p['halo']:.4f} | {p['pack']:.4f} | "
                         f"{p['vector']:.4f} | {p['sums']:.4f} | {p['total']:.4f} |")
    return "\n".join(lines)


def variants_table(cases, gpus=2):
    """The runs of tools/scaling-run.sh, predicted for H100s over NVLink (fast–slow links)."""
    variants = [("nccl, overlap", dict()), ("nccl, no overlap", dict(overlap=False)),
                ("mpi (host-staged)", dict(transport="mpi"))]
    lines = ["| case | 1 GPU ms | " + " | ".join(f"{gpus} GPUs, {v}" for v, _ in variants) + " |",
             "|---" * (2 + len(variants)) + "|"]
    for case in cases:
        one = predict(case, 1)["total"]
        cells = []
        for _, options in variants:
            fast, slow = (predict(case, gpus, scenario=s, **options)["total"]
                          for s in ("fast", "slow"))
            factor = 1.0 if "n_by_gpus" in CASES[case] else gpus
            cells.append(efficiency_cell(fast, slow, one, factor))
        lines.append(f"| {CASES[case]['label']} | {one:.4f} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def powerlaw_table(powerlaw):
    base = MEASURED["powerlaw"]
    one = spmv_ms(rank_counts(powerlaw, 1), base)
    cells = []
    for gpus in GPU_COUNTS:
        ranks = rank_counts(powerlaw, gpus)
        fast, slow = (spmv_ms(ranks, base, scenario=s) for s in ("fast", "slow"))
        cells.append(efficiency_cell(fast, slow, one, gpus))
    return ("| SpMV alone | 1 GPU ms | " + " | ".join(f"{g} GPUs" for g in GPU_COUNTS) + " |\n"
            + "|---" * (2 + len(GPU_COUNTS)) + "|\n"
            + f"| power-law 2M rows, avg 8 | {one:.4f} | " + " | ".join(cells) + " |")


def print_tables():
    powerlaw = PatternMatrix(*powerlaw_pattern(2000000))
    print("Link figures (none measured here):\n")
    print(parameter_table())
    print("\nHalo against interior bytes per product, the rank with the largest halo:\n")
    print(bytes_table(powerlaw))
    print("\nStrong scaling, predicted ms per iteration · parallel efficiency "
          "(fast–slow links):\n")
    print(time_table(["poisson7-256", "poisson27-160", "convdiff-160"]))
    print("\nWeak scaling (efficiency = 1-GPU time / P-GPU time):\n")
    print(time_table(["weak7"], weak=True))
    print("\nWhere the time goes (the slowest rank, fast links, ms per iteration; a product's "
          "parts count once per SpMV of the iteration):\n")
    print(parts_table(["poisson7-256", "poisson27-160", "convdiff-160", "weak7"]))
    print("\nThe variants of tools/scaling-run.sh at 2 GPUs (ms per iteration · efficiency, "
          "fast–slow links; weak: 1-GPU time / 2-GPU time):\n")
    print(variants_table(["poisson7-256", "poisson27-160", "convdiff-160", "weak7"]))
    print("\nStrong scaling efficiency with the halo block over every row → over its non-empty "
          "rows (fast links):\n")
    print(every_row_table(["poisson7-256", "poisson27-160", "convdiff-160"]))
    print("\nPower-law matrix, the distributed SpMV alone (fast–slow links):\n")
    print(powerlaw_table(powerlaw))


# ---------------------------------------------------------------------------------------------
# --check: the per-rank counts against the CLI's report (CPU path, small sizes).
CHECK_RUNS = [
    ("poisson3d 7-pt n=24", ["matrix.generate.kind=poisson3d", "matrix.generate.n=24"],
     lambda: Grid(24, 7), [2, 3, 4, 8]),
    ("poisson3d 27-pt n=20", ["matrix.generate.kind=poisson3d", "matrix.generate.n=20",
                              "matrix.generate.stencil=27"], lambda: Grid(20, 27), [2, 4, 8]),
    # 64 blocks thinner than a plane: halos from up to 8 ranks
    ("poisson3d 27-pt n=16", ["matrix.generate.kind=poisson3d", "matrix.generate.n=16",
                              "matrix.generate.stencil=27"], lambda: Grid(16, 27), [64]),
    ("convdiff3d n=20", ["matrix.generate.kind=convdiff3d", "matrix.generate.n=20"],
     lambda: Grid(20, 7), [4]),
    ("powerlaw n=20000", ["matrix.generate.kind=powerlaw", "matrix.generate.n=20000",
                          "solver.method=bicgstab"],
     lambda: PatternMatrix(*powerlaw_pattern(20000)), [2, 4, 8]),
    ("powerlaw n=3000 avg 40 exponent 1.5", [
        "matrix.generate.kind=powerlaw", "matrix.generate.n=3000",
        "matrix.generate.avg_row_length=40", "matrix.generate.exponent=1.5",
        "solver.method=bicgstab"],
     lambda: PatternMatrix(*powerlaw_pattern(3000, 40.0, 1.5)), [3]),
]
CHECK_FIELDS = ["first_row", "rows", "nnz", "local_nnz", "halo_nnz", "halo_size", "send_size",
                "neighbours"]


def check(binary, mpirun):
    env = dict(os.environ, OMP_NUM_THREADS="1")
    failures = 0
    with tempfile.TemporaryDirectory() as work:
        for label, sets, make, counts in CHECK_RUNS:
            matrix = make()
            for processes in counts:
                report = os.path.join(work, "report.json")
                command = (mpirun + ["-np", str(processes), binary, "solve", "-q",
                                     "--set", "device=cpu", "--set", "solver.max_iterations=1",
                                     "--set", "output.report=" + report]
                           + [a for s in sets for a in ("--set", s)])
                # exit code 2: not converged, as asked (one iteration): the counts are there
                done = subprocess.run(command, env=env, stdout=subprocess.DEVNULL, timeout=600)
                if done.returncode not in (0, 2):
                    raise SystemExit(f"{' '.join(command)}: exit code {done.returncode}")
                with open(report) as f:
                    reported = json.load(f)["distributed"]["per_process"]
                model = rank_counts(matrix, processes)
                same = all(int(r[k]) == int(m[k]) for r, m in zip(reported, model)
                           for k in CHECK_FIELDS) and len(reported) == len(model)
                failures += not same
                sizes = [m["halo_size"] for m in model]
                halos = (",".join(map(str, sizes)) if len(sizes) <= 8
                         else f"{min(sizes)}..{max(sizes)}")
                print(f"{label}, {processes} processes: {'same' if same else 'DIFFERENT'} "
                      f"({len(CHECK_FIELDS)} counts per rank; halo sizes {halos})")
                if not same:
                    for r, m in zip(reported, model):
                        print("  CLI  ", {k: r[k] for k in CHECK_FIELDS})
                        print("  model", {k: m[k] for k in CHECK_FIELDS})
    powerlaw = powerlaw_pattern(2000000)
    nnz = int(powerlaw[0][-1])
    expected = MEASURED["powerlaw"]["nnz"]
    print(f"powerlaw n=2000000: {nnz} stored entries here, {expected} in "
          f"{MEASURED['powerlaw']['source']}: {'same' if nnz == expected else 'DIFFERENT'}")
    return failures + (nnz != expected)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", metavar="SPKRYLOV",
                        help="compare the per-rank counts with the CLI's (mpirun, CPU path)")
    parser.add_argument("--mpirun", default="mpirun -q --oversubscribe --allow-run-as-root",
                        help="the launcher for --check")
    args = parser.parse_args()
    if args.check:
        sys.exit(1 if check(args.check, args.mpirun.split()) else 0)
    print_tables()


if __name__ == "__main__":
    main()
