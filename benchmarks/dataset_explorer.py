"""DatasetExplorer from 10k to 1M samples: open from a JSONL file (by piece), resident memory,
update latency, drill-down.

    python benchmarks/dataset_explorer.py --n 10000 100000 1000000 --dir /tmp/rw-runs

Per N, in a fresh process (so that one size's freed memory does not hide the next one's): a
generated run (``rw.datasets.synthetic_run``, written once to ``--dir/run<N>.jsonl`` and reused,
not timed; a multiple of 100,000 is the 100,000 run's lines repeated, query_ids renumbered) is opened in the pieces ``rw.DatasetExplorer(path)`` runs: ``rw.load_samples(path)``
(the fast path's columns), ``rw.evaluate`` on its Batch (scoring), ``rw.DatasetExplorer(scores)``
plus the first 200-row window (the run model: table, summary, slices, charts; the widget
libraries imported beforehand, as in a notebook session). Each piece is timed in wall seconds
and in this process's CPU seconds (the machine is shared: the CPU time is what the piece costs,
the wall time what it took beside the other load). Memory: resident set growth from before the
load to the usable explorer (everything held), and the peak. Then each kind of change (text
filter, expression, sort, brush) is applied 20 times, timed until the view state is ready in
Python (p50 / p95); a drill-down (``explorer.selected = row``: the sample decoded from the file,
explained and its view built) 20 times on rows spread over the run; ``Scores.explain(qid)`` alone;
the top-k what-if curve on the same Scores. The load average is printed before and after each size.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

CHANGES = {
    "text filter": [("text", t) for t in ("harbor", "museum", "case 1", "tide", "")],
    "expression": [("expression", e) for e in ("hallucination > 0", "claim_recall < 1 and precision > 0.5",
                                               "n_passages >= 4", "faithfulness < 0.5", "")],
    "sort": [("sort_by", c) for c in ("hallucination", "precision", "faithfulness", "query_id", "")],
    "brush": [("brush", b) for b in ({"metric": "hallucination", "lo": 0.5, "hi": 1.0},
                                     {"metric": "precision", "lo": 0.0, "hi": 0.2},
                                     {"metric": "hallucination", "undefined": True},
                                     {"metric": "faithfulness", "lo": 0.8, "hi": 1.0}, {})],
}


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def load() -> str:
    return "/".join(f"{x:.1f}" for x in os.getloadavg())


BASE = 100_000  # a larger run repeats this one's lines, renumbered (1M in seconds, not ~25 minutes)


def write_run(n: int, path: Path, chunk: int = 50_000) -> None:
    from ragwidgets.datasets import synthetic_run

    if n > BASE and n % BASE == 0:
        base = path.with_name(f"run{BASE}.jsonl")
        if not base.exists():
            write_run(BASE, base)
        lines = base.read_bytes().splitlines()
        prefix = re.compile(rb'^\{"query_id": "(\d+)"')
        with path.open("wb") as f:
            for copy in range(n // BASE):
                shift = copy * BASE
                f.write(b"\n".join(prefix.sub(lambda m: b'{"query_id": "%d"' % (int(m.group(1)) + shift), line, count=1)
                                   for line in lines) + b"\n")
        return
    with path.open("w") as f:
        for start in range(0, n, chunk):
            for i, rec in enumerate(synthetic_run(min(chunk, n - start), seed=start)):
                rec["query_id"] = str(start + i)
                f.write(json.dumps(rec) + "\n")


class Timer:
    """Wall and CPU seconds of each piece, in order."""

    def __init__(self):
        self.pieces: list[tuple[str, float, float]] = []

    def time(self, name: str, work):
        wall, cpu = time.perf_counter(), time.process_time()
        out = work()
        self.pieces.append((name, time.perf_counter() - wall, time.process_time() - cpu))
        return out


def p50_p95(times: list[float]) -> str:
    return f"p50 {1000 * np.percentile(times, 50):.1f} ms, p95 {1000 * np.percentile(times, 95):.1f} ms"


def one(n: int, path: Path) -> None:
    import ragwidgets as rw
    from ragwidgets.analysis import top_k_curve
    from ragwidgets.engine.batch import Batch

    rw.DatasetExplorer  # the widget libraries are imported once per session, not per explorer
    rows = [f"N = {n:,} ({path.stat().st_size / 2**20:,.0f} MiB), load average before {load()}"]
    base = rss_mb()
    timer = Timer()
    loaded = timer.time("load (fast path's columns)", lambda: rw.load_samples(path))
    after_load = rss_mb()
    scores = timer.time("score", lambda: rw.evaluate(Batch.from_flat(loaded.flat)))
    explorer = timer.time("run model + first window", lambda: (e := rw.DatasetExplorer(scores), e.window(0, 200))[0])
    held = rss_mb()
    wall, cpu = sum(p[1] for p in timer.pieces), sum(p[2] for p in timer.pieces)
    rows.append(f"  file to usable explorer: {wall:.1f} s wall, {cpu:.1f} s CPU; "
                + "; ".join(f"{name} {w:.1f} s ({c:.1f} s CPU)" for name, w, c in timer.pieces))
    rows.append(f"  memory: +{held - base:,.0f} MB resident with the explorer open (+{after_load - base:,.0f} MB "
                f"after the load), peak {peak_mb():,.0f} MB")
    for kind, steps in CHANGES.items():
        times = []
        for _ in range(4):
            for name, value in steps:
                t = time.perf_counter()
                setattr(explorer, name, value)
                times.append(time.perf_counter() - t)
        rows.append(f"  {kind}: {p50_p95(times)} ({len(times)} changes)")
    t = time.perf_counter()
    explorer.window(n // 2, 200)
    rows.append(f"  row window (200 rows, binary): {1000 * (time.perf_counter() - t):.1f} ms")
    picks = np.linspace(0, n - 1, 20).astype(int).tolist()
    times = []
    for row in picks:
        t = time.perf_counter()
        explorer.selected = row
        times.append(time.perf_counter() - t)
    rows.append(f"  drill-down (selected = row): {p50_p95(times)} (20 rows)")
    times = []
    for row in picks:
        t = time.perf_counter()
        scores.explain(scores.batch.query_ids[row])
        times.append(time.perf_counter() - t)
    rows.append(f"  Scores.explain(qid): {p50_p95(times)}")
    t = time.perf_counter()
    curve = top_k_curve(scores)
    rows.append(f"  top-k what-if curve (k = 1..{curve.k.max()}): {time.perf_counter() - t:.2f} s; "
                f"load average after {load()}")
    print("\n".join(rows), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--dir", type=Path, default=Path("/tmp/ragwidgets-benchmark"),
                        help="where the generated runs are written once and reused")
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)  # a child process: one size
    args = parser.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)
    if args.one:
        one(args.one, args.dir / f"run{args.one}.jsonl")
        return
    for n in args.n:
        path = args.dir / f"run{n}.jsonl"
        if not path.exists():
            write_run(n, path)
        subprocess.run([sys.executable, __file__, "--one", str(n), "--dir", str(args.dir)], check=True)


if __name__ == "__main__":
    main()
