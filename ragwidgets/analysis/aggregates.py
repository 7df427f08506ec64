"""Charts' data, aggregated in Python so a chart stays small at any run size.

Metrics are ratios in [0, 1]: a distribution is counts over equal bins of [0, 1] plus the
Undefined and not-computable counts as their own bars (never a bar at 0); a scatter of two
metrics is counts over a grid of cells (samples defined in both); a group's mean is over the
group's defined samples, with their count.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..engine.sums import mean_of_counts, mean_over_defined
from .table import DEFINED_CODE, NOT_COMPUTABLE_CODE, UNDEFINED_CODE

BINS = 10


def distribution(values: np.ndarray, status: np.ndarray, bins: int = BINS) -> dict:
    """``{"edges", "counts", "undefined", "not_computable"}``; the last bin includes 1."""
    defined = values[status == DEFINED_CODE]
    counts, edges = np.histogram(defined, bins=bins, range=(0.0, 1.0))
    return {"edges": edges.round(6).tolist(), "counts": counts.tolist(),
            "undefined": int(np.count_nonzero(status == UNDEFINED_CODE)),
            "not_computable": int(np.count_nonzero(status == NOT_COMPUTABLE_CODE))}


def distribution_of_slots(slot: np.ndarray, distinct: np.ndarray, bins: int = BINS) -> dict:
    """:func:`distribution` of the rows whose slots are ``slot`` (:meth:`Summarizer.slots`: the
    place among ``distinct``, then Undefined, then not computable): one ``bincount``."""
    k = len(distinct)
    counts = np.bincount(slot, minlength=k + 2)
    hist, edges = np.histogram(distinct, bins=bins, range=(0.0, 1.0), weights=counts[:k])
    return {"edges": edges.round(6).tolist(), "counts": hist.astype(np.int64).tolist(),
            "undefined": int(counts[k]), "not_computable": int(counts[k + 1])}


def scatter_of_slots(x: tuple[np.ndarray, np.ndarray], y: tuple[np.ndarray, np.ndarray], bins: int = 20) -> dict:
    """:func:`scatter_cells` of rows given as (slots, distinct values) of each metric: the pairs
    of distinct values counted by one ``bincount``, then binned."""
    (sx, dx), (sy, dy) = x, y
    ky = len(dy) + 2
    pairs = np.bincount(sx.astype(np.int64) * ky + sy, minlength=(len(dx) + 2) * ky).reshape(len(dx) + 2, ky)
    both = pairs[:len(dx), :len(dy)]
    ix, iy = np.nonzero(both)
    counts, _, _ = np.histogram2d(dx[ix], dy[iy], bins=bins, range=((0, 1), (0, 1)), weights=both[ix, iy])
    cx, cy = np.nonzero(counts)
    return {"bins": bins, "cells": np.stack([cx, cy, counts[cx, cy].astype(np.int64)], axis=1).tolist(),
            "left_out": int(len(sx) - both.sum())}


def group_means_of_slots(codes: np.ndarray, names, slot: np.ndarray, units: list) -> list[dict]:
    """:func:`group_means` of rows given as group ``codes`` (into ``names``, sorted) and a metric's
    slots (``units``: its distinct values' exact units): one ``bincount`` of (group, value) pairs;
    the groups with no row are left out."""
    k = len(units) + 2
    joint = np.bincount(codes.astype(np.int64) * k + slot, minlength=len(names) * k).reshape(len(names), k)
    size = joint.sum(axis=1)
    return [{"group": str(names[g]), "mean": mean_of_counts(units, joint[g, :-2]),
             "defined": int(joint[g, :-2].sum()), "size": int(size[g])} for g in np.flatnonzero(size).tolist()]


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
    """Per group (sorted by the group's value; a missing value is a group of its own, last): mean
    over its defined samples (None if none), defined count and size."""
    defined = status == DEFINED_CODE
    codes, names = pd.factorize(groups, sort=True, use_na_sentinel=False)
    size = np.bincount(codes, minlength=len(names))
    order = np.argsort(codes, kind="stable")
    bounds = np.searchsorted(codes[order], np.arange(len(names) + 1))
    rows = []
    for g, (lo, hi) in enumerate(zip(bounds[:-1], bounds[1:])):
        mean, n_def = mean_over_defined(values[order[lo:hi]], defined[order[lo:hi]])
        rows.append({"group": str(names[g]), "mean": mean, "defined": n_def, "size": int(size[g])})
    return rows
