"""The DatasetExplorer's review mode (issue 36 items 1 and 5): a review queue over one run, its
progress line (reviewed of total, the corrected interval of the main metric and the plan, the
reviews file), the next unreviewed label per kind in the drill-down's view, and SampleExplorer
taking a ScoringResult."""

from __future__ import annotations

import json
import warnings
from importlib import resources

import numpy as np
import pytest

import ragwidgets as rw
from ragwidgets.analysis.corrected import corrected
from ragwidgets.analysis.plan import review_plan
from ragwidgets.analysis.review_queue import progress, review_queue
from ragwidgets.datasets.synthetic import synthetic_run
from ragwidgets.engine.metrics import format_value
from ragwidgets.errors import RagWidgetsError
from ragwidgets.reviews import Review
from ragwidgets.widgets import SampleExplorer
from ragwidgets.widgets.dataset import DatasetExplorer

EXAMPLE = resources.files("ragwidgets.data").joinpath("ragchecker_example.json")


@pytest.fixture(scope="module")
def scores():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return rw.evaluate(synthetic_run(120, seed=3))


def review_all(ex) -> int:
    """Review every label of the drilled sample the way the keyboard path does (the view's next
    label each time, Entailment); how many labels that took."""
    n = 0
    while True:
        nxt = ex._panels["drill"].views["main"].reviewed.unreviewed()
        target = next((t for t in nxt.values() if t), None)
        if target is None:
            return n
        ex.review(target["kind"], target["claim"], "Entailment", target["doc_id"])
        n += 1


def test_a_queue_is_the_analysis_queue_and_opens_its_first_sample(scores, tmp_path):
    ex = DatasetExplorer(scores, reviews=str(tmp_path / "reviews.jsonl"))
    queue = ex.start_review(6, seed=4)
    same = review_queue(scores, 6, seed=4)
    assert queue.query_ids == same.query_ids and queue.strategy == "random"
    assert ex.frame["query_id"].iat[ex.selected] == queue.query_ids[0]
    assert ex._panels["drill"].views["main"].sample.query_id == queue.query_ids[0]  # the drill-down opened it
    line = ex.view_state["queue"]
    assert line["line"] == "0 of 6 reviewed" and line["position"] == 0 and line["total"] == 6
    assert line["file"] == f"Saved to {tmp_path / 'reviews.jsonl'}"
    assert ex.review_progress == (0, 6)
    for k in range(1, 6):
        ex.next_in_queue()
        assert ex.frame["query_id"].iat[ex.selected] == queue.query_ids[k]
    ex.next_in_queue()  # kept within the queue
    assert ex.view_state["queue"]["position"] == 5
    ex.next_in_queue(-2)
    assert ex.frame["query_id"].iat[ex.selected] == queue.query_ids[3]
    with pytest.raises(ValueError, match="step must be a whole number"):
        ex.next_in_queue(1.5)


def test_progress_counts_a_sample_when_every_label_is_reviewed(scores, tmp_path):
    path = tmp_path / "r.jsonl"
    ex = DatasetExplorer(scores, reviews=str(path))
    ex.start_review(3, seed=1)
    labels = review_all(ex)
    assert ex.review_progress == (1, 3) and ex.view_state["queue"]["line"] == "1 of 3 reviewed"
    assert len(open(path).read().splitlines()) == labels  # each label appended to the file as it happened
    ex.next_in_queue()
    ex.review("answer2response", 0, "Neutral")
    assert ex.review_progress == (1, 3)  # partly reviewed: not done
    assert progress(ex._panels["queue"].queue, ex.reviews) == ex.review_progress  # as analysis counts it


def test_the_progress_interval_is_corrected_and_the_plan(scores):
    ex = DatasetExplorer(scores)
    queue = ex.start_review(40, seed=2)
    assert ex.view_state["queue"]["file"] == "not saved: pass reviews='file.jsonl'"
    ex._handle_custom_msg({"type": "queue_interval", "request": 1}, [])
    words = ex.view_state["queue"]["interval"]
    metric = ex.chart_metric
    assert words == f"{metric} ±Undefined, 30 at random first, to measure the judge's disagreement"
    rng = np.random.default_rng(0)
    for _ in range(12):  # twelve samples reviewed, a label flipped now and then
        while True:
            nxt = ex._panels["drill"].views["main"].reviewed.unreviewed()
            t = next((t for t in nxt.values() if t), None)
            if t is None:
                break
            ex.review(t["kind"], t["claim"], None if rng.random() < 0.9 else "Neutral", t["doc_id"])
        ex.next_in_queue()
    assert ex.view_state["queue"]["interval"] is None  # stale after a review: computed when asked
    ex._handle_custom_msg({"type": "queue_interval", "request": 2}, [])
    table = corrected(scores, ex.reviews, design=queue)  # the same, computed apart
    plan = review_plan(table, 0.05)
    half = (table.at[metric, "corrected_high"] - table.at[metric, "corrected_low"]) / 2
    assert plan.at[metric, "half_width"] == pytest.approx(half)
    more = plan.at[metric, "more"]
    assert ex.view_state["queue"]["interval"] == f"{metric} ±{format_value(half)}, {more} more for ±0.05" and more > 0
    assert ex.review_progress == (12, 40)


def test_a_consequential_queue_says_it_has_no_interval(scores):
    ex = DatasetExplorer(scores)
    with pytest.warns(UserWarning, match="not a random sample"):
        ex.start_review(5, "consequential", metric="faithfulness")
    ex.trust_open = False
    ex._handle_custom_msg({"type": "queue_interval", "request": 1}, [])
    assert ex.view_state["queue"]["interval"] == "no corrected interval: a consequential queue is not a random sample"
    assert ex.view_state["queue"]["kinds"] == ["retrieved2response"]


def test_several_runs_queue_the_run_shown_and_say_which(scores):
    ex = DatasetExplorer({"a": scores, "b": scores})
    ex.run = "b"
    queue = ex.start_review(3)
    assert ex.view_state["queue"]["run"] == "b"
    assert ex.frame["run"].iat[ex.selected] == "b" and ex.frame["query_id"].iat[ex.selected] == queue.query_ids[0]
    ex.run = ""
    ex.start_review(3)
    assert ex.view_state["queue"]["run"] == "a"


def test_the_front_end_steps_the_queue_and_a_bad_step_is_refused(scores):
    ex = DatasetExplorer(scores)
    replies = []
    ex.send = lambda msg, buffers=None: replies.append(msg)
    ex._handle_custom_msg({"type": "queue", "step": 1, "request": 1}, [])
    assert "no review queue" in replies[-1]["error"]
    queue = ex.start_review(4)
    ex._handle_custom_msg({"type": "queue", "step": 1, "request": 2}, [])
    assert "error" not in replies[-1] and ex.frame["query_id"].iat[ex.selected] == queue.query_ids[1]
    ex._handle_custom_msg({"type": "queue", "step": "x", "request": 3}, [])
    assert "step must be a whole number" in replies[-1]["error"]


def test_a_dask_run_refuses_a_queue_with_the_not_available_sentence():
    from ragwidgets.analysis.runs import not_available

    class Model:  # a run model without reviews, as the cluster's
        where = "a Dask-scored run"
        capabilities = frozenset()
        runs = ["run"]
    panel = __import__("ragwidgets.widgets.dataset.queue", fromlist=["QueuePanel"]).QueuePanel(Model())
    with pytest.raises(RagWidgetsError) as err:
        panel.start(type("C", (), {"controls": {"run": ""}})(), 5, "random", 0, {})
    assert str(err.value) == not_available(Model, "reviews", " (the labels stay on the cluster).")


def test_the_drill_view_names_the_next_unreviewed_label_per_kind(scores):
    ex = DatasetExplorer(scores)
    ex.start_review(2)
    sv = ex._panels["drill"].views["main"]
    nxt = sv.reviewed.unreviewed()
    assert list(nxt) == [k for k in ("answer2response", "response2answer", "retrieved2response", "retrieved2answer")
                         if getattr(sv.judged, k) is not None]
    assert nxt["answer2response"] == {"kind": "answer2response", "claim": 0, "doc_id": None}
    doc = sv.judged.passages[0].doc_id
    assert nxt["retrieved2response"] == {"kind": "retrieved2response", "claim": 0, "doc_id": doc}
    ex.review("retrieved2response", 0, "Neutral")  # U: the whole passage row
    assert sv.reviewed.unreviewed()["retrieved2response"]["claim"] == 1
    ex.review("answer2response", 0, None)
    assert sv.reviewed.unreviewed()["answer2response"] == {"kind": "answer2response", "claim": 1, "doc_id": None} \
        or len(sv.judged.response_claims) == 1
    payload = ex._panels["drill"]._payload(ex._context(), "main", None)
    assert payload["review"]["next"] == sv.reviewed.unreviewed() and payload["review"]["file"] is None


def test_sample_explorer_takes_a_scoring_result_as_dataset_explorer_does(tmp_path):
    from ragwidgets.scoring import RagChecker
    records = json.loads(EXAMPLE.read_text())["results"]
    result = RagChecker(judge_model_key="unused-key").score({"results": records})
    x = SampleExplorer(result)
    ex = DatasetExplorer(result)
    assert x.sample.query_id == ex.frame["query_id"].iat[0]
    assert x.metrics["precision"] == pytest.approx(ex.frame["precision"].iat[0])
    reviewed = result.reviewed([Review(records[0]["query_id"], "answer2response", 0, "Neutral")])
    y = SampleExplorer(reviewed)
    assert len(y.reviews) == 1 and y.view["claims"][0]["review"]["reviewed"]
    assert y.view["review"]["next"]["answer2response"]["claim"] == 1


def test_the_table_marks_reviewed_rows_in_its_windows(scores):
    ex = DatasetExplorer(scores)
    queue = ex.start_review(2)
    review_all(ex)  # the first queued sample: every label
    ex.next_in_queue()
    ex.review("answer2response", 0, "Neutral")  # the second: one label
    header, buffers = ex.window(0, len(ex.frame))
    marks = np.frombuffer(buffers[header["numeric"].index("reviewed")], dtype="<f8")
    by_id = dict(zip(header["query_id"], marks))
    assert by_id[queue.query_ids[0]] == 2 and by_id[queue.query_ids[1]] == 1
    assert sum(marks > 0) == 2
    assert ex._rows["numeric"][-1] == "reviewed"  # the saved first rows carry it too


def review_all_in_sample_explorer(ex) -> None:
    """Review every label of the SampleExplorer's current sample (its view's next label, Entailment)."""
    while True:
        target = next((t for t in ex._sample_view().reviewed.unreviewed().values() if t), None)
        if target is None:
            return
        ex.review(target["kind"], target["claim"], "Entailment", target["doc_id"])


@pytest.mark.parametrize("widget", ["dataset", "sample"])
def test_a_double_review_is_done_after_two_reviewers_and_comes_back_to_the_second(scores, tmp_path, widget):
    path = str(tmp_path / "team.jsonl")
    make = DatasetExplorer if widget == "dataset" else SampleExplorer
    ann = make(scores, reviews=path, reviewer="ann")
    queue = ann.start_review(4, seed=2, double=1.0)
    first = queue.query_ids[0]
    (review_all if widget == "dataset" else review_all_in_sample_explorer)(ann)
    assert progress(queue, ann.reviews) == (0, 4)  # a double sample waits for a second reviewer
    assert ann.review_progress == progress(queue, ann.reviews)  # the widget counts as analysis does
    line = ann.view_state["queue"] if widget == "dataset" else ann.view["review"]["queue"]
    assert line["double"] == "second review"
    bob = make(scores, reviews=path, reviewer="bob")
    again = bob.start_review(200, seed=5, double=1.0)
    assert first in again.query_ids and first in again.double  # bob gets ann's double sample back
    assert "second review" in again.frame.set_index("query_id").at[first, "why"]
    assert first not in review_queue(scores, 200, seed=5, reviews=path, double=1.0, reviewer="ann").query_ids
    assert first not in review_queue(scores, 200, seed=5, reviews=path, double=0.0, reviewer="bob").query_ids
    bob.next_in_queue(again.query_ids.index(first))
    sample = scores.samples[scores.sample_index(first)]
    for kind, claims in (("answer2response", sample.response_claims), ("response2answer", sample.gt_claims),
                         ("retrieved2response", sample.response_claims), ("retrieved2answer", sample.gt_claims)):
        for j in range(len(claims) if getattr(sample, kind) is not None else 0):
            bob.review(kind, j, "Entailment")  # a passage kind: the whole row
    assert bob.review_progress == progress(again, bob.reviews)
    assert progress(queue, bob.reviews) == (1, 4)  # two reviewers: ann's queue counts it now


@pytest.mark.parametrize("widget", ["dataset", "sample"])
def test_a_plain_review_of_an_adjudicated_label_is_refused_and_the_decision_shown(scores, tmp_path, widget):
    sample = scores.samples[0]
    judge = ["Entailment", "Neutral", "Contradiction"][int(sample.answer2response[0])]
    other = "Contradiction" if judge != "Contradiction" else "Neutral"
    decided = "Entailment" if other != "Entailment" else "Neutral"

    def made(label, reviewer, adjudicated=False):
        return Review(sample.query_id, "answer2response", 0, label, judge_label=judge, reviewer=reviewer,
                      adjudicated=adjudicated)

    path = tmp_path / "team.jsonl"
    path.write_text("".join(json.dumps(r.to_json()) + "\n" for r in
                            [made(other, "ann"), made(decided, "cy", adjudicated=True)]))
    if widget == "dataset":
        ex = DatasetExplorer(scores, reviews=str(path), reviewer="bob")
        ex.selected = int(np.flatnonzero(ex.frame["query_id"].to_numpy() == sample.query_id)[0])
        shown = lambda: ex._panels["drill"].views["main"].reviewed.row_labels("answer2response", 0)  # noqa: E731
    else:
        ex = SampleExplorer(scores, reviews=str(path), reviewer="bob")
        shown = lambda: ex._sample_view().reviewed.row_labels("answer2response", 0)  # noqa: E731
    code = rw.model.LABEL_CODES[decided]
    assert shown()["label"] == code
    before = path.read_text()
    with pytest.raises(ValueError, match=r"decided by cy \(adjudicated\): change it in the Adjudicate tab"):
        ex.review("answer2response", 0, other)
    with pytest.raises(ValueError, match="decided by cy"):
        ex.review("answer2response", 0, None)
    assert path.read_text() == before  # nothing written
    assert shown()["label"] == code  # the drill-down still shows the decision
    assert len(ex.reviews.history) == 2
    ex.review("response2answer", 0, "Neutral")  # another label: reviewed as before
    assert len(ex.reviews.history) == 3


def test_an_empty_queue_says_nothing_is_left_and_its_step_says_so(scores):
    ex = DatasetExplorer(scores)
    ex.start_review(0)
    line = ex.view_state["queue"]
    assert line["total"] == 0 and line["line"] == "nothing left to review"
    with pytest.raises(ValueError, match="the review queue is empty: nothing left to review"):
        ex.next_in_queue()
    ex._handle_custom_msg({"type": "queue", "step": 1, "request": 1}, [])  # ] in the view: no traceback
    sx = SampleExplorer(scores)
    sx.start_review(0)
    assert sx.view["review"]["queue"]["line"] == "nothing left to review"
    sx._handle_custom_msg({"type": "queue", "step": 1}, [])
    assert sx.view["review"]["error"] == "the review queue is empty: nothing left to review"


def test_the_interval_follows_the_chart_metric(scores):
    ex = DatasetExplorer(scores)
    queue = ex.start_review(40, seed=2)
    ex._handle_custom_msg({"type": "queue_interval", "request": 1}, [])
    assert ex.view_state["queue"]["interval"].startswith(f"{ex.chart_metric} ±")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        metrics = list(review_plan(corrected(scores, ex.reviews, design=queue), 0.05).index)
    other = next(m for m in metrics if m != ex.chart_metric)
    ex.chart_metric = other
    assert ex.view_state["queue"]["interval"] is None  # the old metric's words are not shown
    ex._handle_custom_msg({"type": "queue_interval", "request": 2}, [])
    assert ex.view_state["queue"]["interval"].startswith(f"{other} ±")
