"""The run model's charts and summary from slots (one bincount per question) against the same
aggregates computed from the values, on generated runs under random filters: a differential test."""

import warnings

import numpy as np
import pytest

import ragwidgets as rw
from ragwidgets.analysis.aggregates import distribution, group_means, scatter_cells
from ragwidgets.analysis.run import Controls, InMemoryRun
from ragwidgets.engine.sums import mean_over_defined

EXPRESSIONS = ["", "precision > 0.3", "hallucination > 0", "n_passages >= 3", "claim_recall < 1 and faithfulness > 0.5"]


@pytest.mark.parametrize("seed", [5, 6])
def test_charts_and_summary_from_slots_equal_those_from_values(seed):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        run = InMemoryRun(rw.datasets.synthetic_run(2000, seed=seed))
    rng = np.random.default_rng(seed)
    for trial in range(25):
        m, x, y = (str(v) for v in rng.choice(run.metrics, 3))
        c = Controls(expression=str(rng.choice(EXPRESSIONS)), chart_metric=m, scatter_x=x, scatter_y=y,
                     group_by="n_passages", brush={"metric": m, "lo": 0.2, "hi": 0.9} if trial % 3 == 0 else {})
        run.update(c)
        charts = run._charts(c)
        rows, unbrushed = np.flatnonzero(run._mask), np.flatnonzero(run._unbrushed)
        v, s = run._values, run._codes
        assert charts["distribution"] == {"metric": m, **distribution(v[m][unbrushed], s[m][unbrushed])}
        assert charts["scatter"] == {"x": x, "y": y, **scatter_cells(v[x][rows], s[x][rows], v[y][rows], s[y][rows])}
        assert charts["groups"]["rows"] == group_means(run.frame["n_passages"].iloc[rows], v[m][rows], s[m][rows])
        summary = run._summarizer.summarize(rows, n_boot=50)
        for metric in run.metrics:
            mean, defined = mean_over_defined(v[metric][rows], s[metric][rows] == 0)
            got = summary.loc[metric]
            assert (got["defined"], got["undefined"], got["not_computable"]) == (
                defined, int((s[metric][rows] == 1).sum()), int((s[metric][rows] == 2).sum()))
            assert (np.isnan(got["mean"]) and mean is None) or got["mean"] == mean
