"""Interval formulas that hold near 0 and 1, each defined once (vectorised over any leading axes).

A mean of values in [0, 1] has variance at most μ(1 − μ), so its sampling variance ``v`` says how
many Bernoulli trials it is worth: the effective n* = m(1 − m) / v (Korn & Graubard 1998, for
survey proportions). :func:`bounded_interval` is the Clopper–Pearson interval of m·n* successes in
n* trials: exact (never under its level) for a plain proportion, and for a mean with no spread seen
(all values 0, or no disagreement) it falls back to a stated worst case ``n_min`` instead of
collapsing to a point. Differences of two such means use MOVER (Zou & Donner 2008; Newcombe 1998's
hybrid score interval for paired proportions) with the correlation of the pairs. Many intervals at
once: :func:`p_values` inverts an interval into the p-value of "no difference", adjusted by
:func:`holm` (family-wise) or :func:`benjamini_hochberg` (false discovery).
"""

from __future__ import annotations

import numpy as np
from scipy.stats import beta

ADJUSTMENTS = ("holm", "bh", None)
ADJUSTMENT_NAMES = {"holm": "Holm", "bh": "Benjamini–Hochberg", None: "no adjustment"}


def clopper_pearson(x, n, level: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """The Clopper–Pearson interval of ``x`` successes in ``n`` trials (both may be fractional;
    n > 0): the beta quantiles, 0 / 1 at the ends."""
    x, n = np.broadcast_arrays(np.asarray(x, dtype=float), np.asarray(n, dtype=float))
    tail = (1 - level) / 2
    x = np.clip(x, 0, n)
    with np.errstate(invalid="ignore", divide="ignore"):
        lo = np.where(x > 0, beta.ppf(tail, np.maximum(x, 1e-12), n - x + 1), 0.0)
        hi = np.where(x < n, beta.ppf(1 - tail, x + 1, np.maximum(n - x, 1e-12)), 1.0)
    return lo, hi


N_MAX = 1e12  # the most trials a mean is worth here: beyond, the beta quantiles lose their digits


def effective_n(mean, var, n_min, n_max=N_MAX) -> np.ndarray:
    """Trials a mean in [0, 1] with sampling variance ``var`` is worth, m(1 − m) / var, within
    [``n_min``, ``n_max``]; ``n_min`` where no spread was seen (var 0, but for rounding, or m at 0 / 1)."""
    mean, var = np.asarray(mean, dtype=float), np.asarray(var, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        n = np.where((var > 1e-20) & (mean > 0) & (mean < 1), mean * (1 - mean) / var, n_min)
    return np.clip(n, n_min, n_max)


def bounded_interval(mean, var, n_min, n_max=N_MAX, level: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Clopper–Pearson interval of a mean in [0, 1] on its :func:`effective_n` trials."""
    n = effective_n(mean, var, n_min, n_max)
    return clopper_pearson(np.asarray(mean, dtype=float) * n, n, level)


def mean_moments(distinct, counts) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """n, mean and the variance of the mean (s² / n, s² with n − 1; 0 for n ≤ 1) of values
    ``distinct`` seen ``counts`` times (counts may have leading axes)."""
    distinct, counts = np.asarray(distinct, dtype=float), np.asarray(counts, dtype=float)
    n = counts.sum(axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = (counts * distinct).sum(axis=-1) / n
        ss = (counts * (distinct - mean[..., None]) ** 2).sum(axis=-1)
        var = np.where(n > 1, ss / (n - 1) / n, 0.0)
    return n, mean, var


def range_of(distinct) -> tuple[float, float]:
    """The range a metric's intervals are drawn in: [0, 1] widened to hold every value seen."""
    distinct = np.asarray(distinct, dtype=float)
    return (min(0.0, float(distinct.min())), max(1.0, float(distinct.max()))) if distinct.size else (0.0, 1.0)


def mean_interval(distinct, counts, level: float = 0.95) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The mean of values ``distinct`` seen ``counts`` times and its :func:`bounded_interval` in
    the values' :func:`range_of` (n* ≥ n: one sample is worth at least one trial); NaN when
    there are none."""
    a, b = range_of(distinct)
    n, mean, var = mean_moments((np.asarray(distinct, dtype=float) - a) / (b - a), counts)
    lo, hi = bounded_interval(mean, var, np.maximum(n, 1), level=level)
    none = n == 0
    scale = lambda v: np.where(none, np.nan, a + (b - a) * v)  # noqa: E731
    return scale(mean), scale(lo), scale(hi)


def ratio_interval(num, den, level: float = 0.95) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A share Σnum / Σden over clusters (last axis; num ≤ den per cluster) and its
    :func:`bounded_interval`: the variance by linearisation over clusters, n* between the
    effective number of clusters (Σden)² / Σden², as if each cluster's items agreed among
    themselves, and the items Σden, as if independent. A design effect read off a few clusters
    holding the rarer outcome is not trusted: the variance also counts one pseudo-cluster of the
    clusters' mean size Σden² / Σden wholly of the rarer outcome (a plus-one floor, as Wilson's
    pseudo-counts), which matters only while such clusters are few. NaN where fewer than two
    clusters hold items."""
    num, den = np.asarray(num, dtype=float), np.asarray(den, dtype=float)
    total, g = den.sum(axis=-1), (den > 0).sum(axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = num.sum(axis=-1) / total
        size = (den ** 2).sum(axis=-1) / total
        ss = ((num - p[..., None] * den) ** 2).sum(axis=-1) + (size * np.maximum(p, 1 - p)) ** 2
        var = g / (g - 1) * ss / total ** 2
        n_min = total / size
    ok = g >= 2
    lo, hi = bounded_interval(np.where(ok, p, 0.5), np.where(ok, var, 0.0), np.where(ok, n_min, 1.0),
                              np.where(ok, total, 1.0), level)
    return p, np.where(ok, lo, np.nan), np.where(ok, hi, np.nan)


def mover_difference(a, a_lo, a_hi, b, b_lo, b_hi, r) -> tuple[np.ndarray, np.ndarray]:
    """MOVER interval of a − b from each side's interval and their correlation ``r`` (0 for
    independent sides)."""
    a, a_lo, a_hi, b, b_lo, b_hi, r = (np.asarray(v, dtype=float) for v in (a, a_lo, a_hi, b, b_lo, b_hi, r))
    d = a - b
    low = d - np.sqrt(np.maximum((a - a_lo) ** 2 - 2 * r * (a - a_lo) * (b_hi - b) + (b_hi - b) ** 2, 0))
    high = d + np.sqrt(np.maximum((a_hi - a) ** 2 - 2 * r * (a_hi - a) * (b - b_lo) + (b - b_lo) ** 2, 0))
    return low, high


def _moments(x: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Mean and variance of the mean (s² / n, s² with n − 1; 0 for n ≤ 1) of ``x`` at ``mask``
    over the last axis."""
    n = mask.sum(axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(mask, x, 0.0).sum(axis=-1) / n
        ss = np.where(mask, (x - mean[..., None]) ** 2, 0.0).sum(axis=-1)
        return mean, np.where(n > 1, ss / (n - 1) / n, 0.0)


def _correlation(x: np.ndarray, y: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Pearson's correlation of ``x`` and ``y`` at ``mask`` over the last axis; 0 where either is constant."""
    (mx, vx), (my, vy) = _moments(x, mask), _moments(y, mask)
    n = mask.sum(axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        cov = np.where(mask, (x - mx[..., None]) * (y - my[..., None]), 0.0).sum(axis=-1) / (n - 1) / n
        return np.nan_to_num(np.clip(cov / np.sqrt(vx * vy), -1, 1)) * ((vx > 1e-20) & (vy > 1e-20))


def difference_interval(a, defined_a, b, defined_b, level: float = 0.95) -> tuple[np.ndarray, ...]:
    """mean_B − mean_A, each over its own defined samples of paired values (last axis), and its
    interval; NaN where a side has no defined sample.

    Where both sides are defined on the same samples, the per-sample differences B − A split into
    their positive and negative parts, each (in the values' :func:`range_of`) a mean in [0, 1]
    with a :func:`bounded_interval` (n* ≥ n), joined by :func:`mover_difference` with their
    correlation: where the sides rarely differ each part is a rare outcome, and with no
    difference seen the interval is ± the exact bound of 0 events in n, not a point. Where they
    are defined on different samples: MOVER of the two means' own intervals, with the
    correlation of the samples defined on both."""
    return DifferenceMoments(a, defined_a, b, defined_b).at(level)


class DifferenceMoments:
    """What :func:`difference_interval` needs of the values, found once: ``.at(level)`` gives
    (difference, low, high) at any level without reading the values again (for :func:`p_values`)."""

    def __init__(self, a, defined_a, b, defined_b):
        a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
        da, db = np.asarray(defined_a, dtype=bool), np.asarray(defined_b, dtype=bool)
        low, high = range_of(np.r_[a[da], b[db]])
        a, b = np.where(da, (a - low) / (high - low), 0.0), np.where(db, (b - low) / (high - low), 0.0)
        n_a, n_b, either = da.sum(axis=-1), db.sum(axis=-1), da | db
        pos, neg = np.maximum(b - a, 0), np.maximum(a - b, 0)
        self.pos, self.neg = _moments(pos, either), _moments(neg, either)
        self.a, self.b = _moments(a, da), _moments(b, db)
        self.r_paired, self.r_apart = _correlation(pos, neg, either), _correlation(a, b, da & db)
        self.n, self.n_a, self.n_b = np.maximum(either.sum(axis=-1), 1), np.maximum(n_a, 1), np.maximum(n_b, 1)
        self.same, self.none, self.width = (da == db).all(axis=-1), (n_a == 0) | (n_b == 0), high - low

    def at(self, level: float = 0.95) -> tuple[np.ndarray, ...]:
        """(difference, low, high) at ``level``: see :func:`difference_interval`."""
        (mp, vp), (mn, vn), (ma, va), (mb, vb) = self.pos, self.neg, self.a, self.b
        paired = mover_difference(mp, *bounded_interval(mp, vp, self.n, level=level),
                                  mn, *bounded_interval(mn, vn, self.n, level=level), self.r_paired)
        apart = mover_difference(mb, *bounded_interval(mb, vb, self.n_b, level=level),
                                 ma, *bounded_interval(ma, va, self.n_a, level=level), self.r_apart)
        return tuple(np.where(self.none, np.nan, v * self.width) for v in
                     (mb - ma, np.where(self.same, paired[0], apart[0]), np.where(self.same, paired[1], apart[1])))


def p_values(interval_at, steps: int = 40) -> np.ndarray:
    """The p-value of 0 against intervals ``interval_at(level) -> (low, high)`` (arrays): the
    smallest 1 − level whose interval leaves 0 out (1 where even a 0-level one holds 0; NaN
    where undefined), by bisection on the level."""
    lo_level = np.zeros_like(np.asarray(interval_at(0.5)[0], dtype=float))
    hi_level = np.ones_like(lo_level)  # excludes 0 at lo_level ... includes it at hi_level
    low, high = (np.asarray(v, dtype=float) for v in interval_at(1e-9))
    undefined = np.isnan(low) | np.isnan(high)
    holds = (low <= 0) & (0 <= high)
    for _ in range(steps):
        mid = (lo_level + hi_level) / 2
        low, high = (np.asarray(v, dtype=float) for v in interval_at(mid))
        out = ~((low <= 0) & (0 <= high))
        lo_level, hi_level = np.where(out, mid, lo_level), np.where(out, hi_level, mid)
    p = 1 - (lo_level + hi_level) / 2
    return np.where(undefined, np.nan, np.where(holds, 1.0, p))


def _adjusted(p, adjust) -> np.ndarray:
    """``adjust(sorted defined p-values, m)`` put back in place; NaN stays NaN and is not counted."""
    p = np.asarray(p, dtype=float)
    out = np.full_like(p, np.nan)
    ok = np.flatnonzero(~np.isnan(p))
    order = ok[np.argsort(p[ok], kind="stable")]
    out[order] = np.minimum(adjust(p[order], len(order)), 1.0)
    return out


def holm(p) -> np.ndarray:
    """Holm's step-down adjusted p-values (family-wise error); NaN stays NaN and is not counted."""
    return _adjusted(p, lambda ranked, m: np.maximum.accumulate(ranked * (m - np.arange(m))))


def benjamini_hochberg(p) -> np.ndarray:
    """Benjamini–Hochberg adjusted p-values (false-discovery rate); NaN stays NaN, not counted."""
    return _adjusted(p, lambda ranked, m: np.minimum.accumulate((ranked * m / np.arange(1, m + 1))[::-1])[::-1])


def adjust(p, method: str | None) -> np.ndarray:
    """``p`` adjusted by ``method``: "holm", "bh" (Benjamini–Hochberg) or None (as they are)."""
    if method not in ADJUSTMENTS:
        raise ValueError(f"adjust must be one of 'holm', 'bh' or None, got {method!r}")
    return holm(p) if method == "holm" else benjamini_hochberg(p) if method == "bh" else np.asarray(p, dtype=float)
