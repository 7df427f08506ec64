"""InMemoryRun on its own, with no widget: filter, sort, summary, slices, comparison, windows, drill-down."""

import ast
from pathlib import Path

import numpy as np
import pytest

from ragwidgets.analysis import runs as runs_package
import ragwidgets as rw
from ragwidgets.analysis.runs import CAPABILITIES, Charts, InMemoryRun, Query, read_runs, require, unavailable
from ragwidgets.datasets import synthetic_run
from ragwidgets.errors import RagWidgetsError


@pytest.fixture(scope="module")
def records():
    return synthetic_run(300, seed=7)


@pytest.fixture
def run(records):
    model = InMemoryRun(records)
    model.update(Query(**model.defaults))
    return model


def charts(run) -> Charts:
    """The charts the explorer opens with: the first metric's, the scatter of the first two, by the first group column."""
    return Charts(run.metrics[0], run.metrics[0], run.metrics[1], run.group_columns[0])


def test_a_run_model_imports_no_widget_library():
    for path in Path(runs_package.__file__).parent.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        imported |= {(n.module or "").split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and not n.level}
        assert not {"anywidget", "ipywidgets", "traitlets", "dask"} & imported, path.name


def test_capabilities_are_every_one_in_memory(run):
    assert run.capabilities == frozenset(CAPABILITIES) and run.total == len(run.frame) == 300


def test_filter_and_sort(run):
    assert not run.update(Query(expression="precision < 0.5", sort_by="precision", descending=True))
    frame = run.frame.iloc[run.order]
    assert (frame["precision"] < 0.5).all() and len(frame) == (run.frame["precision"] < 0.5).sum()
    assert frame["precision"].is_monotonic_decreasing
    version = run.version
    run.update(Query(text="zzz-no-such-word"))
    assert len(run.order) == 0 and run.version == version + 1
    with pytest.raises(ValueError):
        run.check_expression("nonsense > 1")


def test_view_summary_charts_and_selection(run):
    c = Query(**run.defaults, brush={"metric": "precision", "lo": 0.0, "hi": 0.5})
    run.update(c)
    view = run.view(c, charts(run), int(run.order[0]))
    assert view["count"] == len(run.order) and view["total"] == 300
    assert {r["metric"] for r in view["summary"]} == set(run.metrics)
    assert all(r["ci_low"] is not None for r in view["summary"] if r["defined"])
    assert set(view["charts"]) == {"distribution", "scatter", "groups"}
    assert view["selected"]["index"] == 0 and view["selected"]["query_id"] == run.frame["query_id"].iat[run.order[0]]
    assert {s["name"] for s in view["slices"]} == {s.name for s in run.slices} and view["compare"] is None


def test_window_and_drill(run):
    w = run.window(0, 5)
    np.testing.assert_array_equal(w["positions"], run.order[:5])
    np.testing.assert_array_equal(w["numeric"]["precision"], run.frame["precision"].to_numpy()[run.order[:5]])
    drill = run.drill(3)
    assert drill.sample is run.sample(3) and drill.query_id == run.frame["query_id"].iat[3]
    assert drill.baseline is None and run.row_of(run.sample_key(3)) == 3


def test_two_runs_compare_and_drill_to_the_baseline(records):
    worse = [{**r, "response": ""} for r in records]
    run = InMemoryRun({"a": records, "b": worse})
    c = Query(**run.defaults, sort_by="difference")
    run.update(c)
    assert run.comparison is not None and run.view(c, charts(run), -1)["compare"]["baseline"] == "a"
    diff = run.difference(c.compare_metric)
    assert np.isnan(diff[:300]).all()
    row = 300 + 4
    drill = run.drill(row)
    assert drill.run == "b" and drill.baseline.query_id == drill.query_id
    assert ("difference", "difference") in run.columns() and "difference" in run.window(0, 3)["numeric"]


def test_what_a_model_lacks_is_said_in_one_place():
    class Lacking:
        capabilities, where = frozenset({"slices"}), "a test run"

    assert unavailable(Lacking)[:2] == ["full-text search", "comparing runs"] and "failure slices" not in unavailable(Lacking)
    with pytest.raises(RagWidgetsError, match="^comparing runs is not available on a test run: why$"):
        require(Lacking, "compare", ": why")
    with pytest.raises(RagWidgetsError, match="^what-ifs are not available on a test run$"):
        require(Lacking, "whatif")
    require(Lacking, "slices")


def test_every_input_is_read_once_into_a_run_input(records):
    scores = rw.evaluate(records)
    for source, runs in ((records, ["run"]), (scores, ["run"]), ({"a": records, "b": scores}, ["a", "b"])):
        inputs = read_runs(source)
        assert list(inputs) == runs
        assert all(i.scores.batch.n_samples == 300 and i.extras is None and i.external == {} and i.repeats is None
                   for i in inputs.values())
    assert read_runs(scores)["run"].scores is scores  # Scores with no reviews are taken as they are
