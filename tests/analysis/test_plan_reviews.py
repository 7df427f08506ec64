"""The review budget planner: the formula, a run's plan with and without reviews, and that
reviewing as many as it says reaches the half-width asked for (a seeded simulation)."""

import numpy as np
import pytest

import ragwidgets as rw
from judge_runs import judged_records, true_reviews
from ragwidgets.analysis.corrected import _rectify
from ragwidgets.analysis.plan import needed_reviews, plan_reviews


def test_the_formula_quarters_the_width_with_four_times_the_reviews():
    assert needed_reviews(0.1, 50, 10 ** 9, 0.05) == 200
    assert needed_reviews(0.04, 50, 10 ** 9, 0.05) == 50  # reached: what is reviewed
    assert needed_reviews(0.1, 50, 120, 0.05) <= 120  # never more than the samples
    assert needed_reviews(0.02, 5, 10 ** 9, 0.05) == 30  # the pilot at least
    assert np.isnan(needed_reviews(np.nan, 0, 100, 0.05))


def test_a_run_without_reviews_asks_for_a_pilot_and_with_reviews_for_the_rest():
    truth = rw.datasets.synthetic_run(400, seed=3, quality=0.6)
    scores = rw.evaluate(judged_records(truth, seed=4))
    pilot = plan_reviews(scores)
    assert (pilot["more"] == 30).all() and pilot["n_needed"].isna().all()
    assert pilot.loc["faithfulness", "said"].startswith("review 30 at random first (a pilot of 30)")
    picks = np.random.default_rng(5).choice(400, size=40, replace=False)
    plan = plan_reviews(scores, true_reviews(truth, picks), target_width=0.02)
    row = plan.loc["faithfulness"]
    assert row["n_needed"] > row["n_reviewed"] and row["more"] == row["n_needed"] - row["n_reviewed"]
    assert row["said"] == f"review {row['more']} more for ±0.02 on faithfulness"
    assert "context_relevance" not in plan.index  # reads no label: no review changes it
    with pytest.raises(ValueError, match="target_width"):
        plan_reviews(scores, target_width=5)


def test_reviewing_what_the_plan_says_reaches_the_half_width():
    """A judge wrong on 5% of a 30% yes/no outcome over N = 5,000: plan from a pilot of 40, then
    200 random reviews of the planned size; their mean corrected half-width is at most the target."""
    rng = np.random.default_rng(0)
    big_n, target = 5000, 0.03
    truth = (rng.random(big_n) < 0.3).astype(float)
    judge = np.where(rng.random(big_n) < 0.05, 1 - truth, truth)
    ones = np.ones(big_n)

    def half_widths(n, runs):
        idx = np.random.default_rng(n).random((runs, big_n)).argsort(axis=1)[:, :n]
        o = _rectify(truth[idx], ones[idx], judge[idx], ones[idx], judge_a=[judge.sum()], judge_b=[big_n],
                     sizes=[big_n])
        return (o["high"] - o["low"]) / 2

    pilot = half_widths(40, 1)[0]
    need = int(needed_reviews(pilot, 40, big_n, target))
    reached = half_widths(need, 200)
    assert need > 40 and target / 2 < reached.mean() <= target  # enough, and not wildly too many
