"""Run table, summary with its intervals, filters and slices against hand-computed values."""

import json

import numpy as np
import pytest
from faults import full_disk  # tests/faults.py

import ragwidgets as rw
from ragwidgets import analysis as A
from ragwidgets.analysis.bootstrap import bootstrap_means
from ragwidgets.analysis.table import NOT_COMPUTABLE_CODE, UNDEFINED_CODE
from ragwidgets.datasets import synthetic_run
from ragwidgets.errors import InputError


def record(qid, a2r, r2r=None, r2a=None, query=""):
    """A sample with len(a2r) response claims; r2r / r2a rows per claim over the passages."""
    rec = {"query_id": qid, "query": query, "response": f"answer {qid}",
           "response_claims": [["s", "p", str(j)] for j in range(len(a2r))], "answer2response": a2r}
    if r2r is not None:
        n_psg = len(r2r[0]) if r2r else len((r2a or [[]])[0])
        rec["retrieved_context"] = [{"doc_id": f"{qid}-{k}", "text": "t"} for k in range(n_psg)]
        rec["retrieved2response"] = r2r
    if r2a is not None:
        rec["gt_answer_claims"] = [["g", "p", str(i)] for i in range(len(r2a))]
        rec["retrieved2answer"] = r2a
        rec["response2answer"] = ["Entailment"] * len(r2a)
    return rec


E, N = "Entailment", "Neutral"


@pytest.fixture
def table():
    records = [
        record("a", [E, E], [[E, N], [N, N]], [[E, N], [N, N]], query="Harbor opening hours"),  # claim_recall 1/2
        record("b", [E, N], [[N, N], [N, N]], [[E, E]], query="Museum tickets"),  # hallucination 1/2
        record("c", [], [], [[N]], query="Lighthouse"),  # abstained: precision Undefined
        record("d", [N], [[E]], [[E]], query="ferry times"),  # noise: incorrect claim entailed by relevant psg
    ]
    return A.run_table(rw.evaluate(records))


def test_table_keeps_undefined_apart_from_not_computable(table):
    assert table.frame.loc["c", "n_response_claims"] == 0
    assert np.isnan(table.frame.loc["c", "precision"])
    assert table.status.loc["c", "precision"] == UNDEFINED_CODE
    assert "citation_precision" not in table.metrics  # computable on no sample: left out
    s = A.summarize(table)
    assert s.loc["precision", "defined"] == 3 and s.loc["precision", "undefined"] == 1
    assert s.loc["precision", "mean"] == pytest.approx((1 + 0.5 + 0) / 3)  # never averaged as 0
    assert s.loc["precision", "ci_low"] <= s.loc["precision", "mean"] <= s.loc["precision", "ci_high"]
    assert A.summarize(table, percent=True).loc["precision", "mean"] == pytest.approx(50.0)


def test_not_computable_is_counted():
    records = [record("a", [E]), record("b", [E], [[E]])]
    s = A.summarize(A.run_table(rw.evaluate(records)))
    assert s.loc["faithfulness", "not_computable"] == 1 and s.loc["faithfulness", "defined"] == 1
    assert A.run_table(rw.evaluate(records)).status.loc["a", "faithfulness"] == NOT_COMPUTABLE_CODE


def test_bootstrap_over_distinct_values_matches_index_resampling():
    rng = np.random.default_rng(3)
    values = rng.choice([0, 0.25, 0.5, 1.0], size=500)
    fast = bootstrap_means(values, n_boot=4000, seed=1)
    slow = values[rng.integers(0, len(values), size=(4000, len(values)))].mean(axis=1)
    assert abs(fast.std() - slow.std()) < 0.1 * slow.std()
    assert abs(fast.mean() - values.mean()) < 0.005


def test_filters(table):
    f = table.frame
    assert list(f.index[A.filter_rows(f, text="MUSEUM")]) == ["b"]
    assert list(f.index[A.filter_rows(f, text="answer d")]) == ["d"]  # searches responses too
    assert list(f.index[A.filter_rows(f, expression="precision < 1 and n_response_claims > 0")]) == ["b", "d"]
    assert list(f.index[A.filter_rows(f, text="E", expression="precision >= 0")]) == ["a", "b", "d"]
    with pytest.raises(ValueError, match="filter expression 'nonsense_column > 0': unknown column 'nonsense_column'; columns: .*precision"):
        A.filter_rows(f, expression="nonsense_column > 0")
    with pytest.raises(ValueError, match="one true/false per sample"):
        A.filter_rows(f, expression="precision + 1")


def test_builtin_slices_against_hand_computed_members(table):
    slices = {s.name: s for s in A.builtin_slices(table)}
    assert "invalid citations" not in slices  # no citation data in the run
    members = {name: sorted(table.frame.index[A.members(table, s)]) for name, s in slices.items()}
    assert members["retrieval missed needed claims"] == ["a", "c"]  # c: its one gt claim unretrieved
    assert members["hallucinated"] == ["b"]
    assert members["abstained or empty"] == ["c"]
    assert members["misled by noise"] == ["d"]
    assert members["unfaithful"] == ["a", "b"]
    out = A.slice_table(table, list(slices.values())).set_index("slice")
    assert out.loc["hallucinated", "size"] == 1 and out.loc["hallucinated", "precision"] == 0.5
    assert out.loc["unfaithful", "share"] == 0.5


def test_slices_round_trip_and_bad_file(tmp_path, table):
    mine = [A.Slice("long answers", "n_response_claims >= 2", "two claims or more")]
    A.save_slices(tmp_path / "s.json", mine + A.builtin_slices(table)[:1])
    loaded = A.load_slices(tmp_path / "s.json")
    assert loaded[0] == mine[0] and len(loaded) == 2
    assert sorted(table.frame.index[A.members(table, loaded[0])]) == ["a", "b"]
    (tmp_path / "bad.json").write_text(json.dumps({"slices": [{"name": "x", "expression": ""}]}))
    with pytest.raises(InputError, match="slice 0, field 'expression'"):
        A.load_slices(tmp_path / "bad.json")


def test_generated_run_scale_shapes():
    table = A.run_table(rw.evaluate(synthetic_run(300)))
    assert table.n == 300 and {"hallucination", "claim_recall"} <= set(table.metrics)
    assert synthetic_run(5, quality=0.9)[3]["query"] == synthetic_run(5, quality=0.1)[3]["query"]


def test_save_slices_on_a_full_disk_keeps_the_saved_file(tmp_path, monkeypatch, table):
    path = tmp_path / "s.json"
    A.save_slices(path, [A.Slice("long answers", "n_response_claims >= 2")])
    before = path.read_bytes()
    full_disk(monkeypatch, tmp_path)
    with pytest.raises(OSError):
        A.save_slices(path, [A.Slice("other", "precision < 1")] * 200)
    monkeypatch.undo()
    assert path.read_bytes() == before and [p.name for p in tmp_path.iterdir()] == ["s.json"]


def test_a_metric_that_never_fails_keeps_an_interval_of_width():
    """20 samples all at precision 1: a percentile bootstrap resamples only 1s (the point 1);
    the interval must leave room for the failures 20 samples cannot rule out."""
    s = A.summarize(A.run_table(rw.evaluate([record(f"q{i}", [E, E]) for i in range(20)])))
    assert s.loc["precision", "mean"] == 1.0 and s.loc["precision", "ci_high"] == 1.0
    assert 0.75 < s.loc["precision", "ci_low"] < 0.9  # Clopper–Pearson of 20 in 20: 0.832
