"""Reviews in the run model: applied at load, and live (``run.review``), only the reviewed samples
scored again, the judge's values kept beside; the cluster run says it cannot."""

import warnings

import numpy as np
import pandas as pd
import pytest

from ragwidgets.analysis.runs import CAPABILITIES, Charts, InMemoryRun, Query
from ragwidgets.datasets.synthetic import synthetic_run
from ragwidgets.engine import evaluate
from ragwidgets.errors import InputWarning
from ragwidgets.reviews import Review, ReviewLog, Reviews


def _first_claim_reviews(records, label="Neutral"):
    """A review of the first response claim's answer2response label in every sample that has one."""
    return [Review(r["query_id"], "answer2response", 0, label) for r in records if r["response_claims"]]


def test_reviews_at_load_equal_evaluate_with_reviews():
    records = synthetic_run(40, seed=3)
    reviews = _first_claim_reviews(records)[:7]
    run = InMemoryRun(records, reviews=reviews)
    expected = evaluate(records, reviews=reviews)
    for m in run.metrics:
        np.testing.assert_array_equal(run.frame[m].to_numpy(), expected.frame[m].to_numpy())
        np.testing.assert_array_equal(run.judge_frame[m].to_numpy(), expected.judge_scores.frame[m].to_numpy())
    assert len(run.reviews) == 7 and run.review_problems == []
    assert list(run.judge_frame["query_id"]) == list(run.frame["query_id"])


def test_a_live_review_patches_only_its_sample_and_everything_follows():
    records = synthetic_run(40, seed=4)
    run = InMemoryRun(records)
    run.update(Query())
    before = run.frame.copy()
    reviews = _first_claim_reviews(records)[:2]
    with warnings.catch_warnings():
        warnings.simplefilter("error", InputWarning)
        positions = run.review(reviews)
    rows = [int(run.row_of(i)) for i in positions]
    assert [run.frame["query_id"].iat[r] for r in rows] == [r.query_id for r in reviews]
    expected = evaluate(records, reviews=reviews)
    for m in run.metrics:
        np.testing.assert_array_equal(run.frame[m].to_numpy(), expected.frame[m].to_numpy())
        np.testing.assert_array_equal(run.status[m].to_numpy(), expected.parts[0].code[m])
    others = np.setdiff1d(np.arange(len(before)), rows)
    pd.testing.assert_frame_equal(run.frame.iloc[others], before.iloc[others])
    pd.testing.assert_frame_equal(run.judge_frame[run.metrics], before[run.metrics])  # the judge's values stay
    summary = {row["metric"]: row["mean"] for row in run.view(run.query, Charts(), -1)["summary"]}
    assert summary["precision"] == pytest.approx(expected.aggregate()["precision"]["mean"])
    changes = run.review_summary()
    assert changes.loc["precision", "judge_mean"] == pytest.approx(evaluate(records).aggregate()["precision"]["mean"])
    assert changes.loc["precision", "reviewed_mean"] == pytest.approx(expected.aggregate()["precision"]["mean"])
    assert changes["reviews"].iat[0] == 2
    assert run.sample(rows[0]).answer2response[0] == 0
    pd.testing.assert_frame_equal(run.scores["run"].frame, expected.frame)  # scored again when asked for


def test_a_later_review_of_the_same_label_wins_and_problems_are_kept():
    records = synthetic_run(10, seed=5)
    qid = next(r["query_id"] for r in records if r["response_claims"])
    run = InMemoryRun(records)
    run.review(Review(qid, "answer2response", 0, "Neutral"))
    run.review({"query_id": qid, "kind": "answer2response", "claim": 0, "label": "Entailment"})
    assert run.sample(int(run.row_of(int(qid)))).answer2response[0] == 1 and len(run.reviews) == 1
    with pytest.warns(InputWarning, match="1 review"):
        assert len(run.review(Review(qid, "answer2response", 99, "Neutral"))) == 1
    assert "out of range" in run.review_problems[0].reason
    with pytest.warns(InputWarning):
        assert len(run.review(Review("nobody", "answer2response", 0, "Neutral"))) == 0
    assert len(run.review_problems) == 2


def test_a_reviews_path_is_read_and_appended_to(tmp_path):
    records = synthetic_run(10, seed=6)
    path = tmp_path / "reviews.jsonl"
    first, second = _first_claim_reviews(records)[:2]
    ReviewLog(path).append(first)
    run = InMemoryRun(records, reviews=path)
    assert [r.key for r in run.reviews] == [first.key]
    run.review(second)
    assert [r.key for r in Reviews.read(path)] == [first.key, second.key]


def test_several_runs_take_reviews_per_run():
    a, b = synthetic_run(10, seed=1), synthetic_run(10, seed=1, quality=0.8)
    with pytest.raises(ValueError, match="give reviews per run"):
        InMemoryRun({"a": a, "b": b}, reviews=_first_claim_reviews(a))
    with pytest.raises(ValueError, match="run\\(s\\) 'c'"):
        InMemoryRun({"a": a, "b": b}, reviews={"c": []})
    run = InMemoryRun({"a": a, "b": b}, reviews={"b": _first_claim_reviews(b)[:1]})
    assert len(run.reviews["a"]) == 0 and len(run.reviews["b"]) == 1
    with pytest.raises(ValueError, match="name the run"):
        run.review(_first_claim_reviews(a)[:1])
    positions = run.review(_first_claim_reviews(a)[:1], run="a")
    assert run.frame["run"].iat[int(positions[0])] == "a"
    assert run.comparison is not None


def test_reviews_is_a_capability_the_cluster_run_lacks():
    assert "reviews" in CAPABILITIES and "reviews" in InMemoryRun.capabilities
    dask_run = pytest.importorskip("ragwidgets.dask.run")
    assert "reviews" not in dask_run.ClusterRun.capabilities


def test_slices_follow_a_review():
    records = synthetic_run(60, seed=8)
    flip = {"Entailment": "Neutral", "Neutral": "Entailment", "Contradiction": "Entailment"}
    reviews = [Review(r["query_id"], "answer2response", j, flip[label]) for r in records[:20]
               for j, label in enumerate(r["answer2response"])]
    run = InMemoryRun(records)
    judged = {s["name"]: s["size"] for s in run.view(Query(), Charts(), -1)["slices"]}
    run.review(reviews)
    fresh = InMemoryRun(records, reviews=reviews)
    sizes = {s["name"]: s["size"] for s in run.view(Query(), Charts(), -1)["slices"]}
    assert sizes == {s["name"]: s["size"] for s in fresh.view(Query(), Charts(), -1)["slices"]}
    assert sizes != judged  # the reviews moved samples in or out of a slice
    for s in fresh.slices:
        assert run.update(Query(slice=s.name)) is False
        mine = set(run.order.tolist())
        fresh.update(Query(slice=s.name))
        assert mine == set(fresh.order.tolist())


def test_two_runs_cannot_share_one_reviews_file(tmp_path):
    a, b = synthetic_run(10, seed=1), synthetic_run(10, seed=1, quality=0.8)
    path = tmp_path / "r.jsonl"
    with pytest.raises(ValueError, match="runs 'a' and 'b' are given the same reviews file"):
        InMemoryRun({"a": a, "b": b}, reviews={"a": path, "b": str(tmp_path / "." / "r.jsonl")})
    assert not path.exists()  # refused before anything is opened or written
    run = InMemoryRun({"a": a, "b": b}, reviews={"a": path, "b": tmp_path / "b.jsonl"})
    assert len(run.reviews["a"]) == 0
