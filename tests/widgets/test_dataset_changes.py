"""The DatasetExplorer's claim changes (widgets/dataset/changes.py, drawn in the comparison tab):
found only when the front end asks, equal to rw.analysis.changes.claim_changes on the same runs,
each query with its row in the table, bounded, stale after another metric or a review."""

from __future__ import annotations

import pytest

import ragwidgets as rw
from ragwidgets.analysis.changes import claim_changes
from ragwidgets.datasets.refchecker import refchecker_human
from ragwidgets.widgets.dataset.changes import MAX_CHANGES, MAX_TOP

E, N, C = "Entailment", "Neutral", "Contradiction"


def record(qid, claims, labels, docs=("d1", "d2"), grid=None):
    return {"query_id": qid, "query": f"question {qid}", "gt_answer": "g", "response": "r",
            "retrieved_context": [{"doc_id": d, "text": f"passage {d}"} for d in docs],
            "response_claims": claims, "answer2response": labels,
            "retrieved2response": grid if grid is not None else [[N] * len(docs) for _ in claims]}


def runs():
    base = [record(f"q{k}", ["a", "b", "c", "d"], [E] * 4, grid=[[E, N]] * 4) for k in range(6)]
    new = [record(f"q{k}", ["a", "b", "c", "d"], [N] * k + [E] * (4 - k), grid=[[N, C]] * k + [[E, N]] * (4 - k))
           for k in range(6) if k != 5] + [record("q5", ["a", "b", "c", "d"], [E] * 4, grid=[[E, N]] * 4)]
    return rw.evaluate(base), rw.evaluate(new)


def ask(ex, message: dict) -> dict:
    """The one reply the widget sends to a front-end ``message``."""
    replies = []
    ex.send = lambda content, buffers=None: replies.append(content)
    ex._handle_custom_msg({"request": 1, **message}, [])
    assert len(replies) == 1
    return replies[0]


def test_found_when_asked_equal_to_claim_changes_with_each_querys_row():
    base, new = runs()
    ex = rw.DatasetExplorer({"base": base, "new": new}, compare_metric="precision")
    part = ex.view_state["changes"]
    assert part == {"metric": "precision", "runs": ["new"], "top": 10, "max_top": MAX_TOP, "found": None}
    reply = ask(ex, {"type": "claim_changes"})
    assert "error" not in reply and reply["queries"] == 4
    found = ex.view_state["changes"]["found"]
    assert (found["metric"], found["run"], found["top"], found["baseline"]) == ("precision", "new", 10, "base")
    want = claim_changes(base, new, metric="precision")
    ids = [q["query_id"] for q in found["queries"]]
    assert ids == list(dict.fromkeys(want["query_id"])) == ["q4", "q3", "q2", "q1"]
    for q in found["queries"]:
        rows = want[want["query_id"] == q["query_id"]]
        assert q["difference"] == rows["difference"].iat[0] and q["more"] == 0 and q["said"] == ""
        assert [c["change"] for c in q["changes"]] == rows["change"].tolist()
        assert [c["claim"] for c in q["changes"]] == rows["claim"].tolist()
        assert ex.frame["run"].iat[q["row"]] == "new" and ex.frame["query_id"].iat[q["row"]] == q["query_id"]
    assert found["queries"][-1]["changes"] == [
        {"claim": 0, "claim_text": "a", "kind": "answer2response", "passage": None, "base_label": E,
         "new_label": N, "change": "entailed → not entailed, by the ground-truth answer"},
        {"claim": 0, "claim_text": "a", "kind": "retrieved2response", "passage": "d1", "base_label": E,
         "new_label": N, "change": "entailed → not entailed, by passage d1"},
        {"claim": 0, "claim_text": "a", "kind": "retrieved2response", "passage": "d2", "base_label": N,
         "new_label": C, "change": "not entailed → contradicted, by passage d2"}]
    ex.selected = found["queries"][0]["row"]  # the front end opens a query in the drill-down
    assert ex.sample(ex.selected).query_id == "q4"


def test_another_metric_leaves_them_stale_and_top_asks_for_more():
    base, new = runs()
    ex = rw.DatasetExplorer({"base": base, "new": new}, compare_metric="precision")
    ask(ex, {"type": "claim_changes", "run": "new", "top": 2})
    assert [q["query_id"] for q in ex.view_state["changes"]["found"]["queries"]] == ["q4", "q3"]
    ex.compare_metric = "faithfulness"
    assert ex.view_state["changes"]["metric"] == "faithfulness" and ex.view_state["changes"]["found"] is None
    ask(ex, {"type": "claim_changes", "top": 3})
    found = ex.view_state["changes"]["found"]
    assert found["metric"] == "faithfulness" and found["top"] == 3
    assert [q["query_id"] for q in found["queries"]] == list(
        dict.fromkeys(claim_changes(base, new, metric="faithfulness", top=3)["query_id"]))


def test_a_review_leaves_them_stale_and_they_follow_the_reviewed_labels():
    base, new = runs()
    ex = rw.DatasetExplorer({"base": base, "new": new}, compare_metric="precision")
    ask(ex, {"type": "claim_changes"})
    ex.selected = ex._panels["changes"].found["queries"][-1]["row"]  # q1 of new: claim 0 fell
    ex.review("answer2response", 0, E)  # the reviewer says claim 0 is entailed after all
    assert ex.view_state["changes"]["found"] is None
    ask(ex, {"type": "claim_changes"})
    ids = [q["query_id"] for q in ex.view_state["changes"]["found"]["queries"]]
    assert ids == ["q4", "q3", "q2"]  # q1 no longer moved on precision


def test_requests_are_checked_and_bounded():
    base, new = runs()
    ex = rw.DatasetExplorer({"base": base, "new": new, "other": new}, compare_metric="precision")
    assert ex.view_state["changes"]["runs"] == ["new", "other"]
    assert "run must be one of 'new', 'other', not 'base'" in ask(ex, {"type": "claim_changes", "run": "base"})["error"]
    assert "top must be a whole number from 1 to 50" in ask(ex, {"type": "claim_changes", "top": 51})["error"]
    assert "top must be a whole number" in ask(ex, {"type": "claim_changes", "top": "9; drop"})["error"]
    assert ex.view_state["changes"]["found"] is None  # a refused request leaves nothing behind
    one = rw.DatasetExplorer(base)
    assert one.view_state["changes"] is None
    assert "need two or more runs compared" in ask(one, {"type": "claim_changes"})["error"]


def test_a_query_with_many_changes_sends_the_first_and_counts_the_rest():
    many = [f"claim {k}" for k in range(MAX_CHANGES + 5)]
    base = rw.evaluate([record("q1", many, [E] * len(many), docs=("d1",), grid=[[N]] * len(many))])
    new = rw.evaluate([record("q1", many, [N] * len(many), docs=("d1",), grid=[[N]] * len(many))])
    ex = rw.DatasetExplorer({"base": base, "new": new}, compare_metric="precision")
    ask(ex, {"type": "claim_changes"})
    q = ex.view_state["changes"]["found"]["queries"][0]
    assert len(q["changes"]) == MAX_CHANGES and q["more"] == 5


@pytest.mark.parametrize("setting", ["noisy_context"])
def test_refchecker_systems_show_the_claims_each_added_or_removed(setting):
    """Real runs: two RefChecker systems answer differently, so their claims are added and removed,
    each with the passage that entails or contradicts it."""
    systems = refchecker_human(setting)
    base, new = rw.evaluate(systems["alpaca_7B"]), rw.evaluate(systems["gpt4"])
    frame = claim_changes(base, new, metric="faithfulness", top=5)
    assert frame["query_id"].nunique() == 5
    assert set(frame["change"].str.split(" ").str[0]) <= {"added", "removed", "entailed", "not", "contradicted",
                                                          "unjudged", "no"}
    by_passage = frame[frame["passage"].notna()]
    assert len(by_passage) and by_passage["kind"].eq("retrieved2response").all()
    assert by_passage["change"].str.contains(r"by passage \S+").all()
