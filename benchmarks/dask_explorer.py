"""DatasetExplorer on a Dask-scored run (cluster mode) at 1M generated samples, 2 workers.

    python benchmarks/dask_explorer.py --n 1000000 --part 50000 --workers 2 --generate 100000

Writes the run as partitioned JSONL.gz (``dask_scale.write_run``: with ``--generate``, later parts
repeat the generated ones under new query_ids), starts a LocalCluster (processes, one thread
each), then times:

1. scoring: ``rw.evaluate(glob, engine="dask").persist()`` until ``aggregate()`` is back;
2. opening: ``rw.DatasetExplorer(scores, ...)`` on the persisted run (each partition indexed on its
   worker, then its first view);
3. each kind of change (expression, sort, brush, chart metric, group by) applied 5 times (each
   list ``--rounds`` times over): time until the view state is ready in Python (p50 / max);
4. drill-down: selecting a row until its sample view is built (its partition re-read on a worker).

The kernel's resident memory growth over opening and the changes is reported beside, and the
workers' (their indexes: opening only). Prints one
JSON object; the figures go to benchmarks/README.md ("DatasetExplorer on a Dask-scored run").
"""

from __future__ import annotations

import argparse
import importlib
import json
import shutil
import tempfile
import time
from pathlib import Path

import numpy as np
import psutil
from dask_scale import write_run  # benchmarks/ is the script's folder

CHANGES = {
    "expression": [("expression", e) for e in ("hallucination > 0", "claim_recall < 1 and precision > 0.5",
                                               "faithfulness < 0.5", "partition < 5", "")],
    "sort": [("sort_by", m) for m in ("hallucination", "faithfulness", "recall", "f1", "precision")],
    "brush": [("brush", b) for b in ({"metric": "hallucination", "lo": 0.5, "hi": 1.0},
                                     {"metric": "hallucination", "undefined": True},
                                     {"metric": "precision", "lo": 0.0, "hi": 0.2},
                                     {"metric": "f1", "lo": 0.8, "hi": 1}, {})],
    "chart metric": [("chart_metric", m) for m in ("precision", "recall", "faithfulness", "f1", "hallucination")],
    "group by": [("group_by", g) for g in ("file", "partition", "file", "partition", "file")],
}


def _rss() -> int:
    return psutil.Process().memory_info().rss


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--part", type=int, default=50_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--generate", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=1, help="times each kind's list of changes is applied")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="rw-dask-explorer-"))
    write_run(folder, args.n, args.part, args.generate).unlink()
    out = {"n": args.n, "part": args.part, "workers": args.workers, "rounds": args.rounds}

    import distributed

    import ragwidgets as rw
    importlib.import_module("ragwidgets.widgets")  # widget imports are session start-up, not opening
    kernel = psutil.Process()
    with distributed.LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                                  dashboard_address=None, silence_logs=40) as cluster, \
            distributed.Client(cluster) as client:
        client.run(importlib.import_module, "ragwidgets.dask.explore")
        start = time.perf_counter()
        scores = rw.evaluate(str(folder / "part-*.jsonl.gz"), engine="dask", by="file").persist()
        scores.aggregate()
        out["score_s"] = time.perf_counter() - start
        rss, workers = kernel.memory_info().rss, sum(client.run(_rss).values())
        start = time.perf_counter()
        explorer = rw.DatasetExplorer(scores, chart_metric="hallucination")
        out["open_s"] = time.perf_counter() - start
        out["workers_rss_growth_mib"] = (sum(client.run(_rss).values()) - workers) / 2**20
        out["table_rows"] = len(explorer.frame)
        out["changes_s"] = {}
        for kind, changes in CHANGES.items():
            times = []
            for name, value in changes * args.rounds:
                start = time.perf_counter()
                setattr(explorer, name, value)
                times.append(time.perf_counter() - start)
                assert not explorer.view_state["error"], explorer.view_state["error"]
            out["changes_s"][kind] = {"p50": float(np.median(times)), "max": max(times)}
        times = []
        for row in (0, 1, 2, 250, 499):
            start = time.perf_counter()
            explorer.selected = row
            times.append(time.perf_counter() - start)
            assert explorer._drill
        out["drill_s"] = {"p50": float(np.median(times)), "max": max(times)}
        out["kernel_rss_growth_mib"] = (kernel.memory_info().rss - rss) / 2**20
    out["load_average"] = Path("/proc/loadavg").read_text().split()[:3]
    shutil.rmtree(folder)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
