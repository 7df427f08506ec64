"""The opt-in process switches (``rw.large_runs()``: the cyclic collector paused and numpy's arrays
kept off huge pages while loading, scoring and opening a run) against the default (neither).

    python benchmarks/large_runs.py --n 100000 1000000 --repeat 3 [--dir /tmp/ragwidgets-benchmark]

Each size and setting in a fresh process, the two settings taking turns, ``--repeat`` each: wall
seconds of ``rw.load_samples(path)``, ``rw.evaluate(Batch.from_flat(...))`` and
``rw.DatasetExplorer(scores)`` with its first row window, as ``benchmarks/dataset_explorer.py``
times them (which also writes the runs: ``write_run``), wall and CPU seconds. Printed per process,
then the best of each setting and piece (the machine is shared: the best is the least disturbed).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from dataset_explorer import write_run  # noqa: E402

PIECES = ("load", "score", "run model + first window")


def one(path: Path, opted_in: bool) -> None:
    import ragwidgets as rw
    from ragwidgets.engine.batch import Batch

    rw.DatasetExplorer  # the widget libraries are imported before the clock starts
    out = {}
    with rw.large_runs() if opted_in else contextlib.nullcontext():
        for name, work in (("load", lambda: rw.load_samples(path)),
                           ("score", lambda: rw.evaluate(Batch.from_flat(out["load"][1].flat))),
                           ("run model + first window",
                            lambda: (e := rw.DatasetExplorer(out["score"][1]), e.window(0, 200))[0])):
            t, cpu = time.perf_counter(), time.process_time()
            value = work()
            out[name] = (time.perf_counter() - t, value)
            out[name + " CPU"] = (time.process_time() - cpu, None)
    print(json.dumps({name: out[name][0] for name in (*PIECES, *(p + " CPU" for p in PIECES))}))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, nargs="+", default=[100_000, 1_000_000])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/ragwidgets-benchmark"))
    parser.add_argument("--one", nargs=2, help=argparse.SUPPRESS)  # a child process: path, setting
    args = parser.parse_args()
    if args.one:
        one(Path(args.one[0]), args.one[1] == "large_runs")
        return
    args.dir.mkdir(parents=True, exist_ok=True)
    for n in args.n:
        path = args.dir / f"run{n}.jsonl"
        if not path.exists():
            write_run(n, path)
        best = {}
        for turn in range(args.repeat):
            for setting in ("default", "large_runs"):
                before = "/".join(f"{x:.1f}" for x in os.getloadavg())
                child = subprocess.run([sys.executable, __file__, "--one", str(path), setting],
                                       capture_output=True, text=True)
                if child.returncode:
                    sys.exit(f"N={n:,} {setting}: the child process failed\n{child.stderr}")
                times = json.loads(child.stdout.strip().splitlines()[-1])
                times["total"] = sum(times[p] for p in PIECES)
                times["total CPU"] = sum(times[p + " CPU"] for p in PIECES)
                print(f"N={n:,} {setting:10} " + ", ".join(f"{k} {v:.2f} s" for k, v in times.items())
                      + f"; load average before {before}", flush=True)
                for k, v in times.items():
                    best[setting, k] = min(best.get((setting, k), v), v)
        for setting in ("default", "large_runs"):
            print(f"N={n:,} best of {args.repeat}, {setting}: "
                  + ", ".join(f"{k} {best[setting, k]:.2f} s" for k in (*PIECES, "total", "total CPU")), flush=True)


if __name__ == "__main__":
    main()
