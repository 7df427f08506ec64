"""Reviewing the judge's labels in SampleExplorer and in DatasetExplorer's drill-down: every
metric follows the reviewed labels (as rw.evaluate(..., reviews=) computes them), the reviews file
holds each review as it happens, and the view shows judge and reviewer side by side."""

import json
import warnings

import numpy as np
import pytest

import ragwidgets as rw
from ragwidgets.errors import InputError
from ragwidgets.judges import LexicalJudge
from ragwidgets.model import LABEL_CODES
from ragwidgets.reviews import Review, Reviews
from ragwidgets.widgets import SampleExplorer


def engine_metrics(samples, reviews, index=0):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return rw.evaluate(samples, reviews=reviews).metrics(index)


def test_a_review_updates_every_metric_as_the_engine_computes_it_and_is_appended(example_samples, tmp_path):
    path = tmp_path / "reviews.jsonl"
    x = SampleExplorer(example_samples, reviews=str(path), reviewer="ana")
    judge = dict(x.metrics)
    made = x.review("answer2response", 0, "Entailment", note="the ground truth says so")
    assert [(r.kind, r.claim, r.label, r.judge_label, r.reviewer) for r in made] == [
        ("answer2response", 0, "Entailment", "Neutral", "ana")]
    x.review("retrieved2response", 1, "Contradiction", doc_id="001")
    assert x.metrics == engine_metrics(example_samples, x.reviews)
    assert x.metrics != judge
    view = x.view
    changed = {c["name"]: (c["before"], c["after"]) for c in view["review"]["changes"]}
    assert changed and all(judge[n] != x.metrics[n] for n in changed)
    assert view["review"]["line"].endswith("after 2 reviews") and "→" in view["review"]["line"]
    assert x.card("precision")["judge_shown"] == changed["precision"][0]
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert [(d["kind"], d["claim"], d.get("doc_id"), d["label"]) for d in lines] == [
        ("answer2response", 0, None, "Entailment"), ("retrieved2response", 1, "001", "Contradiction")]
    assert lines[0]["note"] == "the ground truth says so" and lines[0]["claim_text"] == example_samples[0].response_claims[0].text
    again = SampleExplorer(example_samples, reviews=str(path))  # a reopened file: the same reviewed metrics
    assert again.metrics == x.metrics and again.view["review"]["count"] == 2


def test_judge_and_reviewer_side_by_side_in_the_view(example_samples):
    x = SampleExplorer(example_samples)
    s = example_samples[0]
    x.review("answer2response", 0, "Contradiction")
    x.review("retrieved2response", 2, None, doc_id="002")  # the judge's label confirmed
    view = x.view
    assert view["claims"][0]["review"] == {"judge": int(s.answer2response[0]),
                                           "label": LABEL_CODES["Contradiction"], "reviewed": True}
    assert view["claims"][1]["review"] == {"judge": int(s.answer2response[1]), "label": int(s.answer2response[1]),
                                           "reviewed": False}
    assert view["gt_claims"][0]["review"]["judge"] == int(s.response2answer[0])
    assert view["matrix"]["reviewed"] == [[2, 2, int(s.retrieved2response[2, 2])]]
    cells = np.frombuffer(x._view.cells, np.int8).reshape(-1, 4)
    assert cells[2, 2] == s.retrieved2response[2, 2]  # confirmed: the same label
    assert x.reviews.latest[("0", "retrieved2response", 2, "002")].label == \
        {v: k for k, v in LABEL_CODES.items()}[int(s.retrieved2response[2, 2])]


def test_not_supported_by_any_passage_is_the_whole_row_neutral(example_samples):
    x = SampleExplorer(example_samples)
    made = x.review("retrieved2response", 0, "Neutral")
    assert [r.doc_id for r in made] == ["000", "001", "002", "003"]
    assert x.view["claims"][0]["faithful"] is False and x.view["claims"][0]["supported_by"] == []
    assert x.metrics == engine_metrics(example_samples, x.reviews)


def test_a_bad_review_names_sample_and_field_and_changes_nothing(example_samples):
    x = SampleExplorer(example_samples)
    before = dict(x.metrics)
    with pytest.raises(InputError, match=r"sample '0', field 'claim'.*0 to 10"):
        x.review("answer2response", 11, "Entailment")
    with pytest.raises(InputError, match="field 'label'"):
        x.review("answer2response", 0, "Maybe")
    with pytest.raises(InputError, match="field 'doc_id'.*'nope'"):
        x.review("retrieved2response", 0, "Neutral", doc_id="nope")
    x._handle_custom_msg({"type": "review", "kind": "answer2response", "claim": 0, "label": "<b>x</b>"}, [])
    assert "field 'label'" in x.view["review"]["error"] and x.metrics == before and not len(x.reviews)
    x._handle_custom_msg({"type": "review", "kind": "answer2response", "claim": 0, "label": "neutral"}, [])
    assert x.view["review"]["error"] == "" and len(x.reviews) == 1


def test_reviews_that_no_longer_match_are_reported_not_applied(example_samples):
    stale = [Review("0", "answer2response", 0, "Entailment", claim_text="a claim since rewritten"),
             Review("0", "answer2response", 99, "Entailment"), Review("gone", "answer2response", 0, "Entailment")]
    x = SampleExplorer(example_samples, reviews=Reviews(stale))
    assert x.metrics == SampleExplorer(example_samples).metrics
    reasons = [p.reason for p in x.review_problems]
    assert any("text changed" in r for r in reasons) and any("out of range" in r for r in reasons)
    assert any("sample is gone" in r for r in reasons)
    assert len(x.view["review"]["problems"]) == 2 and x.view["review"]["count"] == 0  # this sample's two


def test_the_review_queue_steps_through_its_samples_and_counts_the_fully_reviewed(example_samples):
    x = SampleExplorer(example_samples)
    queue = x.start_review(2, strategy="random", seed=3)
    assert sorted(queue.query_ids) == ["0", "1"] and x.sample.query_id == queue.query_ids[0]
    assert x.review_progress == (0, 2) and x.view["review"]["queue"]["reviewed"] == 0
    s = x.sample
    for kind, claims in (("answer2response", s.response_claims), ("retrieved2response", s.response_claims),
                         ("response2answer", s.gt_claims), ("retrieved2answer", s.gt_claims)):
        for j in range(len(claims)):
            x.review(kind, j, None)  # confirm every label (a passage kind: the whole row)
    assert x.review_progress == (1, 2)
    x._handle_custom_msg({"type": "queue", "step": 1}, [])
    assert x.sample.query_id == queue.query_ids[1] and x.view["review"]["queue"]["position"] == 1
    x.next_in_queue(5)  # kept within the queue
    assert x.view["review"]["queue"]["position"] == 1
    with pytest.raises(ValueError, match="no review queue"):
        SampleExplorer(example_samples).next_in_queue()


def test_why_the_judge_said_it(example_samples):
    sent = []
    x = SampleExplorer(example_samples, judge=LexicalJudge())
    x.send = sent.append
    trace = x.trace("retrieved2response", 0, doc_id="001")
    assert trace is not None and trace.kind == "retrieved2response" and trace.note
    x._handle_custom_msg({"type": "trace", "kind": "answer2response", "claim": 1, "doc_id": None, "request": 4}, [])
    assert sent[-1]["request"] == 4 and sent[-1]["trace"]["kind"] == "answer2response"
    json.dumps(sent[-1], allow_nan=False)
    bare = SampleExplorer(example_samples)
    bare.send = sent.append
    bare._handle_custom_msg({"type": "trace", "kind": "answer2response", "claim": 1, "request": 5}, [])
    assert sent[-1]["trace"] is None and sent[-1]["reason"].startswith("no trace kept")
    assert bare.view["review"]["traces"] is False and x.view["review"]["traces"] is True


def test_the_drill_down_reviews_through_the_run_model(tmp_path):
    records = rw.datasets.synthetic_run(60, seed=4)
    path = tmp_path / "reviews.jsonl"
    x = rw.DatasetExplorer(records, reviews=str(path), reviewer="bo")
    row = next(i for i in range(60) if x.sample(i).response_claims and len(x.sample(i).passages) > 1)
    x.selected = row
    qid = x.frame["query_id"].iat[row]
    judge_row = x.frame.iloc[row].copy()
    x.review("retrieved2response", 0, "Neutral")  # no passage supports R1
    x.review("answer2response", 0, "Contradiction")
    want = engine_metrics(records, x.reviews, index=row)
    for metric, value in want.items():
        got = x.frame[metric].iat[row]
        assert (value is None and np.isnan(got)) or got == pytest.approx(value), metric
    assert x._drill.state["review"]["count"] == len(x.reviews.for_sample(qid)) == 1 + len(x.sample(row).passages)
    assert x._drill.state["review"]["line"].endswith(f"after {len(x.reviews)} reviews")
    line = x.view_state["reviews"]["runs"][0]
    assert line["reviews"] == len(x.reviews) and line["samples"] == 1 and "after" in line["line"]
    assert any(judge_row[m] != x.frame[m].iat[row] for m in want if not np.isnan(judge_row[m]))
    assert len(path.read_text().splitlines()) == len(x.reviews)
    assert all(json.loads(line)["reviewer"] == "bo" for line in path.read_text().splitlines())
    x._handle_custom_msg({"type": "review", "which": "main", "kind": "bogus", "claim": 0, "request": 1}, [])


def test_the_trust_panel_opens_with_agreement_and_corrected_scores():
    x = rw.DatasetExplorer(rw.datasets.synthetic_run(40, seed=2), selected=0)
    assert x.view_state["reviews"]["trust"] is None
    x._handle_custom_msg({"type": "trust", "open": True, "request": 1}, [])
    trust = x.view_state["reviews"]["trust"]
    assert trust["n_reviews"] == 0 and "kappa" in trust["agreement"]["columns"]
    first = dict(zip(trust["agreement"]["columns"], trust["agreement"]["rows"][0]))
    assert first["kappa"] is None and first["reason"]  # no reviewed pair: Undefined with why, not 0
    x.review("answer2response", 0, None)
    trust = x.view_state["reviews"]["trust"]
    assert trust["stale"] and trust["n_reviews"] == 0  # kept as it was until the front end asks again
    x._handle_custom_msg({"type": "trust", "open": True, "request": 2}, [])
    trust = x.view_state["reviews"]["trust"]
    assert trust["n_reviews"] == 1 and "stale" not in trust
    rows = {dict(zip(trust["agreement"]["columns"], r))["kind"]: dict(zip(trust["agreement"]["columns"], r))
            for r in trust["agreement"]["rows"]}
    assert rows["answer2response"]["n"] == 1 and rows["answer2response"]["agreement"] == "1"  # format_value's
    corrected = trust["corrected"][""]
    assert corrected["columns"][:4] == ["metric", "judge", "judge 95%", "reviewed"]
    precision = dict(zip(corrected["columns"], corrected["rows"][0]))
    assert precision["metric"] == "Precision" and precision["reviewed samples"] == 0 and precision["reviewed"] is None
    assert precision["to review for ±0.05"] == 30  # nothing reviewed yet: a pilot of 30 random reviews
    x.trust_open = False
    assert x.view_state["reviews"]["trust"] is None
    x.view_state and json.dumps(x.view_state, allow_nan=False)


def test_scores_evaluated_with_reviews_open_on_the_judge_with_the_reviews_in_force(example_samples, tmp_path):
    reviews = Reviews([Review("0", "answer2response", 0, "Entailment")])
    scores = rw.evaluate(example_samples, reviews=reviews)
    x = SampleExplorer(scores)
    assert x.metrics == scores.metrics(0) != scores.judge_scores.metrics(0)
    assert x.view["claims"][0]["review"] == {"judge": 0, "label": 1, "reviewed": True}
    assert len(x.reviews) == 1 and x.view["review"]["line"].endswith("after 1 review")


def test_the_drill_down_opens_the_judges_trace_and_answers_every_request():
    records = rw.datasets.synthetic_run(30, seed=5)
    row = next(i for i, r in enumerate(records) if r["response_claims"] and r["retrieved_context"])
    x = rw.DatasetExplorer(records, judge=LexicalJudge(), selected=row)
    replies = []
    x.send = lambda content, buffers=None: replies.append(content)
    doc = records[row]["retrieved_context"][0]["doc_id"]
    x._handle_custom_msg({"type": "trace", "which": "main", "kind": "retrieved2response", "claim": 0, "doc_id": doc,
                          "request": 7}, [])
    assert replies[-1]["request"] == 7 and replies[-1]["trace"]["doc_id"] == doc and "error" not in replies[-1]
    x._handle_custom_msg({"type": "review", "which": "other", "kind": "answer2response", "claim": 0, "label": "Neutral",
                          "request": 8}, [])
    assert replies[-1]["request"] == 8 and "no drill-down view 'other'" in replies[-1]["error"]
    x._handle_custom_msg({"type": "review", "which": "main", "kind": "answer2response", "claim": 99, "label": "Neutral",
                          "request": 9}, [])
    assert "field 'claim'" in replies[-1]["error"] and not len(x.reviews)
    x._handle_custom_msg({"type": "review", "which": "main", "kind": "answer2response", "claim": 0, "label": "Neutral",
                          "request": 10}, [])  # done: an empty reply (the action's return value is not sent)
    assert replies[-1] == {"type": "reply", "request": 10} and len(x.reviews) == 1
