#!/usr/bin/env python3
"""Which of the project's kernels a run launched (the `sanitize` label must launch them all).

    tools/kernel_reach.py --binary build/tests/spk_tests_gpu --binary build/apps/libspk_distributed.so
                          --trace kernels.txt [--cuobjdump PATH] [--report reach.txt]

The project's kernels: every ENTRY symbol of the binaries' device code (`cuobjdump -symbols`),
demangled (c++filt) and reduced to its qualified name without template arguments, parameters
or anonymous namespaces, so a template counts once by name (spk::sell_kernel, not each of its
instantiations); CUB's, Thrust's and cuSPARSE's kernels are left out (not the project's).
The launched kernels: the mangled names libspk_kernel_trace.so wrote (--trace, one or more
files), reduced the same way. Prints one line per project kernel (reached or NOT REACHED) and
a summary; exits 1 when a project kernel was not reached or no kernel was found at all, 2 on a
usage or tool error.
"""
import argparse
import re
import shutil
import subprocess
import sys

FOREIGN_PREFIXES = ("cub::", "thrust::", "cusparse", "cuda::", "CUB_", "THRUST_")


def demangle(names):
    """c++filt over `names` (one call); a name it cannot read comes back unchanged."""
    if not names:
        return []
    tool = shutil.which("c++filt")
    if tool is None:
        sys.exit("kernel_reach: c++filt not found (binutils)")
    out = subprocess.run([tool], input="\n".join(names) + "\n", capture_output=True, text=True,
                         check=True).stdout.splitlines()
    return out if len(out) == len(names) else names


def base_name(demangled):
    """'void spk::(anonymous namespace)::sell_kernel<512, ...>(long, ...)' -> 'spk::sell_kernel'."""
    text = demangled.replace("(anonymous namespace)::", "")
    kept, depth = [], 0
    for ch in text:
        if ch in "<(":
            depth += 1
        elif ch in ">)":
            depth = max(0, depth - 1)
        elif depth == 0:
            kept.append(ch)
    name = "".join(kept).strip()
    name = re.sub(r"^(void|static|__global__)\s+", "", name)
    name = re.sub(r"\s+\[clone.*$", "", name)
    return name.split()[-1] if name else name


def is_project(name):
    return name.startswith("spk::") and not any(p in name for p in FOREIGN_PREFIXES)


def project_kernels(binaries, cuobjdump):
    mangled = set()
    for binary in binaries:
        result = subprocess.run([cuobjdump, "-symbols", binary], capture_output=True, text=True)
        if result.returncode != 0:
            sys.exit(f"kernel_reach: {cuobjdump} -symbols {binary} failed: "
                     f"{result.stderr.strip()[:200]}")
        for line in result.stdout.splitlines():
            fields = line.split()
            # "FUNC LOCAL DEFAULT ENTRY name" (cuobjdump 13.5) or "STT_FUNC ... STO_ENTRY ... name"
            if fields and "FUNC" in fields[0] and any(f.endswith("ENTRY") for f in fields[1:]):
                mangled.add(fields[-1])
    names = sorted(mangled)
    return {base_name(d) for d in demangle(names)} - {""}


def launched_kernels(traces):
    mangled = set()
    for path in traces:
        try:
            with open(path, encoding="utf-8", errors="replace") as file:
                mangled.update(line.strip() for line in file if line.strip())
        except OSError as error:
            sys.exit(f"kernel_reach: cannot read trace {path}: {error.strerror}")
    names = sorted(mangled)
    return {base_name(d) for d in demangle(names)} - {""}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", action="append", required=True,
                        help="an executable or shared library with the project's device code")
    parser.add_argument("--trace", action="append", required=True,
                        help="a file of launched kernel names (libspk_kernel_trace.so)")
    parser.add_argument("--cuobjdump", default=shutil.which("cuobjdump") or
                        "/usr/local/cuda/bin/cuobjdump")
    parser.add_argument("--report", help="also write the table here")
    args = parser.parse_args()

    ours = {k for k in project_kernels(args.binary, args.cuobjdump) if is_project(k)}
    launched = launched_kernels(args.trace)
    if not ours:
        print("kernel_reach: no project kernel found in the binaries", file=sys.stderr)
        return 1
    lines = [f"{'reached' if k in launched else 'NOT REACHED':12} {k}" for k in sorted(ours)]
    missing = sorted(ours - launched)
    lines.append(f"kernel reach: {len(ours) - len(missing)} of {len(ours)} project kernels "
                 f"launched by the run ({len(launched)} distinct kernels launched in all, "
                 f"library kernels included)")
    if missing:
        lines.append("not reached: " + ", ".join(missing))
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    if args.report:
        with open(args.report, "w", encoding="utf-8") as file:
            file.write(text)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
