"""A partition's index (ragwidgets.dask.index) against the in-process definitions it replaces on
the workers: totals (exact sums), the distribution's and the scatter's bins, the sorted table,
per-group totals and the filter's masks, on frames with ties, values on the bins' edges,
Undefined and not-computable rows, too many distinct values to count, and missing groups. No
cluster: the index is numpy and pandas."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from ragwidgets.analysis.aggregates import distribution, scatter_cells
from ragwidgets.analysis.filtering import expression_mask
from ragwidgets.dask.index import DISTINCT, PartIndex, bins_of
from ragwidgets.dask.totals import totals_of

N = 8000
METRICS = ("ratio", "fine", "edges")


def scores_frame(seed: int, n: int = N) -> pd.DataFrame:
    """Metric columns as the Dask engine's frame has them: ``ratio`` (ratios of small counts: many
    ties), ``fine`` (continuous: more than DISTINCT distinct values), ``edges`` (only the bins'
    edges and their midpoints), each with Undefined (1) and not-computable (2) rows as NaN."""
    rng = np.random.default_rng(seed)
    values = {"ratio": rng.integers(0, 8, n) / rng.integers(1, 9, n).clip(1),
              "fine": rng.random(n),
              "edges": rng.choice(np.round(np.arange(0, 1.0001, 0.05), 2), n)}
    data = {"query_id": np.array([f"q{seed}-{k}" for k in range(n)], dtype=object),
            "partition": np.full(n, seed, dtype=np.int32),
            "system": rng.choice(np.array(["a", "b", None], dtype=object), n)}
    for name, v in values.items():
        code = rng.choice(np.array([0, 0, 0, 0, 1, 2], dtype=np.int8), n)
        v = np.where(code == 0, np.clip(v, 0, 1), np.nan)
        data[name], data[name + "_status"] = v, code
    return pd.DataFrame(data)


@pytest.fixture(scope="module", params=[0, 1])
def indexed(request):
    frame = scores_frame(request.param)
    return frame, PartIndex.of(frame, METRICS, ["system", "partition"])


def masks(n: int, seed: int = 7):
    rng = np.random.default_rng(seed)
    return [None, rng.random(n) < 0.5, rng.random(n) < 0.02, np.zeros(n, dtype=bool)]


def test_distinct_values_counted_or_summed(indexed):
    frame, index = indexed
    assert index.columns["ratio"].units is not None and index.columns["edges"].units is not None
    assert index.columns["fine"].units is None  # more distinct values than DISTINCT: summed by exact_sum
    assert frame["fine"].nunique() > DISTINCT


def test_totals_equal_totals_of(indexed):
    frame, index = indexed
    for mask in masks(len(frame)):
        rows = frame if mask is None else frame[mask]
        expected = totals_of([(m, rows[m].to_numpy(), rows[m + "_status"].to_numpy()) for m in METRICS])
        assert index.totals(mask) == expected  # every metric at once
        for m in METRICS:
            assert index.columns[m].total(mask) == expected[m]
            if mask is not None:  # positions select as a mask does
                assert index.columns[m].total(np.flatnonzero(mask)) == index.columns[m].total(mask)


def test_bins_equal_numpy_histograms():
    values = np.concatenate([np.linspace(0, 1, 201), [0.1, 0.3, 0.7, 1.0, 0.0, -0.1, 1.1, np.nan, 0.95, 0.05]])
    codes = np.zeros(len(values), dtype=np.int8)
    codes[-3] = 1
    for bins in (10, 20):
        b = bins_of(values, codes, bins)
        counts, _ = np.histogram(values[codes == 0], bins=bins, range=(0.0, 1.0))
        assert np.bincount(b[b >= 0], minlength=bins).tolist() == counts.tolist()
        assert b[-3] == -1 and b[len(values) - 5] == -1 and b[len(values) - 4] == -1  # Undefined, outside [0, 1]


def test_distribution_and_scatter_equal_the_in_process_charts(indexed):
    frame, index = indexed
    for mask in masks(len(frame)):
        rows = frame if mask is None else frame[mask]
        for m in METRICS:
            assert index.distribution(m, mask) == distribution(rows[m].to_numpy(), rows[m + "_status"].to_numpy())
        for x, y in (("ratio", "edges"), ("edges", "fine"), ("fine", "ratio")):
            mine = index.scatter(x, y, mask)
            theirs = scatter_cells(rows[x].to_numpy(), rows[x + "_status"].to_numpy(),
                                   rows[y].to_numpy(), rows[y + "_status"].to_numpy())
            assert {**mine, "cells": sorted([i, j, c] for (i, j), c in mine["cells"].items())} == \
                   {**theirs, "cells": sorted(theirs["cells"])}


@pytest.mark.parametrize("descending", [False, True])
def test_first_rows_are_a_stable_sort_of_the_kept_defined_rows(indexed, descending):
    frame, index = indexed
    for mask in masks(len(frame)):
        for m in METRICS:
            kept = np.ones(len(frame), dtype=bool) if mask is None else mask
            defined = np.flatnonzero(kept & (frame[m + "_status"].to_numpy() == 0))
            values = frame[m].to_numpy()[defined]
            expected = defined[np.argsort(-values if descending else values, kind="stable")]
            rows, count = index.first(m, descending, 50, mask)
            assert count == len(defined) and rows.tolist() == expected[:50].tolist()
            assert index.first(m, descending, N, mask)[0].tolist() == expected.tolist()


def test_group_totals_equal_pandas_groupby(indexed):
    frame, index = indexed
    for mask in masks(len(frame)):
        rows = frame if mask is None else frame[mask]
        for by in ("system", "partition"):
            for m in METRICS:
                expected = {g: totals_of([(m, part[m].to_numpy(), part[m + "_status"].to_numpy())])[m]
                            for g, part in rows.groupby(by, sort=False)}  # missing groups left out, as here
                assert index.group_totals(m, by, mask) == expected


@pytest.mark.parametrize("expression, brush", [
    ("", {}), ("ratio > 0.5", {}), ("", {"metric": "edges", "lo": 0.1, "hi": 0.35}),
    ('system == "a" and fine < 0.5', {"metric": "ratio", "undefined": True}),
    ("isna(fine) or edges >= 0.9", {"metric": "fine", "lo": 0.0, "hi": 0.5}),
])
def test_masks_are_the_expression_then_the_brush(indexed, expression, brush):
    frame, index = indexed
    unbrushed, kept = index.masks(expression, brush)
    expected = expression_mask(frame, expression) if expression else np.ones(len(frame), dtype=bool)
    np.testing.assert_array_equal(np.ones(len(frame), dtype=bool) if unbrushed is None else unbrushed, expected)
    if brush:
        m, codes = brush["metric"], frame[brush["metric"] + "_status"].to_numpy()
        values = frame[m].to_numpy()
        expected = expected & ((codes == 1) if brush.get("undefined") else
                               (codes == 0) & (values >= brush["lo"]) & (values <= brush["hi"]))
    np.testing.assert_array_equal(np.ones(len(frame), dtype=bool) if kept is None else kept, expected)


def test_an_empty_partition():
    frame = scores_frame(2).iloc[:0]
    index = PartIndex.of(frame, METRICS, ["system", "partition"])
    assert index.columns["ratio"].total(None) == [0, 0, 0, 0]
    assert index.totals(np.zeros(0, dtype=bool)) == {m: [0, 0, 0, 0] for m in METRICS}
    assert index.first("ratio", True, 10, None)[1] == 0
    assert index.group_totals("ratio", "system", None) == {}
    assert index.distribution("ratio", None)["counts"] == [0] * 10
    assert index.scatter("ratio", "fine", None)["left_out"] == 0
