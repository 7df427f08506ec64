"""Prediction-powered estimates: hand cases, the Undefined rules, and the coverage simulation
(a judge that errs at class-dependent rates; the corrected interval must cover the truth)."""

import dataclasses
import json

import numpy as np
import pytest

import ragwidgets as rw
from ragwidgets.analysis.corrected import prediction_powered
from ragwidgets.engine.evaluate import evaluate
from ragwidgets.engine.metrics import RAGCHECKER_METRICS
from ragwidgets.errors import InputError

NAN = float("nan")


def test_a_judge_agreeing_on_the_review_keeps_its_mean_with_zero_width():
    judge = np.array([0.2, 0.4, 0.6, 0.8, 1.0, 0.0])
    e = prediction_powered(judge, judge[:3], judge[:3])
    assert e.corrected.mean == pytest.approx(judge.mean())
    assert e.corrected.low == pytest.approx(e.corrected.high)
    assert e.reviewed.mean == pytest.approx(0.4) and e.judge.mean == pytest.approx(judge.mean())


def test_a_constant_judge_bias_is_removed_exactly():
    rng = np.random.default_rng(0)
    truth = rng.random(1000)
    judge = truth + 0.1
    idx = rng.choice(1000, size=50, replace=False)
    e = prediction_powered(judge, judge[idx], truth[idx])
    assert e.corrected.mean == pytest.approx(truth.mean())
    assert e.corrected.high - e.corrected.low == pytest.approx(0, abs=1e-9)
    assert e.judge.mean == pytest.approx(truth.mean() + 0.1) and not e.judge.low <= truth.mean() <= e.judge.high
    assert e.reviewed.low < e.reviewed.mean < e.reviewed.high


def test_a_sample_defined_under_one_labelling_only_enters_as_a_ratio_of_totals():
    # judge totals over all 4: A = 1 + 0 + 1 = 2, B = 3 (sample 1 Undefined for the judge);
    # reviewed samples 0, 1: truth 0 and 1, so the rectifiers are a: (0-1, 1-0), b: (1-1, 1-0).
    e = prediction_powered([1.0, NAN, 0.0, 1.0], [1.0, NAN], [0.0, 1.0])
    assert e.corrected.mean == pytest.approx((2 + 4 * 0.0) / (3 + 4 * 0.5))
    assert e.reviewed.mean == pytest.approx(0.5) and e.judge.mean == pytest.approx(2 / 3)
    flags = prediction_powered([1.0, 9.0, 0.0, 1.0], [1.0, 9.0], [0.0, 1.0],
                               defined_all=[True, False, True, True], defined_judge_reviewed=[True, False])
    assert flags.corrected.mean == pytest.approx(e.corrected.mean)


def test_undefined_cases_say_why():
    e = prediction_powered([0.5, 1.0, 0.0], [0.5, 1.0], [NAN, NAN])
    assert e.corrected.mean is None and e.reviewed.mean is None
    assert "no reviewed sample is defined" in e.corrected.reason
    assert e.judge.mean == pytest.approx(0.5)
    e = prediction_powered([NAN, NAN], [NAN], [1.0])
    assert e.judge.mean is None and "judge" in e.judge.reason
    assert e.reviewed.mean == 1.0 and e.reviewed.low is None and "fewer than 2" in e.reviewed.reason
    row = e.row()
    assert row["judge_mean"] is None and "judge:" in row["reason"]
    json.dumps(e.to_view(), allow_nan=False)
    assert e.to_frame().loc["judge", "mean"] is None
    with pytest.raises(InputError, match="pair up"):
        prediction_powered([1.0, 0.0], [1.0], [1.0, 0.0])
    with pytest.raises(InputError, match="n_total"):
        prediction_powered([1.0, 0.0], [1.0, 0.0], [1.0, 0.0], n_total=1)


# -- coverage simulation ---------------------------------------------------------------------
N, PATTERNS, DRAWS = 10_000, 8, 250  # 8 judge error patterns x 250 reviewed subsets = 2,000 runs per n


def _erring_judge(labels: np.ndarray, rng) -> np.ndarray:
    """10% of Entailment labels flipped to Neutral, 25% of Neutral to Entailment."""
    u = rng.random(len(labels))
    out = labels.copy()
    out[(labels == 1) & (u < 0.10)] = 0
    out[(labels == 0) & (u < 0.25)] = 1
    return out


def _values(scores, name):
    part = scores.parts[0]
    v = part.value[name].copy()
    v[part.code[name] != 0] = np.nan
    return v


@pytest.fixture(scope="module")
def population():
    truth = evaluate(rw.datasets.synthetic_run(N, seed=1, quality=0.6), RAGCHECKER_METRICS)
    b = truth.batch
    judges = []
    for p in range(PATTERNS):
        rng = np.random.default_rng([7, p])
        judged = dataclasses.replace(b, **{f: _erring_judge(getattr(b, f), rng) for f in
                                           ("answer2response", "response2answer", "r2r_label", "r2a_label")})
        judges.append(evaluate(judged, RAGCHECKER_METRICS))
    return truth, judges


@pytest.mark.parametrize("n", [100, 500])
def test_corrected_interval_covers_the_true_mean(population, n):
    truth, judges = population
    coverage = {m: np.zeros(3) for m in RAGCHECKER_METRICS}
    width = {m: np.zeros(2) for m in RAGCHECKER_METRICS}
    runs = 0
    for p, judge in enumerate(judges):
        subsets = np.random.default_rng([n, p]).random((DRAWS, N)).argsort(axis=1)[:, :n]  # simple random samples
        for m in RAGCHECKER_METRICS:
            t, j = _values(truth, m), _values(judge, m)
            target = np.nanmean(t)
            for idx in subsets:
                e = prediction_powered(j, j[idx], t[idx])
                coverage[m] += [est.low <= target <= est.high for est in (e.judge, e.reviewed, e.corrected)]
                width[m] += [e.reviewed.high - e.reviewed.low, e.corrected.high - e.corrected.low]
        runs += DRAWS
    for m in RAGCHECKER_METRICS:
        judge_cov, reviewed_cov, corrected_cov = coverage[m] / runs
        print(f"n={n} {m}: coverage judge only {judge_cov:.3f}, reviewed only {reviewed_cov:.3f}, "
              f"corrected {corrected_cov:.3f}; mean width reviewed {width[m][0] / runs:.4f}, "
              f"corrected {width[m][1] / runs:.4f}")
        assert corrected_cov >= 0.94, (m, corrected_cov)
        assert width[m][1] < width[m][0], m
    # the judge's errors move the metrics that read its claim-vs-answer labels: its own interval misses
    for m in ("precision", "recall", "f1", "hallucination"):
        assert coverage[m][0] / runs < 0.5, (m, coverage[m][0] / runs)
