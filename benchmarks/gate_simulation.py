"""The regression gate's false alarms and power, by simulation (issue 38, "How it is checked").

    python benchmarks/gate_simulation.py [--pairs 1000] [--n 30 100] [--cells aa shift power check]

Each simulated pair is two runs of a RAG system over the same n questions, each answer judged by
an LLM judge that errs at random, and ``rw.analysis.gate`` gates two metrics at once (Holm over
the two, level 0.95, margin 0, min_shared 30):

- every question has 1–6 response claims (uniform); ``faithfulness`` (higher is better): a claim
  is faithful with probability q, q ~ Beta(4, 1) per question (mean 0.8); ``hallucination``
  (lower is better, rare): hallucinated with probability h, h ~ Beta(0.2, 9.8) (mean 0.02);
- the base and the new run answer each question afresh (generation noise); the new system's
  faithful probability is q·(1 − δ_f / 0.8) and its hallucination probability h + δ_h·(1 − h) / 0.98,
  so the true means move by exactly δ_f and δ_h;
- the judge flips each faithfulness label with probability 0.1 and each hallucination label with
  0.01, independently per claim and repeat (observed, the differences are 0.8·δ_f and 0.98·δ_h;
  hallucination reads about 3%); with ``shift`` each judge run is also more or less lenient as a
  whole: faithfulness false positives 0.1 + u, false negatives 0.1 − u, u ~ Uniform(−0.08, 0.08)
  per run (as tests/analysis/test_judge_variance_coverage.py);
- k judge runs (repeats) per side: k = 1 is one judge run a side; k = 3 gives the gate both
  sides' repeats (the judge's variance in the interval).

Cells: ``aa`` (δ = 0: the false-alarm rate: the share of pairs with some metric "worse", exit
code 1, nominal ≤ 2.5%, and with "worse" or "better", nominal ≤ 5%), ``shift`` (δ = 0 with the
shared shift, k = 1 and k = 3), ``power`` (a small fall δ_f = 0.05, δ_h = 0.02 (2% → 4%) and a
large one δ_f = 0.15, δ_h = 0.06 (2% → 8%), the large one also with k = 3: the share of pairs
each metric is called "worse"),
``check`` (``aa_false_alarms`` on one simulated run judged 6 times, and on its queries),
``refchecker`` (real data: RefChecker's seven systems, human labels, noisy context: every pair
gated on faithfulness, the 21 pairs' p-values adjusted together by Holm).
Monte-Carlo standard error of a rate r over P pairs: √(r(1 − r) / P), 0.7% at r = 0.05, P = 1000.
"""

from __future__ import annotations

import argparse
import math
from itertools import combinations
import os
import platform
import sys
import time

import numpy as np
import pandas as pd

import ragwidgets as rw
from ragwidgets.analysis import aa_false_alarms, gate
from ragwidgets.analysis.intervals import holm
from ragwidgets.datasets.refchecker import refchecker_human

MAX_CLAIMS, FLIP_F, FLIP_H, SHIFT = 6, 0.1, 0.01, 0.08
SMALL, LARGE = (0.05, 0.02), (0.15, 0.06)


def simulated_runs(n: int, rng: np.random.Generator, *, fall=(0.0, 0.0), k: int = 1, shift: bool = False):
    """(base repeats, new repeats): k DataFrames a side of per-question faithfulness and
    hallucination (query_id index "q0"...), the model in the module docstring."""
    claims = rng.integers(1, MAX_CLAIMS + 1, n)
    mask = np.arange(MAX_CLAIMS) < claims[:, None]
    q, h = rng.beta(4, 1, n)[:, None], rng.beta(0.2, 9.8, n)[:, None]
    index = pd.Index([f"q{i}" for i in range(n)], name="query_id")
    sides = []
    for d_f, d_h in ((0.0, 0.0), fall):
        faithful = rng.random((n, MAX_CLAIMS)) < q * (1 - d_f / 0.8)
        hallucinated = rng.random((n, MAX_CLAIMS)) < h + d_h * (1 - h) / 0.98
        runs = []
        for _ in range(k):
            u = rng.uniform(-SHIFT, SHIFT) if shift else 0.0
            said_f = np.where(faithful, rng.random(mask.shape) >= FLIP_F - u, rng.random(mask.shape) < FLIP_F + u)
            said_h = hallucinated ^ (rng.random(mask.shape) < FLIP_H)
            runs.append(pd.DataFrame({"faithfulness": (said_f & mask).sum(axis=1) / claims,
                                      "hallucination": (said_h & mask).sum(axis=1) / claims}, index=index))
        sides.append(runs)
    return sides[0], sides[1]


def gate_pair(base: list, new: list, **options):
    """The gate of one simulated pair: with k ≥ 2 the repeats on both sides."""
    repeats = {"base_repeats": base, "new_repeats": new} if len(base) >= 2 else {}
    return gate(base[0], new[0], **repeats, **options)


def cell(n: int, pairs: int, seed: int, **model) -> dict:
    """Per metric the share of ``pairs`` called "worse" / "better", and of pairs with some
    metric "worse" (exit code 1) / "worse" or "better"."""
    rng = np.random.default_rng(seed)
    frames = [gate_pair(*simulated_runs(n, rng, **model)).frame.set_index("metric")["verdict"] for _ in range(pairs)]
    verdicts = pd.DataFrame(frames)
    out = {f"{m} {v}": float((verdicts[m] == v).mean()) for m in verdicts for v in ("worse", "better", "cannot tell")}
    out["exit 1"] = float((verdicts == "worse").any(axis=1).mean())
    out["worse or better"] = float(verdicts.isin(("worse", "better")).any(axis=1).mean())
    return out


def se(rate: float, pairs: int) -> float:
    return math.sqrt(rate * (1 - rate) / pairs)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=1000)
    parser.add_argument("--n", type=int, nargs="+", default=[30, 100])
    parser.add_argument("--cells", nargs="+", default=["aa", "shift", "power", "check", "refchecker"])
    args = parser.parse_args(argv)
    print(f"# {platform.platform()}, Python {sys.version.split()[0]}, numpy {np.__version__}, "
          f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}; {args.pairs} pairs a cell")
    grid = []
    if "aa" in args.cells:
        grid += [(f"A/A, n = {n}, one judge run a side", n, {}) for n in args.n]
    if "shift" in args.cells:
        grid += [(f"A/A with a shared judge shift, n = {n}, k = {k}", n, {"shift": True, "k": k})
                 for n in args.n for k in (1, 3)]
    if "power" in args.cells:
        grid += [(f"{name} fall (δ_f = {f}, δ_h = {h}), n = {n}", n, {"fall": (f, h)})
                 for n in args.n for name, (f, h) in (("small", SMALL), ("large", LARGE))]
        grid += [(f"large fall, n = {n}, k = 3", n, {"fall": LARGE, "k": 3}) for n in args.n]
    if grid:
        print("| cell | exit 1 (some metric worse) | worse or better | faithfulness worse | hallucination worse "
              "| faithfulness cannot tell | hallucination cannot tell | seconds |")
        print("|---|---|---|---|---|---|---|---|")
    for i, (name, n, model) in enumerate(grid):
        start = time.perf_counter()
        r = cell(n, args.pairs, seed=1000 + i, **model)
        shown = [f"{r[c]:.1%} ± {se(r[c], args.pairs):.1%}" for c in
                 ("exit 1", "worse or better", "faithfulness worse", "hallucination worse")]
        print(f"| {name} | {' | '.join(shown)} | {r['faithfulness cannot tell']:.1%} | "
              f"{r['hallucination cannot tell']:.1%} | {time.perf_counter() - start:.0f} |", flush=True)
    if "check" in args.cells:
        base, _ = simulated_runs(100, np.random.default_rng(7), k=6)
        for name, run, repeats in (("6 judge repeats, 3 against 3", base[0], base), ("queries halved", base[0], None)):
            start = time.perf_counter()
            r = aa_false_alarms(run, repeats=repeats, draws=args.pairs, seed=1, min_shared=30)
            print(f"aa_false_alarms ({name}): exit 1 {r['rate']:.1%} ± {r['se']:.1%}, worse or better "
                  f"{r['any_rate']:.1%} ± {r['any_se']:.1%}, cannot tell {r['cannot_tell_rate']:.1%}; {r['how']} "
                  f"({time.perf_counter() - start:.0f} s)", flush=True)

    if "refchecker" in args.cells:
        print(refchecker_pairs())


def refchecker_pairs(setting: str = "noisy_context") -> str:
    """A markdown table: every pair of RefChecker's systems gated on faithfulness (the better one
    as base), its p adjusted by Holm over all pairs, whether the pair differs."""
    scores = {system: rw.evaluate(records) for system, records in refchecker_human(setting).items()}
    means = {s: float(np.nanmean(v.frame["faithfulness"])) for s, v in scores.items()}
    ranked = sorted(scores, key=means.get, reverse=True)
    rows = [gate(scores[a], scores[b], metrics=["faithfulness"], adjust=None).frame.iloc[0].rename(f"{a} → {b}")
            for a, b in combinations(ranked, 2)]
    table = pd.DataFrame(rows)
    table["p_holm"] = holm(table["p"].to_numpy(float))
    lines = ["| base → new | shared | base | new | difference [95% interval] | p | p (Holm, 21 pairs) | differs |",
             "|---|---|---|---|---|---|---|---|"]
    for name, r in table.iterrows():
        lines.append(f"| {name} | {r['shared']} | {r['base_mean']:.3f} | {r['new_mean']:.3f} | "
                     f"{r['difference']:+.3f} [{r['lo']:+.3f}, {r['hi']:+.3f}] | {r['p']:.2g} | {r['p_holm']:.2g} | "
                     f"{'yes' if r['p_holm'] < 0.05 else 'no'} |")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
