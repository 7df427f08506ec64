"""Every number the lesson (seed ai-grounds-lesson.txt) states, on the shipped Harbor Museum."""

import math

import pytest

import ragwidgets as rw

H = rw.Scenario.harbor()


def explain(retrieval="Current sources", answer="Fully supported", citation="Matched"):
    return rw.evaluate(H.sample(retrieval, answer, citation), rw.CITATION_METRICS).explain(0)


def fractions(ex):
    return {name: m.fraction for name, m in ex.metrics.items()}


def test_shape_of_the_world():
    assert [s["doc_id"] for s in H.sources] == ["D1", "D2", "D3", "D4"]
    assert set(H.facts) == {"day", "time", "fee", "free", "oldDay", "oldTime", "benches"}
    assert H.reference_facts == ["day", "time", "fee"]
    assert (len(H.retrieval_bundles), len(H.answer_bundles), len(H.citation_rules)) == (5, 6, 4)
    assert len(H.states()) == 120
    assert list(H.citation_rules) == ["Matched", "Misplaced", "Mixed", "None"]


def test_default_state_is_the_seed_table():
    ex = explain()
    assert fractions(ex) == {
        "context_relevance": "2/2 = 1", "faithfulness": "3/3 = 1", "citation_support": "3/3 = 1",
        "citation_precision": "3/3 = 1", "completeness": "3/3 = 1"}
    assert ex.metrics["context_relevance"].text == "context_relevance = 2/2 = 1"
    rows = [(c.facts, c.supported_by, [(x.doc_id, x.retrieved, x.entails, x.valid) for x in c.citations])
            for c in ex.claims]
    assert rows == [(("day",), ("D1",), [("D1", True, True, True)]),
                    (("time",), ("D1",), [("D1", True, True, True)]),
                    (("fee",), ("D2",), [("D2", True, True, True)])]
    assert [(f.fact_id, f.present) for f in ex.reference_facts] == [("day", True), ("time", True), ("fee", True)]
    d4 = next(p for p in ex.passages if p.doc_id == "D4")
    assert (d4.retrieved, d4.relevant, d4.outdated) == (False, True, True)


def test_no_retrieval_makes_context_relevance_undefined():
    ex = explain(retrieval="No retrieval")
    m = ex.metrics["context_relevance"]
    assert (m.value, m.status, m.reason) == (None, "undefined", "no retrieved documents")
    assert m.text == "context_relevance = 0/0 = Undefined (no retrieved documents)"
    # Nothing is supported and every citation points at a source that was not retrieved.
    assert fractions(ex)["faithfulness"] == "0/3 = 0"
    assert fractions(ex)["citation_support"] == "0/3 = 0"
    assert fractions(ex)["citation_precision"] == "0/3 = 0"
    assert ex.claims[0].citations[0].why == "invalid: D1 entails the claim but was not retrieved"
    assert fractions(ex)["completeness"] == "3/3 = 1"  # a correct fact can appear without support


def test_empty_answer():
    ex = explain(answer="Empty answer")
    for name in ("faithfulness", "citation_support", "citation_precision"):
        assert ex.metrics[name].value is None, name
    assert ex.metrics["faithfulness"].reason == "no answer claims"
    assert ex.metrics["citation_precision"].reason == "no citations"
    assert fractions(ex)["completeness"] == "0/3 = 0"  # an empty answer is 0, never a perfect score


def test_faithful_fragment_omits_required_facts():
    f = fractions(explain(answer="Faithful fragment"))
    assert f["faithfulness"] == "1/1 = 1" and f["citation_precision"] == "1/1 = 1"
    assert f["completeness"] == "1/3 = 0.333"


def test_off_topic_garden_answer():
    f = fractions(explain(retrieval="All sources", answer="Garden answer"))
    assert f["faithfulness"] == "1/1 = 1" and f["citation_support"] == "1/1 = 1"
    assert f["context_relevance"] == "3/4 = 0.75"
    assert f["completeness"] == "0/3 = 0"
    # Without D3 retrieved its citation is invalid even though D3 entails the claim.
    ex = explain(answer="Garden answer")
    assert ex.claims[0].citations[0].why == "invalid: D3 entails the claim but was not retrieved"
    assert fractions(ex)["faithfulness"] == "0/1 = 0"


def test_outdated_answer_is_well_cited_yet_incomplete():
    ex = explain(retrieval="Outdated schedule and admission", answer="Outdated answer")
    f = fractions(ex)
    assert f["context_relevance"] == "2/2 = 1"  # D4 is outdated, still question-relevant
    assert f["faithfulness"] == "3/3 = 1"
    assert f["citation_support"] == "3/3 = 1" and f["citation_precision"] == "3/3 = 1"
    assert f["completeness"] == "1/3 = 0.333"
    assert [c.citations[0].doc_id for c in ex.claims] == ["D4", "D4", "D2"]


def test_free_admission_is_not_entailed_by_d2():
    ex = explain(answer="Free admission")
    free = ex.claims[2]
    assert free.facts == ("free",) and free.supported_by == ()
    assert free.citations[0].doc_id == "D2"
    assert free.citations[0].why == "invalid: D2 does not entail the claim"
    f = fractions(ex)
    assert f["faithfulness"] == "2/3 = 0.667"
    assert f["citation_support"] == "2/3 = 0.667" and f["citation_precision"] == "2/3 = 0.667"
    assert f["completeness"] == "2/3 = 0.667"


def test_misplaced_and_mixed_citations():
    misplaced = explain(citation="Misplaced")
    assert [c.citations[0].doc_id for c in misplaced.claims] == ["D3", "D3", "D3"]
    assert fractions(misplaced)["citation_precision"] == "0/3 = 0"
    assert fractions(misplaced)["faithfulness"] == "3/3 = 1"  # support is independent of citations
    mixed = explain(citation="Mixed")
    assert [c.citations[0].doc_id for c in mixed.claims] == ["D1", "D1", "D3"]
    assert fractions(mixed)["citation_support"] == "2/3 = 0.667"
    assert fractions(mixed)["citation_precision"] == "2/3 = 0.667"


def test_no_citations_gives_undefined_precision_and_zero_support():
    ex = explain(citation="None")
    assert ex.metrics["citation_precision"].value is None
    assert ex.metrics["citation_precision"].reason == "no citations"
    assert fractions(ex)["citation_support"] == "0/3 = 0"


def test_sweep_covers_every_state_and_keeps_undefined_as_nan():
    frame = H.sweep()
    assert len(frame) == 120
    assert list(frame.columns) == ["retrieval", "answer", "citation", *rw.CITATION_METRICS]
    assert frame[["retrieval", "answer", "citation"]].drop_duplicates().shape[0] == 120
    no_retrieval = frame[frame.retrieval == "No retrieval"]
    assert no_retrieval.context_relevance.isna().all()
    empty = frame[frame.answer == "Empty answer"]
    assert empty.faithfulness.isna().all() and (empty.completeness == 0).all()
    first = frame.iloc[0]
    assert (first.retrieval, first.answer, first.citation) == tuple(H.default_state.__dict__.values())
    assert all(first[m] == 1 for m in rw.CITATION_METRICS)
    # every state agrees with scoring it alone
    for row in frame.sample(10, random_state=0).itertuples(index=False):
        alone = rw.evaluate(H.sample(row.retrieval, row.answer, row.citation), rw.CITATION_METRICS).metrics(0)
        for m in rw.CITATION_METRICS:
            got = getattr(row, m)
            assert (alone[m] is None and math.isnan(got)) or alone[m] == pytest.approx(got)


def test_states_also_carry_the_ragchecker_family():
    m = rw.evaluate(H.sample(answer="Free admission")).metrics(0)
    assert m["precision"] == pytest.approx(2 / 3)  # "free" is not in the reference
    assert m["recall"] == pytest.approx(2 / 3)
    assert m["hallucination"] == pytest.approx(1 / 3)


@pytest.mark.parametrize("bad, field", [
    ({"retrieval_bundles": {"x": ["D9"]}}, "retrieval_bundles['x']"),
    ({"answer_bundles": {"x": ["nope"]}}, "answer_bundles['x']"),
    ({"citation_rules": {"x": {"rule": "fixed", "doc_id": "D9"}}}, "citation_rules['x'].doc_id"),
    ({"citation_rules": {"x": {"rule": "sometimes"}}}, "citation_rules['x']"),
    ({"reference_facts": ["unknown"]}, "reference_facts"),
    ({"sources": [dict(H.sources[0], relevant="yes")] + H.sources[1:]}, "sources[0].relevant"),
    ({"sources": [dict(H.sources[0], facts="day")] + H.sources[1:]}, "sources[0].facts"),
])
def test_bad_scenarios_name_the_field(bad, field):
    spec = dict(H._spec, **bad)
    with pytest.raises(rw.InputError) as err:
        rw.Scenario.load(spec)
    assert err.value.field == field
