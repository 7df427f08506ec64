"""Run-level what-ifs over some samples only (``rows=``: the rows an explorer's filters keep), and
rules whose patterns are untrusted input (RE2, a length limit, a clear error)."""

import json
import os

import numpy as np
import pandas as pd
import pytest

import ragwidgets as rw
from ragwidgets import analysis as A
from ragwidgets.analysis.whatif import MAX_PATTERN, aggregate_over
from ragwidgets.datasets import synthetic_run

# a: two gt claims, each entailed by one of its two passages; b: two passages entailing nothing;
# c: no passage at all (context precision Undefined, claim recall 0).
HAND = [
    {"query_id": "a", "gt_answer_claims": [["a", "is", "1"], ["a", "is", "2"]],
     "retrieved_context": [{"doc_id": "a0", "text": "first"}, {"doc_id": "a1", "text": "second"}],
     "retrieved2answer": [["Entailment", "Neutral"], ["Neutral", "Entailment"]]},
    {"query_id": "b", "gt_answer_claims": [["b", "is", "1"]],
     "retrieved_context": [{"doc_id": "b0", "text": "x"}, {"doc_id": "b1", "text": "second"}],
     "retrieved2answer": [["Neutral", "Neutral"]]},
    {"query_id": "c", "gt_answer_claims": [["c", "is", "1"]], "retrieved_context": [], "retrieved2answer": [[]]},
]


def at(curve: pd.DataFrame, k: int, metric: str) -> dict:
    row = curve[(curve["k"] == k) & (curve["metric"] == metric)]
    assert len(row) == 1, (k, metric)
    return row.iloc[0].to_dict()


def test_top_k_over_some_rows_by_hand():
    scores = rw.evaluate(HAND)
    curve = A.top_k_curve(scores, rows=[2, 0])  # a and c, in any order
    assert sorted(set(curve["k"])) == [1, 2] and set(curve["metric"]) == {"claim_recall", "context_precision"}
    assert at(curve, 1, "claim_recall") == {"k": 1, "metric": "claim_recall", "mean": 0.25, "defined": 2,
                                            "undefined": 0, "not_computable": 0}  # (1/2 + 0) / 2
    assert at(curve, 2, "claim_recall")["mean"] == 0.5  # (1 + 0) / 2
    cp = at(curve, 1, "context_precision")  # c has no passage: Undefined, counted, never a 0
    assert cp["mean"] == 1.0 and cp["defined"] == 1 and cp["undefined"] == 1
    b = A.top_k_curve(scores, rows=[1])
    assert list(b["mean"]) == [0.0, 0.0, 0.0, 0.0] and list(b["undefined"]) == [0, 0, 0, 0]


def test_rows_without_passages_or_no_rows_give_no_curve():
    scores = rw.evaluate(HAND)
    assert A.top_k_curve(scores, rows=[2]).empty
    assert A.top_k_curve(scores, rows=[]).empty
    assert A.top_k_curve(scores, rows=np.array([], dtype=np.int64)).empty


def test_drop_over_some_rows_by_hand():
    scores = rw.evaluate(HAND)
    d = A.drop_passages(scores, doc_id=r"^a1$", rows=[0, 2])
    assert list(d.table["metric"]) == ["claim_recall", "context_precision"]  # the others: not computable here
    t = d.table.set_index("metric")
    assert t.loc["claim_recall", ["before", "after", "change"]].tolist() == [0.5, 0.25, -0.25]
    cp = t.loc["context_precision", ["before", "after", "undefined_before", "undefined_after"]]
    assert cp.tolist() == [1.0, 1.0, 1, 1]
    assert d.n_dropped == 1 and d.samples_touched == 1
    # only the rows' passages are tried: b's "second" matches the text rule but b is not counted
    d = A.drop_passages(scores, text="^second$", rows=[0])
    assert d.n_dropped == 1 and d.dropped.tolist() == [False, True, False, False]
    assert A.drop_passages(scores, doc_id="^a", rows=[1]).n_dropped == 0


@pytest.mark.parametrize("seed", [3, 8])
def test_rows_give_what_the_same_samples_give_as_a_run_of_their_own(seed):
    records = synthetic_run(160, seed=seed)
    scores = rw.evaluate(records)
    rows = np.random.default_rng(seed).choice(len(records), size=45, replace=False)
    alone = rw.evaluate([records[i] for i in sorted(rows)])
    pd.testing.assert_frame_equal(A.top_k_curve(scores, rows=rows), A.top_k_curve(alone))
    pd.testing.assert_frame_equal(A.top_k_curve(scores, ks=[0, 2, 9], rows=rows), A.top_k_curve(alone, ks=[0, 2, 9]))
    d, expected = A.drop_passages(scores, doc_id=r"-[01]$", text="Passage 3", rows=rows), \
        A.drop_passages(alone, doc_id=r"-[01]$", text="Passage 3")
    pd.testing.assert_frame_equal(d.table, expected.table)
    assert d.n_dropped == expected.n_dropped > 0 and d.samples_touched == expected.samples_touched
    assert aggregate_over(scores, rows) == alone.aggregate()


def test_all_rows_are_the_whole_run():
    records = synthetic_run(60, seed=1)
    scores = rw.evaluate(records)
    pd.testing.assert_frame_equal(A.top_k_curve(scores, rows=range(60)), A.top_k_curve(scores))
    pd.testing.assert_frame_equal(A.drop_passages(scores, doc_id="-2$", rows=np.arange(60)).table,
                                  A.drop_passages(scores, doc_id="-2$").table)


def test_bad_rows_are_named():
    scores = rw.evaluate(HAND)
    with pytest.raises(ValueError, match=r"rows: 3 is not a sample position \(0 \.\.\. 2\)"):
        A.top_k_curve(scores, rows=[0, 3])
    with pytest.raises(ValueError, match="rows: -1 is not a sample position"):
        A.drop_passages(scores, doc_id="a", rows=[-1])
    with pytest.raises(ValueError, match="rows must be sample positions"):
        A.top_k_curve(scores, rows=[0.5])


def test_a_pattern_is_checked_as_untrusted_input():
    with pytest.raises(ValueError, match=r"the doc_id pattern '\(' is not a valid regular expression \(missing \)"):
        A.passage_rule(doc_id="(")
    with pytest.raises(ValueError, match="the text pattern .* is not a valid regular expression"):
        A.passage_rule(text=r"(?=x)")  # a lookahead: not RE2, said so instead of silently not matching
    with pytest.raises(ValueError, match=f"at most {MAX_PATTERN}"):
        A.passage_rule(text="a" * (MAX_PATTERN + 1))
    with pytest.raises(ValueError, match="must be a string"):
        A.passage_rule(doc_id=3)
    with pytest.raises(ValueError, match="give a doc_id or a text pattern"):
        A.passage_rule()
    # a pattern that backtracks exponentially in a backtracking engine is linear in RE2
    rule = A.passage_rule(text=r"^(a+)+$")
    assert rule(rw.model.Passage("d", "a" * 5000 + "b")) is False
    assert rule(rw.model.Passage("d", "aaa")) is True
    assert A.passage_rule(doc_id="(?i)^A0$")(rw.model.Passage("a0", "")) is True


def test_a_function_rule_still_works_on_rows():
    scores = rw.evaluate(HAND)
    d = A.drop_passages(scores, lambda p: p.text == "second", rows=[0, 1])
    assert d.dropped.tolist() == [False, True, False, True]


@pytest.mark.parametrize("suffix", [".jsonl", ".json"])
def test_a_rule_on_a_fast_load_reads_only_passages_and_equals_the_records(tmp_path, suffix):
    records = synthetic_run(120, seed=5)
    path = tmp_path / f"run{suffix}"
    path.write_text("".join(json.dumps(r) + "\n" for r in records) if suffix == ".jsonl"
                    else json.dumps({"results": records}))
    loaded = rw.evaluate(path)
    assert hasattr(loaded.batch.samples, "passage_columns")  # the fast path's samples: no Sample built
    scores = rw.evaluate(records)
    for rows in (None, [3, 0, 77, 119, 40], []):
        for rule in ({"doc_id": r"-[01]$"}, {"text": "Passage 3"}, {"doc_id": "-2$", "text": "(?i)passage 1"}):
            d, expected = A.drop_passages(loaded, rows=rows, **rule), A.drop_passages(scores, rows=rows, **rule)
            assert d.dropped.tolist() == expected.dropped.tolist(), (rows, rule)
            pd.testing.assert_frame_equal(d.table, expected.table)
    assert A.drop_passages(loaded, doc_id="-0$").n_dropped > 0


def test_a_rule_on_a_file_rewritten_since_it_was_loaded_is_refused(tmp_path):
    records = synthetic_run(20, seed=2)
    path = tmp_path / "run.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    loaded = rw.evaluate(path)
    stat = os.stat(path)
    fewer = [{**r, "retrieved_context": r["retrieved_context"][:-1] or r["retrieved_context"]} for r in records]
    text = "".join(json.dumps(r) + "\n" for r in fewer)
    path.write_text(text + " " * (stat.st_size - len(text.encode())))  # the same size and time: not seen by them
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    with pytest.raises(rw.errors.InputError, match="changed since it was loaded"):
        A.drop_passages(loaded, doc_id="-0$")
