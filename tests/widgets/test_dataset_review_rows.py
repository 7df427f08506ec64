"""A review in the DatasetExplorer patches the table's reviewed row in place (issue 36 item 1's
speed): the order's version stays unless the review moved a row, the changed rows go out as
``_row_changes`` in the one state message of the review (with the view and the drill-down), and
a table kept from before the reviews, patched with each ``_row_changes``, holds the rows that a
fresh explorer over the same reviews file shows (a differential test)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import ragwidgets as rw
from ragwidgets.datasets.synthetic import synthetic_run
from ragwidgets.widgets.dataset import DatasetExplorer
from ragwidgets.widgets.dataset.rows import SEED_ROWS

N = 80


@pytest.fixture(scope="module")
def scores():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return rw.evaluate(synthetic_run(N, seed=5))


def recording(ex):
    """``ex`` with its custom messages in ``ex.replies`` and each state message's keys in ``ex.states``."""
    ex.replies, ex.states = [], []
    ex.send = lambda content, buffers=None: ex.replies.append((content, buffers or []))
    ex.send_state = lambda key=None: ex.states.append(set(key) if key is not None else None)
    return ex


def table(ex) -> dict:
    """The front end's table after asking for every row: index -> (position, values, status), as rows.js decodes them."""
    header, buffers = ex.window(0, len(ex.order))
    numeric = [np.frombuffer(b, dtype="<f8") for b in buffers[:len(header["numeric"])]]
    status = [np.frombuffer(b, dtype=np.int8) for b in buffers[len(header["numeric"]):]]
    return {i: (p, dict(zip(header["numeric"], (float(c[i]) for c in numeric))),
                dict(zip(header["status"], (int(c[i]) for c in status))))
            for i, p in enumerate(header["positions"])}


def patch(rows: dict, changes: dict) -> None:
    """Apply ``_row_changes`` as rows.js does: each one-row window (JSON, None for NaN) in its place."""
    for part in changes["rows"]:
        values = {k: (np.nan if col[0] is None else col[0]) for k, col in zip(part["numeric"], part["values"])}
        rows[part["start"]] = (part["positions"][0], values, dict(zip(part["status"], (c[0] for c in part["codes"]))))


def same(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(
        a[i][0] == b[i][0] and a[i][2] == b[i][2]
        and all(np.isclose(a[i][1][k], b[i][1][k], equal_nan=True) for k in a[i][1]) for i in a)


def labels(ex, n: int):
    """The next ``n`` labels to review of the drilled sample, the keyboard path's order (kind, claim, doc_id)."""
    out = []
    view = ex._panels["drill"].views["main"]
    for target in view.reviewed.unreviewed().values():
        if target is not None:
            out.append((target["kind"], target["claim"], target["doc_id"]))
    return out[:n]


def review(ex, kind, claim, label, doc_id):
    ex._handle_custom_msg({"type": "review", "request": 1, "kind": kind, "claim": claim, "label": label,
                           "doc_id": doc_id}, [])


def test_a_review_patches_the_reviewed_row_in_place_as_a_fresh_explorer_shows_it(scores, tmp_path):
    path = tmp_path / "reviews.jsonl"
    ex = recording(DatasetExplorer(scores, reviews=str(path), reviewer="me"))
    shown = table(ex)  # the front end's rows, asked for once
    version = ex.model.version
    rng = np.random.default_rng(0)
    changed_values, done = 0, set()
    for k, row in enumerate(rng.choice(N, 8, replace=False).tolist()):
        ex.selected = int(row)
        for n in range(100 if k == 0 else 3):  # the first sample's every label (its ✓), three of the others'
            if not (nxt := labels(ex, 1)):
                break
            (kind, claim, doc_id), = nxt
            done.add(row)
            before = table(ex)
            ex.states.clear()
            ex.replies.clear()
            review(ex, kind, claim, str(rng.choice(["Entailment", "Neutral", "Contradiction"])), doc_id)
            assert ex.replies[-1][0]["type"] == "reply" and "error" not in ex.replies[-1][0]
            assert len(ex.states) == 1 and {"_view", "_drill"} <= ex.states[0]  # one message: view, drill-down, rows
            assert ex.model.version == version  # no sort: the order stays, the rows are not asked for again
            changes = ex._row_changes
            assert changes["version"] == version and [p["positions"] for p in changes["rows"]] == [[row]]
            place = changes["rows"][0]["start"]
            assert ex.order[place] == row
            patch(shown, changes)
            after = table(ex)
            others = [i for i in after if i != place]
            assert same({i: after[i] for i in others}, {i: before[i] for i in others})  # only the reviewed row changed
            changed_values += not same({0: before[place]}, {0: after[place]})
    assert changed_values > 0  # some reviews changed a value (the ✓ mark at least)
    fresh = DatasetExplorer(scores, reviews=str(path))
    assert same(shown, table(fresh))  # the patched table is the fresh explorer's
    means = [x.model.review_summary()["reviewed_mean"].to_numpy(dtype=float) for x in (ex, fresh)]
    assert np.array_equal(*means, equal_nan=True)  # the means found again only for the metrics a review changed
    marks = [v["reviewed"] for _, v, _ in shown.values()]
    assert sum(m > 0 for m in marks) == len(done) > 1 and 2 in marks  # each reviewed row marked; the first one ✓


def test_a_review_that_moves_a_row_is_a_new_order_and_the_saved_rows_follow(scores, tmp_path):
    ex = recording(DatasetExplorer(scores, reviews=str(tmp_path / "reviews.jsonl"), sort_by="faithfulness"))
    ex.selected = int(ex.order[0])  # the first row: among the saved rows
    for kind, claim, doc_id in labels(ex, 6):
        version, order = ex.model.version, ex.order.copy()
        review(ex, kind, claim, "Contradiction", doc_id)
        if np.array_equal(order, ex.order):
            assert ex.model.version == version
            if ex._row_changes["rows"] and ex._row_changes["rows"][0]["start"] < SEED_ROWS:
                assert ex._rows == DatasetExplorer(scores, reviews=str(tmp_path / "reviews.jsonl"),
                                                   sort_by="faithfulness")._rows | {"version": version}
        else:  # a new order: the front end asks for its rows again; the saved rows are the new order's
            assert ex.model.version > version and ex._row_changes == {}
            assert ex._rows["version"] == ex.model.version and ex._rows["positions"] == ex.order[:SEED_ROWS].tolist()


def test_comparing_runs_a_review_of_the_baseline_patches_the_other_runs_difference(scores, tmp_path):
    path = tmp_path / "reviews.jsonl"
    ex = recording(DatasetExplorer({"a": scores, "b": scores}, reviews={"a": str(path), "b": str(tmp_path / "b.jsonl")},
                                   compare_metric="precision"))
    shown = table(ex)
    version = ex.model.version
    for row in range(6):  # the baseline run's rows ("a")
        ex.selected = row
        for kind, claim, doc_id in labels(ex, 2):
            review(ex, kind, claim, "Contradiction", doc_id)
            if ex.model.version != version:  # a new order (not expected without a sort): asked for again
                shown, version = table(ex), ex.model.version
            else:
                patch(shown, ex._row_changes)
    fresh = DatasetExplorer({"a": scores, "b": scores}, reviews={"a": str(path), "b": str(tmp_path / "b.jsonl")},
                            compare_metric="precision")
    assert same(shown, table(fresh))
    assert not same(table(DatasetExplorer({"a": scores, "b": scores}, compare_metric="precision")), shown)
