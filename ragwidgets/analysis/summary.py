"""A run's summary: per metric, the mean over defined samples with a 95% bootstrap interval, and
how many samples were defined, Undefined and not computable (never folded into the mean)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .bootstrap import N_BOOT, interval
from .table import DEFINED_CODE, NOT_COMPUTABLE_CODE, UNDEFINED_CODE, RunTable

SUMMARY_COLUMNS = ["mean", "ci_low", "ci_high", "defined", "undefined", "not_computable"]


def summarize(table: RunTable, rows: np.ndarray | None = None, *, n_boot: int = N_BOOT, seed: int = 0,
              percent: bool = False) -> pd.DataFrame:
    """One row per metric over the samples at positions ``rows`` (all when None).

    ``mean`` is over defined samples only (NaN when none is defined); ``percent=True`` shows
    RAGChecker's display (mean and interval x 100).
    """
    out = []
    for name in table.metrics:
        status = table.status[name].to_numpy()
        value = table.frame[name].to_numpy()
        if rows is not None:
            status, value = status[rows], value[rows]
        defined = value[status == DEFINED_CODE]
        lo, hi = interval(defined, n_boot, seed)
        out.append([float(defined.mean()) if len(defined) else np.nan,
                    np.nan if lo is None else lo, np.nan if hi is None else hi, len(defined),
                    int(np.count_nonzero(status == UNDEFINED_CODE)),
                    int(np.count_nonzero(status == NOT_COMPUTABLE_CODE))])
    frame = pd.DataFrame(out, index=pd.Index(table.metrics, name="metric"), columns=SUMMARY_COLUMNS)
    if percent:
        frame[["mean", "ci_low", "ci_high"]] *= 100
    return frame
