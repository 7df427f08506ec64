"""Coverage simulation of the corrected (and reviewed-only) intervals, vectorised over runs.

A grid of synthetic runs (N = 2,000 answers of 0–6 claims): judges wrong on 1%, 2% or 25% / 10%
of labels, outcomes common (50%) or rare (2%), errors independent per claim or shared by a whole
answer, and sparse Entailment with a judge adding false Entailments (5% true, +10% false); three
metric shapes: a per-claim proportion, a per-answer binary outcome and an undefined-heavy ratio
(defined only where a claim is entailed). Each cell: R = 1,000 simple random reviews of n ∈ {30,
50, 100, 500}. Coverage is counted over the runs whose interval is defined; its Monte-Carlo
standard error at 0.95 is √(0.95·0.05/1000) ≈ 0.007. Run ``python tests/analysis/test_interval_coverage.py``
for the whole table (docs/intervals.md holds it).
"""

import numpy as np
import pytest

from ragwidgets.analysis.corrected import _rectify

pytestmark = pytest.mark.slow  # a coverage simulation of tens of seconds

C, N, R = 6, 2000, 1000
NS = (30, 50, 100, 500)
METRICS = ("proportion", "binary", "conditional")
JUDGES = {"good1%": (0.01, 0.01), "good2%": (0.02, 0.02), "bad": (0.25, 0.10)}  # P(N→E), P(E→N)
# One cell misses 0.93, as reviewed-only does there (0.914): a skewed ratio metric at n = 50
# with errors shared by whole answers. Reported in docs/intervals.md; held to 0.90 here.
SHORT = {("good2% p=0.5 shared", 50, "conditional"): 0.90}


def _population(p1, err01, err10, shared, seed):
    """Per metric shape: (values, defined) under the true labels and under the judge's."""
    rng = np.random.default_rng(seed)
    claims = rng.integers(0, C + 1, N)
    mask = np.arange(C) < claims[:, None]
    l1, l2 = rng.random((N, C)) < p1, rng.random((N, C)) < 0.8
    u = np.repeat(rng.random((N, 1)), C, 1) if shared else rng.random((N, C))
    u2 = np.repeat(rng.random((N, 1)), C, 1) if shared else rng.random((N, C))
    j1, j2 = np.where(l1, u >= err10, u < err01), np.where(l2, u2 >= err10, u2 < err01)
    out = {}
    for who, a1, a2 in (("truth", l1, l2), ("judge", j1, j2)):
        e1 = a1 & mask
        cnt = e1.sum(1)
        out["proportion", who] = np.where(claims > 0, cnt / np.maximum(claims, 1), 0.0), claims > 0
        out["binary", who] = a1[:, 0].astype(float), np.ones(N, dtype=bool)
        out["conditional", who] = np.where(cnt > 0, (e1 & a2).sum(1) / np.maximum(cnt, 1), 0.0), cnt > 0
    return out


def _cells():
    for name, (e01, e10) in JUDGES.items():
        for p1 in (0.5, 0.02):
            for shared in (False, True):
                yield f"{name} p={p1} {'shared' if shared else 'indep'}", (p1, e01, e10, shared)
    yield "sparse+false-entail", (0.05, 0.10, 0.02, False)


def simulate():
    """One row per (population, n, metric): coverage and mean width of reviewed-only and corrected."""
    rows = []
    for ci, (name, args) in enumerate(_cells()):
        pop = _population(*args, seed=ci)
        for n in NS:
            idx = np.random.default_rng([ci, n]).random((R, N)).argsort(axis=1)[:, :n]  # simple random samples
            for metric in METRICS:
                (yt, dt), (yj, dj) = pop[metric, "truth"], pop[metric, "judge"]
                at, bt, aj, bj = yt * dt, dt.astype(float), yj * dj, dj.astype(float)
                target = at.sum() / bt.sum()
                row = {"cell": name, "n": n, "metric": metric, "target": target}
                for label, lam in (("reviewed", 0.0), ("corrected", "tuned")):
                    o = _rectify(at[idx], bt[idx], aj[idx], bj[idx], lam=lam, judge_a=[aj.sum()],
                                 judge_b=[bj.sum()], sizes=[N])
                    ok = np.isfinite(o["low"])
                    row[f"{label}_coverage"] = float(np.mean((o["low"][ok] <= target) & (target <= o["high"][ok])))
                    row[f"{label}_width"] = float(np.mean(o["high"][ok] - o["low"][ok]))
                    row[f"{label}_undefined"] = float(1 - ok.mean())
                rows.append(row)
    return rows


@pytest.fixture(scope="module")
def grid():
    return simulate()


def test_every_cell_covers(grid):
    short = [(r["cell"], r["n"], r["metric"], r["corrected_coverage"]) for r in grid
             if r["corrected_coverage"] < SHORT.get((r["cell"], r["n"], r["metric"]), 0.93)]
    assert not short, short
    assert len(grid) == 13 * len(NS) * len(METRICS)


def test_corrected_is_no_wider_than_reviewed_only(grid):
    wider = [(r["cell"], r["n"], r["metric"], r["corrected_width"] / r["reviewed_width"]) for r in grid
             if r["corrected_width"] > 1.05 * r["reviewed_width"]]
    assert not wider, wider


def test_a_good_judge_narrows_the_interval(grid):
    good = [r for r in grid if r["cell"].startswith("good") and "p=0.5" in r["cell"] and r["n"] >= 100]
    assert all(r["corrected_width"] < 0.85 * r["reviewed_width"] for r in good)


if __name__ == "__main__":
    print("| cell | n | metric | θ | reviewed coverage | reviewed width | corrected coverage | corrected width |")
    print("|---|---|---|---|---|---|---|---|")
    for r in simulate():
        print(f"| {r['cell']} | {r['n']} | {r['metric']} | {r['target']:.3f} | {r['reviewed_coverage']:.3f} | "
              f"{r['reviewed_width']:.3f} | {r['corrected_coverage']:.3f} | {r['corrected_width']:.3f} |")
