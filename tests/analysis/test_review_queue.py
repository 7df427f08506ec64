"""The review queue: random is uniform, stratified is proportional, consequential ranks by how
far one label moves the metric, reviewed samples are skipped, progress counts them."""

import json

import numpy as np
import pytest

import ragwidgets as rw
from judge_runs import true_reviews
from ragwidgets.analysis.review_queue import progress, review_queue
from ragwidgets.datasets import synthetic_run

E, N = "Entailment", "Neutral"


def _record(qid, claims):
    return {"query_id": qid, "query": "q", "gt_answer": "g", "response": "r",
            "retrieved_context": [{"doc_id": "d0", "text": "t"}],
            "response_claims": [["s", "p", str(j)] for j in range(claims)], "gt_answer_claims": [["s", "p", "0"]],
            "answer2response": [E] * claims, "response2answer": [N],
            "retrieved2response": [[E]] * claims, "retrieved2answer": [[N]]}


@pytest.fixture(scope="module")
def run():
    records = rw.datasets.synthetic_run(60, seed=2)
    return records, rw.evaluate(records)


def test_random_queue_is_uniform_over_the_samples_left(run):
    records, scores = run
    eligible = review_queue(scores, 1000).query_ids  # every sample with a label to review
    assert len(eligible) == len(set(eligible)) == sum(
        bool(r["response_claims"] or r["gt_answer_claims"]) for r in records)
    draws, n = 1500, 10
    counts = dict.fromkeys(eligible, 0)
    for seed in range(draws):
        q = review_queue(scores, n, seed=seed)
        assert len(set(q.query_ids)) == n
        for qid in q:
            counts[qid] += 1
    expected = draws * n / len(eligible)
    chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
    df = len(eligible) - 1
    assert chi2 < df + 4 * np.sqrt(2 * df), chi2  # about 4 standard deviations of chi-square(df)
    assert review_queue(scores, n, seed=3).query_ids == review_queue(scores, n, seed=3).query_ids


def test_stratified_queue_allocates_in_proportion(run):
    records = [_record(str(i), 2) for i in range(200)]
    scores = rw.evaluate(records)
    groups = np.array(["a"] * 120 + ["b"] * 60 + ["c"] * 20)
    q = review_queue(scores, 50, strategy="stratified", by=groups, seed=1)
    assert q.frame["stratum"].value_counts().to_dict() == {"a": 30, "b": 15, "c": 5}
    assert all(groups[int(qid)] == s for qid, s in zip(q.query_ids, q.frame["stratum"]))
    by_column = review_queue(run[1], 12, strategy="stratified", by="n_passages")
    assert len(by_column) == 12
    with pytest.raises(ValueError, match="not a column"):
        review_queue(scores, 5, strategy="stratified", by="nope")


def test_consequential_queue_ranks_by_how_far_one_label_moves_the_metric():
    scores = rw.evaluate([_record("four", 4), _record("one", 1), _record("two", 2), _record("none", 0)])
    with pytest.warns(UserWarning, match="not a random sample"):
        q = review_queue(scores, 4, strategy="consequential", metric="precision")
    # precision: one claim of a sample with k claims moves the mean of 3 defined samples by 1 / (3k)
    assert q.query_ids == ["one", "two", "four"]  # "none" has no claim: nothing to review
    assert q.frame["score"].tolist() == pytest.approx([1 / 3, 1 / 6, 1 / 12])
    assert q.kinds == ("answer2response",) and "corrected" in q.note


def test_reviewed_samples_are_skipped_and_counted_as_progress(run):
    records, scores = run
    q = review_queue(scores, 10, seed=4)
    done = true_reviews(records, [int(x) for x in q.query_ids[:3]])
    half = true_reviews(records, [int(q.query_ids[3])])[:1]  # one label of a fourth sample
    assert progress(q, done + half) == (3, 10)
    assert progress(q, rw.evaluate(records, reviews=done)) == (3, 10)
    later = review_queue(scores, 1000, reviews=done + half)
    assert not set(q.query_ids[:3]) & set(later.query_ids) and q.query_ids[3] in later.query_ids
    assert later.eligible == len(review_queue(scores, 1000)) - 3
    reviewed = rw.evaluate(records, reviews=done)
    assert set(review_queue(reviewed, 1000).query_ids) == set(review_queue(scores, 1000, reviews=done).query_ids)
    json.dumps(q.to_view(), allow_nan=False)


def test_a_moves_size_does_not_wrap_with_large_int32_counts():
    """The engine keeps per-sample counts as int32: a denominator times the defined samples past
    2**31 is computed in floats, not wrapped into a negative move."""
    from ragwidgets.analysis.review_queue import _moves
    scores = rw.evaluate(rw.datasets.synthetic_run(8, seed=3))
    part = scores.parts[0]
    part.denominator["precision"] = np.full(scores.batch.n_samples, 2**30, dtype=np.int32)
    defined = int((part.code["precision"] == 0).sum())
    moves = _moves(scores, "precision")
    assert defined > 2 and (moves[part.code["precision"] == 0] == 1 / (2**30 * defined)).all()


def test_a_queue_says_itself_in_one_line():
    """The repr names the strategy, the counts and the first query_ids: never the whole frame."""
    scores = rw.evaluate(synthetic_run(50, seed=1))
    queue = rw.analysis.review_queue(scores, 10, double=0.3, seed=2)
    said = repr(queue)
    assert "\n" not in said and said.startswith("ReviewQueue(random: 10 of 50 samples left to review, 3 to review twice; [")
    assert said.endswith(", …])") and ", ".join(queue.query_ids[:5]) in said
