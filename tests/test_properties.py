"""The vectorised engine against a plain per-sample reference, ragchecker 0.1.9, and itself."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ragwidgets as rw
from ragchecker_peer import MISSING, load_peer, peer_metrics
from reference import reference_citation_metrics, reference_metrics
from strategies import fact_records, ragchecker_records

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(st.lists(ragchecker_records(), min_size=1, max_size=6))
def test_batch_equals_plain_reference(records):
    for i, r in enumerate(records):
        r["query_id"] = str(i)
    scores = rw.evaluate(records, rw.RAGCHECKER_METRICS)
    for i, record in enumerate(records):
        expected = reference_metrics(record)
        got = scores.metrics(i)
        for name, value in expected.items():
            if value is None:
                assert got[name] is None, (name, record)
            else:
                assert got[name] == pytest.approx(value, abs=1e-12), (name, record)


def test_zero_mode_is_ragchecker_exactly():
    """Bit-identical to ragchecker 0.1.9; without the peer this fails, it is never skipped."""
    assert load_peer() is not None, MISSING
    zero_mode_equals_the_peer()


@SETTINGS
@given(st.lists(ragchecker_records(unjudged=False), min_size=1, max_size=5))
def zero_mode_equals_the_peer(records):
    for i, r in enumerate(records):
        r["query_id"] = str(i)
    scores = rw.evaluate(records, undefined="zero")
    for i, record in enumerate(records):
        got = scores.metrics(i)
        for name, value in peer_metrics(record).items():
            assert got[name] == value, (name, got[name], value, record)  # bit-identical


@SETTINGS
@given(st.lists(fact_records(), min_size=1, max_size=5))
def test_citation_family_equals_reference(records):
    for i, r in enumerate(records):
        r["query_id"] = str(i)
    scores = rw.evaluate(records, rw.CITATION_METRICS)
    for i, record in enumerate(records):
        got = scores.metrics(i)
        for name, value in reference_citation_metrics(record).items():
            assert got[name] == (None if value is None else pytest.approx(value)), (name, record)


def _drop(record, keep_resp, keep_gt, keep_psg):
    """The record as if the dropped claims and passages were never there."""
    out = dict(record)
    out["response_claims"] = [c for c, k in zip(record["response_claims"], keep_resp) if k]
    out["gt_answer_claims"] = [c for c, k in zip(record["gt_answer_claims"], keep_gt) if k]
    out["retrieved_context"] = [p for p, k in zip(record["retrieved_context"], keep_psg) if k]
    out["answer2response"] = [x for x, k in zip(record["answer2response"], keep_resp) if k]
    out["response2answer"] = [x for x, k in zip(record["response2answer"], keep_gt) if k]
    for name, keep_rows in (("retrieved2response", keep_resp), ("retrieved2answer", keep_gt)):
        out[name] = [[x for x, kp in zip(row, keep_psg) if kp]
                     for row, kr in zip(record[name], keep_rows) if kr]
    for name in ("response_claim_labels", "gt_answer_claim_labels"):
        out.pop(name, None)
    return out


@SETTINGS
@given(ragchecker_records(labelled=True), st.sampled_from(["null", "zero"]))
def test_required_only_is_as_if_optional_claims_were_absent(record, undefined):
    req_resp = [x.lower() == "required" for x in record["response_claim_labels"]]
    req_gt = [x.lower() == "required" for x in record["gt_answer_claim_labels"]]
    filtered = _drop(record, req_resp, req_gt, [True] * len(record["retrieved_context"]))
    assert rw.evaluate(record, mode="required_only", undefined=undefined).metrics(0) == \
        rw.evaluate(filtered, undefined=undefined).metrics(0)
    both = rw.evaluate(record, mode="required_and_optional", undefined=undefined).metrics(0)
    assert {k[len("required_"):]: v for k, v in both.items() if k.startswith("required_")} == \
        rw.evaluate(filtered, undefined=undefined).metrics(0)
    assert {k: v for k, v in both.items() if not k.startswith("required_")} == \
        rw.evaluate(record, undefined=undefined).metrics(0)


@SETTINGS
@given(ragchecker_records(), st.data())
def test_passage_what_if_equals_rescoring_without_the_passage(record, data):
    n_psg = len(record["retrieved_context"])
    keep = data.draw(st.lists(st.booleans(), min_size=n_psg, max_size=n_psg))
    batch = rw.Batch.from_samples(rw.load_samples([record]).samples)
    what_if = rw.evaluate(batch, passage_active=np.array(keep, dtype=bool)).metrics(0)
    n_resp, n_gt = len(record["response_claims"]), len(record["gt_answer_claims"])
    assert what_if == rw.evaluate(_drop(record, [True] * n_resp, [True] * n_gt, keep)).metrics(0)


@SETTINGS
@given(fact_records(), st.data())
def test_citation_what_if_makes_citations_to_dropped_passages_invalid(record, data):
    n_psg = len(record["retrieved_context"])
    keep = data.draw(st.lists(st.booleans(), min_size=n_psg, max_size=n_psg))
    batch = rw.Batch.from_samples(rw.load_samples([record]).samples)
    what_if = rw.evaluate(batch, rw.CITATION_METRICS, passage_active=np.array(keep, dtype=bool)).metrics(0)
    moved = dict(record)
    moved["retrieved_context"] = [p for p, k in zip(record["retrieved_context"], keep) if k]
    moved["corpus"] = record["corpus"] + [p for p, k in zip(record["retrieved_context"], keep) if not k]
    assert what_if == rw.evaluate(moved, rw.CITATION_METRICS).metrics(0)


@SETTINGS
@given(st.lists(ragchecker_records(), min_size=2, max_size=6), st.sampled_from(["null", "zero"]))
def test_scoring_together_equals_scoring_apart(records, undefined):
    for i, r in enumerate(records):
        r["query_id"] = str(i)
    together = rw.evaluate(records, undefined=undefined)
    for i, record in enumerate(records):
        assert together.metrics(i) == rw.evaluate([record], undefined=undefined).metrics(0)


@SETTINGS
@given(ragchecker_records(max_claims=6, max_passages=5), st.data())
def test_the_explanations_links_are_the_labels_cell_by_cell(record, data):
    """Each claim's supporting / contradicting passages and each passage's entailed / contradicted
    claims, with some passages switched off, are the labels read one cell at a time."""
    from ragwidgets.engine.batch import Batch
    from ragwidgets.engine.evaluate import evaluate

    sample = rw.parse_sample(record)
    on = np.array(data.draw(st.lists(st.booleans(), min_size=len(sample.passages), max_size=len(sample.passages))),
                  dtype=bool)
    ex = evaluate(Batch.from_samples([sample]), passage_active=on).explain(0)
    docs = [p.doc_id for p in sample.passages]

    def cells(matrix, label):
        return [] if matrix is None else [(j, k) for j in range(matrix.shape[0]) for k in range(len(docs))
                                           if on[k] and rw.model.LABEL_CODES[label] == matrix[j, k]]

    for side, rows, matrix, prefix in (("response", ex.claims, sample.retrieved2response, "R"),
                                       ("gt", ex.gt_claims, sample.retrieved2answer, "G")):
        for label, claim_field, passage_field in (("Entailment", "supported_by", f"entails_{side}"),
                                                  ("Contradiction", "contradicted_by", f"contradicts_{side}")):
            hits = cells(matrix, label)
            for row in rows:
                j = int(row.id[1:]) - 1
                assert getattr(row, claim_field) == tuple(docs[k] for jj, k in hits if jj == j), (row.id, label)
            for k, p in enumerate(ex.passages[:len(docs)]):
                assert getattr(p, passage_field) == tuple(f"{prefix}{j + 1}" for j, kk in hits if kk == k), (p.doc_id, label)
