"""DatasetExplorer at 10k / 100k / 300k samples: open from a file, update latency, memory, what-if.

    python benchmarks/dataset_explorer.py --n 10000 100000 300000

Per N: a generated run (``rw.datasets.synthetic_run``, written once to JSONL, not timed) is
opened with ``rw.DatasetExplorer(path)`` (load, score, table, summary, charts, first row window;
the widget libraries imported beforehand, as in a notebook session);
then each kind of change (text filter, expression, sort, brush) is applied 20 times and the time
until the view state is ready in Python is recorded (p50 / p95); memory is the process's resident
set growth for the Scores, then for the explorer on top of them; the top-k what-if curve is timed
on the same Scores.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import tempfile
import time
from pathlib import Path

import numpy as np

import ragwidgets as rw
from ragwidgets.analysis import top_k_curve
from ragwidgets.datasets import synthetic_run

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


def write_run(n: int, path: Path, chunk: int = 50_000) -> None:
    with path.open("w") as f:
        for start in range(0, n, chunk):
            for i, rec in enumerate(synthetic_run(min(chunk, n - start), seed=start)):
                rec["query_id"] = str(start + i)
                f.write(json.dumps(rec) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, nargs="+", default=[10_000, 100_000])
    args = parser.parse_args()
    rw.DatasetExplorer  # the widget libraries are imported once per session, not per explorer
    print(f"load average before: {os.getloadavg()}")
    for n in args.n:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "run.jsonl"
            write_run(n, path)
            gc.collect()
            start = time.perf_counter()
            explorer = rw.DatasetExplorer(str(path))
            explorer.window(0, 200)
            open_s = time.perf_counter() - start
            scores = explorer.scores["run"]
            del explorer
            gc.collect()
            base = rss_mb()
            scores = rw.evaluate(str(path))
            gc.collect()
            with_scores = rss_mb()
            explorer = rw.DatasetExplorer(scores)
            gc.collect()
            with_explorer = rss_mb()
            rows = [f"N = {n:,}: file to usable explorer {open_s:.2f} s",
                    f"  memory: Scores +{with_scores - base:.0f} MB, explorer +{with_explorer - with_scores:.0f} MB "
                    f"({(with_explorer - with_scores) / max(with_scores - base, 1):.2f}x the Scores)"]
            for kind, steps in CHANGES.items():
                times = []
                for _ in range(4):
                    for name, value in steps:
                        t = time.perf_counter()
                        setattr(explorer, name, value)
                        times.append(time.perf_counter() - t)
                rows.append(f"  {kind}: p50 {1000 * np.percentile(times, 50):.0f} ms, "
                            f"p95 {1000 * np.percentile(times, 95):.0f} ms ({len(times)} changes)")
            t = time.perf_counter()
            explorer.window(n // 2, 200)
            rows.append(f"  row window (200 rows, binary): {1000 * (time.perf_counter() - t):.1f} ms")
            t = time.perf_counter()
            curve = top_k_curve(scores)
            rows.append(f"  top-k what-if curve (k = 1..{curve.k.max()}): {time.perf_counter() - t:.2f} s")
            print("\n".join(rows), flush=True)
            del explorer, scores
            gc.collect()
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
