"""A run's summary: per metric, the mean over defined samples with a 95% interval, and how many
samples were defined, Undefined and not computable (never folded into the mean). The interval is
:func:`~.intervals.mean_interval` (Clopper–Pearson on the effective number of samples), which
holds for rare outcomes near 0 or 1, where a percentile bootstrap collapses."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..engine.sums import exact_units, mean_of_counts
from .intervals import mean_interval
from .table import DEFINED_CODE, NOT_COMPUTABLE_CODE, UNDEFINED_CODE, RunTable

SUMMARY_COLUMNS = ["mean", "ci_low", "ci_high", "defined", "undefined", "not_computable"]


class Summarizer:
    """Summaries of any subset of a table's rows. Each metric's distinct values are found once and
    every row holds, per metric, a slot: its value's place among them, or one slot for Undefined
    and one for not computable, offset so that the slots of all metrics are distinct. A subset
    then costs one gather and one ``bincount`` for every metric at once, plus the resampling."""

    def __init__(self, table: RunTable):
        self.metrics = list(table.metrics)
        self._distinct: dict[str, tuple[np.ndarray, list]] = {}
        self._bounds = np.zeros(len(self.metrics) + 1, dtype=np.int64)
        self._table = np.zeros((len(table.frame), len(self.metrics)), dtype=np.int32)
        self._every: np.ndarray | None = None
        self.update(table, self.metrics)

    def update(self, table: RunTable, metrics) -> None:
        """Find the distinct values of ``metrics`` again from ``table`` (all the rows; after a
        live review changed them), keeping the other metrics' as they are. ValueError, naming the
        metric, when a value marked defined is NaN or infinite (its mean would be meaningless)."""
        slots = {m: self._table[:, k] - np.int32(self._bounds[k]) for k, m in enumerate(self.metrics)
                 if m not in metrics}
        for m in metrics:
            status = table.status[m].to_numpy()
            value = table.frame[m].to_numpy(dtype=float)
            defined = status == DEFINED_CODE
            # as np.unique, by hashing: no sort of n
            inverse, distinct = pd.factorize(value[defined], sort=True, use_na_sentinel=False)
            if not np.isfinite(distinct).all():
                bad = np.flatnonzero(defined)[~np.isfinite(value[defined])]
                raise ValueError(f"metric {m!r}: {len(bad)} sample(s) marked defined hold NaN or infinity "
                                 f"(first: {table.frame.index[bad[0]]!r} = {value[bad[0]]}); mark such a value "
                                 "Undefined or not computable")
            slot = np.where(status == UNDEFINED_CODE, len(distinct), len(distinct) + 1).astype(np.int32)
            slot[defined] = inverse
            slots[m] = slot
            self._distinct[m] = (distinct, exact_units(distinct))
        self._bounds = np.r_[0, np.cumsum([len(self._distinct[m][0]) + 2 for m in self.metrics])].astype(np.int64)
        for k, m in enumerate(self.metrics):  # the one copy of the slots: a column of the table each
            self._table[:, k] = slots.pop(m) + np.int32(self._bounds[k])
        self._every = None

    def slots(self, metric: str, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, list]:
        """``metric``'s slot at each of ``rows`` (0 ... k-1: its value's place among the
        ``distinct`` values; k: Undefined, k + 1: not computable), its distinct values and their
        exact units."""
        k = self.metrics.index(metric)
        return self._table[rows, k] - np.int32(self._bounds[k]), *self._distinct[metric]

    def counts(self, rows: np.ndarray | None = None) -> dict[str, np.ndarray]:
        """Per metric, over the rows at ``rows`` (all when None): how many hold each distinct value,
        then how many are Undefined and not computable (the last two entries). More than half
        of the rows, each once and in order (a filter's), are counted as all the rows' counts
        less those of the rows left out."""
        n = len(self._table)
        rows = None if rows is None else np.asarray(rows)
        if rows is None:
            every = self._all().copy()
        elif (rows.dtype.kind in "iu" and rows.ndim == 1 and 2 * len(rows) > n and rows[0] >= 0
              and np.all(rows[1:] > rows[:-1])):
            out = np.ones(n, dtype=bool)
            out[rows] = False
            every = self._all().copy() if len(rows) == n else self._all() - self._count(np.flatnonzero(out))
        else:
            every = self._count(rows)
        return {m: every[self._bounds[k]:self._bounds[k + 1]] for k, m in enumerate(self.metrics)}

    def _count(self, rows: np.ndarray | None) -> np.ndarray:
        picked = self._table if rows is None else self._table[rows]
        return np.bincount(picked.ravel(), minlength=int(self._bounds[-1]))

    def _all(self) -> np.ndarray:
        """Every row's counts, found once (again after an update)."""
        if self._every is None:
            self._every = self._count(None)
        return self._every

    def summarize(self, rows: np.ndarray | None = None, *, percent: bool = False) -> pd.DataFrame:
        """One row per metric over the samples at positions ``rows`` (all when None); see :func:`summarize`."""
        out = []
        for m, found in self.counts(rows).items():
            distinct, units = self._distinct[m]
            counts = found[:-2]
            n = int(counts.sum())
            _, lo, hi = mean_interval(distinct, counts)
            mean = mean_of_counts(units, counts)
            out.append([np.nan if mean is None else mean, float(lo), float(hi), n, int(found[-2]), int(found[-1])])
        frame = pd.DataFrame(out, index=pd.Index(self.metrics, name="metric"), columns=SUMMARY_COLUMNS)
        if percent:
            frame[["mean", "ci_low", "ci_high"]] *= 100
        return frame


def summarize(table: RunTable, rows: np.ndarray | None = None, *, percent: bool = False) -> pd.DataFrame:
    """One row per metric over the samples at positions ``rows`` (all when None).

    ``mean`` is over defined samples only (NaN when none is defined; so is its interval
    ``ci_low`` / ``ci_high``, :func:`~.intervals.mean_interval`); ``percent=True`` shows
    RAGChecker's display (mean and interval x 100).
    """
    return Summarizer(table).summarize(rows, percent=percent)
