"""notebooks/05_trust_the_judge.ipynb runs top to bottom (nbclient, a real kernel), offline, and
its printed figures are the ones worked out here by hand from the same answers and the truth."""

from __future__ import annotations

import re

import numpy as np
import pytest

import ragwidgets as rw
from notebooks import execute
from ragwidgets.judges import LexicalJudge

NUMBER = r"(-?\d+\.\d+)"


def interval(text: str, name: str) -> tuple[float, float, float]:
    """``name mean [low, high]`` as printed by the notebook."""
    found = re.search(rf"{name}:? {NUMBER} \[{NUMBER}, {NUMBER}\]", text)
    assert found, f"no '{name} mean [low, high]' line in the notebook's output"
    return tuple(map(float, found.groups()))


def hand_kappa(judge: np.ndarray, truth: np.ndarray) -> float:
    """Cohen's kappa of two boolean raters: (po - pe) / (1 - pe)."""
    po = np.mean(judge == truth)
    pe = np.mean(judge) * np.mean(truth) + np.mean(~judge) * np.mean(~truth)
    return (po - pe) / (1 - pe)


@pytest.fixture(scope="module")
def executed(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("nb05")  # the judge cache goes there
    outputs, text = execute("05_trust_the_judge.ipynb", tmp, 120, unset=("RAGWIDGETS_LLM_JUDGE",))  # no LLM request
    return outputs, text, tmp


@pytest.fixture(scope="module")
def by_hand():
    """The notebook's 2,000 answers judged here, and the truth, as plain arrays."""
    records = rw.datasets.halueval_qa(n=2000, seed=0)
    scorer = rw.RagChecker(target_column=None, context_column="retrieved_context", scores_to_compute=["faithfulness"])
    faithfulness = scorer.score(records, LexicalJudge()).frame["faithfulness"].to_numpy(dtype=float)
    return np.array([r["hallucinated"] for r in records]), faithfulness


def test_runs_offline_without_errors_and_caches_in_a_temporary_folder(executed):
    outputs, text, tmp = executed
    assert not [o for o in outputs if o.output_type == "error"]
    assert "skipped: no request was made" in text
    assert list(tmp.glob("ragwidgets-05-*/judge_cache.sqlite"))


def test_the_truth_is_the_datasets(executed, by_hand):
    truth, _ = by_hand
    found = re.search(r"truth: (\d+) of (\d+) answers hallucinated", executed[1])
    assert found and (int(found[1]), int(found[2])) == (truth.sum(), len(truth))
    assert f"truth over all 2000 answers: {truth.mean():.4f}" in executed[1]


def test_kappa_is_reported_beside_the_base_rate_and_matches_the_hand_computation(executed, by_hand):
    truth, faithfulness = by_hand
    judged = ~np.isnan(faithfulness)
    flagged, true = faithfulness[judged] < 1, truth[judged]
    text = executed[1]
    assert f"pairs: {judged.sum()} judged, {(~judged).sum()} without a verdict" in text
    kappa, low, high = interval(text, "kappa")
    assert kappa == pytest.approx(hand_kappa(flagged, true), abs=5e-4) and -1 <= low <= kappa <= high <= 1
    base = re.search(rf"\] beside the base rate {NUMBER}", text)
    assert base and float(base[1]) == pytest.approx(max(true.mean(), 1 - true.mean()), abs=5e-4)
    tp = np.sum(flagged & true)
    precision, recall = tp / flagged.sum(), tp / true.sum()
    assert (f"'hallucinated': precision {precision:.3f}, recall {recall:.3f}, "
            f"F1 {2 * precision * recall / (precision + recall):.3f}") in text


def test_published_figures_are_shown_beside_the_judges(executed):
    table = next(o.data["text/plain"] for o in executed[0] if "Phoenix" in o.get("data", {}).get("text/plain", ""))
    assert all(figure in table for figure in ("0.930", "0.720", "0.820", "0.626", "LexicalJudge"))
    assert "NaN" not in table


def test_three_estimates_with_intervals_against_the_truth(executed, by_hand):
    truth, faithfulness = by_hand
    text = executed[1]
    estimates = {name: interval(text, name) for name in ("judge", "reviewed", "corrected")}
    for mean, low, high in estimates.values():
        assert 0 <= low <= mean <= high <= 1
    flagged = faithfulness[~np.isnan(faithfulness)] < 1
    assert estimates["judge"][0] == pytest.approx(flagged.mean(), abs=5e-5)
    reviewed = np.random.default_rng(0).choice(2000, size=200, replace=False)  # the notebook's draw
    assert estimates["reviewed"][0] == pytest.approx(truth[reviewed].mean(), abs=5e-5)
