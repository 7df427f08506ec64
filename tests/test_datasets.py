"""The packaged RefChecker human labels: counts against the raw files, and the documented mapping."""

import json
from pathlib import Path

import numpy as np
import pytest

import ragwidgets as rw
from ragwidgets.datasets import SETTINGS, SYSTEMS, refchecker_claims, refchecker_human
from ragwidgets.datasets.refchecker import DATA

RAW = Path("/work/shared/data/refchecker-human")  # the source copy, where this machine has it


def raw_items(setting, system, root=DATA):
    return json.loads((root / setting / f"{SETTINGS[setting]}_{system}_answers.json").read_text(encoding="utf-8"))


def test_licence_and_attribution_ship_with_the_data():
    assert "Attribution 4.0 International" in (DATA / "LICENSE.txt").read_text()
    assert "amazon-science/RefChecker" in (DATA / "ATTRIBUTION.txt").read_text()


@pytest.mark.skipif(not RAW.exists(), reason="the raw RefChecker files are not on this machine")
def test_packaged_copy_equals_the_raw_files():
    for setting in SETTINGS:
        for system in SYSTEMS:
            assert raw_items(setting, system) == raw_items(setting, system, RAW)


def test_claim_counts_and_labels_match_the_files():
    claims = refchecker_claims()
    assert len(claims) == sum(len(item["claude2_response_kg"]) for s in SETTINGS for m in SYSTEMS
                              for item in raw_items(s, m))
    entailed = claims[claims.human_label == "Entailment"].groupby(["setting", "system"]).size()
    for setting in SETTINGS:
        for system in SYSTEMS:
            items = raw_items(setting, system)
            assert entailed[(setting, system)] == sum(c["human_label"] == "Entailment"
                                                      for item in items for c in item["claude2_response_kg"])


@pytest.mark.parametrize("setting,metric", [("zero_context", "precision"), ("noisy_context", "faithfulness"),
                                            ("accurate_context", "faithfulness")])
def test_human_labels_play_the_documented_matrix(setting, metric):
    runs = refchecker_human(setting)
    assert list(runs) == list(SYSTEMS) and all(len(r) == 100 for r in runs.values())
    for system in ("gpt4", "alpaca_7B"):
        items = raw_items(setting, system)
        agg = rw.evaluate(runs[system]).aggregate()[metric]
        shares = [np.mean([c["human_label"] == "Entailment" for c in item["claude2_response_kg"]])
                  for item in items if item["claude2_response_kg"]]
        assert agg["defined"] == len(shares)
        assert agg["undefined"] == 100 - len(shares)  # abstentions: Undefined, never 0
        assert agg["mean"] == pytest.approx(np.mean(shares))


def test_bad_setting_is_named():
    with pytest.raises(ValueError, match="setting must be one of zero_context"):
        refchecker_human("zero")
    assert set(refchecker_human()) == set(SETTINGS)
