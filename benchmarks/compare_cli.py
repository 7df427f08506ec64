"""``ragwidgets compare BASE NEW`` as a whole process, beside ``ragwidgets score`` of one run (the
peer: what a CI job runs today to get a run's numbers), on the same machine in the same session.

    python benchmarks/compare_cli.py --n 100000 --repeat 5

Two synthetic runs of ``--n`` samples (``ragwidgets.datasets.synthetic_run``, the same queries,
labels of quality 0.40 and 0.38: a small true fall) are written once to ``--dir`` as JSONL and as
Parquet. Each command is a fresh process (the console script's entry, ``python -m ragwidgets.cli``),
timed from the outside: wall seconds, user + system CPU seconds (``os.wait4``: interpreter start
and imports included) and peak resident memory (the files are written by a child process, so this
one holds no run); the median of ``--repeat`` runs is printed with
the load average before and after each row (the machine is shared).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from ragwidgets.datasets.synthetic import synthetic_run

CLI = [sys.executable, "-m", "ragwidgets.cli"]


def write_runs(folder: Path, n: int) -> dict[str, dict[str, Path]]:
    """{"jsonl" | "parquet": {"base" | "new": path}}, written once per ``n``."""
    out = {"jsonl": {}, "parquet": {}}
    for name, quality in (("base", 0.40), ("new", 0.38)):
        jsonl, parquet = folder / f"{name}_{n}.jsonl", folder / f"{name}_{n}.parquet"
        out["jsonl"][name], out["parquet"][name] = jsonl, parquet
        if jsonl.exists() and parquet.exists():
            continue
        records = synthetic_run(n, seed=1, quality=quality)
        with open(jsonl, "w", encoding="utf-8") as f:
            f.writelines(json.dumps(r) + "\n" for r in records)
        pq.write_table(pa.Table.from_pylist(records), parquet)
    return out


def timed(command: list[str]) -> tuple[float, float, float, int]:
    """(wall s, CPU s, peak RSS MB, exit status) of one process; its output discarded."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    process.stderr.close()
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status)


def row(label: str, command: list[str], repeat: int, peer: float | None) -> float:
    load = os.getloadavg()[0]
    runs = [timed(command) for _ in range(repeat)]
    wall, cpu, rss = (statistics.median(r[i] for r in runs) for i in range(3))
    ratio = f"{wall / peer:.2f}x" if peer else "—"
    print(f"| {label} | {wall:.2f} ({min(r[0] for r in runs):.2f}–{max(r[0] for r in runs):.2f}) | {cpu:.2f} | "
          f"{rss:,.0f} | {ratio} | {runs[0][3]} | {load:.1f} / {os.getloadavg()[0]:.1f} |", flush=True)
    return wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--dir", type=Path, default=Path(tempfile.gettempdir()) / "ragwidgets_compare_bench")
    parser.add_argument("--kind", nargs="+", choices=("jsonl", "parquet"), default=["jsonl", "parquet"],
                        help="the files' formats timed")
    parser.add_argument("--write-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)
    if args.write_only:
        write_runs(args.dir, args.n)
        return
    # written by a child: a process started from one that held the records would inherit its peak memory
    subprocess.run([sys.executable, __file__, "--n", str(args.n), "--dir", str(args.dir), "--write-only"], check=True)
    files = write_runs(args.dir, args.n)
    print(f"# {args.n:,} samples a run; python {platform.python_version()}, {platform.machine()}, "
          f"{os.cpu_count()} CPUs; median of {args.repeat} (min–max)")
    print("| command | wall s (min–max) | CPU s | peak MB | × score | exit | load before / after |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for kind in args.kind:
        run = files[kind]
        base, new = str(run["base"]), str(run["new"])
        peer = row(f"`score` one run ({kind})", [*CLI, "score", base], args.repeat, None)
        compare = [*CLI, "compare", base, new, "--fail-on-regression"]
        row(f"`compare` ({kind}, table)", compare, args.repeat, peer)
        row(f"`compare` ({kind}, json)", [*compare, "--format", "json"], args.repeat, peer)
        row(f"`compare` ({kind}, markdown: claims that flipped)", [*compare, "--format", "markdown"], args.repeat, peer)
        row(f"`compare` ({kind}, 3 metrics)", [*compare, "--metrics", "precision,recall,faithfulness"],
            args.repeat, peer)


if __name__ == "__main__":
    main()
