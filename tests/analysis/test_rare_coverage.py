"""Coverage simulation of the summary's, the comparison's and two judges' intervals for rare
outcomes, and of the adjustment over many metrics, vectorised over runs.

Summary (:func:`mean_interval`): a per-answer binary outcome or a per-claim proportion (answers of
1–6 claims, the event per claim independent or shared by the whole answer) at rates 1%, 2%, 5% and
50%, n ∈ {20, 30, 50, 100, 500} answers. Comparison / two judges (:func:`difference_interval`): two
runs over the same answers, each answer's outcome driven by a uniform that the runs share with
probability 0.7 (paired, positively correlated), rates (A, B) from identical rare runs to a common
metric that moved. The target is the population mean (difference) by construction. R = 1,000 runs
per cell; Monte-Carlo standard error at 0.95: √(0.95·0.05/1000) ≈ 0.007. Many metrics: 11 metrics
of two identical runs (n = 100, rates 1%–50%), the share of runs in which any metric is flagged
(family-wise error) with no adjustment, Holm and Benjamini–Hochberg. Run
``python tests/analysis/test_rare_coverage.py`` for the tables (docs/intervals.md holds them).
"""

import numpy as np
import pytest

from ragwidgets.analysis.intervals import DifferenceMoments, adjust, difference_interval, mean_interval, p_values

R, C = 1000, 6
NS = (20, 30, 50, 100, 500)
RATES = (0.01, 0.02, 0.05, 0.5)
PAIRS = ((0.01, 0.01), (0.02, 0.02), (0.01, 0.03), (0.02, 0.05), (0.5, 0.5), (0.5, 0.6))
FAMILY = (0.01, 0.01, 0.02, 0.02, 0.05, 0.05, 0.1, 0.2, 0.5, 0.5, 0.5)  # 11 metrics' rates


def _values(shape, rate, kind, rng, u=None):
    """Per answer the metric's value: 'binary' (event or not) or a per-claim share ('claims':
    events independent per claim, 'shared': one event for all the answer's claims)."""
    u = rng.random(shape) if u is None else u
    if kind == "binary":
        return (u < rate).astype(float)
    m = rng.integers(1, C + 1, shape)
    per_claim = np.repeat(u[..., None], C, -1) if kind == "shared" else \
        np.concatenate([u[..., None], rng.random((*shape, C - 1))], -1)
    return ((per_claim < rate) & (np.arange(C) < m[..., None])).sum(-1) / m


def _pair(shape, ra, rb, kind, rng):
    """Two runs' values over the same answers, sharing each answer's uniform with probability 0.7."""
    u = rng.random(shape)
    wa = np.where(rng.random(shape) < 0.7, u, rng.random(shape))
    wb = np.where(rng.random(shape) < 0.7, u, rng.random(shape))
    return _values(shape, ra, kind, rng, wa), _values(shape, rb, kind, rng, wb)


def _covers(lo, hi, target):
    return float(np.mean((lo <= target + 1e-12) & (target - 1e-12 <= hi))), float(np.mean(hi - lo))


def summary_grid():
    rows = []
    for ki, kind in enumerate(("binary", "claims", "shared")):
        for rate in RATES:
            for n in NS:
                x = _values((R, n), rate, kind, np.random.default_rng([ki, int(rate * 1000), n]))
                distinct, inverse = np.unique(x, return_inverse=True)
                counts = np.stack([np.bincount(inverse.reshape(R, n)[r], minlength=len(distinct)) for r in range(R)])
                _, lo, hi = mean_interval(distinct, counts)
                rows.append({"kind": kind, "rate": rate, "n": n, **dict(zip(("coverage", "width"),
                                                                            _covers(lo, hi, rate)))})
    return rows


def difference_grid():
    rows = []
    for ki, kind in enumerate(("binary", "claims")):
        for ra, rb in PAIRS:
            for n in NS[1:]:
                a, b = _pair((R, n), ra, rb, kind, np.random.default_rng([ki, int(ra * 1000), int(rb * 1000), n]))
                ones = np.ones((R, n), dtype=bool)
                _, lo, hi = difference_interval(a, ones, b, ones)
                undefined_b = ones & (np.random.default_rng(n).random((R, n)) >= 0.1)  # two judges: B Undefined on 10%
                _, lo2, hi2 = difference_interval(a, ones, b, undefined_b)
                cov, width = _covers(lo, hi, rb - ra)
                rows.append({"kind": kind, "rates": (ra, rb), "n": n, "coverage": cov, "width": width,
                             "coverage_own_defined": _covers(lo2, hi2, rb - ra)[0]})
    return rows


def family_grid(n=100):
    """Per adjustment: the share of runs of two identical systems in which a metric differs."""
    rng = np.random.default_rng(11)
    pairs = [_pair((R, n), r, r, "binary" if k % 2 else "claims", rng) for k, r in enumerate(FAMILY)]
    a, b = np.stack([p[0] for p in pairs], 1), np.stack([p[1] for p in pairs], 1)  # R x metrics x n
    ones = np.ones(a.shape, dtype=bool)
    moments = DifferenceMoments(a, ones, b, ones)
    p = p_values(lambda level: moments.at(level)[1:])
    return {how: float(np.mean([(adjust(row, how) < 0.05).any() for row in p])) for how in (None, "holm", "bh")}


@pytest.fixture(scope="module")
def summary_rows():
    return summary_grid()


@pytest.fixture(scope="module")
def difference_rows():
    return difference_grid()


def test_the_summary_interval_covers_rare_outcomes(summary_rows):
    short = [(r["kind"], r["rate"], r["n"], r["coverage"]) for r in summary_rows if r["coverage"] < 0.93]
    assert not short, short


def test_the_paired_difference_covers_rare_outcomes(difference_rows):
    short = [(r["kind"], r["rates"], r["n"], r["coverage"], r["coverage_own_defined"]) for r in difference_rows
             if min(r["coverage"], r["coverage_own_defined"]) < 0.93]
    assert not short, short


def test_holm_keeps_the_family_wise_error_of_eleven_metrics():
    errors = family_grid()
    assert errors["holm"] <= 0.05 + 0.02  # 0.05 plus three Monte-Carlo standard errors (0.007)
    assert errors["bh"] <= 0.05 + 0.02  # all null: the false-discovery rate is the family-wise error
    assert errors[None] > errors["holm"]


if __name__ == "__main__":
    print("| summary: metric | rate | n | coverage | width |\n|---|---|---|---|---|")
    for r in summary_grid():
        print(f"| {r['kind']} | {r['rate']} | {r['n']} | {r['coverage']:.3f} | {r['width']:.3f} |")
    print("\n| difference: metric | rates A → B | n | coverage | width | coverage, B Undefined on 10% |\n"
          "|---|---|---|---|---|---|")
    for r in difference_grid():
        print(f"| {r['kind']} | {r['rates'][0]} → {r['rates'][1]} | {r['n']} | {r['coverage']:.3f} | "
              f"{r['width']:.3f} | {r['coverage_own_defined']:.3f} |")
    print("\n| 11 metrics of identical runs, n = 100 | share of runs with a false difference |\n|---|---|")
    for how, share in family_grid().items():
        print(f"| {how or 'none'} | {share:.3f} |")
