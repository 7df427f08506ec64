"""The reading queue of error analysis (analysis.reading_queue): failing samples only, uniform over
those not read, stratified in proportion, every one in run order for ``all``, and the design it
records (the population, the run's size, the strata)."""

import numpy as np
import pytest

import ragwidgets as rw
from ragwidgets.analysis.expression import ExpressionError
from ragwidgets.analysis.reading_queue import reading_queue
from ragwidgets.notes import Note, Notes


@pytest.fixture(scope="module")
def scores():
    return rw.evaluate(rw.datasets.synthetic_run(80, seed=4))


def failing(scores, where):
    frame = scores.frame
    frame.index = scores.batch.query_ids
    return set(frame.query(where.replace("faithfulness", "`faithfulness`")).index)


def test_the_queue_draws_only_failing_samples_uniformly(scores):
    where = "faithfulness < 1"
    population = failing(scores, where)
    assert 5 < len(population) < 80
    whole = reading_queue(scores, 1000, where=where)
    assert set(whole.query_ids) == population == set(whole.population)
    assert whole.run_size == 80 and whole.where == where
    draws, n = 1200, 4
    counts = dict.fromkeys(population, 0)
    for seed in range(draws):
        for qid in reading_queue(scores, n, where=where, seed=seed):
            counts[qid] += 1
    expected = draws * n / len(population)
    chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
    df = len(population) - 1
    assert chi2 < df + 4 * np.sqrt(2 * df), chi2  # about 4 standard deviations of chi-square(df)


def test_samples_read_are_skipped_but_stay_in_the_population(scores):
    q = reading_queue(scores, 1000, where="faithfulness < 1")
    read = q.query_ids[:3]
    notes = Notes([Note(read[0], "x", ("a",)), Note(read[1], ""), Note(read[2], "y", claim=0)])
    again = reading_queue(scores, 1000, where="faithfulness < 1", notes=notes)
    assert set(again.query_ids) == set(q.query_ids) - set(read)
    assert again.population == q.population
    scored = rw.evaluate(rw.datasets.synthetic_run(80, seed=4), notes=notes)
    assert reading_queue(scored, 1000, where="faithfulness < 1").query_ids == again.query_ids


def test_all_reads_every_failing_sample_in_run_order(scores):
    q = reading_queue(scores, 1000, where="faithfulness < 1", strategy="all")
    assert q.query_ids == q.population
    positions = q.frame["position"].tolist()
    assert positions == sorted(positions)
    assert reading_queue(scores, 2, strategy="all").query_ids == scores.batch.query_ids[:2]  # "": every sample


def test_stratified_allocates_in_proportion_and_records_the_strata(scores):
    groups = np.array(["a"] * 60 + ["b"] * 20)
    q = reading_queue(scores, 40, strategy="stratified", by=groups, seed=1)
    assert q.frame["stratum"].value_counts().to_dict() == {"a": 30, "b": 10}
    assert q.strata == {qid: g for qid, g in zip(scores.batch.query_ids, groups)}
    assert all(q.strata[qid] == s for qid, s in zip(q.query_ids, q.frame["stratum"]))


def test_bad_arguments_are_named(scores):
    with pytest.raises(ExpressionError):
        reading_queue(scores, 5, where="faithfulness <")
    with pytest.raises(ValueError, match="strategy must be"):
        reading_queue(scores, 5, strategy="worst")
    with pytest.raises(ValueError, match="by= goes with"):
        reading_queue(scores, 5, by="n_passages")
    with pytest.raises(ValueError, match="n must be"):
        reading_queue(scores, -1)
    with pytest.raises(ValueError, match="where must be"):
        reading_queue(scores, 5, where=None)
