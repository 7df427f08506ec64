"""Exact sums and means of float64 values, so a mean is the same however its samples are split.

A sum is kept as an integer count of ``2**-SHIFT`` (every finite float64 is a whole number of
those); integers add without rounding. The mean is that exact sum over the count, rounded once:
the float nearest the true mean (None for no value).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

SHIFT = 1126  # the smallest float64, 2**-1074, is 0.5 * 2**-1073: a 53-bit mantissa times 2**(-1073-53)
_HALF = 26  # mantissas are summed as two 27-bit halves: exact in float64 for up to 2**26 values
_CHUNK = 1 << 25
_EXPONENTS = 2200  # frexp's exponents run from -1073 to 1024; offset by _LOWEST they index a bincount
_LOWEST = -1100


def exact_sum(values: np.ndarray) -> int:
    """Σ values exactly, in units of 2**-SHIFT (finite float64 values; 0 for none)."""
    total = 0
    for start in range(0, len(values), _CHUNK):
        mantissa, exponent = np.frexp(np.asarray(values[start:start + _CHUNK], dtype=float))
        whole = (mantissa * 2.0 ** 53).astype(np.int64)  # exact: value = whole * 2**(exponent - 53)
        slot = exponent - _LOWEST
        high = np.bincount(slot, weights=whole >> _HALF, minlength=_EXPONENTS)
        low = np.bincount(slot, weights=whole & ((1 << _HALF) - 1), minlength=_EXPONENTS)
        for k in np.flatnonzero((high != 0) | (low != 0)).tolist():
            total += ((int(high[k]) << _HALF) + int(low[k])) << (k + _LOWEST - 53 + SHIFT)
    return total


def exact_units(values: np.ndarray) -> list[int]:
    """Each finite value exactly, in units of 2**-SHIFT (``exact_sum`` of each one alone)."""
    mantissa, exponent = np.frexp(np.asarray(values, dtype=float))
    whole = (mantissa * 2.0 ** 53).astype(np.int64)
    return [w << (e - 53 + SHIFT) for w, e in zip(whole.tolist(), exponent.tolist())]


def exact_mean(total: int, count: int) -> float | None:
    """The mean of ``count`` values whose exact sum is ``total``, rounded once (None when count is 0)."""
    return float(Fraction(total, count << SHIFT)) if count else None


def mean_over_defined(values: np.ndarray, defined: np.ndarray) -> tuple[float | None, int]:
    """The one rule for a metric's mean: Σ values[defined] / #defined, exact and rounded once, with
    the count; (None, 0) when no sample is defined (Undefined samples are never averaged as 0).
    An infinite value makes the mean numpy's (inf, or NaN for inf - inf)."""
    kept = np.asarray(values, dtype=float)[np.asarray(defined, dtype=bool)]
    if not np.isfinite(kept).all():
        return float(kept.mean()), len(kept)
    return exact_mean(exact_sum(kept), len(kept)), len(kept)


def mean_of_counts(units: list[int], counts: np.ndarray) -> float | None:
    """:func:`mean_over_defined` of values given as distinct values' exact sums ``units``
    (:func:`exact_units`) seen ``counts`` times (None when the counts are all 0)."""
    seen = np.flatnonzero(counts)
    total = sum(units[k] * c for k, c in zip(seen.tolist(), counts[seen].tolist()))
    return exact_mean(total, int(counts.sum()))
