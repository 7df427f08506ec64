"""Every Undefined rule: Undefined (None / NaN, with its reason) exactly when the denominator is 0."""

import math
from pathlib import Path

import numpy as np
import pytest

import ragwidgets as rw

E, N = "Entailment", "Neutral"


def record(resp=1, gt=1, psg=1, a2r=E, r2a=E, r2r=E, ret2a=E, **extra):
    out = {
        "query_id": "x",
        "retrieved_context": [{"doc_id": f"d{k}", "text": "t"} for k in range(psg)],
        "response_claims": [["r", "p", str(j)] for j in range(resp)],
        "gt_answer_claims": [["g", "p", str(i)] for i in range(gt)],
        "answer2response": [a2r] * resp,
        "response2answer": [r2a] * gt,
        "retrieved2response": [[r2r] * psg for _ in range(resp)],
        "retrieved2answer": [[ret2a] * psg for _ in range(gt)],
    }
    out.update(extra)
    return out


def check(rec, name, reason, zero_value=0.0):
    scores = rw.evaluate(rec)
    ex = scores.explain(0).metrics[name]
    assert ex.value is None and ex.status == "undefined" and ex.reason == reason, ex
    assert scores.metrics(0)[name] is None
    assert math.isnan(scores.frame.loc["x", name])
    assert rw.evaluate(rec, undefined="zero").metrics(0)[name] == zero_value


@pytest.mark.parametrize("name", ["precision", "noise_sensitivity_in_relevant", "noise_sensitivity_in_irrelevant",
                                  "hallucination", "self_knowledge", "faithfulness"])
def test_no_response_claims(name):
    check(record(resp=0), name, "no answer claims" if name == "faithfulness" else "no response claims")


@pytest.mark.parametrize("name", ["recall", "claim_recall"])
def test_no_gt_claims(name):
    check(record(gt=0), name, "no ground-truth claims")


def test_no_passages():
    check(record(psg=0), "context_precision", "no retrieved passages")
    m = rw.evaluate(record(psg=0)).metrics(0)
    assert m["faithfulness"] == 0 and m["claim_recall"] == 0  # claims exist: 0 is the honest value


def test_context_utilization_needs_a_retrieved_gt_claim():
    check(record(ret2a=N), "context_utilization", "no ground-truth claim is entailed by a retrieved passage")


def test_f1():
    check(record(resp=0), "f1", "precision Undefined: no response claims")
    assert rw.evaluate(record(a2r=N, r2a=N)).metrics(0)["f1"] == 0.0  # P + R = 0


def test_ragchecker_zero_quirks_beyond_empty_denominators():
    # ragchecker reports 0 hallucination / self-knowledge with no passages; the definitions give 1/1.
    rec = record(psg=0, a2r=N)
    assert rw.evaluate(rec).metrics(0)["hallucination"] == 1.0
    assert rw.evaluate(rec, undefined="zero").metrics(0)["hallucination"] == 0.0
    # and 0 noise in irrelevant passages when there are no gt claims
    rec = record(gt=0, a2r=N)
    assert rw.evaluate(rec).metrics(0)["noise_sensitivity_in_irrelevant"] == 1.0
    assert rw.evaluate(rec, undefined="zero").metrics(0)["noise_sensitivity_in_irrelevant"] == 0.0


def test_unjudged_labels_make_only_the_metrics_that_need_them_undefined():
    rec = record(resp=2)
    rec["answer2response"] = [E, None]
    scores = rw.evaluate(rec)
    m, reasons = scores.metrics(0), scores.reasons(0)
    assert m["precision"] is None and reasons["precision"] == "1 unjudged label(s) in answer2response"
    assert m["hallucination"] is None
    assert m["faithfulness"] == 1.0 and m["recall"] == 1.0
    assert rw.evaluate(rec, undefined="zero").metrics(0)["precision"] is None  # never a guess, not even 0


def test_not_computable_is_left_out_not_zero():
    rec = record()
    del rec["answer2response"]
    scores = rw.evaluate(rec)
    assert "precision" not in scores.metrics(0)
    assert scores.reasons(0)["precision"] == "needs answer2response labels"
    assert scores.aggregate()["precision"] == {"mean": None, "defined": 0, "undefined": 0, "not_computable": 1}


def test_aggregate_never_averages_undefined_as_zero():
    scores = rw.evaluate([record(), dict(record(resp=0), query_id="y")])
    agg = scores.aggregate()["precision"]
    assert agg == {"mean": 1.0, "defined": 1, "undefined": 1, "not_computable": 0}
    assert rw.evaluate([record(), dict(record(resp=0), query_id="y")], undefined="zero") \
        .aggregate()["precision"]["mean"] == 0.5


def test_citation_family_undefined_rules():
    lesson = {"query_id": "x", "retrieved_context": [],
              "corpus": [{"doc_id": "D1", "text": "t", "facts": ["a"], "relevant": True}],
              "response_claims": [], "reference_facts": []}
    m = rw.evaluate(lesson, rw.CITATION_METRICS).explain(0).metrics
    assert {k: v.reason for k, v in m.items()} == {
        "context_relevance": "no retrieved documents", "faithfulness": "no answer claims",
        "citation_support": "no answer claims", "citation_precision": "no citations",
        "completeness": "no reference facts"}
    lesson["reference_facts"] = ["a"]
    assert rw.evaluate(lesson, ["completeness"]).metrics(0) == {"completeness": 0.0}  # empty answer: 0


def test_passage_toggle_to_no_passages_is_undefined_context_precision():
    batch = rw.Batch.from_samples(rw.load_samples([record(psg=2)]).samples)
    m = rw.evaluate(batch, passage_active=np.zeros(2, bool)).explain(0).metrics["context_precision"]
    assert m.value is None and m.reason == "no retrieved passages"
    with pytest.raises(ValueError, match="one flag per passage"):
        rw.evaluate(batch, passage_active=[True])


def test_f1_requested_before_its_parts_equals_f1_after_them():
    """f1 is computed from precision and recall whatever order the names come in."""
    path = Path(rw.__file__).parent / "data" / "ragchecker_example.json"  # from any working directory
    first = rw.evaluate(path, ["f1", "recall"]).frame
    after = rw.evaluate(path, ["precision", "recall", "f1"]).frame
    assert list(first.columns) == ["f1", "recall"]  # as asked, precision computed but not reported
    np.testing.assert_array_equal(first["f1"].to_numpy(), after["f1"].to_numpy())
    np.testing.assert_array_equal(first["recall"].to_numpy(), after["recall"].to_numpy())
