"""Whole processes side by side: ``ragwidgets score FILE --undefined zero --format json`` against
ragchecker 0.1.9 used the way its library users do, on the same RAGChecker-format file.

    python benchmarks/whole_process_vs_ragchecker.py --n 10000 100000 300000 1000000

The peer process: ``json.load`` the file, ``RAGResult(**fields)`` per sample, every
``METRIC_FUNC_MAP`` function, ``json.dump`` of every sample's metrics and the means (indent=2).
Each process is timed from the outside (``os.wait4``: its user + system CPU seconds and peak
resident memory, interpreter start and imports included). Before a row is printed, every
per-sample value of the eleven metrics in the two outputs is checked to be identical.
Input files are synthetic (0-12 claims a side, 0-8 passages, string labels, as in
``engine_vs_ragchecker.py``), written once to ``--dir`` and reused.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

TESTS = Path(__file__).resolve().parents[1] / "tests"
PEER = f"""
import json, sys
sys.path.insert(0, {str(TESTS)!r})
from ragchecker_peer import load_peer
computation, RAGResult = load_peer()
with open(sys.argv[1], encoding="utf-8") as f:
    data = json.load(f)
out, totals = [], {{}}
for fields in data["results"]:
    result = RAGResult(**fields)
    for func in computation.METRIC_FUNC_MAP.values():
        func(result)
    out.append({{"query_id": result.query_id, "metrics": result.metrics}})
    for name, value in result.metrics.items():
        totals[name] = totals.get(name, 0.0) + value
means = {{name: round(total / len(out) * 100, 1) for name, total in totals.items()}}
json.dump({{"results": out, "metrics": means}}, sys.stdout, indent=2)
"""
LABELS = ("Entailment", "Neutral", "Contradiction")


def write_synthetic(path: Path, n: int, seed: int = 0, *, metrics: tuple[str, ...] = (),
                    summary: dict | None = None) -> None:
    """n samples shaped like RAGChecker's: 0-12 claims a side, 0-8 passages, ~40% entailment; as
    ragchecker's output file holds them with ``metrics`` (random per-sample values of those names)
    and ``summary`` (the file's top-level ``metrics``)."""
    rng = np.random.default_rng(seed)
    n_resp, n_gt, n_psg = rng.integers(0, 13, n), rng.integers(0, 13, n), rng.integers(0, 9, n)
    total = int((n_resp + n_gt + (n_resp + n_gt) * n_psg).sum())
    labels = iter(np.array(LABELS)[rng.choice(3, size=total, p=[0.4, 0.45, 0.15])].tolist())
    scores = iter(rng.random(n * len(metrics)).tolist())

    def take(k: int) -> list[str]:
        return [next(labels) for _ in range(k)]

    with path.open("w", encoding="utf-8") as f:
        f.write('{"results": [')
        for i in range(n):
            r, g, k = int(n_resp[i]), int(n_gt[i]), int(n_psg[i])
            record = {
                "query_id": str(i), "query": "q", "gt_answer": "a", "response": "r",
                "retrieved_context": [{"doc_id": f"{i}-{j}", "text": "passage"} for j in range(k)],
                "response_claims": [["s", "p", str(j)] for j in range(r)],
                "gt_answer_claims": [["s", "p", str(j)] for j in range(g)],
                "answer2response": take(r), "response2answer": take(g),
                "retrieved2response": [take(k) for _ in range(r)], "retrieved2answer": [take(k) for _ in range(g)],
            }
            if metrics:
                record["metrics"] = {name: next(scores) for name in metrics}
            f.write(("," if i else "") + json.dumps(record))
        f.write("]" + ("" if summary is None else ', "metrics": ' + json.dumps(summary)) + "}")


def run(command: list[str], out: Path) -> tuple[float, float, float]:
    """(CPU seconds, peak RSS in MiB, wall seconds) of one process writing its stdout to ``out``."""
    start = time.perf_counter()
    with out.open("wb") as stdout:
        process = subprocess.Popen(command, stdout=stdout)
        _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        sys.exit(f"{command[:3]} failed with exit status {process.returncode}")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, time.perf_counter() - start


def same_values(ours: Path, peer: Path) -> None:
    a, b = json.loads(ours.read_bytes()), json.loads(peer.read_bytes())
    if len(a["results"]) != len(b["results"]):
        sys.exit("MISMATCH: sample counts differ")
    for x, y in zip(a["results"], b["results"]):
        if x["query_id"] != y["query_id"] or any(x["metrics"][k] != v for k, v in y["metrics"].items()):
            sys.exit(f"MISMATCH at query_id {y['query_id']}: ours {x['metrics']} ragchecker {y['metrics']}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, nargs="+", default=[10_000, 100_000, 300_000, 1_000_000])
    parser.add_argument("--dir", type=Path, default=Path("/tmp/ragwidgets-bench"))
    parser.add_argument("--peer-max", type=int, default=1_000_000, help="skip ragchecker above this size")
    args = parser.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)
    print(f"# python {platform.python_version()}, numpy {np.__version__}, {platform.machine()}, "
          f"load average at start {os.getloadavg()[0]:.2f}")
    print("| N | file | ragchecker CPU | ragchecker peak | ragwidgets CPU | ragwidgets peak | CPU ratio | "
          "memory ratio | ragwidgets CPU per 100k |")
    print("|---|---|---|---|---|---|---|---|---|")
    for n in args.n:
        data = args.dir / f"results_{n}.json"
        if not data.exists():
            write_synthetic(data, n)
        ours_out, peer_out = args.dir / f"ours_{n}.json", args.dir / f"peer_{n}.json"
        ours = run(["ragwidgets", "score", str(data), "--undefined", "zero", "--format", "json"], ours_out)
        if n <= args.peer_max:
            peer = run([sys.executable, "-c", PEER, str(data)], peer_out)
            same_values(ours_out, peer_out)
            cells = (f"{peer[0]:.2f} s | {peer[1]:,.0f} MiB | {ours[0]:.2f} s | {ours[1]:,.0f} MiB | "
                     f"{peer[0] / ours[0]:.1f}x | {ours[1] / peer[1]:.2f} |")
        else:
            cells = f"skipped | skipped | {ours[0]:.2f} s | {ours[1]:,.0f} MiB | - | - |"
        print(f"| {n:,} | {data.stat().st_size / 2**20:,.0f} MiB | {cells} {ours[0] / n * 1e5:.2f} s |", flush=True)
    print(f"\n# load average at end {os.getloadavg()[0]:.2f}; every per-sample value of the eleven metrics "
          "identical in every row where ragchecker ran")


if __name__ == "__main__":
    main()
