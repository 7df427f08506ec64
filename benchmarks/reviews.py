"""Reviews: what applying them costs, against the same work without them, in the same run.

    python benchmarks/reviews.py [--n 100000] [--reviewed 1000] [--clicks 40]

A generated run of ``--n`` samples (``rw.datasets.synthetic``) loaded once into a Batch. Timed,
median of 5: ``evaluate(batch)`` (the peer), ``evaluate(batch, reviews=...)`` with one review on
each of ``--reviewed`` samples (both scorings, the judge's and the reviewed, plus the patch),
``scores.claims()`` (one row per claim; median of 3) and ``to_claims`` into each format (one
write each). Then the live path: ``InMemoryRun.review`` of one label, flipping the judge's
(re-scoring that sample, patching the held table, summary, slices and order), on a run of 1,000
samples and on one 60 passages x 80 claims sample (the e2e tests' big sample), ``--clicks``
times each, p50 / p95; beside it the run model's own ``update`` on the same run (the peer).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np

from ragwidgets.analysis.runs import InMemoryRun, Query
from ragwidgets.datasets.synthetic import synthetic_run
from ragwidgets.engine import Batch, evaluate
from ragwidgets.reviews import Review

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "e2e"))
from e2e_support import big_sample_record  # noqa: E402
from expression import median_time  # noqa: E402 (benchmarks/ is the script's folder)


def flip(label: str) -> str:
    """A label that changes the judge's (so every review changes the sample)."""
    return "Neutral" if label == "Entailment" else "Entailment"


def clicks(run: InMemoryRun, reviews: list[Review]) -> np.ndarray:
    out = []
    for r in reviews:
        start = time.perf_counter()
        run.review(r)
        out.append(time.perf_counter() - start)
    return np.array(out)


def updates(run: InMemoryRun, n: int) -> np.ndarray:
    out = []
    for k in range(n):
        start = time.perf_counter()
        run.update(Query(sort_by="precision", descending=bool(k % 2)))
        out.append(time.perf_counter() - start)
    return np.array(out)


def line(name: str, t: np.ndarray) -> str:
    return f"{name}: p50 {np.percentile(t, 50) * 1e3:.1f} ms, p95 {np.percentile(t, 95) * 1e3:.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--reviewed", type=int, default=1000)
    parser.add_argument("--clicks", type=int, default=40)
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    records = synthetic_run(args.n, seed=1)
    batch = Batch.from_samples(evaluate(records).samples)
    reviewed = [r for r in records if r["response_claims"]][:args.reviewed]
    reviews = [Review(r["query_id"], "answer2response", 0, "Neutral") for r in reviewed]
    plain = median_time(lambda: evaluate(batch), 5)
    with_reviews = median_time(lambda: evaluate(batch, reviews=reviews), 5)
    scores = evaluate(batch, reviews=reviews)
    table = median_time(lambda: scores.claims(), 3)
    print(f"{args.n} samples, {sum(len(r['response_claims']) + len(r['gt_answer_claims']) for r in records)} claims")
    print(f"evaluate: {plain:.3f} s; with {len(reviews)} reviews: {with_reviews:.3f} s "
          f"({with_reviews / plain:.2f}x); claims(): {table:.3f} s ({table / plain:.2f}x evaluate)")
    with tempfile.TemporaryDirectory() as folder:
        for suffix in (".parquet", ".csv", ".jsonl"):
            print(f"to_claims({suffix}): {median_time(lambda: scores.to_claims(Path(folder) / f'claims{suffix}'), 1):.3f} s")

    small = synthetic_run(1000, seed=2)
    run = InMemoryRun(small)
    run.update(Query())
    flips = [Review(r["query_id"], "answer2response", 0, flip(r["answer2response"][0]))
             for r in small if r["response_claims"]][:args.clicks]
    print(line("1,000 samples, run.review of one label (flipped)", clicks(run, flips)))
    print(line("1,000 samples, run.update (sort)", updates(run, args.clicks)))
    big = big_sample_record()
    run = InMemoryRun([big])
    run.update(Query())
    cells = [(j, j % 60) for j in range(args.clicks)]
    print(line("60 x 80 sample, run.review of one label (flipped)",
               clicks(run, [Review(big["query_id"], "retrieved2response", j, flip(big["retrieved2response"][j][k]),
                                   doc_id=big["retrieved_context"][k]["doc_id"]) for j, k in cells])))
    print(line("60 x 80 sample, run.update (sort)", updates(run, args.clicks)))


if __name__ == "__main__":
    main()
