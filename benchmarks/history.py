"""The run history at scale: ``ragwidgets history add`` / ``list`` of a generated run of ``--n``
samples as whole processes, and ``History.get`` (the records read back) and ``.frame`` in this
process under ``rw.large_runs()``; the file's size beside the run's JSON.

    python benchmarks/history.py [--n 100000] [--repeat 3]

Each timing is the best of ``--repeat`` (each add into a fresh file). Prints the load average.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _timed(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    import ragwidgets as rw
    from ragwidgets.datasets.synthetic import synthetic_run
    from ragwidgets.history_store import History

    with tempfile.TemporaryDirectory() as folder:
        run = Path(folder) / "run.json"
        run.write_text(json.dumps({"results": synthetic_run(args.n, seed=1)}), encoding="utf-8")
        cli = [sys.executable, "-m", "ragwidgets.cli", "history"]
        adds, lists, gets, frames = [], [], [], []
        for k in range(args.repeat):
            db = Path(folder) / f"h{k}.sqlite"
            adds.append(_timed([*cli, "add", str(run), "--name", "run", "--db", str(db)]))
            lists.append(_timed([*cli, "list", "--db", str(db)]))
            with rw.large_runs():
                start = time.perf_counter()
                records = History(db).get("run")
                gets.append(time.perf_counter() - start)
            del records
            start = time.perf_counter()
            History(db).frame
            frames.append(time.perf_counter() - start)
        print(f"{args.n:,} samples: run JSON {run.stat().st_size / 1e6:.1f} MB, history file {db.stat().st_size / 1e6:.1f} MB")
        print(f"history add (process) {min(adds):.2f} s, history list (process) {min(lists):.2f} s, "
              f"get {min(gets):.2f} s, frame {min(frames) * 1000:.1f} ms (best of {args.repeat})")
    print("load average", " ".join(f"{x:.2f}" for x in os.getloadavg()), "on", os.cpu_count(), "cores")


if __name__ == "__main__":
    main()
