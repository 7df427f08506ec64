"""The DatasetExplorer's what-if panel (the "whatif" request) at 10k and 100k samples.

    python benchmarks/whatif.py --n 10000 100000 --dir /tmp/rw-runs

Per N: a generated run (``rw.datasets.synthetic_run``, written once to ``--dir/run<N>.jsonl``,
read by the fast path as a notebook would: ``rw.DatasetExplorer(path)``) and, for no filter and
the filter ``hallucination > 0.2``, the reply the panel gets (``widgets.dataset.whatif.reply``: the
top-k curve over the filtered rows, and with ``doc_id="-[01]$"`` also the rule's before / after)
timed 3 times: best and worst wall seconds and this process's CPU seconds of the best (the
machine is shared). The load average is printed first.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path


def run_file(n: int, folder: Path) -> Path:
    from ragwidgets.datasets import synthetic_run
    path = folder / f"run{n}.jsonl"
    if not path.exists():
        with path.open("w") as f:
            for record in synthetic_run(n, seed=1):
                f.write(json.dumps(record) + "\n")
    return path


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--dir", type=Path, default=Path("/tmp/rw-runs"))
    args = parser.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)
    import ragwidgets as rw
    from ragwidgets.widgets.dataset import whatif
    print(f"load average {os.getloadavg()}")
    for n in args.n:
        x = rw.DatasetExplorer(str(run_file(n, args.dir)))
        for expression in ("", "hallucination > 0.2"):
            x.expression = expression
            for rule in ({}, {"doc_id": "-[01]$"}):
                walls, cpus = [], []
                for _ in range(3):
                    t, c = time.perf_counter(), time.process_time()
                    reply = whatif.reply(x.model, x.run, rule.get("doc_id"), None)
                    walls.append(time.perf_counter() - t)
                    cpus.append(time.process_time() - c)
                best = min(range(3), key=walls.__getitem__)
                print(f"n={n:>7,} filter={expression or '(none)':<20} rule={rule.get('doc_id', '(none)'):<8} "
                      f"samples={reply['samples']:>7,} k<={max((r[0] for r in reply['top_k']['rows']), default=0)} "
                      f"wall best {walls[best]:.2f} s worst {max(walls):.2f} s, cpu {cpus[best]:.2f} s")


if __name__ == "__main__":
    main()
