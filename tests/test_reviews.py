"""Reviews as data: the JSONL file (round trip, a later line wins, a torn last line, bad lines
named), the mismatches reported and never applied, applying is pure, and evaluate with reviews
equals evaluating a hand-edited copy of the samples without them."""

import copy
import dataclasses
import json
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ragwidgets as rw
from ragwidgets.cli import main
from ragwidgets.engine import METRICS, evaluate
from ragwidgets.errors import InputError, InputWarning
from ragwidgets.loaders import parse_sample
from ragwidgets.model import LABEL_MATRICES
from ragwidgets.reviews import (KINDS, Review, ReviewLog, Reviews, apply_reviews, apply_to_sample, as_reviews,
                                passage_sha, reviewed_cells)
from strategies import ragchecker_records

RECORD = {
    "query_id": "q1", "query": "Where?", "gt_answer": "Paris is in France.", "response": "Paris, in France.",
    "retrieved_context": [{"doc_id": "d0", "text": "Paris is in France."}, {"doc_id": "d1", "text": "Rome."}],
    "response_claims": [["Paris", "is in", "France"], ["Paris", "is", "big"]],
    "gt_answer_claims": [["Paris", "is in", "France"]],
    "answer2response": ["Entailment", "Neutral"],
    "response2answer": ["Entailment"],
    "retrieved2response": [["Entailment", "Neutral"], ["Neutral", "Neutral"]],
    "retrieved2answer": [["Entailment", "Neutral"]],
}


def review(**kw):
    base = {"query_id": "q1", "kind": "answer2response", "claim": 1, "label": "Entailment"}
    return Review(**{**base, **kw})


# -- the file -----------------------------------------------------------------------------------------

def test_file_round_trip_and_a_later_line_wins(tmp_path):
    path = tmp_path / "reviews.jsonl"
    log = ReviewLog(path)
    first = log.append(review(label="Contradiction", judge_label="Neutral", claim_text="Paris is big",
                              reviewer="ann", time="2026-01-31T12:00:00Z", note="wrong"))
    log.append({"query_id": "q1", "kind": "retrieved2response", "claim": 0, "doc_id": "d1", "label": "entailment"})
    log.append(review(label="Entailment", reviewer="bob"))
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 3 and json.loads(lines[0])["note"] == "wrong"
    assert "doc_id" not in json.loads(lines[0]) and json.loads(lines[1])["doc_id"] == "d1"
    read = Reviews.read(path)
    assert len(read.history) == 3 and len(read) == 2  # two labels: the first one's later line wins
    assert read.latest[first.key].reviewer == "bob" and read.latest[first.key].label == "Entailment"
    assert [r.kind for r in read] == ["answer2response", "retrieved2response"]  # first-seen order
    assert read.latest[("q1", "retrieved2response", 0, "d1")].label == "Entailment"  # any case, kept as spelt
    assert Review.from_json(first.to_json()) == first
    assert read.query_ids == ["q1"] and set(read.for_sample("q1")) == {("answer2response", 1, None),
                                                                        ("retrieved2response", 0, "d1")}
    frame = read.to_frame()
    assert len(frame) == 2 and list(frame["label"]) == ["Entailment", "Entailment"]
    assert {r.key for r in as_reviews(frame)} == {r.key for r in read}  # a DataFrame reads back
    assert log.reviews.latest == read.latest and ReviewLog(path).reviews.latest == read.latest


def test_a_torn_last_line_is_warned_about_and_skipped(tmp_path):
    path = tmp_path / "reviews.jsonl"
    whole = json.dumps(review().to_json())
    path.write_text(whole + "\n" + whole[:25], encoding="utf-8")
    with pytest.warns(InputWarning, match=r"line 2: skipped, cut short"):
        read = Reviews.read(path)
    assert len(read.history) == 1
    with pytest.warns(InputWarning):
        log = ReviewLog(path)
    with pytest.warns(InputWarning, match="its last line, cut short .* was cut off"):
        log.append(review(claim=0))  # mends the file first: the next line starts on its own
    assert path.read_text(encoding="utf-8") == whole + "\n" + json.dumps(review(claim=0).to_json()) + "\n"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert len(Reviews.read(path)) == 2


def test_a_whole_last_line_without_its_newline_is_read(tmp_path):
    path = tmp_path / "reviews.jsonl"
    path.write_text(json.dumps(review().to_json()), encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert len(Reviews.read(path)) == 1
        ReviewLog(path).append(review(claim=0))
    assert len(Reviews.read(path)) == 2


@pytest.mark.parametrize("line, field", [
    ('{"query_id": "q1", "kind": "answer2response", "claim": 1}', "label"),
    ('{"query_id": "q1", "kind": "answer2respons", "claim": 1, "label": "Neutral"}', "kind"),
    ('{"query_id": "q1", "kind": "answer2response", "claim": -1, "label": "Neutral"}', "claim"),
    ('{"query_id": "q1", "kind": "answer2response", "claim": true, "label": "Neutral"}', "claim"),
    ('{"query_id": "q1", "kind": "answer2response", "claim": 1, "label": "Yes"}', "label"),
    ('{"query_id": "q1", "kind": "retrieved2answer", "claim": 1, "label": "Neutral"}', "doc_id"),
    ('{"query_id": "q1", "kind": "answer2response", "claim": 1, "doc_id": "d0", "label": "Neutral"}', "doc_id"),
    ('{"query_id": "q1", "kind": "answer2response", "claim": 1, "label": "Neutral", "lable": 1}', "lable"),
    ('{"query_id": "q1", "kind": "answer2response", "claim": 1, "label": "Neutral", "time": "noon"}', "time"),
    ('{"query_id": "q1", "kind": "answer2response", "claim": 1, "label": "Neutral", "judge_label": 3}',
     "judge_label"),
    ('["q1"]', None),
    pytest.param("[" * 100_000, None, id="nested too deep, open"),  # not json's RecursionError
    pytest.param("[" * 100_000 + "]" * 100_000, None, id="nested too deep, closed"),
])
def test_a_bad_line_is_named_by_file_line_and_field(tmp_path, line, field):
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps(review().to_json()) + "\n\n" + line + "\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        Reviews.read(path)
    assert err.value.sample == f"{path} line 3" and err.value.field == field
    assert str(path) in str(err.value)


def test_as_reviews_takes_every_form(tmp_path):
    path = tmp_path / "r.jsonl"
    ReviewLog(path).append(review())
    for form in (str(path), path, Reviews.read(path), [review()], [review().to_json()], ReviewLog(path),
                 Reviews.read(path).to_frame()):
        assert [r.key for r in as_reviews(form)] == [review().key]
    with pytest.raises(TypeError):
        as_reviews(3)
    with pytest.raises(InputError, match="no such reviews file"):
        as_reviews(tmp_path / "missing.jsonl")


@pytest.mark.parametrize("command", ["score", "judge"])
def test_a_damaged_line_is_a_warning_on_the_command_s_stderr(tmp_path, capsys, command):
    example = Path(rw.__path__[0]) / "data" / "ragchecker_example.json"
    path = tmp_path / "reviews.jsonl"
    path.write_text(json.dumps(Review("0", "answer2response", 0, "Neutral").to_json()) + '\n{"query_id": "0", "ki\n')
    extra = ["--base-url", "http://127.0.0.1:9/v1", "--model", "m", "--no-cache", "--no-progress"] \
        if command == "judge" else []  # every label is there: no request
    assert main([command, str(example), "--reviews", str(path), *extra]) == 0
    err = capsys.readouterr().err
    assert f"warning: {path} line 2: skipped, not a whole JSON line" in err and "Traceback" not in err


def test_a_folder_given_as_reviews_is_named(tmp_path, capsys):
    for read in (Reviews.read, as_reviews, ReviewLog):
        with pytest.raises(InputError, match=f"^{tmp_path}: a folder, not a reviews file$"):
            read(tmp_path)
    example = Path(rw.__path__[0]) / "data" / "ragchecker_example.json"
    deep = tmp_path / "deep.jsonl"
    deep.write_text("[" * 100_000 + "\n")
    for given, named in ((tmp_path, f"{tmp_path}: a folder"), (deep, f"{deep} line 1: a JSON value nested too deep")):
        assert main(["score", str(example), "--reviews", str(given)]) == 2
        err = capsys.readouterr().err
        assert named in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


# -- matching and applying ----------------------------------------------------------------------------

@pytest.mark.parametrize("bad, reason", [
    (review(query_id="gone"), "no sample with this query_id"),
    (review(claim=2), "claim index out of range: the sample has 2 response claim"),
    (review(kind="response2answer", claim=1), "out of range: the sample has 1 ground-truth claim"),
    (review(kind="retrieved2response", claim=0, doc_id="d9"), "doc_id not among the sample's retrieved passages"),
    (review(claim_text="Paris is small"), "the claim's text changed"),
])
def test_every_mismatch_is_reported_and_not_applied(bad, reason):
    sample = parse_sample(RECORD)
    good = review(kind="retrieved2answer", claim=0, doc_id="d1")
    out = apply_reviews([sample], [bad, good])
    assert [p.review for p in out.problems] == [bad] and reason in out.problems[0].reason
    assert out.applied == 1 and reason in str(out.problems[0]) and repr(bad.query_id) in str(out.problems[0])
    (reviewed,) = out.samples
    assert reviewed.retrieved2answer.tolist() == [[1, 1]]
    for kind in ("answer2response", "response2answer", "retrieved2response"):
        assert np.array_equal(getattr(reviewed, kind), getattr(sample, kind))


def test_a_passage_review_is_reported_not_applied_when_the_passage_changed():
    from ragwidgets.widgets._sample_review import SampleReview

    sample = parse_sample(RECORD)
    (made,) = SampleReview(sample).make("retrieved2response", 1, "Entailment", doc_id="d1")
    assert made.passage_sha == passage_sha("Rome.") and len(made.passage_sha) == 16
    assert Review.from_json(json.loads(json.dumps(made.to_json()))) == made
    old = dataclasses.replace(made, passage_sha=None)  # a file from before the field: no check possible
    assert apply_reviews([sample], [made]).applied == 1 and apply_reviews([sample], [old]).applied == 1
    edited = {**RECORD, "retrieved_context": [RECORD["retrieved_context"][0], {"doc_id": "d1", "text": "Roma."}]}
    assert apply_reviews([parse_sample(edited)], [old]).applied == 1
    out = apply_reviews([parse_sample(edited)], [made])
    assert out.applied == 0 and [p.review for p in out.problems] == [made]
    assert f"the passage's text changed: reviewed {passage_sha('Rome.')}, now {passage_sha('Roma.')}" \
        in out.problems[0].reason


@pytest.mark.parametrize("given, message", [
    ({"kind": "answer2response", "passage_sha": "0" * 16}, "has no passage: passage_sha must be absent"),
    ({"kind": "retrieved2answer", "doc_id": "d0", "passage_sha": "xyz"}, "16 hex digits"),
    ({"kind": "retrieved2answer", "doc_id": "d0", "passage_sha": "0" * 64}, "16 hex digits"),
])
def test_a_bad_passage_sha_is_named(given, message):
    with pytest.raises(InputError, match=message) as err:
        review(claim=0, **given)
    assert err.value.field == "passage_sha"


def test_a_kind_the_sample_does_not_carry_is_reported():
    record = {k: v for k, v in RECORD.items() if k != "answer2response"}
    out = apply_reviews([parse_sample(record)], [review()])
    assert out.applied == 0 and "carries no answer2response labels" in out.problems[0].reason


def test_applying_is_pure():
    sample = parse_sample(RECORD)
    before = {k: getattr(sample, k).copy() for k in LABEL_MATRICES}
    reviews = [review(), review(kind="retrieved2response", claim=1, doc_id="d0", label="Contradiction")]
    reviewed, problems = apply_to_sample(sample, Reviews(reviews).for_sample("q1"))
    assert problems == [] and reviewed is not sample
    assert reviewed.answer2response.tolist() == [1, 1] and reviewed.retrieved2response.tolist() == [[1, 0], [2, 0]]
    for k in LABEL_MATRICES:
        assert np.array_equal(getattr(sample, k), before[k])
    cells = reviewed_cells(sample, Reviews(reviews + [review(claim=5)]).for_sample("q1"))
    assert cells["answer2response"].tolist() == [False, True]
    assert cells["retrieved2response"].tolist() == [[False, False], [True, False]]
    assert not cells["response2answer"].any() and not cells["retrieved2answer"].any()


def test_a_confirmation_counts_as_reviewed_and_changes_nothing():
    scores = evaluate([RECORD], reviews=[review(claim=0, label="Entailment")])
    assert scores.review_problems == [] and scores.review_cells["answer2response"].tolist() == [True, False]
    pd.testing.assert_frame_equal(scores.frame, scores.judge_scores.frame)


def test_evaluate_without_reviews_carries_none():
    scores = rw.evaluate([RECORD])
    assert scores.reviews is None and scores.review_problems == [] and scores.judge_scores is None


def test_problems_are_warned_once_and_kept():
    with pytest.warns(InputWarning, match=r"2 review\(s\) not applied; the first: review of query_id 'gone'") as seen:
        scores = rw.evaluate([RECORD], reviews=[review(query_id="gone"), review(claim=9), review()])
    assert len([w for w in seen if issubclass(w.category, InputWarning)]) == 1
    assert len(scores.review_problems) == 2 and len(scores.reviews) == 3
    assert scores.metrics(0)["precision"] == 1.0 and scores.judge_scores.metrics(0)["precision"] == 0.5


def test_the_fast_path_file_and_reviews_file(tmp_path):
    data, reviews = tmp_path / "results.json", tmp_path / "reviews.jsonl"
    data.write_text(json.dumps({"results": [RECORD, {**RECORD, "query_id": "q2"}]}), encoding="utf-8")
    ReviewLog(reviews).append(review(query_id="q2"))
    scores = rw.evaluate(str(data), reviews=str(reviews))
    assert scores.judge_scores.batch.samples[1].answer2response.tolist() == [1, 0]
    assert scores.samples[1].answer2response.tolist() == [1, 1] and scores.samples[0].answer2response.tolist() == [1, 0]
    assert scores.frame["precision"].tolist() == [0.5, 1.0]
    again = scores.reviewed([review(query_id="q1", claim=0, label="Neutral")])  # replaces, does not stack
    assert again.frame["precision"].tolist() == [0.0, 0.5]


def test_dask_says_reviews_are_not_there_yet():
    with pytest.raises(ValueError, match="reviews are not available on a Dask cluster yet"):
        rw.evaluate("x*.jsonl", engine="dask", reviews=[review()])


# -- the differential test ------------------------------------------------------------------------------

def _cells(record):
    out = []
    for kind in KINDS:
        rows = record.get(kind) or []
        if kind in ("answer2response", "response2answer"):
            out += [(kind, j, None) for j in range(len(rows))]
        else:
            out += [(kind, j, record["retrieved_context"][k]["doc_id"]) for j, row in enumerate(rows)
                    for k in range(len(row))]
    return out


@st.composite
def reviewed_runs(draw):
    records = draw(st.lists(ragchecker_records(max_claims=4, max_passages=3), min_size=1, max_size=5))
    for i, r in enumerate(records):
        r["query_id"] = f"q{i}"
    cells = [(r["query_id"], *c) for r in records for c in _cells(r)]
    picked = draw(st.lists(st.sampled_from(cells), max_size=8)) if cells else []
    labels = draw(st.lists(st.sampled_from(["Entailment", "Neutral", "Contradiction"]), min_size=len(picked),
                           max_size=len(picked)))
    return records, [Review(q, kind, j, label, doc_id=d) for (q, kind, j, d), label in zip(picked, labels)]


def _hand_edit(records, reviews):
    out = copy.deepcopy(records)
    by_id = {r["query_id"]: r for r in out}
    for r in reviews:  # in order: a later review of the same cell wins
        record = by_id[r.query_id]
        if r.doc_id is None:
            record[r.kind][r.claim] = r.label
        else:
            k = [p["doc_id"] for p in record["retrieved_context"]].index(r.doc_id)
            record[r.kind][r.claim][k] = r.label
    return out


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(reviewed_runs(), st.sampled_from(["all_claims", "required_and_optional"]), st.sampled_from(["null", "zero"]))
def test_evaluate_with_reviews_equals_the_hand_edited_samples(run, mode, undefined):
    records, reviews = run
    if mode != "all_claims":
        for r in records:
            r["response_claim_labels"] = ["REQUIRED", "OPTIONAL"] * 3
            r["response_claim_labels"] = r["response_claim_labels"][:len(r["response_claims"])]
            r["gt_answer_claim_labels"] = ["OPTIONAL", "REQUIRED"] * 3
            r["gt_answer_claim_labels"] = r["gt_answer_claim_labels"][:len(r["gt_answer_claims"])]
    untouched = copy.deepcopy(records)
    with warnings.catch_warnings():
        warnings.simplefilter("error", InputWarning)  # every review matches: no warning
        scored = evaluate(records, mode=mode, undefined=undefined, reviews=reviews)
    assert records == untouched
    expected = evaluate(_hand_edit(records, reviews), mode=mode, undefined=undefined)
    pd.testing.assert_frame_equal(scored.frame, expected.frame)
    judge = evaluate(records, mode=mode, undefined=undefined)
    pd.testing.assert_frame_equal(scored.judge_scores.frame, judge.frame)
    reviewed_kinds = {}
    for r in reviews:
        reviewed_kinds.setdefault(r.query_id, set()).add(r.kind)
    for i, qid in enumerate(scored.batch.query_ids):  # a metric that reads no reviewed label keeps its value
        for name in scored.names:
            metric = METRICS[name.removeprefix("required_")]
            if not set(metric.needs) & reviewed_kinds.get(qid, set()):
                a, b = scored.frame[name].iat[i], judge.frame[name].iat[i]
                assert (a != a and b != b) or a == b, (qid, name)


def test_labels_decided_by_fact_ids_are_not_reviewed():
    lesson = {"query_id": "f", "retrieved_context": [{"doc_id": "D0", "text": "t", "facts": ["a"]}],
              "response_claims": [{"text": "claim", "facts": ["a"], "cites": ["D0"]}]}
    out = apply_reviews([parse_sample(lesson)], [Review("f", "retrieved2response", 0, "Neutral", doc_id="D0")])
    assert out.applied == 0 and "come from fact IDs" in out.problems[0].reason


# -- reviewing as a team ------------------------------------------------------------------------------

def test_adjudicated_is_written_only_when_true_and_read_back(tmp_path):
    path = tmp_path / "reviews.jsonl"
    log = ReviewLog(path)
    log.append(review(label="Neutral", reviewer="ann"))
    log.append(review(label="Entailment", reviewer="dee", adjudicated=True))
    first, second = (json.loads(line) for line in path.read_text(encoding="utf-8").splitlines())
    assert "adjudicated" not in first and second["adjudicated"] is True
    read = Reviews.read(path)
    assert [r.adjudicated for r in read.history] == [False, True]
    assert Review.from_json(first).adjudicated is False  # a file written before the field reads as before
    frame = read.to_frame()
    assert frame["adjudicated"].tolist() == [True]  # the one label in force: dee's decision
    assert Reviews.from_records(frame.to_dict("records")).history[0].adjudicated is True


@pytest.mark.parametrize("value", ["yes", 1, None, [True]])
def test_an_adjudicated_that_is_not_a_bool_names_file_line_and_field(tmp_path, value):
    path = tmp_path / "reviews.jsonl"
    good = {"query_id": "q1", "kind": "answer2response", "claim": 0, "label": "Entailment"}
    path.write_text(json.dumps(good) + "\n" + json.dumps({**good, "adjudicated": value}) + "\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        Reviews.read(path)
    assert err.value.field == "adjudicated" and f"{path} line 2" in str(err.value)
    assert "true or false" in str(err.value)


def test_every_reviewers_label_stays_readable_and_an_adjudication_wins():
    reviews = Reviews([review(label="Neutral", reviewer="ann"), review(label="Entailment", reviewer="bob"),
                       review(label="Contradiction", reviewer="dee", adjudicated=True),
                       review(label="Neutral", reviewer="bob"),  # a later plain review: the decision stays
                       review(claim=0, label="Entailment"),  # an unnamed reviewer
                       review(claim=0, label="Neutral", reviewer="bob")])
    key = ("q1", "answer2response", 1, None)
    assert len(reviews.history) == 6 and len(reviews) == 2
    assert reviews.reviewers == ["", "ann", "bob"]  # the adjudicator is no reviewer
    assert reviews.latest[key].label == "Contradiction" and reviews.latest[key].reviewer == "dee"
    assert reviews.for_sample("q1")[key[1:]].label == "Contradiction"
    assert reviews.adjudications[key].reviewer == "dee"
    assert reviews.of_reviewer("ann").latest[key].label == "Neutral"
    assert reviews.of_reviewer("bob").latest[key].label == "Neutral" and len(reviews.of_reviewer("bob")) == 2
    assert len(reviews.of_reviewer("")) == 1 and len(reviews.of_reviewer("zed")) == 0
    assert reviews.resolved() is reviews and reviews.resolved("adjudicated") is reviews
    ann = reviews.resolved("ann")
    assert ann.latest[key].label == "Neutral" and len(ann) == 1  # ann's own label: no decision, no one else's
    assert reviews.resolved("bob").latest[("q1", "answer2response", 0, None)].label == "Neutral"
    assert reviews.resolved("").latest[("q1", "answer2response", 0, None)].label == "Entailment"
    with pytest.raises(InputError, match="'', 'ann', 'bob'") as err:
        reviews.resolved("zed")
    assert err.value.field == "use"
    assert [r.kind for r in reviews] == ["answer2response"] * 2 and list(reviews.latest)[0] == key


def test_applying_reviews_applies_the_decision():
    sample = parse_sample(RECORD)
    reviews = Reviews([review(label="Neutral", reviewer="ann"),
                       review(label="Contradiction", reviewer="dee", adjudicated=True),
                       review(label="Entailment", reviewer="bob")])
    applied = apply_reviews([sample], reviews)
    assert applied.samples[0].answer2response[1] == rw.model.LABEL_CODES["Contradiction"]
    applied = apply_reviews([sample], reviews.resolved("ann"))  # ann's labels alone
    assert applied.samples[0].answer2response[1] == rw.model.LABEL_CODES["Neutral"]


def test_a_frame_of_reviews_with_and_without_adjudicated_reads_back():
    frame = pd.DataFrame([{"query_id": "q1", "kind": "answer2response", "claim": 1, "label": "Neutral"},
                          {"query_id": "q1", "kind": "answer2response", "claim": 1, "label": "Entailment",
                           "adjudicated": True}])  # the first row's adjudicated is NaN: absent
    reviews = as_reviews(frame)
    assert [r.adjudicated for r in reviews.history] == [False, True]
    assert reviews.latest[("q1", "answer2response", 1, None)].label == "Entailment"
