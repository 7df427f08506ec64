"""Coverage simulation of the agreement and kappa intervals (:func:`agreement_intervals`),
vectorised over runs.

Each run reviews G ∈ {20, 50, 100} answers of 1–6 claims; the truth is Entailment with
probability π (0.8, as real runs are mostly Entailment, or 0.5); a good judge (1% or 2% errors)
or a poor one (10%) flips a label, the errors shared by a whole answer (all of its labels wrong
together) or independent per claim. The target is the population's agreement 1 − e and kappa
(pₒ − pₑ) / (1 − pₑ). R = 1,000 runs per cell, 500 cluster resamples each; coverage is over the
runs whose interval is defined (kappa is Undefined where both sides used one class). Monte-Carlo
standard error at 0.95: √(0.95·0.05/1000) ≈ 0.007. Run ``python tests/analysis/test_agreement_coverage.py``
for the whole table (docs/intervals.md holds it).
"""

import numpy as np
import pytest

from ragwidgets.analysis.agreement import _bootstrap_confusions, _kappa_of, agreement_intervals

pytestmark = pytest.mark.slow  # a coverage simulation of tens of seconds

R, B, C, CHUNK = 1000, 500, 6, 100
CELLS = [(g, e, pi, shared) for shared in (True, False) for pi in (0.8, 0.5) for e in (0.01, 0.02, 0.10)
         for g in (20, 50, 100) if shared or (pi == 0.8 and e == 0.02)]


def _runs(g, e, pi, shared, seed):
    """Per run and answer the confusion counts (flattened 2 x 2: judge x truth) of its labels."""
    rng = np.random.default_rng(seed)
    mask = np.arange(C) < rng.integers(1, C + 1, (R, g))[..., None]
    truth = rng.random((R, g, C)) < pi
    wrong = np.repeat(rng.random((R, g, 1)), C, -1) < e if shared else rng.random((R, g, C)) < e
    cells = (truth ^ wrong) * 2 + truth
    return np.stack([((cells == c) & mask).sum(-1) for c in range(4)], -1)


def _target(e, pi):
    pj = pi * (1 - e) + (1 - pi) * e
    pe = pi * pj + (1 - pi) * (1 - pj)
    return 1 - e, (1 - e - pe) / (1 - pe)


def simulate():
    """One row per cell: coverage and mean width of the agreement and kappa intervals."""
    rows = []
    for ci, (g, e, pi, shared) in enumerate(CELLS):
        per_group = _runs(g, e, pi, shared, ci)
        rng = np.random.default_rng([ci, 1])
        parts = [agreement_intervals(chunk, _bootstrap_confusions(chunk, B, rng), 2, 0.95)
                 for chunk in np.split(per_group, R // CHUNK)]
        a_lo, a_hi, k_lo, k_hi = (np.concatenate(p) for p in zip(*parts))
        kappa, po = _kappa_of(per_group.sum(1).reshape(R, 2, 2))
        agree, kap = _target(e, pi)
        ok = np.isfinite(kappa) & np.isfinite(k_lo)
        rows.append({"g": g, "e": e, "pi": pi, "shared": shared, "kappa_target": kap,
                     "no_disagreement": float(np.mean(po == 1)),
                     "agreement_coverage": float(np.mean((a_lo <= agree) & (agree <= a_hi))),
                     "agreement_width": float(np.mean(a_hi - a_lo)),
                     "kappa_coverage": float(np.mean((k_lo[ok] <= kap) & (kap <= k_hi[ok]))),
                     "kappa_width": float(np.mean(k_hi[ok] - k_lo[ok])), "kappa_defined": float(ok.mean())})
    return rows


@pytest.fixture(scope="module")
def grid():
    return simulate()


def test_agreement_and_kappa_cover_in_every_cell(grid):
    short = [(r["g"], r["e"], r["pi"], r["shared"], r["agreement_coverage"], r["kappa_coverage"]) for r in grid
             if min(r["agreement_coverage"], r["kappa_coverage"]) < 0.93]
    assert not short, short
    assert any(r["no_disagreement"] > 0.5 for r in grid)  # the degenerate case is in the grid


if __name__ == "__main__":
    print("| samples | judge errors | π (Entailment) | errors | κ | no disagreement seen | agreement coverage | "
          "agreement width | kappa coverage | kappa width |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in simulate():
        print(f"| {r['g']} | {r['e']:.0%} | {r['pi']} | {'shared' if r['shared'] else 'independent'} | "
              f"{r['kappa_target']:.3f} | {r['no_disagreement']:.2f} | {r['agreement_coverage']:.3f} | "
              f"{r['agreement_width']:.3f} | {r['kappa_coverage']:.3f} | {r['kappa_width']:.3f} |")
