"""The packaged RefChecker human labels: counts against the raw files, and the documented mapping."""

import hashlib
import json

import numpy as np
import pytest

import ragwidgets as rw
from ragwidgets.datasets import SETTINGS, SYSTEMS, refchecker_claims, refchecker_human
from ragwidgets.datasets.refchecker import DATA



def raw_items(setting, system, root=DATA):
    return json.loads((root / setting / f"{SETTINGS[setting]}_{system}_answers.json").read_text(encoding="utf-8"))


def test_licence_and_attribution_ship_with_the_data():
    assert "Attribution 4.0 International" in (DATA / "LICENSE.txt").read_text()
    assert "amazon-science/RefChecker" in (DATA / "ATTRIBUTION.txt").read_text()


def test_packaged_copy_is_the_one_checked_against_the_raw_files():
    """The 21 packaged files, as they were when compared (JSON-equal) with RefChecker's
    ``benchmark/human_annotations_v1`` files at commit 1df1b25 on 2026-12-01."""
    digest = hashlib.sha256()
    for setting in SETTINGS:
        for system in SYSTEMS:
            name = f"{setting}/{SETTINGS[setting]}_{system}_answers.json"
            digest.update(name.encode() + b"\0" + (DATA / name).read_bytes())
    assert digest.hexdigest() == "45cd0498c1f1bb5245d1d086dc5c6ec1ef3c37505d20e2ec6bc3b54ec4e67641"


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
