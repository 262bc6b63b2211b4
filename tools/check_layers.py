#!/usr/bin/env python3
"""Checks that includes point down the layers, and that no two files include each other in a
cycle. The layers, bottom up (docs/architecture.md):

    include/spkrylov  core  spmv  solver  distributed  frontend  apps

A file may include its own layer and any layer below it. Three more rules: solver/ and
distributed/ see a format only through spmv's interface, never spmv/formats/ itself; the
programs under apps/ include nothing of each other (what two of them share is frontend/); and
the public headers (include/spkrylov) include nothing but each other. tests/, fuzz/, python/ and
tools/ sit above everything and are not checked.

  tools/check_layers.py [ROOT]      exit 0: clean; 1: lists every upward include and cycle"""
import os
import re
import sys

LAYERS = ["include/spkrylov", "core", "spmv", "solver", "distributed", "frontend", "apps"]
SOURCES = (".hpp", ".cpp", ".cu", ".cuh", ".h")
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^">]+)[">]', re.MULTILINE)
FORBIDDEN = {"solver": ["spmv/formats/"], "distributed": ["spmv/formats/"]}


def layer_of(path):
    for index, layer in enumerate(LAYERS):
        if path == layer or path.startswith(layer + "/"):
            return index
    return None


def resolve(root, including, name):
    """The repository path an include names: from the root ("core/x.hpp"), the public
    headers ("spkrylov/x.hpp") or, for a bare name, the including file's folder."""
    for candidate in (name, "include/" + name, os.path.join(os.path.dirname(including), name)):
        if os.path.isfile(os.path.join(root, candidate)):
            return os.path.normpath(candidate)
    return None


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                           os.path.join(os.path.dirname(__file__), ".."))
    edges = {}
    problems = []
    for layer in LAYERS:
        for folder, _, files in os.walk(os.path.join(root, layer)):
            for name in files:
                if not name.endswith(SOURCES):
                    continue
                path = os.path.relpath(os.path.join(folder, name), root)
                with open(os.path.join(root, path), encoding="utf-8") as handle:
                    text = handle.read()
                targets = []
                for included in INCLUDE.findall(text):
                    target = resolve(root, path, included)
                    if target is None:
                        continue  # a system or third-party header
                    targets.append(target)
                    mine, theirs = layer_of(path), layer_of(target)
                    if theirs is None or theirs > mine:
                        problems.append(f"{path}: includes {target}, a layer above it")
                    if (path.startswith("apps/") and target.startswith("apps/")
                            and path.split("/")[1] != target.split("/")[1]):
                        problems.append(f"{path}: includes {target}, another program's file")
                    for prefix in FORBIDDEN.get(LAYERS[mine], []):
                        if target.startswith(prefix):
                            problems.append(f"{path}: includes {target} (formats are seen through "
                                            "spmv's interface only)")
                edges[path] = targets
    # Cycles among files: depth-first search, a back edge closes one.
    state, stack = {}, []

    def visit(node):
        state[node] = "open"
        stack.append(node)
        for target in edges.get(node, []):
            if state.get(target) == "open":
                cycle = stack[stack.index(target):] + [target]
                problems.append("include cycle: " + " -> ".join(cycle))
            elif target not in state:
                visit(target)
        stack.pop()
        state[node] = "done"

    sys.setrecursionlimit(10000)
    for node in sorted(edges):
        if node not in state:
            visit(node)
    for problem in problems:
        print(problem)
    print(f"check_layers: {len(edges)} files, {sum(map(len, edges.values()))} includes, "
          f"{len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
