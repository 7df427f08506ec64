"""A mean is exact and rounded once, in one process and on a cluster alike, so ``score`` and
``score --workers`` report the same numbers, ties at RAGChecker's one decimal included."""

from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import ragwidgets as rw
from ragwidgets.datasets import synthetic_run
from ragwidgets.engine.metrics import ragchecker_summary
from ragwidgets.engine.sums import SHIFT, exact_mean, exact_sum, exact_units, mean_of_counts, mean_over_defined


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(allow_nan=False, allow_infinity=False), max_size=60))
def test_exact_sum_is_the_rational_sum(values):
    assert Fraction(exact_sum(np.array(values, dtype=float)), 1 << SHIFT) == sum(map(Fraction, values), Fraction(0))


def test_aggregate_means_are_the_nearest_float_to_the_true_mean():
    scores = rw.evaluate(synthetic_run(3000, seed=11))
    aggregate = scores.aggregate()
    for name in scores.frame.columns:
        values = scores.frame[name].dropna().to_numpy()
        true = sum(map(Fraction, values.tolist()), Fraction(0)) / len(values) if len(values) else None
        assert aggregate[name]["mean"] == (None if true is None else float(true)), name


def test_one_summary_for_every_path():
    """The report rounds the aggregate's means: the same input gives the same digits."""
    scores = rw.evaluate(synthetic_run(500, seed=2))
    assert scores.ragchecker_summary() == ragchecker_summary(scores.aggregate())
    tie = {"precision": {"mean": 0.6825}}  # 68.25: a float exactly halfway, rounded to even as Python does
    assert ragchecker_summary(tie) == {"overall": {"precision": 68.2}}
    assert exact_mean(0, 0) is None


@given(st.lists(st.floats(allow_nan=False, allow_infinity=False), max_size=40),
       st.lists(st.integers(0, 5), min_size=40, max_size=40))
def test_the_summary_mean_from_counts_is_the_exact_mean_of_the_values_it_counts(values, counts):
    distinct = np.unique(np.asarray(values, dtype=float))
    counts = np.asarray(counts[:len(distinct)], dtype=np.int64)
    assert exact_units(distinct) == [exact_sum(distinct[k:k + 1]) for k in range(len(distinct))]
    repeated = np.repeat(distinct, counts)
    expected = mean_over_defined(repeated, np.ones(len(repeated), dtype=bool))
    assert mean_of_counts(exact_units(distinct), counts) == expected[0]
    assert expected[1] == counts.sum()
