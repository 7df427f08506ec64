"""Parquet in against the JSONL fast path: the same run (``rw.datasets.synthetic_run``) written
both ways, each scored by ``rw.evaluate(path)`` in a fresh process, alternating, ``--repeats``
times; the figure is the median wall time per 1,000 samples and the ratio Parquet / JSONL.

    python benchmarks/parquet_in.py --n 10000 100000
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from dataset_explorer import write_run  # noqa: E402

CHILD = """
import sys, time, warnings
warnings.simplefilter("ignore")
t = time.perf_counter()
import ragwidgets as rw
scores = rw.evaluate(sys.argv[1])
n = scores.batch.n_samples
print(time.perf_counter() - t, n)
"""


def files(n: int, folder: Path) -> tuple[Path, Path]:
    """The run of ``n`` samples as JSONL and as Parquet (written once, reused)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    folder.mkdir(parents=True, exist_ok=True)
    jsonl, parquet = folder / f"run{n}.jsonl", folder / f"run{n}.parquet"
    if not jsonl.exists():
        write_run(n, jsonl)
    if not parquet.exists():
        with jsonl.open() as f:
            records = [json.loads(line) for line in f]
        pq.write_table(pa.Table.from_pylist(records), parquet)
    return jsonl, parquet


def timed(path: Path) -> float:
    out = subprocess.run([sys.executable, "-c", CHILD, str(path)], capture_output=True, text=True, check=True)
    return float(out.stdout.split()[0])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--dir", type=Path, default=Path("/tmp/ragwidgets-benchmark"))
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    print(f"load average {'/'.join(f'{x:.1f}' for x in os.getloadavg())}")
    for n in args.n:
        jsonl, parquet = files(n, args.dir)
        times = {"jsonl": [], "parquet": []}
        for _ in range(args.repeats):
            times["jsonl"].append(timed(jsonl))
            times["parquet"].append(timed(parquet))
        a, b = (statistics.median(times[k]) for k in ("jsonl", "parquet"))
        print(f"n={n:>9,}  JSONL {a:7.2f} s ({a / n * 1e6:.1f} µs a sample)  "
              f"Parquet {b:7.2f} s ({b / n * 1e6:.1f} µs a sample)  Parquet / JSONL {b / a:.2f}")


if __name__ == "__main__":
    main()
