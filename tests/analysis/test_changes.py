"""claim_changes: the queries that moved most on a metric and, within each, the claims whose labels
changed between two runs (matched by text; passages by doc_id). Checked by hand on a small pair and
against a brute-force loop over every sample of hypothesis-drawn pairs of runs."""

from __future__ import annotations

import re

import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ragwidgets as rw
from ragwidgets.analysis.changes import COLUMNS, claim_changes
from ragwidgets.analysis.table import run_table

E, N, C = "Entailment", "Neutral", "Contradiction"


def record(qid, claims, a2r, r2r=None, docs=(), gt=None, r2a_gt=None, gt_grid=None):
    out = {"query_id": qid, "query": f"question {qid}", "gt_answer": "the answer", "response": "an answer",
           "retrieved_context": [{"doc_id": d, "text": f"passage {d}"} for d in docs],
           "response_claims": claims, "answer2response": a2r}
    if r2r is not None:
        out["retrieved2response"] = r2r
    if gt is not None:
        out["gt_answer_claims"], out["response2answer"] = gt, r2a_gt
    if gt_grid is not None:
        out["retrieved2answer"] = gt_grid
    return out


def test_a_small_pair_by_hand():
    base = rw.evaluate([
        record("q1", ["The harbor opened in 1890.", "It has two piers."], [E, E], [[E, N], [N, E]], ["d1", "d2"]),
        record("q2", ["Fine."], [E], [[E]], ["d1"]),
        record("q3", ["A", "B"], [E, N], [[N], [N]], ["d1"]),
    ])
    new = rw.evaluate([
        record("q1", ["the harbor  opened in 1890", "It has three piers."], [N, N], [[N, C], [N, N]], ["d1", "d3"]),
        record("q2", ["Fine."], [E], [[E]], ["d1"]),
        record("q3", ["B", "A"], [E, E], [[N], [N]], ["d1"]),
    ])
    frame = claim_changes(base, new, metric="precision")
    assert list(frame.columns) == list(COLUMNS)
    rows = [tuple(None if v is None or (isinstance(v, float) and np.isnan(v)) else v for v in r)
            for r in frame.astype(object).itertuples(index=False)]
    assert rows == [
        # q1 fell from 1 to 0: its largest move comes first
        ("q1", 1.0, 0.0, -1.0, 0, "the harbor  opened in 1890", "answer2response", None, E, N,
         "entailed → not entailed, by the ground-truth answer"),
        ("q1", 1.0, 0.0, -1.0, 0, "the harbor  opened in 1890", "retrieved2response", "d1", E, N,
         "entailed → not entailed, by passage d1"),
        ("q1", 1.0, 0.0, -1.0, 0, "the harbor  opened in 1890", "retrieved2response", "d3", None, C,
         "not retrieved → contradicted, by passage d3"),
        ("q1", 1.0, 0.0, -1.0, 1, "It has three piers.", "answer2response", None, None, N,
         "added (not entailed by the ground-truth answer)"),
        ("q1", 1.0, 0.0, -1.0, 1, "It has two piers.", "answer2response", None, E, None,
         "removed (was entailed by the ground-truth answer)"),
        ("q1", 1.0, 0.0, -1.0, 1, "It has two piers.", "retrieved2response", "d2", E, None,
         "removed (was entailed by passage d2)"),
        # q3 rose by 0.5: B matched across the reorder, its index the new run's
        ("q3", 0.5, 1.0, 0.5, 0, "B", "answer2response", None, N, E,
         "not entailed → entailed, by the ground-truth answer"),
    ]  # q2 did not move: left out; d2 (base only, neutral for claim 0) is no change


def test_passages_without_doc_ids_are_matched_by_text_not_position():
    """Passages given without doc_ids are named P1, P2, ... by position: after retrieval changed,
    the base run's P2 is the new run's P1. The claim entailed by that passage in both runs did
    not change (by position it would read "not entailed → entailed, by passage P1"); the passage
    only the new run retrieved is said as such, under its name there."""
    def run(texts, grid, a2r):
        return rw.evaluate([{"query_id": "q1", "query": "q?", "gt_answer": "g.", "response": "r.",
                             "retrieved_context": [{"text": t} for t in texts], "response_claims": ["A", "B"],
                             "answer2response": a2r, "retrieved2response": grid}])
    base = run(["the pier is old", "the harbor opened in 1890"], [[N, E], [N, N]], [E, E])
    new = run(["the harbor opened in 1890", "ferries leave hourly"], [[E, N], [N, C]], [E, N])
    frame = claim_changes(base, new, metric="precision")
    assert [(r.claim_text, r.passage, r.change) for r in frame.itertuples()] == [
        ("B", None, "entailed → not entailed, by the ground-truth answer"),
        ("B", "P2", "not retrieved → contradicted, by passage P2"),
    ]


def test_ground_truth_claims_and_a_query_that_moved_with_no_label_changed():
    base = rw.evaluate([record("q1", ["x"], [E], gt=["g1", "g2"], r2a_gt=[E, E], gt_grid=[[E], [N]], docs=["d1"])])
    new = rw.evaluate([record("q1", ["x"], [E], gt=["g1", "g2"], r2a_gt=[E, N], gt_grid=[[E], [None]], docs=["d1"])])
    frame = claim_changes(base, new, metric="recall")
    assert frame[["claim", "kind", "passage", "base_label", "new_label", "change"]].astype(object).values.tolist() == [
        [1, "response2answer", None, E, N, "entailed → not entailed, by the response"],
        [1, "retrieved2answer", "d1", N, "unjudged", "not entailed → unjudged, by passage d1"]]
    # a move with every label as it was (a passage's relevance flag changed): one row that says so
    a = record("q1", ["x"], [E], [[E]], docs=["d1"])
    b = {**a, "retrieved_context": [{"doc_id": "d1", "text": "passage d1", "relevant": False}]}
    a = {**a, "retrieved_context": [{"doc_id": "d1", "text": "passage d1", "relevant": True}]}
    moved = claim_changes(rw.evaluate([a]), rw.evaluate([b]), metric="context_relevance")
    assert moved[["query_id", "difference", "change"]].values.tolist() == [["q1", -1.0, "no claim label changed"]]
    assert moved["claim"].isna().all() and moved["kind"].isna().all()


def test_top_keeps_the_largest_moves_and_runtables_are_accepted():
    base = rw.evaluate([record(f"q{k}", ["a", "b", "c", "d"], [E] * 4) for k in range(5)])
    new = rw.evaluate([record(f"q{k}", ["a", "b", "c", "d"], [N] * k + [E] * (4 - k)) for k in range(5)])
    frame = claim_changes(run_table(base), run_table(new), metric="precision", top=2)
    assert frame["query_id"].unique().tolist() == ["q4", "q3"]
    assert frame.groupby("query_id", sort=False).size().tolist() == [4, 3]


def test_bad_calls_say_what_is_wrong():
    base = rw.evaluate([record("q1", ["a"], [E])])
    with pytest.raises(ValueError, match=r"metric must be one of the base run's metrics .*not 'nope'"):
        claim_changes(base, base, metric="nope")
    with pytest.raises(ValueError, match="top must be a whole number ≥ 1, not 0"):
        claim_changes(base, base, metric="precision", top=0)
    with pytest.raises(TypeError, match="new must be a run's Scores"):
        claim_changes(base, [{"query_id": "q1"}], metric="precision")
    with pytest.raises(ValueError, match="share no query_id"):
        claim_changes(base, rw.evaluate([record("other", ["a"], [E])]), metric="precision")


# -- the brute force: every sample of the two runs, straight from the records ----------------------------------

TEXTS = ["Sky is blue.", "Grass is green", "Water is wet.", "Fire is hot"]
DOCS = ["d1", "d2", "d3", "d4"]
CODES = {E: 1, N: 0, C: 2, None: -1}
WORD = {1: "entailed", 0: "not entailed", 2: "contradicted", -1: "unjudged", None: "no label"}


def norm(text):
    text = re.sub(r"\s+", " ", text).strip().lower()
    return text[:-1].strip() if text.endswith(".") else text


@st.composite
def sample_record(draw, qid):
    label = st.sampled_from([E, N, C, None])
    claims = draw(st.lists(st.sampled_from(TEXTS), max_size=4))
    gt = draw(st.lists(st.sampled_from(TEXTS), max_size=3))
    docs = draw(st.lists(st.sampled_from(DOCS), max_size=3, unique=True))
    out = {"query_id": qid, "query": f"question {qid}", "gt_answer": "g", "response": "r",
           "retrieved_context": [{"doc_id": d, "text": d} for d in docs],
           "response_claims": claims, "gt_answer_claims": gt}
    for name, rows in (("answer2response", claims), ("response2answer", gt)):
        if draw(st.integers(0, 5)):  # now and then a run without the label
            out[name] = draw(st.lists(label, min_size=len(rows), max_size=len(rows)))
    for name, rows in (("retrieved2response", claims), ("retrieved2answer", gt)):
        if draw(st.integers(0, 5)):
            out[name] = [draw(st.lists(label, min_size=len(docs), max_size=len(docs))) for _ in rows]
    return out


@st.composite
def spelt(draw, text):
    """``text`` as another run may spell it: its case, spaces and final full stop changed, or as it is."""
    return draw(st.sampled_from([text, text.upper(), f"  {text.lower()} ", text.rstrip(".").replace(" ", "  "),
                                 text.rstrip(".") + "."]))


@st.composite
def next_run(draw, rec):
    """The same query in a later run: its claims kept (respelt, reordered, their labels kept or
    drawn again), dropped or new, and its passages kept, dropped or new."""
    label = st.sampled_from([E, N, C, None])
    docs = [d for d in (p["doc_id"] for p in rec["retrieved_context"]) if draw(st.integers(0, 3))]
    docs += draw(st.lists(st.sampled_from([d for d in DOCS if d not in docs]), max_size=2, unique=True))
    docs = draw(st.permutations(docs))
    out = {**rec, "retrieved_context": [{"doc_id": d, "text": d} for d in docs]}
    for claims, vector, grid in (("response_claims", "answer2response", "retrieved2response"),
                                 ("gt_answer_claims", "response2answer", "retrieved2answer")):
        old_docs = [p["doc_id"] for p in rec["retrieved_context"]]
        kept = [i for i in range(len(rec[claims])) if draw(st.integers(0, 4))]
        made = [(draw(spelt(rec[claims][i])), i) for i in kept]
        made += [(t, None) for t in draw(st.lists(st.sampled_from(TEXTS), max_size=2))]
        made = draw(st.permutations(made))
        out[claims] = [t for t, _ in made]
        keep = draw(st.booleans())  # labels carried over where they can be, else drawn
        if vector in rec and draw(st.integers(0, 5)):
            out[vector] = [rec[vector][i] if keep and i is not None else draw(label) for _, i in made]
        else:
            out.pop(vector, None)
        if grid in rec and draw(st.integers(0, 5)):
            out[grid] = [[rec[grid][i][old_docs.index(d)] if keep and i is not None and d in old_docs
                          and draw(st.integers(0, 3)) else draw(label) for d in docs] for _, i in made]
        else:
            out.pop(grid, None)
    return out


@st.composite
def run_pairs(draw):
    ids = [f"q{k}" for k in range(draw(st.integers(1, 7)))]
    base = [draw(sample_record(q)) for q in ids]
    new_ids = draw(st.permutations(ids + ["extra"]))[: draw(st.integers(1, len(ids) + 1))]
    by_id = {r["query_id"]: r for r in base}
    new = [draw(next_run(by_id[q])) if q in by_id and draw(st.integers(0, 5)) else
           dict(by_id[q]) if q in by_id else draw(sample_record(q)) for q in new_ids]
    return base, new


def brute_force(base_records, new_records, base, new, metric, top):
    """Every shared sample's move and label changes, by loops over the records, then the top."""
    new_by_id = {r["query_id"]: r for r in new_records}
    moves = []
    for r in base_records:
        q = r["query_id"]
        if q not in new_by_id:
            continue
        a, b = base.metrics(q).get(metric), new.metrics(q).get(metric)
        if a is None or b is None or b - a == 0:
            continue
        moves.append((q, a, b, b - a))
    moves.sort(key=lambda m: -abs(m[3]))  # stable: the base run's order among equal moves
    rows = []
    for q, a, b, d in moves[:top]:
        old, cur = next(r for r in base_records if r["query_id"] == q), new_by_id[q]
        found = []
        for claims, vector, grid, other in (
                ("response_claims", "answer2response", "retrieved2response", "the ground-truth answer"),
                ("gt_answer_claims", "response2answer", "retrieved2answer", "the response")):
            used, pairs = set(), []
            for j, text in enumerate(cur[claims]):
                i = next((i for i, t in enumerate(old[claims]) if i not in used and norm(t) == norm(text)), None)
                if i is not None:
                    used.add(i)
                pairs.append((j, i))
            pairs += [(None, i) for i in range(len(old[claims])) if i not in used]

            def lab(rec, name, i, doc=None):
                if i is None or name not in rec:
                    return None
                if doc is None:
                    return CODES[rec[name][i]]
                docs = [p["doc_id"] for p in rec["retrieved_context"]]
                return CODES[rec[name][i][docs.index(doc)]] if doc in docs else None

            old_docs = [p["doc_id"] for p in old["retrieved_context"]]
            new_docs = [p["doc_id"] for p in cur["retrieved_context"]]
            for j, i in pairs:
                text = cur[claims][j] if j is not None else old[claims][i]
                x, y = lab(old, vector, i), lab(cur, vector, j)
                spell = lambda code: None if code is None else {1: E, 0: N, 2: C, -1: "unjudged"}[code]
                if i is None or j is None:
                    said, code, rec, k = ("added", y, cur, j) if i is None else ("removed", x, old, i)
                    was = "" if i is None else "was "
                    mine = []
                    if vector in rec:
                        mine.append((k, text, vector, None, spell(x), spell(y),
                                     f"{said} ({was}{WORD[code]} by {other})"))
                    for doc in [p["doc_id"] for p in rec["retrieved_context"]]:
                        code = lab(rec, grid, k, doc)
                        if code in (1, 2):
                            mine.append((k, text, grid, doc, spell(code) if i is not None else None,
                                         spell(code) if i is None else None,
                                         f"{said} ({was}{WORD[code]} by passage {doc})"))
                    found += mine or [(k, text, vector, None, None, None, said)]
                    continue
                if x != y:
                    found.append((j, text, vector, None, spell(x), spell(y), f"{WORD[x]} → {WORD[y]}, by {other}"))
                for doc in old_docs + [d for d in new_docs if d not in old_docs]:
                    x, y = lab(old, grid, i, doc), lab(cur, grid, j, doc)
                    if x == y or (x is None and y in (0, -1)) or (y is None and x in (0, -1)):
                        continue
                    sx = "not retrieved" if doc not in old_docs else WORD[x]
                    sy = "not retrieved" if doc not in new_docs else WORD[y]
                    found.append((j, text, grid, doc, spell(x), spell(y), f"{sx} → {sy}, by passage {doc}"))
        rows += [(q, a, b, d, *f) for f in found] or [(q, a, b, d, None, None, None, None, None, None,
                                                       "no claim label changed")]
    return rows


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(run_pairs(), st.sampled_from(["precision", "recall", "faithfulness", "hallucination", "claim_recall"]),
       st.integers(1, 8))
def test_claim_changes_equal_a_brute_force_loop_over_samples(pair, metric, top):
    base_records, new_records = pair
    base, new = rw.evaluate(base_records), rw.evaluate(new_records)
    if metric not in base.names or metric not in new.names:
        return
    if not {r["query_id"] for r in base_records} & {r["query_id"] for r in new_records}:
        with pytest.raises(ValueError, match="share no query_id"):
            claim_changes(base, new, metric=metric, top=top)
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a shared query_id asking another question: still paired
        frame = claim_changes(base, new, metric=metric, top=top)
    got = [tuple(None if v is None or v is pd.NA or (isinstance(v, float) and np.isnan(v)) else v for v in r)
           for r in frame.astype(object).itertuples(index=False)]
    want = brute_force(base_records, new_records, base, new, metric, top)
    assert got == want
