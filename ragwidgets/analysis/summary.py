"""A run's summary: per metric, the mean over defined samples with a 95% bootstrap interval, and
how many samples were defined, Undefined and not computable (never folded into the mean)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..engine.sums import exact_units, mean_of_counts
from .bootstrap import N_BOOT, means_from_counts, percentile_interval
from .table import DEFINED_CODE, NOT_COMPUTABLE_CODE, UNDEFINED_CODE, RunTable

SUMMARY_COLUMNS = ["mean", "ci_low", "ci_high", "defined", "undefined", "not_computable"]


class Summarizer:
    """Summaries of any subset of a table's rows; each metric's distinct values are found once,
    so a subset costs one ``bincount`` per metric plus the resampling."""

    def __init__(self, table: RunTable):
        self.metrics = table.metrics
        self._status, self._distinct = {}, {}
        self.update(table, self.metrics)

    def update(self, table: RunTable, metrics) -> None:
        """Find the distinct values of ``metrics`` again from ``table`` (all the rows; after a
        live review changed them), keeping the other metrics' as they are."""
        for m in metrics:
            self._status[m] = table.status[m].to_numpy()
            value = table.frame[m].to_numpy(dtype=float)
            defined = self._status[m] == DEFINED_CODE
            distinct, inverse = np.unique(value[defined], return_inverse=True)
            code = np.full(len(value), -1, dtype=np.int64)
            code[defined] = inverse
            self._distinct[m] = (distinct, code, exact_units(distinct))

    def summarize(self, rows: np.ndarray | None = None, *, n_boot: int = N_BOOT, seed: int = 0,
                  percent: bool = False) -> pd.DataFrame:
        """One row per metric over the samples at positions ``rows`` (all when None); see :func:`summarize`."""
        out = []
        for m in self.metrics:
            status = self._status[m] if rows is None else self._status[m][rows]
            distinct, code, units = self._distinct[m]
            code = code if rows is None else code[rows]
            counts = np.bincount(code[code >= 0], minlength=len(distinct))
            n = int(counts.sum())
            lo, hi = percentile_interval(means_from_counts(distinct, counts, n_boot, seed))
            mean = mean_of_counts(units, counts)
            out.append([np.nan if mean is None else mean,
                        np.nan if lo is None else lo, np.nan if hi is None else hi, n,
                        int(np.count_nonzero(status == UNDEFINED_CODE)),
                        int(np.count_nonzero(status == NOT_COMPUTABLE_CODE))])
        frame = pd.DataFrame(out, index=pd.Index(self.metrics, name="metric"), columns=SUMMARY_COLUMNS)
        if percent:
            frame[["mean", "ci_low", "ci_high"]] *= 100
        return frame


def summarize(table: RunTable, rows: np.ndarray | None = None, *, n_boot: int = N_BOOT, seed: int = 0,
              percent: bool = False) -> pd.DataFrame:
    """One row per metric over the samples at positions ``rows`` (all when None).

    ``mean`` is over defined samples only (NaN when none is defined); ``percent=True`` shows
    RAGChecker's display (mean and interval x 100).
    """
    return Summarizer(table).summarize(rows, n_boot=n_boot, seed=seed, percent=percent)
