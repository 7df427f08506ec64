"""Failure notes in the DatasetExplorer (issue 37 item 1): the run model's notes per run, their
file (durable before add_notes returns), the failure modes' columns ``mode: <tag>`` (1 tagged, 0
read and not tagged, NaN not read) in the frame, the filter and the column picker; the explorer's
reading queue, note() and the front end's note requests."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pandas as pd
import pytest

import ragwidgets as rw
from ragwidgets.analysis.runs import InMemoryRun, Query
from ragwidgets.datasets.synthetic import synthetic_run
from ragwidgets.errors import InputError
from ragwidgets.notes import Note, Notes


@pytest.fixture(scope="module")
def scores():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return rw.evaluate(synthetic_run(120, seed=3))


@pytest.fixture(scope="module")
def two_runs():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return {"a": rw.evaluate(synthetic_run(40, seed=1)), "b": rw.evaluate(synthetic_run(40, seed=1))}


def expected_modes(scores, notes: Notes) -> pd.DataFrame:
    """The mode columns computed independently from the notes: per sample of the run, per tag."""
    tags = sorted({t for n in notes for t in n.tags})
    read = set(notes.query_ids)
    ids = list(scores.batch.query_ids)
    out = {}
    for tag in tags:
        carriers = {n.query_id for n in notes if tag in n.tags}
        out[f"mode: {tag}"] = [1.0 if q in carriers else 0.0 if q in read else np.nan for q in ids]
    return pd.DataFrame(out)


def test_a_run_without_notes_has_empty_notes_and_no_mode_columns(scores):
    model = InMemoryRun(scores)
    assert len(model.notes["run"]) == 0 and model.note_files == {} and model.modes == []
    assert "notes" in model.capabilities
    assert not any(c.startswith("mode: ") for c in model.frame.columns)


def test_notes_added_make_the_mode_columns_and_reach_the_file(scores, tmp_path):
    path = tmp_path / "notes.jsonl"
    model = InMemoryRun(scores, notes=str(path))
    assert not path.exists()  # made on the first note
    q = list(scores.batch.query_ids)
    added = model.add_notes("run", [Note(q[0], "wrong year", ("dates",)), Note(q[1]),
                                    {"query_id": q[2], "claim": 0, "note": "made up", "tags": ["invented", "dates"]}])
    assert [n.query_id for n in added] == q[:3]
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert [line["query_id"] for line in lines] == q[:3]
    frame = model.frame[model.modes].reset_index(drop=True)
    pd.testing.assert_frame_equal(frame[sorted(model.modes)], expected_modes(scores, model.notes["run"]),
                                  check_names=False)
    assert frame["mode: dates"].iloc[:4].tolist()[:3] == [1.0, 0.0, 1.0] and np.isnan(frame["mode: dates"].iat[3])
    # a later note on the same sample wins: q0 untagged now, its row 0 in every column
    model.add_notes("run", Note(q[0], "on second thought fine"))
    assert model.frame["mode: dates"].iat[0] == 0.0 and model.frame["mode: invented"].iat[0] == 0.0
    # a fresh model on the same file sees them all
    again = InMemoryRun(scores, notes=str(path))
    assert again.notes["run"].latest == model.notes["run"].latest
    pd.testing.assert_frame_equal(again.frame[model.modes], model.frame[model.modes])


def test_a_mode_column_filters_sorts_and_is_a_column(scores):
    model = InMemoryRun(scores, notes=[{"query_id": scores.batch.query_ids[5], "tags": ["off topic"]}])
    assert ("mode: off topic", "mode") in model.columns()
    model.check_expression("`mode: off topic` == 1")
    model.update(Query(expression="`mode: off topic` == 1"))
    assert model.frame["query_id"].iloc[model.order].tolist() == [scores.batch.query_ids[5]]
    model.update(Query(expression="isna(`mode: off topic`)"))
    assert len(model.order) == scores.batch.n_samples - 1
    # a note on a filtered run moves the rows at once
    model.update(Query(expression="`mode: off topic` == 1"))
    model.add_notes("run", {"query_id": scores.batch.query_ids[7], "tags": ["off topic"]})
    assert model.frame["query_id"].iloc[model.order].tolist() == [scores.batch.query_ids[i] for i in (5, 7)]
    window = model.window(0, 2)
    assert window["numeric"]["mode: off topic"].tolist() == [1.0, 1.0]


def test_notes_per_run_and_a_mode_column_over_both_runs(two_runs, tmp_path):
    q = list(two_runs["a"].batch.query_ids)
    model = InMemoryRun(two_runs, notes={"a": [Note(q[0], tags=("x",))], "b": str(tmp_path / "b.jsonl")})
    assert len(model.notes["a"]) == 1 and len(model.notes["b"]) == 0
    assert model.note_files == {"b": str(tmp_path / "b.jsonl")}
    model.add_notes("b", [Note(q[1], "nothing wrong")])
    column = model.frame["mode: x"].to_numpy()
    assert column[0] == 1.0 and column[40 + 1] == 0.0  # b's q1 read, not tagged x
    assert np.isnan(column[1]) and np.isnan(column[40])
    with pytest.raises(ValueError, match="several runs: give notes per run"):
        InMemoryRun(two_runs, notes=[Note(q[0])])
    with pytest.raises(ValueError, match="which this source lacks"):
        InMemoryRun(two_runs, notes={"c": []})
    with pytest.raises(ValueError, match="same notes file"):
        InMemoryRun(two_runs, notes={"a": str(tmp_path / "n.jsonl"), "b": str(tmp_path / "n.jsonl")})


def test_the_notes_scores_carry_are_the_run_models(scores):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        carried = rw.evaluate(synthetic_run(120, seed=3), notes=[{"query_id": scores.batch.query_ids[0], "tags": ["t"]}])
    model = InMemoryRun(carried)
    assert model.notes["run"].latest == carried.notes.latest and model.modes == ["mode: t"]


def test_bad_notes_are_refused_naming_the_field_and_nothing_is_written(scores, tmp_path):
    path = tmp_path / "notes.jsonl"
    model = InMemoryRun(scores, notes=str(path))
    q = scores.batch.query_ids[0]
    for bad, field in (({"query_id": q, "tags": "dates"}, "tags"), ({"query_id": q, "claim": -1}, "claim"),
                       ({"query_id": q, "note": 3}, "note"), ({"query_id": q, "tags": ["x" * 81]}, "tags")):
        with pytest.raises(InputError) as err:
            model.add_notes("run", bad)
        assert err.value.field == field
    with pytest.raises(InputError, match="no run"):
        model.add_notes("other", {"query_id": q})
    assert not path.exists() and model.modes == []
