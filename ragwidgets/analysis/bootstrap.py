"""Percentile bootstrap intervals for a mean, drawn over the distinct values.

Resampling n values with replacement is the same as drawing multinomial counts over the
distinct values (with their frequencies as probabilities), so an interval over 100,000 samples
costs ``n_boot x distinct`` work, not ``n_boot x n``: metric values are ratios of small counts
and have few distinct values.
"""

from __future__ import annotations

import numpy as np

CONFIDENCE = 0.95
N_BOOT = 2000


def means_from_counts(distinct: np.ndarray, counts: np.ndarray, n_boot: int = N_BOOT, seed: int = 0) -> np.ndarray:
    """``n_boot`` resample means of the values ``distinct`` seen ``counts`` times; none when empty."""
    n = int(counts.sum())
    if n == 0:
        return np.zeros(0)
    draws = np.random.default_rng(seed).multinomial(n, counts / n, size=n_boot)
    return draws @ distinct / n


def bootstrap_means(values: np.ndarray, n_boot: int = N_BOOT, seed: int = 0) -> np.ndarray:
    """``n_boot`` means of resamples (with replacement, same size) of ``values`` (no NaN); empty: none."""
    distinct, counts = np.unique(np.asarray(values, dtype=float), return_counts=True)
    return means_from_counts(distinct, counts, n_boot, seed)


def percentile_interval(means: np.ndarray, confidence: float = CONFIDENCE) -> tuple[float | None, float | None]:
    """The central ``confidence`` range of bootstrap ``means``; (None, None) when there are none."""
    if len(means) == 0:
        return None, None
    tail = (1 - confidence) / 2 * 100
    lo, hi = np.percentile(means, [tail, 100 - tail])
    return float(lo), float(hi)


def interval(values: np.ndarray, n_boot: int = N_BOOT, seed: int = 0,
             confidence: float = CONFIDENCE) -> tuple[float | None, float | None]:
    """Percentile bootstrap interval of the mean of ``values``; (None, None) when empty."""
    return percentile_interval(bootstrap_means(values, n_boot, seed), confidence)
