"""Prediction-powered estimates: hand cases, the Undefined rules, and the coverage simulation
(a judge that errs at class-dependent rates; the corrected interval must cover the truth)."""

import dataclasses
import json
import sys

import numpy as np
import pytest

import ragwidgets as rw
from judge_runs import judged_records, true_reviews
from ragwidgets.analysis.corrected import COLUMNS, corrected, corrected_view, prediction_powered
from ragwidgets.engine.evaluate import evaluate
from ragwidgets.engine.metrics import RAGCHECKER_METRICS
from ragwidgets.errors import InputError

NAN = float("nan")


def test_a_judge_agreeing_on_the_review_keeps_its_mean_but_its_interval_does_not_collapse():
    # three reviewed samples that all agree rule out no error rate below ~56%: not a point
    judge = np.array([0.2, 0.4, 0.6, 0.8, 1.0, 0.0])
    e = prediction_powered(judge, judge[:3], judge[:3])
    assert e.corrected.mean == pytest.approx(judge.mean()) and e.n_discordant == 0
    assert e.corrected.low < e.corrected.mean < e.corrected.high
    assert e.reviewed.mean == pytest.approx(0.4) and e.judge.mean == pytest.approx(judge.mean())
    assert e.row()["n_discordant"] == 0


def test_a_constant_judge_bias_is_covered_where_the_judge_alone_misses():
    rng = np.random.default_rng(0)
    truth = rng.random(1000)
    judge = truth + 0.1
    idx = rng.choice(1000, size=50, replace=False)
    e = prediction_powered(judge, judge[idx], truth[idx])
    assert e.corrected.low <= truth.mean() <= e.corrected.high and e.n_discordant == 50
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


@pytest.mark.slow  # a coverage simulation of tens of seconds
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


# -- over a run's scores and reviews -----------------------------------------------------------
@pytest.fixture(scope="module")
def reviewed_run():
    truth = rw.datasets.synthetic_run(400, seed=3, quality=0.6)
    judged = judged_records(truth, seed=4)
    picks = np.random.default_rng(5).choice(400, size=60, replace=False)
    return truth, judged, picks, true_reviews(truth, picks)


def test_corrected_table_columns_and_both_ways_in_agree(reviewed_run):
    truth, judged, picks, reviews = reviewed_run
    table = corrected(rw.evaluate(judged), reviews)
    assert list(table.columns) == list(COLUMNS) + ["reason"]
    assert "precision" in table.index and "context_relevance" not in table.index  # reads no label
    again = corrected(rw.evaluate(judged, reviews=reviews))
    assert again.drop(columns="reason").equals(table.drop(columns="reason"))
    truth_means = rw.evaluate(truth).aggregate()
    row = table.loc["precision"]
    assert row["n_samples"] == 400
    # the reviewed-only mean is the reviewed samples' own mean under the true labels
    true_scores = rw.evaluate(truth)
    values = true_scores.frame["precision"].to_numpy()[picks]
    reviewable = np.array([len(truth[i]["response_claims"]) > 0 for i in picks])
    assert row["n_reviewed"] == reviewable.sum()
    assert row["reviewed_mean"] == pytest.approx(np.nanmean(values))
    assert row["corrected_low"] < truth_means["precision"]["mean"] < row["corrected_high"]
    view = json.loads(json.dumps(corrected_view(table), allow_nan=False))
    assert view["columns"][0] == "metric" and view["rows"][0]["metric"] == table.index[0]
    assert view["rows"][0]["corrected_mean"] == pytest.approx(table.iloc[0]["corrected_mean"])


def test_a_sample_counts_as_reviewed_only_when_every_label_it_reads_is(reviewed_run):
    truth, judged, picks, _ = reviewed_run
    with_claims = [int(i) for i in picks if truth[int(i)]["response_claims"]]
    only_a2r = true_reviews(truth, with_claims, kinds=("answer2response",))
    table = corrected(rw.evaluate(judged), only_a2r)
    assert table.loc["precision", "n_reviewed"] == len(with_claims)
    assert table.loc["faithfulness", "n_reviewed"] == 0  # it reads retrieved2response, not reviewed
    assert table.loc["faithfulness", "corrected_mean"] is None and "no reviewed sample" in table.loc[
        "faithfulness", "reason"]
    partial = only_a2r[1:]  # the first sample's first claim unreviewed
    assert corrected(rw.evaluate(judged), partial).loc["precision", "n_reviewed"] == len(with_claims) - 1


def test_confirming_reviews_keep_the_judge_mean_inside_an_interval_that_does_not_collapse(reviewed_run):
    _, judged, picks, _ = reviewed_run
    table = corrected(rw.evaluate(judged), true_reviews(judged, picks))  # reviewers agree with the judge
    assert (table["n_discordant"] == 0).all()
    low, mean, high = (table[f"corrected_{k}"].astype(float).to_numpy() for k in ("low", "mean", "high"))
    judge = table["judge_mean"].astype(float).to_numpy()
    assert (low <= judge).all() and (judge <= high).all() and (low < high).all()
    other = corrected(rw.evaluate(judged), true_reviews(judged, picks), metrics=["context_relevance"])
    assert other.loc["context_relevance", "reason"].startswith("it reads no judge label")


def test_only_the_reviewed_samples_are_scored_again(reviewed_run, monkeypatch):
    _, judged, picks, reviews = reviewed_run
    module = sys.modules["ragwidgets.analysis.corrected"]
    seen = []
    real = module.evaluate
    monkeypatch.setattr(module, "evaluate", lambda data, *a, **k: seen.append(len(data)) or real(data, *a, **k))
    corrected(rw.evaluate(judged), reviews)
    assert seen == [len(picks)]
