"""Charts' data, aggregated in Python so a chart stays small at any run size.

Metrics are ratios in [0, 1]: a distribution is counts over equal bins of [0, 1] plus the
Undefined and not-computable counts as their own bars (never a bar at 0); a scatter of two
metrics is counts over a grid of cells (samples defined in both); a group's mean is over the
group's defined samples, with their count.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..engine.sums import mean_over_defined
from .table import DEFINED_CODE, NOT_COMPUTABLE_CODE, UNDEFINED_CODE

BINS = 10


def distribution(values: np.ndarray, status: np.ndarray, bins: int = BINS) -> dict:
    """``{"edges", "counts", "undefined", "not_computable"}``; the last bin includes 1."""
    defined = values[status == DEFINED_CODE]
    counts, edges = np.histogram(defined, bins=bins, range=(0.0, 1.0))
    return {"edges": edges.round(6).tolist(), "counts": counts.tolist(),
            "undefined": int(np.count_nonzero(status == UNDEFINED_CODE)),
            "not_computable": int(np.count_nonzero(status == NOT_COMPUTABLE_CODE))}


def scatter_cells(x: np.ndarray, x_status: np.ndarray, y: np.ndarray, y_status: np.ndarray,
                  bins: int = 20) -> dict:
    """Counts of the samples defined in both metrics over a ``bins`` x ``bins`` grid of [0, 1]²:
    ``{"bins", "cells": [[ix, iy, count], ...] (non-empty cells), "left_out"}``."""
    both = (x_status == DEFINED_CODE) & (y_status == DEFINED_CODE)
    counts, _, _ = np.histogram2d(x[both], y[both], bins=bins, range=((0, 1), (0, 1)))
    ix, iy = np.nonzero(counts)
    return {"bins": bins, "cells": np.stack([ix, iy, counts[ix, iy].astype(int)], axis=1).tolist(),
            "left_out": int(len(x) - both.sum())}


def group_means(groups: pd.Series, values: np.ndarray, status: np.ndarray) -> list[dict]:
    """Per group (sorted by the group's value): mean over its defined samples (None if none),
    defined count and size."""
    defined = status == DEFINED_CODE
    codes, names = pd.factorize(groups, sort=True)
    size = np.bincount(codes, minlength=len(names))
    order = np.argsort(codes, kind="stable")
    bounds = np.searchsorted(codes[order], np.arange(len(names) + 1))
    rows = []
    for g, (lo, hi) in enumerate(zip(bounds[:-1], bounds[1:])):
        mean, n_def = mean_over_defined(values[order[lo:hi]], defined[order[lo:hi]])
        rows.append({"group": str(names[g]), "mean": mean, "defined": n_def, "size": int(size[g])})
    return rows
