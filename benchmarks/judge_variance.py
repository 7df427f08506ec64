"""The judge's variance at scale: ``rw.analysis.flakiness`` and ``rw.analysis.judge_variance`` on
``--n`` samples (100,000 by default) judged 3 times.

    python benchmarks/judge_variance.py [--n 100000] [--flip 0.1] [--runs 5]

The run is ``rw.datasets.synthetic_run`` (repeat 0's labels); repeats 1 and 2 swap each
entailment label (answer2response, response2answer, retrieved2response, retrieved2answer) for
one of the two others with probability ``--flip``, drawn with numpy on the Batch's label arrays.
The policy is the majority of the three (ties: repeat 0's). Timed: ``flakiness`` (label flips
per kind, the flaky samples per metric), ``judge_variance`` (per metric the repeat means, their
spread, today's interval (2,000 resamples), one judge run's mean and its two-stage interval over
questions and the judge's randomness),
and both; the peer in the same run is scoring one repeat (``evaluate`` of its Batch).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import platform
import sys
import time

import numpy as np
import pandas as pd

import ragwidgets as rw
from ragwidgets.analysis import Repeats, flakiness, judge_variance
from ragwidgets.engine import evaluate

LABELS = ("answer2response", "response2answer", "r2r_label", "r2a_label")


def flipped(batch, p: float, rng: np.random.Generator):
    """``batch`` with each entailment label swapped for one of the other two with probability ``p``."""
    changed = {}
    for name in LABELS:
        labels = getattr(batch, name)
        swap = rng.random(len(labels)) < p
        out = labels.copy()
        out[swap] = (labels[swap] + rng.integers(1, 3, size=int(swap.sum()))) % 3
        changed[name] = out
    return dataclasses.replace(batch, **changed)


def majority(batches):
    """The majority of three repeats' labels (ties: the first repeat's)."""
    a, b, c = batches
    return dataclasses.replace(a, **{name: np.where((getattr(a, name) != getattr(b, name))
                                                    & (getattr(a, name) != getattr(c, name))
                                                    & (getattr(b, name) == getattr(c, name)),
                                                    getattr(b, name), getattr(a, name)) for name in LABELS})


def timed(fn, runs: int) -> tuple[np.ndarray, object]:
    out, result = [], None
    for _ in range(runs):
        t0 = time.perf_counter()
        result = fn()
        out.append(time.perf_counter() - t0)
    return np.array(out), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--flip", type=float, default=0.1)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print(f"Python {sys.version.split()[0]}, numpy {np.__version__}, {platform.machine()}, "
          f"load average {os.getloadavg()[0]:.1f}")
    t0 = time.perf_counter()
    base = evaluate(rw.datasets.synthetic_run(args.n, seed=1)).batch
    rng = np.random.default_rng(2)
    batches = [base, flipped(base, args.flip, rng), flipped(base, args.flip, rng)]
    repeats = Repeats(tuple(evaluate(b) for b in batches), evaluate(majority(batches)), "majority")
    print(f"set up {args.n:,} samples x 3 repeats in {time.perf_counter() - t0:.1f} s")
    cases = {
        "peer: evaluate one repeat (its Batch)": timed(lambda: evaluate(base), args.runs),
        "flakiness": timed(lambda: flakiness(repeats), args.runs),
        "judge_variance": timed(lambda: judge_variance(repeats), args.runs),
        "both": timed(lambda: (flakiness(repeats), judge_variance(repeats)), args.runs),
    }
    peer = np.median(cases["peer: evaluate one repeat (its Batch)"][0])
    print(f"load average after {os.getloadavg()[0]:.1f}")
    print("\n| case | runs | median | max | median / one evaluate |\n|---|---:|---:|---:|---:|")
    for name, (times, _) in cases.items():
        print(f"| {name} | {len(times)} | {np.median(times) * 1000:.0f} ms | {times.max() * 1000:.0f} ms | "
              f"{np.median(times) / peer:.2f} |")
    flaky, variance = cases["both"][1]
    print("\n" + flaky.labels.to_string())
    print(f"\nflaky samples (some metric differs): {int(flaky.flaky.sum()):,} of {args.n:,}")
    with pd.option_context("display.width", 220, "display.max_columns", 20, "display.precision", 4):
        print("\n" + variance.frame[["mean", "ci_low", "ci_high", "judge_mean", "judge_ci_low", "judge_ci_high",
                                     "widening", "repeat_min", "repeat_max", "repeat_sd"]].to_string())


if __name__ == "__main__":
    main()
