"""What the peer checks (peer_check.py against SciPy and CuPy, amg_peer_check.py against
PyAMG) share: spkrylov's own matrices written out for the peer, a solve of spkrylov read back
from its JSON report, and the test that a peer's claim of convergence holds by its true
residual. Standard library only (the callers import NumPy and the peers themselves)."""
import json
import os
import subprocess


def generated_matrix(spkrylov, keys, work, prefix=""):
    """The Matrix Market file of `spkrylov info --generate KEYS` in `work` (written once)."""
    path = os.path.join(work, prefix + keys.replace(",", "_").replace("=", "-") + ".mtx")
    if not os.path.exists(path):
        subprocess.run([spkrylov, "info", "--generate", keys, "--write", path], check=True,
                       stdout=subprocess.DEVNULL)
    return path


def solve_with_report(spkrylov, config_text, work):
    """Runs `spkrylov solve` on `config_text` (YAML without its output section) and returns
    the JSON report as a dict; a run that wrote no report gives status "error" and its
    stderr as the message."""
    report = os.path.join(work, "report.json")
    config = os.path.join(work, "case.yaml")
    with open(config, "w") as f:
        f.write(config_text + f"output: {{report: {report}}}\n")
    if os.path.exists(report):
        os.remove(report)
    proc = subprocess.run([spkrylov, "solve", config, "--quiet"], capture_output=True, text=True)
    if not os.path.exists(report):
        return {"status": "error", "iterations": -1, "message": proc.stderr.strip()}
    with open(report) as f:
        return json.load(f)


def truly_converged(peer, tolerance):
    """A peer's result dict (info, relative_residual) converged by its true residual."""
    return peer["info"] == 0 and peer["relative_residual"] <= tolerance
