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
        carried = rw.evaluate(synthetic_run(120, seed=3),
                              notes=[{"query_id": scores.batch.query_ids[0], "tags": ["t"]}])
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


# -- the explorer ------------------------------------------------------------------------------
from ragwidgets.analysis.reading_queue import reading_queue  # noqa: E402
from ragwidgets.widgets.dataset import DatasetExplorer  # noqa: E402


def drilled(ex) -> str:
    return ex._panels["drill"].views["main"].sample.query_id


def ask(ex, message: dict) -> dict:
    """The one reply the widget sends to a front-end ``message``."""
    ex.replies = []
    ex.send = lambda content, buffers=None: ex.replies.append(content)
    ex._handle_custom_msg(message, [])
    assert len(ex.replies) == 1
    return ex.replies[0]


def test_start_reading_opens_the_queue_and_a_note_moves_on(scores, tmp_path):
    path = tmp_path / "notes.jsonl"
    ex = DatasetExplorer(scores, notes=str(path), reviewer="ana")
    queue = ex.start_reading(5, where="faithfulness < 1", seed=2)
    assert queue.query_ids == reading_queue(scores, 5, where="faithfulness < 1", seed=2).query_ids
    assert drilled(ex) == queue.query_ids[0]
    line = ex.view_state["notes"]["reading"]
    assert line["line"] == "Reading 1 of 5 failing (where faithfulness < 1, random) · 0 read · 0 tagged"
    assert line["file"] == f"Saved to {path}"
    assert ex.reading_progress == f"0 of 5 read · 0 tagged · Saved to {path}"
    # the front end's Enter: the note, then the next sample of the queue
    for k, qid in enumerate(queue.query_ids[:4]):
        reply = ask(ex, {"type": "note", "request": k, "query_id": qid, "note": f"n{k}",
                                    "tags": ["dates"] if k % 2 == 0 else [], "advance": 1})
        assert "error" not in reply, reply
        assert drilled(ex) == queue.query_ids[k + 1]
    assert ex.reading_progress == f"4 of 5 read · 2 tagged · Saved to {path}"
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    assert [x["query_id"] for x in lines] == queue.query_ids[:4] and lines[0]["author"] == "ana"
    assert lines[0]["tags"] == ["dates"] and lines[1]["tags"] == []
    # the view shows the drilled sample's notes and the run's tags; back to the first: its note
    ex.next_to_read(-4)
    shown = ex.view_state["notes"]
    assert shown["query_id"] == queue.query_ids[0] and shown["shown"]["sample"]["note"] == "n0"
    assert shown["tags"] == ["dates"]
    assert ex.notes.latest == ex.model.notes["run"].latest and len(ex.notes) == 4


def test_a_claim_note_and_notes_without_a_queue_step_the_table(scores):
    ex = DatasetExplorer(scores, author="bo")
    ex.selected = int(ex.order[0])
    qid = drilled(ex)
    made = ex.note(qid, "invented figure", "numbers, made up", claim=0)
    sample = scores.batch.samples[scores.sample_index(qid)]
    assert made.claim == 0 and made.claim_text == sample.response_claims[0].text and made.author == "bo"
    assert made.tags == ("numbers", "made up")
    assert ex.view_state["notes"]["shown"]["claims"] == {
        "0": {"note": "invented figure", "tags": ["numbers", "made up"], "author": "bo", "time": made.time}}
    assert ex.view_state["notes"]["file"].startswith("not saved")
    reply = ask(ex, {"type": "note", "request": 1, "query_id": qid, "note": "", "tags": [], "advance": 1})
    assert "error" not in reply and ex.selected == int(ex.order[1])
    assert "mode: numbers" in ex.frame.columns and {"key": "mode: numbers", "label": "mode: numbers", "kind": "mode"} \
        in ex.view_state["all_columns"]
    ex.expression = "`mode: numbers` == 1"
    assert ex.filtered["query_id"].tolist() == [qid]


@pytest.mark.parametrize("message, field", [
    ({"query_id": "nope", "note": "x"}, "query_id"),
    ({"query_id": 5, "note": "x"}, "query_id"),
    ({"query_id": None, "note": "x", "tags": "a,b"}, "tags"),
    ({"note": 5}, "note"),
    ({"note": "x", "tags": [3]}, "tags"),
    ({"note": "x", "tags": ["a"] * 51}, "tags"),
    ({"note": "x", "claim": 10_000}, "claim"),
    ({"note": "x", "claim": True}, "claim"),
    ({"note": "x", "advance": 5}, "advance"),
    ({"note": "x", "run": "other"}, "run"),
    ({"note": "x", "path": "/etc/passwd"}, "path"),
    ({"note": "x" * 10_001}, "note"),
])
def test_a_bad_note_from_the_front_end_is_refused_naming_the_field(scores, tmp_path, message, field):
    path = tmp_path / "notes.jsonl"
    ex = DatasetExplorer(scores, notes=str(path))
    ex.selected = int(ex.order[0])
    message = {"query_id": drilled(ex), **message} if "query_id" not in message else message
    reply = ask(ex, {"type": "note", "request": 7, **message})
    assert field in reply["error"], reply
    assert not path.exists() and ex.selected == int(ex.order[0])


def test_notes_on_a_model_that_cannot_take_them_say_so(scores):
    ex = DatasetExplorer(scores)
    ex.model.capabilities = frozenset(ex.model.capabilities - {"notes"})
    ex._refresh()
    assert ex.view_state["notes"] == {"available": False,
                                      "said": "Failure notes are not available on a run in this process "
                                              "(take notes on the run in memory)"}
    with pytest.raises(rw.errors.RagWidgetsError, match="failure notes are not available"):
        ex.start_reading(3)


def test_the_mode_columns_agree_with_mode_masks_after_every_kind_of_change(two_runs, tmp_path):
    """Differential: the run model's incremental mode columns against
    :func:`ragwidgets.analysis.failure_modes.mode_masks` computed afresh, after notes at load and
    random later notes (claims', retags, emptied notes, samples no run has)."""
    from ragwidgets.analysis.failure_modes import mode_masks
    rng = np.random.default_rng(7)
    ids = list(two_runs["a"].batch.query_ids)
    tags = ["dates", "made up", "off topic", "numbers"]

    def random_note() -> dict:
        qid = ids[rng.integers(len(ids))] if rng.random() > 0.05 else "nowhere"
        note = {"query_id": qid, "note": "x" if rng.random() > 0.3 else "",
                "tags": list(rng.choice(tags, size=rng.integers(0, 3), replace=False))}
        if rng.random() < 0.3:
            note["claim"] = int(rng.integers(0, 2))
        return note

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = InMemoryRun(two_runs, notes={"a": [random_note() for _ in range(15)], "b": str(tmp_path / "b.jsonl")})
    for step in range(60):
        run = "ab"[rng.integers(2)]
        model.add_notes(run, [random_note() for _ in range(rng.integers(1, 4))])
        if step % 10 == 9:
            for code, name in enumerate(model.runs):
                rows = model.frame["run"].to_numpy() == name
                mine = model.frame.loc[rows, ["query_id", *model.modes]].set_index("query_id")
                fresh = mode_masks(two_runs[name], model.notes[name])
                read = mine.index.isin(model.notes[name].query_ids)
                for column in model.modes:
                    tag = column.removeprefix("mode: ")
                    want = (fresh[tag].to_numpy() if tag in fresh.columns
                            else np.where(read, 0.0, np.nan))  # a tag only the other run has
                    np.testing.assert_array_equal(mine[column].to_numpy(), want, err_msg=f"{name} {column}")
                assert {f"mode: {t}" for t in fresh.columns} <= set(model.modes)


# -- the SampleExplorer ------------------------------------------------------------------------
from ragwidgets.widgets import SampleExplorer  # noqa: E402


def test_the_sample_explorer_takes_notes_and_its_note_box_moves_on(example_samples, tmp_path):
    path = tmp_path / "notes.jsonl"
    sx = SampleExplorer(example_samples, notes=str(path), reviewer="cy")
    first, second = example_samples[0].query_id, example_samples[1].query_id
    box = sx.view["notes"]
    assert box["query_id"] == first and box["shown"] == {"sample": None, "claims": {}} and box["tags"] == []
    assert box["file"] == f"Saved to {path}"
    reply = ask(sx, {"type": "note", "request": 1, "query_id": first, "note": "misses the date", "tags": ["dates"],
                     "advance": 1})
    assert "error" not in reply and sx.sample_index == 1 and sx.view["notes"]["query_id"] == second
    assert sx.view["notes"]["tags"] == ["dates"]
    again = ask(sx, {"type": "note", "request": 9, "query_id": first, "note": "", "tags": [], "advance": 1})
    assert "no longer the one shown" in again["error"] and sx.sample_index == 1  # a second Enter: nothing written
    made = sx.note(first, "the claim is made up", "invented", claim=0)
    assert made.author == "cy" and made.claim_text == example_samples[0].response_claims[0].text
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    assert [(x["query_id"], x.get("claim")) for x in lines] == [(first, None), (first, 0)]
    assert SampleExplorer(example_samples, notes=str(path)).notes.latest == sx.notes.latest
    for bad, field in (({"query_id": 3}, "query_id"), ({"query_id": "nope"}, "query_id"),
                       ({"query_id": first, "claim": 99}, "claim"), ({"query_id": first, "run": "a"}, "run")):
        reply = ask(sx, {"type": "note", "request": 2, "note": "x", **bad})
        assert field in reply["error"], reply
    assert len(path.read_text().splitlines()) == 2


def test_a_sample_explorer_without_notes_shows_no_note_box(example_samples):
    sx = SampleExplorer(example_samples)
    assert "notes" not in sx.view and len(sx.notes) == 0


def test_a_note_patches_its_row_in_place_and_a_new_mode_is_a_new_version(scores):
    ex = DatasetExplorer(scores)
    ex.selected = int(ex.order[0])
    qid = drilled(ex)
    version = ex.model.version
    ex.note(qid, "x", ["dates"])  # a new mode column: the rows are asked again
    assert ex.model.version == version + 1 and ex._rows["version"] == ex.model.version
    assert "mode: dates" in ex._rows["numeric"]
    other = str(ex.model.frame["query_id"].iloc[int(ex.order[1])])
    ex.note(other, "z", ["dates"])  # a second sample carries the mode
    assert ex.model.version == version + 1
    ex.note(qid, "y", [])  # the same columns: the row patched in place
    assert ex.model.version == version + 1
    (row,) = ex._row_changes["rows"]
    assert row["query_id"] == [qid] and row["values"][row["numeric"].index("mode: dates")] == [0.0]
    ex.note(other, "z", [])  # no note carries the mode any more: its column goes, the rows are asked again
    assert ex.model.version == version + 2 and "mode: dates" not in ex.model.frame
    assert "mode: dates" not in ex._rows["numeric"]


def test_an_advancing_note_for_a_sample_no_longer_shown_is_refused(scores, tmp_path):
    """Review 37 finding 1: a second Enter sent for the sample just left writes nothing and moves nothing."""
    path = tmp_path / "notes.jsonl"
    ex = DatasetExplorer(scores, notes=str(path))
    queue = ex.start_reading(5)
    first = queue.query_ids[0]
    assert "error" not in ask(ex, {"type": "note", "request": 1, "query_id": first, "note": "wrong year",
                                   "tags": ["dates"], "advance": 1})
    reply = ask(ex, {"type": "note", "request": 2, "query_id": first, "note": "", "tags": [], "advance": 1})
    assert "no longer the one shown" in str(reply.get("error")), reply
    assert ex.notes.for_sample(first)[None].note == "wrong year"
    assert drilled(ex) == queue.query_ids[1] and ex._panels["notes"].at == 1
    assert len(path.read_text().splitlines()) == 1
