"""Filter expressions: the whitelisted evaluator against the ``DataFrame.eval`` it replaced.

    python benchmarks/expression.py [--n 1000000] [--repeats 7]

A frame of ``--n`` rows with eleven metric columns (a tenth Undefined) and a short text column;
each expression is parsed and evaluated to a mask (the parse cache is cleared each time, so the
parse is included), against ``frame.eval(expression, engine="python")`` on the same frame in the
same run. Median of ``--repeats`` wall times per expression; the ratio is evaluator / pandas.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np
import pandas as pd

from ragwidgets.analysis.expression import _parse
from ragwidgets.analysis.filtering import expression_mask

METRICS = ("precision", "recall", "f1", "claim_recall", "context_precision", "context_utilization",
           "noise_sensitivity_in_relevant", "noise_sensitivity_in_irrelevant", "hallucination",
           "self_knowledge", "faithfulness")
EXPRESSIONS = ("hallucination > 0 and claim_recall < 1",
               "noise_sensitivity_in_relevant > 0 or noise_sensitivity_in_irrelevant > 0",
               "(precision - recall) / 2 > 0.1 and n_response_claims >= 3",
               'system == "b" and faithfulness < 0.5')


def frame(n: int) -> pd.DataFrame:
    rng = np.random.default_rng(0)
    data = {m: np.where(rng.random(n) < 0.1, np.nan, rng.choice([0, 0.25, 0.5, 0.75, 1.0], n)) for m in METRICS}
    data["n_response_claims"] = rng.integers(0, 12, n)
    data["system"] = rng.choice(np.array(["a", "b", "c"], dtype=object), n)
    return pd.DataFrame(data)


def median_time(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return float(np.median(times))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    f = frame(args.n)
    print(f"{args.n:,} rows, load average {os.getloadavg()[0]:.1f}")
    print("| expression | evaluator | DataFrame.eval | ratio |\n|---|---:|---:|---:|")
    for e in EXPRESSIONS:
        def ours():
            _parse.cache_clear()
            return expression_mask(f, e)
        ms = median_time(ours, args.repeats) * 1e3
        theirs = median_time(lambda: f.eval(e, engine="python"), args.repeats) * 1e3
        print(f"| `{e}` | {ms:.1f} ms | {theirs:.1f} ms | {ms / theirs:.2f} |")
    print(f"load average after {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
