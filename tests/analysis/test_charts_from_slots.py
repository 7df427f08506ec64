"""The run model's charts and summary from slots (one bincount per question) against the same
aggregates computed from the values, on generated runs under random filters: a differential test."""

import warnings

import numpy as np
import pytest

import ragwidgets as rw
from ragwidgets.analysis.aggregates import distribution, group_means, scatter_cells
from ragwidgets.analysis.runs import Charts, InMemoryRun, Query
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
        q = Query(expression=str(rng.choice(EXPRESSIONS)), brush={"metric": m, "lo": 0.2, "hi": 0.9} if trial % 3 == 0 else {})
        run.update(q)
        charts = run._charts(Charts(m, x, y, "n_passages"))
        rows, unbrushed = np.flatnonzero(run._mask), np.flatnonzero(run._unbrushed)
        v, s = run._values, run._codes
        assert charts["distribution"] == {"metric": m, **distribution(v[m][unbrushed], s[m][unbrushed])}
        assert charts["scatter"] == {"x": x, "y": y, **scatter_cells(v[x][rows], s[x][rows], v[y][rows], s[y][rows])}
        assert charts["groups"]["rows"] == group_means(run.frame["n_passages"].iloc[rows], v[m][rows], s[m][rows])
        summary = run._summarizer.summarize(rows)
        for metric in run.metrics:
            mean, defined = mean_over_defined(v[metric][rows], s[metric][rows] == 0)
            got = summary.loc[metric]
            assert (got["defined"], got["undefined"], got["not_computable"]) == (
                defined, int((s[metric][rows] == 1).sum()), int((s[metric][rows] == 2).sum()))
            assert (np.isnan(got["mean"]) and mean is None) or got["mean"] == mean


def test_counts_of_most_rows_from_the_total_equal_those_counted_directly():
    """A subset of more than half the rows is counted as all rows less those left out; any other
    (fewer rows, rows out of order or repeated) directly: the same counts either way, and again
    after a live update changed the slots."""
    from ragwidgets.analysis.summary import Summarizer
    from ragwidgets.analysis.table import run_table
    table = run_table(rw.evaluate(rw.datasets.synthetic_run(1500, seed=9)))
    summarizer = Summarizer(table)
    rng = np.random.default_rng(9)

    def direct(rows):
        every = np.bincount(summarizer._table[rows].ravel(), minlength=int(summarizer._bounds[-1]))
        return {m: every[summarizer._bounds[k]:summarizer._bounds[k + 1]] for k, m in enumerate(summarizer.metrics)}

    def same(a, b):
        return a.keys() == b.keys() and all(np.array_equal(a[m], b[m]) for m in a)

    for frac in (0.0, 0.2, 0.5, 0.51, 0.8, 0.999, 1.0):
        rows = np.flatnonzero(rng.random(table.n) < frac) if frac < 1 else np.arange(table.n)
        assert same(summarizer.counts(rows), direct(rows)), frac
        for odd in (np.r_[rows, rows[:3]], rows[::-1].copy()):  # repeated, out of order
            assert same(summarizer.counts(odd), direct(odd)), frac
    assert same(summarizer.counts(None), direct(np.arange(table.n)))
    metric = summarizer.metrics[0]
    status = table.status[metric].to_numpy().copy()
    status[:300] = 1  # Undefined now (a review's doing): the total is counted again
    table.status[metric] = status
    summarizer.update(table, [metric])
    assert summarizer.counts(None)[metric][-2] == np.count_nonzero(status == 1)
    rows = np.flatnonzero(rng.random(table.n) < 0.7)
    assert same(summarizer.counts(rows), direct(rows))
    assert same(summarizer.counts(None), direct(np.arange(table.n)))


def test_sorted_rows_read_off_each_keys_order_equal_a_sort_of_the_kept_rows():
    """The run model orders every row once per sort key and direction and reads the kept rows off
    it; against sorting just the kept rows (stable, Undefined last either way) under random
    filters, for metrics, counts and text keys, and again after a review replaced a metric's values."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        run = InMemoryRun(rw.datasets.synthetic_run(1200, seed=4))
    rng = np.random.default_rng(4)

    def by_sorting(rows, key, descending):
        values = (run._values[key] if key in run._values else run.frame[key].to_numpy(dtype=float)
                  if key != "query" else np.unique(run.frame[key].to_numpy(dtype=object), return_inverse=True)[1]
                  .astype(float))[rows]
        order = np.argsort(-values if descending else values, kind="stable")
        missing = np.isnan(values[order])
        return rows[np.concatenate([order[~missing], order[missing]])]

    keys = [*run.metrics[:4], "n_passages", "query"]
    for trial in range(30):
        key, descending = keys[trial % len(keys)], bool(rng.integers(2))
        run.update(Query(expression=str(rng.choice(EXPRESSIONS)), sort_by=key, descending=descending))
        assert np.array_equal(run.order, by_sorting(np.flatnonzero(run._mask), key, descending)), (key, descending)
        if trial == 12:  # a review's new values for a metric: its order is found again
            m = run.metrics[0]
            run._values[m] = rng.permutation(run._values[m])


def test_counts_take_any_positions():
    """The counts' shortcut is for positions only: a list, a boolean mask or repeated positions
    are counted directly."""
    import pandas as pd
    from ragwidgets.analysis.summary import Summarizer
    from ragwidgets.analysis.table import RunTable
    frame = pd.DataFrame({"a": [0.5, 1.0, 0.5], "b": [np.nan, 1.0, 1.0]})
    status = pd.DataFrame({"a": np.zeros(3, dtype=np.int8), "b": np.array([1, 0, 0], dtype=np.int8)})
    summarizer = Summarizer(RunTable(scores=None, frame=frame, status=status))
    counts = summarizer.counts(None)
    assert counts["a"].tolist() == [2, 1, 0, 0] and counts["b"].tolist() == [2, 1, 0]  # 1.0 twice, one Undefined
    assert summarizer.counts([0, 0, 1])["a"].tolist() == [2, 1, 0, 0]
    assert summarizer.counts(np.array([False, True, True]))["a"].tolist() == [1, 1, 0, 0]
    assert summarizer.counts(pd.Series([2, 1, 0]))["a"].tolist() == [2, 1, 0, 0]
    summarizer.counts(None)["a"][:] = 0  # what a caller does to its counts does not reach the next ones
    assert summarizer.counts(None)["a"].tolist() == [2, 1, 0, 0]
    assert summarizer.summarize()["mean"].tolist() == [2 / 3, 1.0]


@pytest.mark.filterwarnings("error")
@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_a_value_marked_defined_that_is_not_finite_is_refused_naming_its_metric(bad):
    """NaN or infinity marked defined is bad input: the summary says which metric and sample, and
    never averages it (a NaN in {NaN, 1, 1} once came out as a mean of -340.67, with a warning)."""
    import pandas as pd
    from ragwidgets.analysis.summary import summarize
    from ragwidgets.analysis.table import RunTable
    index = pd.Index(["q1", "q2", "q3"], name="query_id")
    frame = pd.DataFrame({"a": [0.5, 1.0, 0.5], "b": [1.0, bad, 1.0]}, index=index)
    status = pd.DataFrame({"a": np.zeros(3, dtype=np.int8), "b": np.zeros(3, dtype=np.int8)}, index=index)
    with pytest.raises(ValueError, match=r"metric 'b': 1 sample\(s\) marked defined hold NaN or infinity \(first: 'q2'"):
        summarize(RunTable(scores=None, frame=frame, status=status))
    status["b"] = np.array([0, 2, 0], dtype=np.int8)  # marked not computable: left out of the mean
    assert summarize(RunTable(scores=None, frame=frame, status=status)).loc["b", ["mean", "defined", "not_computable"]].tolist() == [1.0, 2, 1]


def test_a_run_models_tables_share_the_scores_arrays_read_only():
    """The run model's tables hold the engine's arrays (no copy); a write into them raises and the
    Scores keep their values. A table made on its own owns its columns."""
    from ragwidgets.analysis.table import run_table
    scores = rw.evaluate(rw.datasets.synthetic_run(50, seed=2))
    before = scores.frame["precision"].to_numpy().copy()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        run = InMemoryRun(scores)
    shared = run.tables["run"].frame
    try:  # pandas copies first where the frame has other references (copy-on-write), else refuses
        shared.iloc[0, shared.columns.get_loc("precision")] = 0.123
    except ValueError as err:
        assert "read-only" in str(err)
    alone = run_table(scores, share=True).frame
    with pytest.raises(ValueError, match="read-only"):
        alone.iloc[0, alone.columns.get_loc("precision")] = 0.123
    own = run_table(scores)
    own.frame.iloc[0, own.frame.columns.get_loc("precision")] = 0.123
    assert np.array_equal(scores.frame["precision"].to_numpy(), before, equal_nan=True)
