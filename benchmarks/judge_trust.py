"""Judge trust at scale: ``rw.analysis.agreement`` and ``rw.analysis.corrected`` on a run of
``--n`` samples (100,000 by default) with every label of ``--reviewed`` random samples (1,000)
reviewed, the bootstrap (1,000 cluster resamples per kind, and per kind's 2-class view) included.

    python benchmarks/judge_trust.py [--n 100000] [--reviewed 1000] [--repeats 5]

The run is ``rw.datasets.synthetic_run`` (the true labels) with a judge that says Neutral for
10% of the Entailment labels and Entailment for 25% of the Neutral ones; the reviews give the
true labels. Each call is timed two ways: the judge's scores with the reviews beside them
(``agreement(judge, reviews)``: the reviews are applied to the reviewed samples, and
``corrected`` scores those samples again), and scores evaluated with the reviews
(``rw.evaluate(..., reviews=)``, read as they are). The peer in the same run: scoring the whole
run once (``rw.evaluate`` of its Batch), and scoring it with the reviews.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time

import numpy as np

import ragwidgets as rw
from ragwidgets.engine.evaluate import evaluate
from ragwidgets.reviews import Review, Reviews

KINDS = ("answer2response", "response2answer")
PASSAGE_KINDS = ("retrieved2response", "retrieved2answer")


def erring(labels: list, u: np.ndarray) -> list:
    return ["Neutral" if lab == "Entailment" and x < 0.10 else "Entailment" if lab == "Neutral" and x < 0.25
            else lab for lab, x in zip(labels, u)]


def judged(truth: list[dict], seed: int) -> list[dict]:
    rng = np.random.default_rng(seed)
    out = []
    for r in truth:
        r = dict(r)
        for kind in KINDS:
            r[kind] = erring(r[kind], rng.random(len(r[kind])))
        for kind in PASSAGE_KINDS:
            r[kind] = [erring(row, rng.random(len(row))) for row in r[kind]]
        out.append(r)
    return out


def reviews_of(truth: list[dict], picks) -> Reviews:
    items = []
    for i in picks:
        r = truth[int(i)]
        docs = [p["doc_id"] for p in r["retrieved_context"]]
        for kind in KINDS:
            items += [Review(r["query_id"], kind, j, lab) for j, lab in enumerate(r[kind])]
        for kind in PASSAGE_KINDS:
            items += [Review(r["query_id"], kind, j, lab, doc_id=docs[k])
                      for j, row in enumerate(r[kind]) for k, lab in enumerate(row)]
    return Reviews(items)


def timed(fn, repeats: int) -> tuple[np.ndarray, object]:
    out, result = [], None
    for _ in range(repeats):
        t0 = time.perf_counter()
        result = fn()
        out.append(time.perf_counter() - t0)
    return np.array(out), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--reviewed", type=int, default=1_000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    print(f"Python {sys.version.split()[0]}, numpy {np.__version__}, {platform.machine()}, "
          f"load average {os.getloadavg()[0]:.1f}")
    t0 = time.perf_counter()
    truth = rw.datasets.synthetic_run(args.n, seed=1, quality=0.6)
    judge = evaluate(judged(truth, seed=2))
    picks = np.random.default_rng(3).choice(args.n, size=args.reviewed, replace=False)
    reviews = reviews_of(truth, picks)
    print(f"set up {args.n:,} samples, {len(reviews):,} reviewed labels of {args.reviewed:,} samples "
          f"in {time.perf_counter() - t0:.1f} s")
    cases = {}
    cases["peer: evaluate the whole run (its Batch)"] = timed(lambda: evaluate(judge.batch), args.repeats)
    cases["peer: evaluate the whole run with the reviews"] = timed(
        lambda: evaluate(judge.batch, reviews=reviews), args.repeats)
    reviewed = cases["peer: evaluate the whole run with the reviews"][1]
    cases["agreement(judge scores, reviews)"] = timed(lambda: rw.analysis.agreement(judge, reviews), args.repeats)
    cases["agreement(scores evaluated with reviews)"] = timed(lambda: rw.analysis.agreement(reviewed), args.repeats)
    cases["corrected(judge scores, reviews)"] = timed(lambda: rw.analysis.corrected(judge, reviews), args.repeats)
    cases["corrected(scores evaluated with reviews)"] = timed(lambda: rw.analysis.corrected(reviewed), args.repeats)
    peer = np.median(cases["peer: evaluate the whole run (its Batch)"][0])
    print(f"\n| case | runs | median | max | median / whole-run evaluate |\n|---|---|---|---|---|")
    for name, (times, _) in cases.items():
        print(f"| {name} | {len(times)} | {np.median(times) * 1000:.0f} ms | {times.max() * 1000:.0f} ms | "
              f"{np.median(times) / peer:.2f} |")
    table = cases["corrected(judge scores, reviews)"][1]
    means = rw.evaluate(truth, scores=list(table.index)).aggregate()
    print("\n| metric | true mean | judge only | corrected (95%) | covered |\n|---|---|---|---|---|")
    for metric, row in table.iterrows():
        true = means[metric]["mean"]
        covered = row["corrected_low"] <= true <= row["corrected_high"]
        print(f"| {metric} | {true:.4f} | {row['judge_mean']:.4f} | {row['corrected_mean']:.4f} "
              f"({row['corrected_low']:.4f} – {row['corrected_high']:.4f}) | {'yes' if covered else 'no'} |")
    a = cases["agreement(judge scores, reviews)"][1].table
    print("\n" + a[["kind", "n", "n_samples", "agreement", "kappa", "kappa_low", "kappa_high", "base_rate",
                    "macro_f1"]].to_string(index=False))


if __name__ == "__main__":
    main()
