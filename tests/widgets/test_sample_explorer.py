"""SampleExplorer over RAGChecker's example: every control, as the front end sets it."""

import json

import numpy as np
import pytest
import traitlets

import ragwidgets as rw
from ragwidgets.widgets import SampleExplorer
from ragwidgets.widgets.base import encode_view


def cards(view):
    return {c["name"]: c for g in view["card_groups"] for c in g["cards"]}


def test_all_eleven_ragchecker_metrics_match_the_engine(sample_explorer, example_samples):
    want = rw.evaluate(example_samples).metrics(0)
    assert sample_explorer.metrics == want
    assert set(sample_explorer.metrics) == set(rw.RAGCHECKER_METRICS)
    view = sample_explorer.view
    assert [g["title"] for g in view["card_groups"]] == [
        "RAGChecker · overall", "RAGChecker · retriever", "RAGChecker · generator"]
    assert cards(view)["precision"]["fraction"] == "8/11 = 0.727"
    assert {m["name"] for m in view["not_computable"]} == {
        "context_relevance", "citation_support", "citation_precision", "completeness"}
    encoded = encode_view(view)
    text, cells = encoded.json, encoded.cells
    assert json.loads(text)["matrix"]["columns"] == view["matrix"]["columns"]
    assert cells == view["matrix"]["cells"] and "cells" not in json.loads(text)["matrix"]


def test_views_for_a_ragchecker_sample(sample_explorer, example_samples):
    view = sample_explorer.view
    s = example_samples[0]
    assert [x["doc_id"] for x in view["sources"]] == ["000", "001", "002", "003"]
    assert [x["rank"] for x in view["sources"]] == [1, 2, 3, 4]
    assert len(view["claims"]) == 11 and len(view["gt_claims"]) == 22
    r1 = view["claims"][0]
    assert (r1["correct"], r1["faithful"], r1["supported_by"], r1["citations"]) == (False, True, ["001"], None)
    assert not view["has_citations"]
    m = view["matrix"]
    assert [c["doc_id"] for c in m["columns"]] == ["000", "001", "002", "003"]
    cells = np.frombuffer(m["cells"], np.int8).reshape(-1, len(m["columns"]))
    assert np.array_equal(cells[:len(m["response"])], s.retrieved2response)
    assert np.array_equal(cells[len(m["response"]):], s.retrieved2answer)
    assert [r["id"] for r in m["gt"]] == [f"G{j + 1}" for j in range(22)]
    assert view["answer"] == s.response and view["question"] == s.query


def test_toggling_passages_is_a_what_if(sample_explorer, front_end, example_samples):
    view = front_end(sample_explorer, retrieved=["000", "002"])
    s = example_samples[0]
    active = np.array([True, False, True, False])
    want = rw.evaluate(example_samples[:1], passage_active=active).metrics(0)
    assert sample_explorer.metrics == want
    assert [c["active"] for c in view["matrix"]["columns"]] == list(active)
    assert "2 passage(s) switched off" in view["state"]
    assert np.array_equal(s.retrieved2response, example_samples[0].retrieved2response)  # labels untouched
    view = front_end(sample_explorer, retrieved=[])
    c = cards(view)
    assert c["context_precision"]["shown"] == "Undefined"
    assert c["context_precision"]["reason"] == "no retrieved passages"
    assert c["faithfulness"]["fraction"] == "0/11 = 0"
    with pytest.raises(traitlets.TraitError, match="not a passage"):
        sample_explorer.retrieved = ["999"]


def test_undefined_policy_switch(sample_explorer, front_end):
    front_end(sample_explorer, retrieved=[])
    view = front_end(sample_explorer, undefined="zero")
    assert cards(view)["context_precision"]["shown"] == "0"
    assert "empty cases as 0" in view["state"]
    with pytest.raises(traitlets.TraitError):
        sample_explorer.undefined = "maybe"


def test_sample_switch_resets_passages_and_selection(sample_explorer, front_end, example_samples):
    front_end(sample_explorer, retrieved=["000"], selected="claim:R2")
    view = front_end(sample_explorer, sample_index=1)
    assert sample_explorer.retrieved == [p.doc_id for p in example_samples[1].passages]
    assert sample_explorer.selected == ""
    assert sample_explorer.metrics == rw.evaluate(example_samples).metrics(1)
    assert view["controls"]["picker"] == {"index": 1, "total": 2, "query_id": example_samples[1].query_id,
                                          "query": example_samples[1].query}
    with pytest.raises(traitlets.TraitError):
        sample_explorer.sample_index = 5


def test_presets_and_reset(sample_explorer, front_end, example_samples):
    presets = {p["name"]: p for p in sample_explorer.view["controls"]["presets"]}
    assert list(presets) == ["All passages", "No passages", "Only useful"]
    assert sample_explorer.view["controls"]["top_k"] == {"value": 4, "max": 4}
    s = example_samples[0]
    useful = [p.doc_id for k, p in enumerate(s.passages) if (s.retrieved2answer[:, k] == 1).any()]
    assert presets["Only useful"]["set"]["retrieved"] == useful
    view = front_end(sample_explorer, retrieved=["000"])  # what the top-k control sends for k = 1
    assert view["controls"]["top_k"]["value"] == 1
    assert not any(p["active"] for p in view["controls"]["presets"])
    view = front_end(sample_explorer, retrieved=["000", "002"])
    assert view["controls"]["top_k"]["value"] is None  # not the first k
    view = front_end(sample_explorer, **view["controls"]["reset"])
    assert sample_explorer.retrieved == ["000", "001", "002", "003"]
    assert [p["name"] for p in view["controls"]["presets"] if p["active"]] == ["All passages"]


def test_shared_selection(sample_explorer, front_end):
    view = front_end(sample_explorer, selected="source:000")
    lit = {c["id"]: c["roles"] for c in view["claims"] if c["roles"]}
    assert lit == {"R9": ["entailed"]}
    assert {g["id"]: g["roles"] for g in view["gt_claims"] if g["roles"]} == {
        "G4": ["entailed"], "G5": ["entailed"], "G6": ["entailed"], "G7": ["contradicted"]}
    view = front_end(sample_explorer, selected="gt:G4")
    assert {s["doc_id"]: s["roles"] for s in view["sources"] if s["roles"]} == {"000": ["supports"]}
    view = front_end(sample_explorer, selected="claim:R1")
    assert {s["doc_id"]: s["roles"] for s in view["sources"] if s["roles"]} == {"001": ["supports"]}


def test_predict_mode_on_a_sample(sample_explorer, front_end):
    front_end(sample_explorer, predict=True, predictions={"precision": "0.73"})
    c = cards(sample_explorer.view)
    assert c["precision"]["prediction"]["match"] and not c["precision"]["hidden"]
    assert c["recall"]["hidden"]
    front_end(sample_explorer, retrieved=["000"])
    assert sample_explorer.predictions == {}


def test_synthetic_citation_sample_shows_both_families():
    record = {
        "query_id": "q", "query": "Q?", "gt_answer": "A.", "response": "A.",
        "retrieved_context": [{"doc_id": "P1", "text": "<script>x</script>", "relevant": True}],
        "response_claims": [{"text": "A", "cites": ["P1"]}],
        "gt_answer_claims": ["A"],
        "answer2response": ["Entailment"], "response2answer": ["Entailment"],
        "retrieved2response": [["Entailment"]], "retrieved2answer": [["Entailment"]],
    }
    e = SampleExplorer(rw.parse_sample(record))
    groups = [g["title"] for g in e.view["card_groups"]]
    assert groups[0] == "Citation family"
    assert e.metrics["citation_precision"] == 1.0 and e.metrics["context_relevance"] == 1.0
    assert e.view["sources"][0]["text"] == "<script>x</script>"
    assert e.view["has_citations"]


def test_one_message_with_a_sample_and_its_own_passages_keeps_both(sample_explorer, front_end,
                                                                     example_samples):
    second = [p.doc_id for p in example_samples[1].passages]
    front_end(sample_explorer, sample_index=1, retrieved=second[:1], selected="claim:R1")
    assert sample_explorer.sample_index == 1
    assert sample_explorer.retrieved == second[:1] and sample_explorer.selected == "claim:R1"
    front_end(sample_explorer, sample_index=0)  # alone, it still resets them
    assert sample_explorer.retrieved == [p.doc_id for p in example_samples[0].passages]
    assert sample_explorer.selected == ""


def test_a_cited_corpus_source_is_shown_but_cannot_be_toggled():
    record = {
        "query_id": "q", "query": "Q?", "gt_answer": "A.", "response": "A.",
        "retrieved_context": [{"doc_id": "P1", "text": "x", "relevant": True}],
        "corpus": [{"doc_id": "C1", "text": "y"}],
        "response_claims": [{"text": "A", "cites": ["C1"]}], "gt_answer_claims": ["A"],
        "answer2response": ["Entailment"], "response2answer": ["Entailment"],
        "retrieved2response": [["Entailment"]], "retrieved2answer": [["Entailment"]],
    }
    view = SampleExplorer(rw.parse_sample(record)).view
    assert [(s["doc_id"], s["rank"], s["retrieved"], s["toggleable"]) for s in view["sources"]] == [
        ("P1", 1, True, True), ("C1", None, False, False)]
    assert view["matrix"]["columns"] == [{"doc_id": "P1", "active": True}]
