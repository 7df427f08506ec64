"""Comparing runs checks that a shared query_id asks the same question in every run (defect 8)."""

import warnings

import pytest

import ragwidgets as rw
from ragwidgets import analysis as A


def run(queries: dict[str, str]):
    return A.run_table(rw.evaluate([
        {"query_id": qid, "query": q, "response_claims": [["s", "p", "o"]], "answer2response": ["Entailment"]}
        for qid, q in queries.items()]))


def test_pairs_whose_question_differs_are_counted_named_and_warned_about():
    a = run({"q1": "Who built the harbor?", "q2": "When?", "q3": "Where?"})
    b = run({"q1": "Who built the harbor? ", "q2": "Why?", "q3": "How much?", "q4": "extra"})
    with pytest.warns(UserWarning, match=r"different question than in 'a' \(b: 2 \(e\.g\. 'q2'\)\)"):
        c = A.compare_runs({"a": a, "b": b})
    assert c.query_mismatch == {"b": 2}
    assert c.mismatched == {"b": ["q2", "q3"]}
    assert c.summary["paired"].iloc[0] == 3  # still paired by query_id


def test_the_same_questions_compare_without_a_warning():
    a = run({"q1": "x", "q2": "y"})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        c = A.compare_runs({"a": a, "b": run({"q2": "y", "q1": "x"}), "c": run({"q1": "x", "q2": "y"})})
    assert c.query_mismatch == {"b": 0, "c": 0}


def test_the_explorers_view_and_report_carry_the_count(tmp_path):
    records = lambda qs: [{"query_id": k, "query": q, "response_claims": [["s", "p", "o"]],
                           "answer2response": ["Neutral"]} for k, q in qs.items()]
    with pytest.warns(UserWarning):
        d = rw.DatasetExplorer({"base": rw.evaluate(records({"q1": "a", "q2": "b"})),
                                "new": rw.evaluate(records({"q1": "a", "q2": "other"}))})
    assert d.view_state["compare"]["query_mismatch"] == {"new": 1}
    page = d.to_html(tmp_path / "r.html").read_text(encoding="utf-8")
    assert "1 shared query_id(s) of <bdi>new</bdi> ask a different question" in page
