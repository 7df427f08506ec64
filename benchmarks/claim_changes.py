"""What changed, claim by claim, at 100k samples: ``analysis.claim_changes`` and the explorer's
``claim_changes`` request (the comparison tab), on two synthetic runs of the same queries.

    python benchmarks/claim_changes.py --n 100000 --repeat 5

The runs are compare_cli.py's (``synthetic_run``, labels of quality 0.40 and 0.38, written once to
``--dir`` as JSONL) and scored once (``rw.evaluate``: not timed). Timed, the median of
``--repeat`` calls in this process: ``claim_changes(base, new, metric=..., top=10 | 50)`` per
metric, and in a DatasetExplorer of the two runs the ``claim_changes`` request (run "new", top 10:
the changes found and the view rebuilt), with the load average before and after (the machine is
shared).
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path

import ragwidgets as rw
from ragwidgets.analysis.changes import claim_changes

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compare_cli import write_runs  # noqa: E402  (the same runs as the compare benchmark)

METRICS = ("faithfulness", "precision", "claim_recall")


def median_ms(call, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--dir", type=Path, default=Path(tempfile.gettempdir()) / "ragwidgets_compare_bench")
    args = parser.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)
    paths = write_runs(args.dir, args.n)["jsonl"]
    base, new = rw.evaluate(str(paths["base"])), rw.evaluate(str(paths["new"]))
    print(f"{platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}; "
          f"{args.n:,} samples a run; median of {args.repeat}")
    print("| what | median | load before → after |")
    print("|---|---|---|")
    for metric in METRICS:
        for top in (10, 50):
            before = os.getloadavg()[0]
            ms = median_ms(lambda: claim_changes(base, new, metric=metric, top=top), args.repeat)
            rows = len(claim_changes(base, new, metric=metric, top=top))
            print(f"| claim_changes {metric}, top {top} ({rows} rows) | {ms:.0f} ms | "
                  f"{before:.1f} → {os.getloadavg()[0]:.1f} |")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        explorer = rw.DatasetExplorer({"base": base, "new": new}, compare_metric="faithfulness")
    explorer.send = lambda *a, **k: None
    before = os.getloadavg()[0]
    ms = median_ms(lambda: explorer._handle_custom_msg({"type": "claim_changes", "run": "new", "top": 10,
                                                        "request": 1}, []), args.repeat)
    print(f"| explorer request claim_changes (top 10, view rebuilt) | {ms:.0f} ms | "
          f"{before:.1f} → {os.getloadavg()[0]:.1f} |")


if __name__ == "__main__":
    main()
