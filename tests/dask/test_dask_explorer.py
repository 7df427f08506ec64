"""DatasetExplorer on a Dask-scored run (cluster mode) against the in-memory explorer on the same
samples, on the 2-worker LocalCluster: summary, charts, top-N table, drill-down; nothing but
the table's rows ever crosses into the kernel."""

from __future__ import annotations

import json

import dask
import dask.dataframe as dd
import distributed
import numpy as np
import pandas as pd
import pytest
import traitlets

import ragwidgets as rw
from ragwidgets.datasets.synthetic import synthetic_run
from ragwidgets.dask.run import ClusterRun

SIZES = [300, 450, 150, 300]
ROWS = 40
STATES = [{}, {"expression": "claim_recall < 0.5 and partition != 2"},
          {"brush": {"metric": "hallucination", "lo": 0.2, "hi": 0.6}},
          {"brush": {"metric": "hallucination", "undefined": True}, "group_by": "partition"}]


@pytest.fixture(scope="module")
def records():
    return synthetic_run(sum(SIZES), seed=3)


@pytest.fixture
def memory(records):
    """The in-memory explorer on the same samples, with each sample's partition as a column: a new
    one for each test, since the tests set its controls (one shared by the module kept the chart
    metric a test before had set, and failed the next test in a random order)."""
    frame = pd.DataFrame(records).assign(partition=np.repeat(np.arange(len(SIZES)), SIZES))
    return rw.DatasetExplorer(frame, chart_metric="hallucination", group_by="partition")


@pytest.fixture(scope="module")
def dask_scores(client, records, parts_writer, tmp_path_factory):
    paths = parts_writer(tmp_path_factory.mktemp("parts"), records, SIZES)
    return rw.evaluate([str(p) for p in paths], engine="dask")


@pytest.fixture
def crossed(monkeypatch):
    """Every pandas object the kernel gathers from the cluster, by length (rows that crossed)."""
    lengths = []
    gather = distributed.Client.gather

    def count(value):
        if isinstance(value, (pd.DataFrame, pd.Series, pd.Index)):
            lengths.append(len(value))
        elif isinstance(value, dict):
            for v in value.values():
                count(v)
        elif isinstance(value, (list, tuple)):
            for v in value:
                count(v)
        elif hasattr(value, "__dataclass_fields__"):
            for name in value.__dataclass_fields__:
                count(getattr(value, name))

    def counting(self, futures, *args, **kwargs):
        result = gather(self, futures, *args, **kwargs)
        count(result)
        return result

    monkeypatch.setattr(distributed.Client, "gather", counting)
    return lengths


def close_to(mean):
    """What an exact mean must equal: None where no sample is defined, else numpy's mean to 1e-12."""
    return None if mean is None else pytest.approx(mean, rel=1e-12, abs=1e-15)


def set_controls(explorer, controls):
    explorer.brush, explorer.expression = {}, ""
    for name, value in controls.items():
        setattr(explorer, name, value)


def test_summary_charts_and_count_equal_the_in_memory_explorer(dask_scores, memory, crossed):
    explorer = rw.DatasetExplorer(dask_scores, chart_metric="hallucination", group_by="partition", rows=ROWS)
    assert isinstance(explorer.model, ClusterRun)
    assert explorer.metrics == memory.metrics and explorer.total == len(memory.frame)
    for controls in STATES:
        set_controls(explorer, controls)
        set_controls(memory, controls)
        ours, theirs = explorer.view_state, memory.view_state
        assert ours["error"] == theirs["error"] == ""
        assert ours["cluster"]["matching"] == theirs["count"] > 0
        for mine, other in zip(ours["summary"], theirs["summary"], strict=True):
            assert mine["metric"] == other["metric"]
            assert {k: mine[k] for k in ("defined", "undefined", "not_computable")} == \
                   {k: other[k] for k in ("defined", "undefined", "not_computable")}
            assert mine["mean"] == close_to(other["mean"])  # exact sum vs numpy's
        assert ours["charts"]["distribution"] == theirs["charts"]["distribution"]  # the same bins, counted alike
        assert ours["charts"]["scatter"] == theirs["charts"]["scatter"]
        groups, other_groups = ours["charts"]["groups"], theirs["charts"]["groups"]
        assert groups["by"] == other_groups["by"] == "partition"
        assert [(g["group"], g["defined"], g["size"]) for g in groups["rows"]] == \
               [(g["group"], g["defined"], g["size"]) for g in other_groups["rows"]]
        assert [g["mean"] for g in groups["rows"]] == [close_to(g["mean"]) for g in other_groups["rows"]]
    # no frame crossed into the kernel: at most the table's rows at a time
    assert crossed and max(crossed) <= ROWS


@pytest.mark.parametrize("descending", [False, True])
def test_table_is_the_first_rows_of_a_pandas_sort(dask_scores, memory, descending, crossed):
    controls = {"sort_by": "precision", "descending": descending, "expression": "recall > 0.2"}
    explorer = rw.DatasetExplorer(dask_scores, rows=ROWS, **controls)
    set_controls(memory, {"expression": "recall > 0.2"})
    memory.sort_by, memory.descending = "precision", descending
    frame = memory.frame.assign(status=memory.status["precision"])
    kept = frame[(frame["recall"] > 0.2) & (frame["status"] == 0)]
    expected = kept.iloc[np.argsort(-kept["precision"].to_numpy() if descending else kept["precision"].to_numpy(),
                                    kind="stable")][:ROWS]  # ties in the run's order
    assert explorer.frame["query_id"].tolist() == expected["query_id"].tolist()
    assert explorer.frame["query_id"].tolist() == memory.filtered["query_id"].tolist()[:ROWS]
    np.testing.assert_array_equal(explorer.frame["precision"], expected["precision"])
    assert explorer.view_state["count"] == ROWS
    assert explorer.view_state["cluster"]["defined"] == len(kept)
    header, buffers = explorer.window(0, 10)
    assert header["query_id"] == expected["query_id"].tolist()[:10]
    column = header["numeric"].index("precision")
    np.testing.assert_array_equal(np.frombuffer(buffers[column], "<f8"), expected["precision"][:10])
    assert max(crossed) <= ROWS


def sample_part(view: dict) -> dict:
    """A drill-down's view without its review parts (a run in memory can review, one on a cluster cannot)."""
    out = {k: v for k, v in view.items() if k not in ("review", "review_note")}
    out["claims"] = [{k: v for k, v in c.items() if k != "review"} for c in view["claims"]]
    out["gt_claims"] = [{k: v for k, v in g.items() if k != "review"} for g in view["gt_claims"]]
    out["card_groups"] = [{**g, "cards": [{k: v for k, v in c.items() if k != "judge_shown"} for c in g["cards"]]}
                          for g in view["card_groups"]]
    if view["matrix"] is not None:
        out["matrix"] = {k: v for k, v in view["matrix"].items() if k != "reviewed"}
    return out


def test_drill_down_fetches_the_same_sample(dask_scores, memory, crossed):
    explorer = rw.DatasetExplorer(dask_scores, rows=ROWS, sort_by="hallucination", descending=True)
    assert isinstance(explorer.model, ClusterRun)
    crossed.clear()
    explorer.selected = 5
    query_id = explorer.frame["query_id"].iat[5]
    row = int(np.flatnonzero(memory.frame["query_id"] == query_id)[0])
    memory.selected = row
    assert explorer._drill and sample_part(explorer._drill.state) == sample_part(memory._drill.state)
    assert "not available" in explorer._drill.state["review_note"] and "review" in memory._drill.state
    assert explorer._drill.cells == memory._drill.cells
    assert explorer.sample(5).query_id == query_id
    assert crossed == []  # a Sample came back, no frame
    # a new sort keeps the drilled sample selected while it is among the rows
    explorer.expression = f"query_id == {query_id!r}"
    assert explorer.selected == 0 and explorer.frame["query_id"].tolist() == [query_id]


def test_a_dataframe_of_records_by_group(client, records):
    frame = pd.DataFrame(records[:400]).assign(system=lambda f: np.where(f.index % 3 == 0, "alpha", "beta"))
    with dask.config.set({"dataframe.convert-string": False}):
        source = dd.from_pandas(frame, npartitions=3, sort=False)
    explorer = rw.DatasetExplorer(rw.evaluate(source, engine="dask", by="system"), rows=10, sort_by="recall",
                                  group_by="system", chart_metric="precision")
    memory = rw.DatasetExplorer(frame, group_by="system", chart_metric="precision")
    assert explorer.group_columns == ["system", "partition"]
    ours, theirs = explorer.view_state["charts"]["groups"]["rows"], memory.view_state["charts"]["groups"]["rows"]
    assert [(g["group"], g["defined"], g["size"]) for g in ours] == \
           [(g["group"], g["defined"], g["size"]) for g in theirs]
    assert [g["mean"] for g in ours] == [close_to(g["mean"]) for g in theirs]
    explorer.expression = memory.expression = 'system == "alpha"'  # what clicking a group's bar sets
    assert explorer.view_state["cluster"]["matching"] == memory.view_state["count"] == 134
    explorer.selected = 2
    query_id = explorer.frame["query_id"].iat[2]
    assert explorer.frame["system"].iat[2] == "alpha"
    single = rw.DatasetExplorer([r for r in records if r["query_id"] == query_id])
    single.selected = 0
    assert sample_part(explorer._drill.state) == sample_part(single._drill.state)


def test_what_is_not_available_says_so(dask_scores):
    explorer = rw.DatasetExplorer(dask_scores, rows=ROWS)
    notice = explorer.view_state["cluster"]
    assert "full-text search" in notice["unavailable"] and "bootstrap intervals" in notice["unavailable"]
    assert all(r["ci_low"] is None for r in explorer.view_state["summary"])
    explorer.text = "harbor"
    assert "full-text search is not available" in explorer.view_state["error"]
    explorer.text, explorer.sort_by = "", "query_id"
    assert "sorted by a metric, not 'query_id'" in explorer.view_state["error"]
    explorer.sort_by = "recall"
    with pytest.raises(ValueError, match="nonsense"):  # refused where it enters, the filter kept
        explorer.expression = "nonsense > 1"
    assert explorer.expression == "" and explorer.view_state["cluster"]["matching"] == sum(SIZES)
    with pytest.raises(traitlets.TraitError, match="brush metric must be one of"):
        explorer.brush = {"metric": "not_scored", "lo": 0, "hi": 1}
    with pytest.raises(ValueError, match="what-ifs are not available"):
        explorer.top_k()
    with pytest.raises(ValueError, match="failure slices are not available"):
        rw.DatasetExplorer(dask_scores, slices=[])
    with pytest.raises(ValueError, match="comparing runs is not available on Dask-scored runs"):
        rw.DatasetExplorer({"a": dask_scores, "b": dask_scores})


def test_a_cluster_that_went_away(records, parts_writer, tmp_path, client, make_cluster):
    paths = parts_writer(tmp_path, records[:200], [100, 100])
    with make_cluster(n_workers=1, processes=False) as gone:
        explorer = rw.DatasetExplorer(rw.evaluate([str(p) for p in paths], engine="dask"), rows=10)
        shown = explorer.frame["query_id"].tolist()
    assert explorer.view_state["error"] == ""
    with gone.as_current():  # the only client it knows is closed
        explorer.sort_by = "recall"
        assert explorer.view_state["error"].startswith("no Dask client is connected")
        explorer.selected = 3
        assert explorer.view_state["error"].startswith("no Dask client is connected")
        assert not explorer._drill
    explorer.expression = "recall > 0.5"  # another cluster: the run's scores are not there
    assert explorer.view_state["error"].startswith("the Dask cluster could not answer")
    assert explorer.frame["query_id"].tolist() == shown  # the last answer stays in view


def test_a_change_asks_the_cluster_only_for_what_it_changes(dask_scores, monkeypatch):
    from ragwidgets.dask import run as cluster_run
    explorer = rw.DatasetExplorer(dask_scores, rows=ROWS, chart_metric="hallucination")
    asked = []
    ask = cluster_run.ask
    monkeypatch.setattr(cluster_run, "ask", lambda parts, spec: asked.append(set(spec.pieces)) or ask(parts, spec))
    summary = explorer.view_state["summary"]
    explorer.sort_by = "recall"
    explorer.percent = True  # drawn here: no question
    explorer.chart_metric = "precision"
    explorer.brush = {"metric": "precision", "lo": 0.5, "hi": 1}
    assert asked == [{"table"}, {"distribution", "groups"}, {"table", "summary", "groups", "scatter"}]
    assert explorer.view_state["summary"][0]["mean"] != summary[0]["mean"]
    explorer.brush = {}
    assert [r["mean"] for r in explorer.view_state["summary"]] == [100 * r["mean"] for r in summary]


@pytest.mark.parametrize("suffix", [".json", ".jsonl"])
def test_drill_down_from_files_and_a_file_changed_since(client, records, tmp_path, suffix):
    paths = [tmp_path / f"part-{k}{suffix}" for k in range(2)]
    for k, path in enumerate(paths):
        chunk = records[k * 60:(k + 1) * 60]
        path.write_text(json.dumps({"results": chunk}) if suffix == ".json"
                        else "".join(json.dumps(r) + "\n" for r in chunk))
    explorer = rw.DatasetExplorer(rw.evaluate([str(p) for p in paths], engine="dask"), rows=10, sort_by="recall")
    explorer.selected = 0
    query_id, partition = explorer.frame["query_id"].iat[0], int(explorer.frame["partition"].iat[0])
    assert explorer._drill.state["title"] == f"Sample {query_id}"
    kept = [r for r in records[partition * 60:(partition + 1) * 60] if r["query_id"] != query_id]
    paths[partition].write_text(json.dumps({"results": kept}) if suffix == ".json"
                                else "".join(json.dumps(r) + "\n" for r in kept))
    explorer.selected = 1
    explorer.selected = 0
    error = explorer.view_state["error"]
    assert error == f"query_id {query_id!r}: not in file {paths[partition]} any more (was it changed after scoring?)"
    assert error in explorer._view.state["error"] and not explorer._drill


CONTROLS = [  # sort, direction, filter and brush together: the table, summary and charts of each
    {"sort_by": "faithfulness", "descending": True},
    {"sort_by": "hallucination", "expression": "partition == 1 or precision < 0.3"},
    {"sort_by": "recall", "descending": True, "brush": {"metric": "precision", "lo": 0.0, "hi": 0.5},
     "chart_metric": "recall"},
    {"sort_by": "f1", "expression": "isna(claim_recall) or hallucination > 0",
     "brush": {"metric": "faithfulness", "undefined": True}},
    {"sort_by": "precision", "descending": True, "expression": "abs(precision - recall) > 0.25",
     "brush": {"metric": "recall", "lo": 0.2, "hi": 1}, "chart_metric": "precision", "group_by": "partition"},
    {"sort_by": "context_utilization", "expression": "partition != 0 and f1 <= 0.6"},
]


@pytest.mark.parametrize("controls", CONTROLS)
def test_the_same_controls_give_the_same_rows_and_summary_as_in_process(dask_scores, memory, controls):
    explorer = rw.DatasetExplorer(dask_scores, chart_metric="hallucination", group_by="partition", rows=ROWS)
    controls = {"chart_metric": "hallucination", "group_by": "partition", "descending": False, **controls}
    set_controls(explorer, controls)
    set_controls(memory, controls)
    metric = controls["sort_by"]
    ours, theirs = explorer.view_state, memory.view_state
    assert ours["error"] == theirs["error"] == ""
    defined = memory.status[metric].to_numpy()[memory.order] == 0  # the cluster's table: the defined rows
    expected = memory.filtered[defined]
    assert ours["cluster"]["matching"] == theirs["count"] > 0 and ours["cluster"]["defined"] == len(expected)
    assert explorer.frame["query_id"].tolist() == expected["query_id"].tolist()[:ROWS]
    np.testing.assert_array_equal(explorer.frame[metric], expected[metric][:ROWS])
    for mine, other in zip(ours["summary"], theirs["summary"], strict=True):
        assert {k: mine[k] for k in ("metric", "defined", "undefined", "not_computable")} == \
               {k: other[k] for k in ("metric", "defined", "undefined", "not_computable")}
        assert mine["mean"] == close_to(other["mean"])
    for chart in ("distribution", "scatter"):
        assert ours["charts"][chart] == theirs["charts"][chart]
    assert [(g["group"], g["defined"], g["size"]) for g in ours["charts"]["groups"]["rows"]] == \
           [(g["group"], g["defined"], g["size"]) for g in theirs["charts"]["groups"]["rows"]]


def test_a_view_is_one_task_per_worker_and_answers_wherever_the_indexes_are(dask_scores, client):
    from ragwidgets.dask import explore
    explorer = rw.DatasetExplorer(dask_scores, rows=ROWS, sort_by="recall", expression="precision > 0.2")
    placed = explorer.model._indexes
    futures = [f for held in placed.values() for f in held]
    held = client.who_has(futures)
    assert len(futures) == len(SIZES) and all(w in held[f.key] for w, fs in placed.items() for f in fs)
    spec = explore.ViewSpec(tuple(explorer.metrics), "recall", True, ROWS, "precision > 0.2",
                            {"metric": "f1", "lo": 0.1, "hi": 0.9}, "precision", ("recall", "f1"), "partition")
    answer = explore.ask(placed, spec)
    elsewhere: dict = {}  # each index said to be on a worker that does not hold it
    for f in futures:
        elsewhere.setdefault(next(w for w in sorted(client.scheduler_info()["workers"]) if w not in held[f.key]),
                             []).append(f)
    for moved in (elsewhere, {None: futures[::-1]}):  # told the wrong worker; one task, partitions in any order
        again = explore.ask(moved, spec)
        pd.testing.assert_frame_equal(again.pop("table")["top"], answer["table"]["top"])
        assert again == {k: v for k, v in answer.items() if k != "table"}
