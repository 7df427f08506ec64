"""The built-in signals (analysis.mode_checks): each against a per-sample loop over
``scores.samples`` reading the label matrices themselves (a differential test over
hypothesis-drawn runs, unjudged labels, required-only claims and passages switched off
included), a hand-built sample, and the missing-labels refusal."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import ragchecker_records

import ragwidgets as rw
from ragwidgets.analysis.mode_checks import SIGNALS, signal_mask
from ragwidgets.model import CONTRADICTED, ENTAILED, NOT_ENTAILED

SIGNAL_NAMES = ["unsupported_claim", "contradicted_claim", "entailed_only_by_irrelevant", "missed_in_context",
                "no_relevant_passage"]


def by_loop(sample, name, resp_on, gt_on, psg_on):
    """One sample's signal from its matrices, claim by claim (``*_on``: the items in play)."""
    r2r = sample.retrieved2response if sample.retrieved2response is not None else np.zeros((0, 0))
    r2a = sample.retrieved2answer if sample.retrieved2answer is not None else np.zeros((0, 0))
    resp2ans = sample.response2answer
    passages = [k for k in range(len(sample.passages)) if psg_on[k]]
    useful = {k for k in passages for i in range(len(sample.gt_claims)) if gt_on[i] and r2a[i, k] == ENTAILED}
    claims = [j for j in range(len(sample.response_claims)) if resp_on[j]]
    gts = [i for i in range(len(sample.gt_claims)) if gt_on[i]]
    entailing = {j: {k for k in passages if r2r[j, k] == ENTAILED} for j in claims}
    if name == "unsupported_claim":
        return any(not entailing[j] for j in claims)
    if name == "contradicted_claim":
        return any(r2r[j, k] == CONTRADICTED for j in claims for k in passages)
    if name == "entailed_only_by_irrelevant":
        return any(entailing[j] and not (entailing[j] & useful) for j in claims)
    retrieved = [i for i in gts if any(r2a[i, k] == ENTAILED for k in passages)]
    if name == "missed_in_context":
        return any(resp2ans[i] in (NOT_ENTAILED, CONTRADICTED) for i in retrieved)
    assert name == "no_relevant_passage"
    return bool(gts) and not retrieved


def check_all(scores, resp_on=None, gt_on=None, psg_on=None):
    b = scores.batch
    resp_on = np.ones(len(b.resp_sample), bool) if resp_on is None else resp_on
    gt_on = np.ones(len(b.gt_sample), bool) if gt_on is None else gt_on
    psg_on = np.ones(len(b.psg_sample), bool) if psg_on is None else psg_on
    for name in SIGNAL_NAMES:
        got = signal_mask(scores, name)
        want = [by_loop(s, name, resp_on[b.resp_offset[i]:b.resp_offset[i + 1]],
                        gt_on[b.gt_offset[i]:b.gt_offset[i + 1]], psg_on[b.psg_offset[i]:b.psg_offset[i + 1]])
                for i, s in enumerate(scores.samples)]
        assert got.dtype == bool and got.tolist() == want, name


def numbered(records):
    return [dict(r, query_id=f"q{i}") for i, r in enumerate(records)]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(ragchecker_records(), min_size=1, max_size=6), st.data())
def test_every_signal_is_the_per_sample_loop(records, data):
    scores = rw.evaluate(numbered(records))
    check_all(scores)
    psg_on = np.array(data.draw(st.lists(st.booleans(), min_size=len(scores.batch.psg_sample),
                                         max_size=len(scores.batch.psg_sample))), dtype=bool)
    check_all(rw.evaluate(numbered(records), passage_active=psg_on), psg_on=psg_on)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(ragchecker_records(labelled=True), min_size=1, max_size=5))
def test_signals_read_only_the_required_claims_in_required_only_mode(records):
    scores = rw.evaluate(numbered(records), mode="required_only")
    b = scores.batch
    check_all(scores, resp_on=b.resp_required == 1, gt_on=b.gt_required == 1)


def test_a_hand_built_sample():
    E, N, C = "Entailment", "Neutral", "Contradiction"
    record = {"query_id": "x", "query": "q", "gt_answer": "a", "response": "r",
              "retrieved_context": [{"doc_id": "d0", "text": "useful"}, {"doc_id": "d1", "text": "noise"}],
              "response_claims": [["r0", "p", "o"], ["r1", "p", "o"], ["r2", "p", "o"]],
              "gt_answer_claims": [["g0", "p", "o"], ["g1", "p", "o"]],
              "answer2response": [E, N, N], "response2answer": [E, N],
              "retrieved2response": [[E, N], [N, E], [N, C]],  # r1 only by d1 (no gt claim), r2 by none
              "retrieved2answer": [[E, N], [E, N]]}  # d0 entails g0 and g1; g1 is not in the response
    scores = rw.evaluate([record])
    got = {name: bool(signal_mask(scores, name)[0]) for name in SIGNAL_NAMES}
    assert got == {"unsupported_claim": True, "contradicted_claim": True, "entailed_only_by_irrelevant": True,
                   "missed_in_context": True, "no_relevant_passage": False}
    record.update(retrieved2answer=[[N, N], [N, N]], retrieved2response=[[E, N], [N, E], [E, N]])
    scores = rw.evaluate([record])
    got = {name: bool(signal_mask(scores, name)[0]) for name in SIGNAL_NAMES}
    assert got == {"unsupported_claim": False, "contradicted_claim": False, "entailed_only_by_irrelevant": True,
                   "missed_in_context": False, "no_relevant_passage": True}
    assert set(SIGNALS) == set(SIGNAL_NAMES) and all(s.label and s.description for s in SIGNALS.values())


def test_missing_labels_and_unknown_signals_are_refused_by_name():
    record = {"query_id": "bare", "query": "q", "gt_answer": "a", "response": "r",
              "retrieved_context": [{"doc_id": "d0", "text": "t"}], "response_claims": [["r0", "p", "o"]],
              "gt_answer_claims": [["g0", "p", "o"]], "answer2response": ["Entailment"],
              "response2answer": ["Entailment"]}
    scores = rw.evaluate([record])
    with pytest.raises(ValueError, match=r"retrieved2response labels.*1 of 1 samples.*'bare'"):
        signal_mask(scores, "unsupported_claim")
    with pytest.raises(ValueError, match=r"retrieved2answer labels"):
        signal_mask(scores, "no_relevant_passage")
    with pytest.raises(ValueError, match=r"unknown signal 'nope'.*unsupported_claim"):
        signal_mask(scores, "nope")
