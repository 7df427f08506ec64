"""Explorer: every control, set as the front end sets it, and the metrics and view that result."""

import json
import math

import pytest
import traitlets

import ragwidgets as rw
from ragwidgets.widgets import HARBOR_PRESETS, Explorer


def cards(view):
    return {c["name"]: c for g in view["card_groups"] for c in g["cards"]}


def test_default_state_matches_the_lesson(harbor):
    assert harbor.state == harbor.scenario.default_state
    assert harbor.retrieved == ["D1", "D2"]
    for name in rw.CITATION_METRICS:
        assert harbor.metrics[name] == 1.0
    view = harbor.view
    assert view["summary"] == ("Retrieved 2 documents · Relevant 2 · Answer claims 3 · Supported 3 · "
                               "Present citations 3 · Valid citations 3 · Ground-truth claims 3 · "
                               "Covered required facts 3/3")
    c = cards(view)["context_relevance"]
    assert (c["shown"], c["fraction"], c["label"]) == ("1", "2/2 = 1", "Context relevance")
    assert c["definition"] == rw.METRICS["context_relevance"].definition
    assert [g["title"] for g in view["card_groups"]][0] == "Citation family"
    assert [c["name"] for c in view["card_groups"][0]["cards"]] == list(rw.CITATION_METRICS)
    json.dumps(view)  # the whole view state is one JSON document


def test_every_state_matches_the_sweep(harbor):
    """The Explorer's masked batch gives the engine's numbers for all 120 states."""
    sweep = harbor.scenario.sweep()
    for row in sweep.itertuples(index=False):
        harbor.move_to(row.retrieval, row.answer, row.citation)
        got = harbor.metrics
        for name in rw.CITATION_METRICS:
            want = getattr(row, name)
            assert (got[name] is None) == math.isnan(want), (row, name)
            if got[name] is not None:
                assert got[name] == pytest.approx(want)


def test_no_retrieval_from_the_front_end(harbor, front_end):
    view = front_end(harbor, retrieval="No retrieval")
    assert harbor.retrieved == []
    c = cards(view)["context_relevance"]
    assert (c["shown"], c["status"], c["reason"], c["fraction"]) == (
        "Undefined", "undefined", "no retrieved documents", "0/0 = Undefined")
    assert harbor.metrics["faithfulness"] == 0.0
    assert all(not s["retrieved"] for s in view["sources"])


def test_empty_answer(harbor, front_end):
    view = front_end(harbor, answer="Empty answer")
    c = cards(view)
    assert c["faithfulness"]["shown"] == "Undefined"
    assert c["faithfulness"]["reason"] == "no answer claims"
    assert c["completeness"]["shown"] == "0" and c["completeness"]["fraction"] == "0/3 = 0"
    assert c["citation_precision"]["shown"] == "Undefined"
    assert view["claims"] == [] and view["answer"] == ""
    assert [f["present"] for f in view["facts"]] == [False, False, False]


def test_no_citations_rule(harbor, front_end):
    view = front_end(harbor, citation="None")
    c = cards(view)
    assert c["citation_precision"]["shown"] == "Undefined"
    assert c["citation_precision"]["reason"] == "no citations"
    assert c["citation_support"]["fraction"] == "0/3 = 0"
    assert all(claim["citations"] == [] for claim in view["claims"])


def test_misplaced_citations_are_invalid_with_reasons(harbor, front_end):
    view = front_end(harbor, citation="Misplaced")
    for claim in view["claims"]:
        (cit,) = claim["citations"]
        assert cit["doc_id"] == "D3" and not cit["retrieved"] and not cit["valid"]
        assert cit["why"] == "invalid: D3 was not retrieved"
    assert harbor.metrics["faithfulness"] == 1.0 and harbor.metrics["citation_support"] == 0.0


def test_unknown_values_are_refused(harbor):
    with pytest.raises(traitlets.TraitError, match="known: Current sources"):
        harbor.retrieval = "Everything"
    with pytest.raises(traitlets.TraitError, match="unknown answer bundle"):
        harbor.answer = "nope"
    with pytest.raises(traitlets.TraitError, match="unknown citation rule"):
        harbor.citation = "nope"
    with pytest.raises(traitlets.TraitError, match="unknown source"):
        harbor.retrieved = ["D9"]
    with pytest.raises(traitlets.TraitError, match="twice"):
        harbor.retrieved = ["D1", "D1"]
    assert harbor.state == harbor.scenario.default_state


def test_passage_toggles_are_a_mask(harbor, front_end):
    view = front_end(harbor, retrieved=["D1"])  # the front end switches D2 off
    assert harbor.retrieval == "Current sources"
    assert harbor.metrics["faithfulness"] == pytest.approx(2 / 3)
    assert harbor.metrics["citation_precision"] == pytest.approx(2 / 3)
    assert "passages edited: −D2" in view["state"]
    assert view["controls"]["edited"] == "−D2"
    d2 = next(s for s in view["sources"] if s["doc_id"] == "D2")
    assert not d2["retrieved"] and d2["rank"] is None
    harbor.toggle_passage("D3")  # in: ranked after D1
    ranks = {s["doc_id"]: s["rank"] for s in harbor.view["sources"]}
    assert ranks == {"D1": 1, "D3": 2, "D2": None, "D4": None}
    assert harbor.metrics["context_relevance"] == 0.5
    assert [s["doc_id"] for s in harbor.view["sources"]] == ["D1", "D2", "D3", "D4"]  # rows stay put
    # choosing a bundle resets the passages to the bundle's
    front_end(harbor, retrieval="All sources")
    assert harbor.retrieved == ["D1", "D2", "D3", "D4"] and harbor.view["controls"]["edited"] == ""


def test_presets_and_reset(harbor, front_end):
    names = [p["name"] for p in harbor.view["controls"]["presets"]]
    assert names == ["Default"] + [p.name for p in HARBOR_PRESETS]
    preset = next(p for p in harbor.view["controls"]["presets"] if p["name"] == "Outdated answer")
    view = front_end(harbor, **preset["set"])  # what a preset button sends
    assert harbor.state == rw.scenario.State("Outdated schedule and admission", "Outdated answer", "Matched")
    c = cards(view)
    assert c["citation_precision"]["shown"] == "1" and c["completeness"]["fraction"] == "1/3 = 0.333"
    assert [p["name"] for p in view["controls"]["presets"] if p["active"]] == ["Outdated answer"]
    harbor.apply_preset("Free admission")
    assert harbor.metrics["faithfulness"] == pytest.approx(2 / 3)
    harbor.retrieved = ["D1"]
    view = front_end(harbor, **harbor.view["controls"]["reset"])
    assert harbor.state == harbor.scenario.default_state and harbor.retrieved == ["D1", "D2"]
    assert [p["name"] for p in view["controls"]["presets"] if p["active"]] == ["Default"]
    with pytest.raises(KeyError):
        harbor.apply_preset("nope")


@pytest.mark.parametrize("preset", HARBOR_PRESETS, ids=lambda p: p.name)
def test_each_lesson_preset_reaches_its_state(preset):
    e = Explorer.harbor()
    e.apply_preset(preset.name)
    assert e.state == rw.scenario.State(preset.retrieval, preset.answer, preset.citation)
    want = rw.evaluate(e.scenario.sample(*e.state.__dict__.values())).metrics(0)
    for name in rw.CITATION_METRICS:
        assert e.metrics[name] == want[name]


def test_selecting_a_claim_lights_its_passages(harbor, front_end):
    front_end(harbor, citation="Mixed")
    view = front_end(harbor, selected="claim:R3")
    roles = {s["doc_id"]: s["roles"] for s in view["sources"]}
    assert roles == {"D1": [], "D2": ["supports"], "D3": ["cited"], "D4": []}
    assert next(c for c in view["claims"] if c["id"] == "R3")["roles"] == ["selected"]


def test_selecting_a_passage_lights_the_claims_it_entails(harbor, front_end):
    view = front_end(harbor, selected="source:D1")
    assert {c["id"]: c["roles"] for c in view["claims"]} == {
        "R1": ["entailed", "cites"], "R2": ["entailed", "cites"], "R3": []}
    assert {g["id"]: g["roles"] for g in view["gt_claims"]} == {"G1": ["entailed"], "G2": ["entailed"], "G3": []}
    harbor.select("D2")
    assert harbor.selected == "source:D2"


def test_a_selection_rebuilds_and_sends_no_view(harbor, front_end, sample_explorer):
    """Selecting changes no metric: the front end draws it (js/src/selection.js); Python keeps
    the trait, sends no ``_view``, and ``view`` shows the selection as the front end does."""
    front_end(harbor, citation="Mixed")
    for x in (harbor, sample_explorer):
        sent = []
        x.observe(lambda ch: sent.append(ch["name"]), names="_view")
        before = x._view
        keys = [item["key"] for part in ("claims", "gt_claims", "sources") for item in x.view[part]]
        for key in keys:
            front_end(x, selected=key)
            x.select("")
            x.select(key)
        assert sent == [] and x._view is before
        assert x.selected == keys[-1] == x.view["selected"]
        front_end(x, predict=True)  # another change rebuilds the view, with the selection
        assert sent == ["_view"] and x._view.state["selected"] == keys[-1]


def _expected(links: dict[str, list]) -> dict[str, list[str]]:
    """{item: [role, ...]} from {role: [items]}, roles in the order given."""
    return {x: [r for r, items in links.items() if x in items] for items in links.values() for x in items}


def test_every_selection_lights_what_the_explanation_links(sample_explorer, harbor, front_end):
    """The roles a selection gives, item by item, against the engine's explanation itself."""
    front_end(harbor, citation="Mixed")

    def lit(part: str, key: str = "doc_id") -> dict:
        return {s[key]: s["roles"] for s in x.view[part] if s["roles"]}
    for x in (harbor, sample_explorer):
        ex = x.explanation
        for c in ex.claims:
            x.select(f"claim:{c.id}")
            assert lit("sources") == _expected({"supports": c.supported_by, "contradicts": c.contradicted_by,
                                                "cited": [cit.doc_id for cit in c.citations or ()]})
        for g in ex.gt_claims:
            x.select(f"gt:{g.id}")
            assert lit("sources") == _expected({"supports": g.supported_by, "contradicts": g.contradicted_by})
        for p in ex.passages:
            x.select(f"source:{p.doc_id}")
            cites = [c.id for c in ex.claims if any(cit.doc_id == p.doc_id for cit in c.citations or ())]
            assert lit("claims", "id") == _expected({"entailed": p.entails_response,
                                                     "contradicted": p.contradicts_response, "cites": cites})
            assert lit("gt_claims", "id") == _expected({"entailed": p.entails_gt, "contradicted": p.contradicts_gt})


def test_selection_of_a_vanished_item_is_cleared(harbor, front_end):
    front_end(harbor, selected="claim:R3")
    view = front_end(harbor, answer="Faithful fragment")
    assert harbor.selected == "" and view["selected"] == ""
    assert all(not c["roles"] for c in view["claims"])


def test_predict_then_reveal(harbor, front_end):
    view = front_end(harbor, predict=True)
    assert all(c["hidden"] for c in cards(view).values())
    view = front_end(harbor, predictions={"context_relevance": "1", "faithfulness": "2/3", "completeness": "x"})
    c = cards(view)
    assert not c["context_relevance"]["hidden"] and c["context_relevance"]["prediction"]["match"]
    assert not c["faithfulness"]["hidden"] and not c["faithfulness"]["prediction"]["match"]
    assert c["completeness"]["hidden"] and not c["completeness"]["prediction"]["readable"]
    assert c["citation_support"]["hidden"]
    # reapplying the same state keeps them
    front_end(harbor, retrieval="Current sources", answer="Fully supported")
    harbor.apply_preset("Default")
    assert harbor.predictions["context_relevance"] == "1"
    # selection is not a state change
    front_end(harbor, selected="claim:R1")
    assert harbor.predictions
    # a real change clears them, and going back does not restore them
    view = front_end(harbor, retrieval="No retrieval")
    assert harbor.predictions == {} and all(c["hidden"] for c in cards(view).values())
    harbor.retrieval = "Current sources"
    assert harbor.predictions == {}
    harbor.predict_value("context_relevance", "Undefined")
    assert not harbor.card("context_relevance")["prediction"]["match"]
    harbor.toggle_passage("D1")  # toggling a passage is a state change too
    assert harbor.predictions == {}


def test_undefined_prediction_matches_undefined(harbor):
    harbor.predict = True
    harbor.retrieval = "No retrieval"
    harbor.predict_value("context_relevance", "undefined")
    card = harbor.card("context_relevance")
    assert card["prediction"]["match"] and card["prediction"]["shown"] == "Undefined"
    assert card["shown"] == "Undefined" and not card["hidden"]


def test_metrics_frame_and_explanation(harbor):
    harbor.retrieval = "No retrieval"
    frame = harbor.metrics_frame
    assert frame.loc["context_relevance", "status"] == "undefined"
    assert frame.loc["context_relevance", "reason"] == "no retrieved documents"
    assert frame.loc["faithfulness", "reason"] == ""  # defined: 0/3
    assert math.isnan(frame.loc["context_relevance", "value"])
    assert harbor.explanation.metrics["faithfulness"].fraction == "0/3 = 0"


def test_one_view_update_per_control_change(harbor):
    seen = []
    harbor.observe(lambda ch: seen.append(ch["new"].state["state"]), names="_view")
    harbor.move_to("All sources", "Garden answer", "Misplaced")
    assert seen == ["All sources · Garden answer · Misplaced"]


def test_explorer_from_a_scenario_dict_keeps_text_as_data():
    xss = "<img src=x onerror=alert(1)>"
    spec = {
        "title": "XSS", "question": "Is <b>this</b> safe?",
        "sources": [{"doc_id": "D1", "text": xss, "facts": ["a"], "relevant": True}],
        "facts": {"a": {"text": xss, "cite": "D1"}},
        "reference_facts": ["a"],
        "retrieval_bundles": {"All": ["D1"]}, "answer_bundles": {"A": ["a"]},
        "citation_rules": {"Matched": {"rule": "matched"}},
    }
    e = Explorer(spec)
    assert [p["name"] for p in e.view["controls"]["presets"]] == ["Default"]
    assert e.view["sources"][0]["text"] == xss and e.view["claims"][0]["text"] == xss
    assert e.view["question"] == "Is <b>this</b> safe?"


def test_one_message_with_a_bundle_and_its_own_passages_keeps_both(harbor, front_end):
    """Choosing a bundle resets the passages only when the same message does not name them."""
    view = front_end(harbor, retrieval="All sources", retrieved=["D1", "D3"])
    assert harbor.retrieval == "All sources" and harbor.retrieved == ["D1", "D3"]
    assert view["controls"]["edited"] == "−D2 −D4"
    front_end(harbor, retrieved=["D2"], retrieval="Current sources")  # either key order
    assert harbor.retrieval == "Current sources" and harbor.retrieved == ["D2"]
    assert [s["doc_id"] for s in harbor.view["sources"] if s["retrieved"]] == ["D2"]
    front_end(harbor, retrieval="No retrieval")  # alone, it still resets them
    assert harbor.retrieved == []


def test_the_engine_runs_once_per_state(harbor, front_end, monkeypatch):
    """Selection and predictions reuse the state's explanation; a vanished selection is cleared
    without a second run."""
    from ragwidgets.widgets import explorer as module
    runs = []
    real = module.evaluate
    monkeypatch.setattr(module, "evaluate", lambda *a, **k: runs.append(1) or real(*a, **k))
    front_end(harbor, selected="claim:R3")
    front_end(harbor, predict=True, predictions={"faithfulness": "1"})
    assert runs == []
    view = front_end(harbor, answer="Faithful fragment")
    assert runs == [1] and view["selected"] == "" and harbor.predictions == {}


def test_rows_keep_their_places_while_passages_are_toggled(harbor, front_end):
    """Sources are listed in the bundle's order, then the others: a toggle never moves a row."""
    order = [s["doc_id"] for s in harbor.view["sources"]]
    assert order == ["D1", "D2", "D3", "D4"]
    for retrieved in (["D2"], ["D2", "D4"], ["D2", "D4", "D3"], ["D1", "D2", "D4", "D3"]):
        view = front_end(harbor, retrieved=retrieved)
        assert [s["doc_id"] for s in view["sources"]] == order
        assert {s["doc_id"]: s["rank"] for s in view["sources"] if s["retrieved"]} == {
            d: k + 1 for k, d in enumerate(retrieved)}
    view = front_end(harbor, retrieval="Outdated schedule and admission")
    assert [s["doc_id"] for s in view["sources"]] == ["D4", "D2", "D1", "D3"]
