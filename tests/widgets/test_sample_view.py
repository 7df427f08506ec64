"""SampleView: one sample's view state, the piece SampleExplorer and DatasetExplorer hold."""

import json

import numpy as np
import pytest

import ragwidgets as rw
from ragwidgets.widgets._sample_view import SampleView


@pytest.fixture
def sv(example_samples):
    return SampleView(example_samples[0])


def cards(view):
    return {c["name"]: c for g in view["card_groups"] for c in g["cards"]}


def test_view_matches_the_engine_and_splits_the_matrix_out_as_bytes(sv, example_samples):
    assert sv.metrics == rw.evaluate(example_samples).metrics(0)
    payload = sv.payload()
    text, cells = payload.json, payload.cells
    view = json.loads(text)
    assert view["query_id"] == example_samples[0].query_id and "cells" not in view["matrix"]
    s = example_samples[0]
    assert cells == np.concatenate([s.retrieved2response, s.retrieved2answer]).astype(np.int8).tobytes()
    assert view["controls"]["selects"][0]["trait"] == "undefined"
    assert sv.view(title="Drill-down")["title"] == "Drill-down"


def test_actions_apply_together_and_the_view_follows(sv, example_samples):
    sv.apply({"retrieved": ["002", "000"], "selected": "claim:R1"})
    assert sv.retrieved == ["000", "002"]  # rank order
    active = np.array([True, False, True, False])
    assert sv.metrics == rw.evaluate(example_samples[:1], passage_active=active).metrics(0)
    view = sv.view()
    assert view["selected"] == "claim:R1"
    assert [c["active"] for c in view["matrix"]["columns"]] == list(active)
    sv.apply({"predict": True, "predictions": {"precision": "0.73"}})
    assert cards(sv.view())["precision"]["prediction"]["match"]
    sv.apply({"retrieved": ["000"]})  # a new state: stale predictions go
    assert sv.view()["predictions"] == {}


def test_bad_actions_name_sample_and_field_and_change_nothing(sv):
    before = list(sv.retrieved)
    for patch, field in [({"retrieved": ["999"]}, "retrieved"), ({"retrieved": "000"}, "retrieved"),
                         ({"undefined": "maybe"}, "undefined"), ({"predict": "yes"}, "predict"),
                         ({"bogus": 1}, "bogus"), ({"selected": "claim:R1", "predictions": [1]}, "predictions")]:
        with pytest.raises(ValueError, match=rf"sample '.*', field '{field}'"):
            sv.apply(patch)
    assert sv.retrieved == before and sv.selected == ""


def test_a_selection_that_vanishes_is_cleared(sv):
    sv.apply({"selected": "source:001"})
    assert sv.view()["selected"] == "source:001"
    sv.apply({"selected": "claim:R99"})
    assert sv.view()["selected"] == ""


def test_zero_mode_shows_ragcheckers_substitute_zero_not_a_counted_fraction(sv):
    """The defect: with no passages, hallucination showed 0 over "3/11 = 0"."""
    sv.apply({"retrieved": [], "undefined": "zero"})
    c = cards(sv.view())
    h = c["hallucination"]
    assert h["shown"] == "0"
    assert h["fraction"] == "3/11 = 0.273 → 0"
    assert h["reason"] == "ragchecker 0.1.9 reports 0 with no passages in play"
    assert c["context_precision"]["fraction"] == "0/0 = Undefined → 0"
    assert c["context_precision"]["reason"] == "ragchecker 0.1.9 reports 0 for Undefined: no retrieved passages"
    assert c["faithfulness"]["fraction"] == "0/11 = 0" and c["faithfulness"]["reason"] is None  # a counted 0
    ex = sv.explanation
    assert "hallucination = 3/11 = 0.273 → 0 (ragchecker 0.1.9 reports 0" in str(ex)
    sv.apply({"undefined": "null"})
    assert cards(sv.view())["hallucination"]["fraction"] == "3/11 = 0.273"
