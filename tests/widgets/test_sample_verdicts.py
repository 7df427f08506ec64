"""Defect 6 of issue 19: a claim verdict is never shown for a metric that is not computable."""

import pytest

import ragwidgets as rw
from ragwidgets.loaders import parse_sample
from ragwidgets.widgets._sample_view import SampleView


def zero_context_sample():
    """A RefChecker zero-context answer (answer2response labels, no passage labels) with an
    incorrect claim and a correct one."""
    for record in rw.datasets.refchecker_human("zero_context")["chatgpt"]:
        labels = record["answer2response"]
        if "Entailment" in labels and any(label != "Entailment" for label in labels):
            assert "retrieved2response" not in record
            return parse_sample(record)
    raise AssertionError("no zero-context answer with both kinds of claim")


def test_without_passage_labels_no_claim_is_called_faithful_or_unfaithful():
    view = SampleView(zero_context_sample()).view()
    missing = {m["name"] for m in view["not_computable"]}
    assert {"faithfulness", "hallucination", "self_knowledge"} <= missing
    assert {c["faithful"] for c in view["claims"]} == {None}
    assert {c["correct"] for c in view["claims"]} == {True, False}  # precision is computable: its verdict stays
    assert "Supported" not in view["summary"]


def test_with_passage_labels_the_verdicts_stay(example_samples):
    sv = SampleView(example_samples[0])
    view = sv.view()
    assert [c["faithful"] for c in view["claims"]] == [c.faithful for c in sv.explanation.claims]
    assert "Supported" in view["summary"]


@pytest.mark.parametrize("setting", ["noisy_context", "accurate_context"])
def test_passage_labels_without_a_ground_truth_keep_faithfulness_and_no_correctness(setting):
    record = next(r for r in rw.datasets.refchecker_human(setting)["gpt4"] if r["response_claims"])
    view = SampleView(parse_sample(record)).view()
    assert view["claims"] and all(c["faithful"] in (True, False) for c in view["claims"])
    assert {c["correct"] for c in view["claims"]} <= {None}
