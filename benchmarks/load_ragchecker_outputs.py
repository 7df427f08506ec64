"""RAGChecker's own output files (per-sample ``metrics`` and the aggregate ``metrics``) on the fast
path against the validator path they took before, in the same run.

    python benchmarks/load_ragchecker_outputs.py --n 10000 50000 --repeats 3

Input: synthetic RAGChecker-format samples (0-12 claims a side, 0-8 passages, string labels, as
in ``whole_process_vs_ragchecker.py``), each with eleven per-sample metrics, and the aggregate
``{"overall": ..., "retriever": ..., "generator": ...}``, as ``RAGChecker.evaluate`` writes them.
*fast*: ``rw.evaluate(path)`` and ``rw.load_samples(path)`` as they are. *validator*: the same
calls with :func:`ragwidgets._fastload.read_flat` answering None, which is what these files met
before the fast path decoded ``metrics`` (msgspec refused them at the first record). Best of
``--repeats``; before a row is printed the two paths' frames are checked to be equal.
"""

from __future__ import annotations

import argparse
import os
import platform
import tempfile
import time
from pathlib import Path
from unittest import mock

import numpy as np

import ragwidgets as rw
from ragwidgets import _fastload as fastload
from whole_process_vs_ragchecker import write_synthetic  # benchmarks/, beside this file

METRICS = ("precision", "recall", "f1", "claim_recall", "context_precision", "context_utilization",
           "noise_sensitivity_in_relevant", "noise_sensitivity_in_irrelevant", "hallucination",
           "self_knowledge", "faithfulness")


def write_output_file(path: Path, n: int, seed: int = 0) -> None:
    """n samples as ragchecker's output file holds them: the inputs, labels and per-sample metrics."""
    write_synthetic(path, n, seed, metrics=METRICS, summary={
        "overall": {"precision": 50.0, "recall": 50.0, "f1": 50.0}, "retriever": {"claim_recall": 50.0},
        "generator": {"faithfulness": 50.0}})


def best(call, repeats: int) -> tuple[float, object]:
    """(the shortest of ``repeats`` timed calls, the last call's result)."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        out = call()
        times.append(time.perf_counter() - start)
    return min(times), out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, nargs="+", default=[10_000, 50_000])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    print(f"# Python {platform.python_version()}, numpy {np.__version__}, load average "
          f"{os.getloadavg()[0]:.1f}, best of {args.repeats}")
    print("| N | file | load: fast | load: validator | ratio | evaluate: fast | evaluate: validator | ratio |")
    print("|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as folder:
        for n in args.n:
            path = Path(folder) / f"outputs_{n}.json"
            write_output_file(path, n)
            assert rw.load_samples(path).flat is not None  # the fast path takes the file
            fast_load, _ = best(lambda: rw.load_samples(path), args.repeats)
            fast_eval, fast = best(lambda: rw.evaluate(path), args.repeats)
            with mock.patch.object(fastload, "read_flat", return_value=None):
                assert rw.load_samples(path).flat is None
                slow_load, _ = best(lambda: rw.load_samples(path), args.repeats)
                slow_eval, slow = best(lambda: rw.evaluate(path), args.repeats)
            assert fast.frame.equals(slow.frame)
            size = path.stat().st_size / 2 ** 20
            print(f"| {n:,} | {size:.0f} MiB | {fast_load:.2f} s | {slow_load:.2f} s | {slow_load / fast_load:.1f}x "
                  f"| {fast_eval:.2f} s | {slow_eval:.2f} s | {slow_eval / fast_eval:.1f}x |", flush=True)


if __name__ == "__main__":
    main()
