"""A run judged several times in the explorer: the flaky samples as a column and a slice, and the
interval that includes the judge beside today's."""

import copy
import warnings

import numpy as np

import ragwidgets as rw
from ragwidgets.analysis.judge_variance import flakiness, repeat_scores
from ragwidgets.judges.repeats import REPEATS_FIELD


def repeated(n: int = 40, flip_every: int = 5) -> list[dict]:
    """Generated records judged three times: repeat 1 turns the first response claim of every
    ``flip_every``-th sample from entailed to not (or back) by every passage; the record holds the
    majority (repeat 0's labels)."""
    out = []
    for k, record in enumerate(rw.datasets.synthetic_run(n, seed=2)):
        record["query_id"] = f"q{k}"
        grid = record.get("retrieved2response")
        copies = [copy.deepcopy(grid) for _ in range(3)]
        if grid and grid[0] and k % flip_every == 0:  # one repeat of three differs on the first claim's row
            entailed = "Entailment" in grid[0]  # the majority keeps repeat 0's labels
            copies[1][0] = ["Neutral" if entailed else "Entailment"] * len(grid[0])
        record[REPEATS_FIELD] = {"retrieved2response": copies}
        out.append(record)
    return out


def test_flaky_samples_are_a_column_and_a_slice():
    records = repeated()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        explorer = rw.DatasetExplorer(records)
    want = flakiness(repeat_scores(records)).flaky
    assert want.any() and not want.all()
    frame = explorer.frame.set_index("query_id")
    assert (frame["flaky_labels"] == want.astype(float)).all()
    explorer.slice = "flaky labels"
    assert sorted(explorer.filtered["query_id"]) == sorted(want.index[want])
    assert "flaky_labels" in explorer.group_columns


def test_a_run_judged_once_has_no_flaky_slice():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        explorer = rw.DatasetExplorer(rw.datasets.synthetic_run(20, seed=2))
    assert "flaky labels" not in [s.name for s in explorer.slices] and "flaky_labels" not in explorer.frame


def test_the_view_carries_the_judges_interval_beside_todays():
    records = repeated()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        explorer = rw.DatasetExplorer(records)
    view = explorer.view_state["repeats"]["run"]
    assert view["n_repeats"] == 3 and view["flaky"] == int(flakiness(repeat_scores(records)).flaky.sum())
    table = explorer.judge_variance()
    faith = next(m for m in view["metrics"] if m["metric"] == "faithfulness")
    assert faith["judge_ci_low"] == table.loc["faithfulness", "judge_ci_low"]
    assert faith["repeat_min"] <= faith["mean"] <= faith["repeat_max"]


def test_the_drill_down_lists_the_labels_whose_repeats_disagree():
    records = repeated()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        explorer = rw.DatasetExplorer(records)
    flaky = flakiness(repeat_scores(records)).flaky
    explorer.selected = int(explorer.frame.index[explorer.frame["query_id"] == flaky.index[flaky][0]][0])
    view = explorer._drill.state  # the drill-down's view, as the front end gets it
    shown = view["repeats"]
    assert shown["n"] == 3 and shown["labels"]
    first = shown["labels"][0]
    assert first["kind"] == "retrieved2response" and first["claim"] == 0 and first["said"].endswith("1 Neutral")
    assert first["doc_id"] in [s["doc_id"] for s in view["sources"]]
    steady = flaky.index[~flaky][0]
    explorer.selected = int(explorer.frame.index[explorer.frame["query_id"] == steady][0])
    assert explorer._drill.state["repeats"]["labels"] == []
