"""Paired comparison of runs and run-level what-ifs."""

import numpy as np
import pandas as pd
import pytest

import ragwidgets as rw
from ragwidgets import analysis as A
from ragwidgets.datasets import synthetic_run


def precision_run(values: dict[str, tuple[int, int]]):
    """A run whose sample qid has ``correct`` of ``total`` entailed response claims."""
    return A.run_table(rw.evaluate([
        {"query_id": qid, "response_claims": [["s", "p", str(j)] for j in range(total)],
         "answer2response": ["Entailment"] * correct + ["Neutral"] * (total - correct)}
        for qid, (correct, total) in values.items()]))


def same(value, expected) -> bool:
    """A what-if mean equals the rescored one (None there: no defined sample, NaN here)."""
    return pd.isna(value) if expected is None else value == pytest.approx(expected)


@pytest.mark.parametrize("gap", [0.0, 0.2])
def test_paired_interval_contains_the_true_gap(gap):
    rng = np.random.default_rng(7)
    n, total = 400, 10
    base = rng.integers(2, 7, size=n)
    step = (rng.random(n) < gap * total / 2).astype(int) * 2  # +2 correct claims of 10 for some samples
    true_gap = step.mean() / total
    a = precision_run({str(i): (int(base[i]), total) for i in range(n)})
    b = precision_run({str(i): (int(base[i] + step[i]), total) for i in range(n)})
    row = A.compare_runs({"a": a, "b": b}).summary.iloc[0]
    assert row["difference"] == pytest.approx(true_gap)
    assert row["ci_low"] <= true_gap <= row["ci_high"]
    assert row["includes_zero"] == (gap == 0)


def test_unequal_query_sets_compare_on_shared_ones():
    a = precision_run({"q1": (1, 2), "q2": (2, 2), "q3": (0, 1)})
    b = precision_run({"q2": (1, 2), "q3": (1, 1), "q4": (1, 1), "q5": (0, 1)})
    c = A.compare_runs({"a": a, "b": b})
    assert list(c.shared) == ["q2", "q3"]
    assert c.left_out == {"a": 1, "b": 2}
    row = c.summary.iloc[0]
    assert row["paired"] == 2 and row["baseline_mean"] == 0.5 and row["mean"] == 0.75
    per = c.per_sample("precision")
    assert list(per.index) == ["q3", "q2"] and list(per["difference"]) == [1.0, -0.5]
    with pytest.raises(ValueError, match="share no query_id"):
        A.compare_runs({"a": a, "x": precision_run({"z": (1, 1)})})


def test_spread_finds_where_systems_differ_most():
    runs = {"a": precision_run({"q1": (1, 1), "q2": (1, 2)}), "b": precision_run({"q1": (0, 1), "q2": (1, 2)}),
            "c": precision_run({"q1": (1, 1), "q2": (0, 0)})}
    spread = A.compare_runs(runs).spread("precision")
    assert list(spread.index) == ["q1", "q2"] and spread.loc["q1", "spread"] == 1.0
    assert pd.isna(spread.loc["q2", "c"]) and spread.loc["q2", "spread"] == 0.0  # Undefined is not 0


def test_top_k_curve_equals_rescoring_with_the_passages_removed():
    records = synthetic_run(150, seed=2)
    scores = rw.evaluate(records)
    curve = A.top_k_curve(scores)
    assert curve["k"].max() == max(len(r["retrieved_context"]) for r in records)
    assert "precision" not in set(curve["metric"])  # does not read passages
    for k in (1, 3):
        cut = [{**r, "retrieved_context": r["retrieved_context"][:k],
                "retrieved2response": [row[:k] for row in r["retrieved2response"]],
                "retrieved2answer": [row[:k] for row in r["retrieved2answer"]]} for r in records]
        expected = rw.evaluate(cut).aggregate()
        at_k = curve[curve["k"] == k].set_index("metric")
        for metric in at_k.index:
            assert at_k.loc[metric, "undefined"] == expected[metric]["undefined"]
            assert same(at_k.loc[metric, "mean"], expected[metric]["mean"])


def test_no_passages_no_curve():
    scores = rw.evaluate([{"query_id": "a", "response_claims": [["s", "p", "o"]], "answer2response": ["Entailment"]}])
    assert A.top_k_curve(scores).empty


def test_drop_passages_by_rule_equals_rescoring_without_them():
    records = synthetic_run(120, seed=4)
    dropped = A.drop_passages(rw.evaluate(records), doc_id=r"-0$")
    keep = [[k for k, p in enumerate(r["retrieved_context"]) if not p["doc_id"].endswith("-0")] for r in records]
    cut = [{**r, "retrieved_context": [r["retrieved_context"][k] for k in ks],
            "retrieved2response": [[row[k] for k in ks] for row in r["retrieved2response"]],
            "retrieved2answer": [[row[k] for k in ks] for row in r["retrieved2answer"]]}
           for r, ks in zip(records, keep)]
    expected = rw.evaluate(cut).aggregate()
    assert dropped.n_dropped == sum(len(r["retrieved_context"]) > 0 for r in records)
    for _, row in dropped.table.iterrows():
        assert same(row["after"], expected[row["metric"]]["mean"])
        assert row["undefined_after"] == expected[row["metric"]]["undefined"]
    with pytest.raises(ValueError, match="give a doc_id or a text pattern"):
        A.drop_passages(rw.evaluate(records))


def test_identical_rare_runs_get_an_interval_and_the_verdict_is_adjusted():
    """Two runs equal on 30 queries, all at precision 1: a percentile bootstrap of the differences
    is the point 0; the interval must allow the differences 30 queries cannot rule out."""
    same_run = {f"q{i}": (3, 3) for i in range(30)}
    c = A.compare_runs({"a": precision_run(same_run), "b": precision_run(same_run)})
    row = c.summary.set_index("metric").loc["precision"]
    assert row["difference"] == 0 and row["ci_low"] < -0.05 and row["ci_high"] > 0.05
    assert row["p_value"] == 1.0 and row["differs"] is not None and not row["differs"]
    assert c.said("b") == f"0 of {len(c.summary)} metrics differ after Holm"


def test_holm_adjusts_over_the_metrics_and_can_be_turned_off():
    rng = np.random.default_rng(2)
    base = {f"q{i}": (int(k), 5) for i, k in enumerate(rng.integers(2, 6, 60))}
    worse = {q: (max(k - 2, 0), t) for q, (k, t) in base.items()}
    runs = {"a": precision_run(base), "b": precision_run(worse)}
    c = A.compare_runs(runs)
    rows = c.summary.set_index("metric")
    assert rows.loc["precision", "differs"] and rows.loc["precision", "p_adjusted"] >= rows.loc["precision", "p_value"]
    assert c.said() == f"{int(rows['differs'].sum())} of {len(rows)} metrics differ after Holm"
    plain = A.compare_runs(runs, adjust_by=None)
    assert (plain.summary["p_adjusted"] == plain.summary["p_value"]).all()
    assert plain.said().endswith("at 95% each (no adjustment)")
    assert A.compare_runs(runs, adjust_by="bh").said().endswith("after Benjamini–Hochberg")
    with pytest.raises(ValueError, match="adjust must be one of"):
        A.compare_runs(runs, adjust_by="bonferroni")


def test_the_comparison_tab_and_report_say_the_adjusted_verdict(tmp_path):
    records = lambda n_ok: [{"query_id": f"q{i}", "query": f"question {i}", "response_claims": [["s", "p", "o"]] * 2,
                             "answer2response": ["Entailment"] * n_ok + ["Neutral"] * (2 - n_ok)} for i in range(30)]
    d = rw.DatasetExplorer({"base": rw.evaluate(records(2)), "new": rw.evaluate(records(0))})
    said = d.view_state["compare"]["said"]["new"]
    assert said == d.comparison.said("new") and said.endswith("metrics differ after Holm")
    assert said.startswith(f"{int(d.comparison.summary['differs'].sum())} of ")
    page = d.to_html(tmp_path / "r.html").read_text(encoding="utf-8")
    assert f"<bdi>new</bdi>: {said}" in page
