"""Failure modes as numbers (analysis.failure_modes): every column of the mode table by hand on a
ten-sample run (no design, random, stratified, all), several runs, groups, the masks, a mode's
check, bad input named, and the intervals' coverage by simulation (Monte-Carlo error stated).

The hand formulas are written out here (Clopper–Pearson as beta quantiles; the stratified
estimate and its effective n as in the module docstring), not taken from the module."""

import math

import numpy as np
from scipy.stats import hypergeom
import pandas as pd
import pytest
from scipy.stats import beta

import ragwidgets as rw
from ragwidgets.analysis.expression import ExpressionError
from ragwidgets.analysis.failure_modes import (COLUMNS, NO_DESIGN, check_mode, declared_design, mode_masks,
                                               mode_table, population_share)
from ragwidgets.analysis.intervals import clopper_pearson
from ragwidgets.analysis.mode_checks import signal_mask
from ragwidgets.analysis.reading_queue import ReadingQueue, reading_queue
from ragwidgets.notes import Note, Notes

WRONG, MISS = "wrong date", "retrieval miss"


def cp(x, n, level=0.95):
    """Clopper–Pearson by its beta quantiles, written out (x, n may be fractional)."""
    a = (1 - level) / 2
    return (0.0 if x == 0 else beta.ppf(a, x, n - x + 1), 1.0 if x == n else beta.ppf(1 - a, x + 1, n - x))


@pytest.fixture(scope="module")
def scores():
    return rw.evaluate(rw.datasets.synthetic_run(10, seed=4))


@pytest.fixture(scope="module")
def notes():
    return Notes([Note("0", "says 1931", (WRONG,)), Note("1", ""), Note("2", "x", (WRONG, MISS), claim=0),
                  Note("3", "no passage", (MISS,)), Note("3", "", (WRONG,), claim=1), Note("4", "fine"),
                  Note("zz", "not in this run", (WRONG,))])


def queue(scores, population, strategy="random", strata=None):
    return ReadingQueue([], pd.DataFrame(), strategy, "", population, scores.batch.n_samples, strata)


def rows(table):
    return table.set_index("mode")


def test_the_masks_say_tagged_read_or_not_read(scores, notes):
    masks = mode_masks(scores, notes)
    assert list(masks.columns) == [WRONG, MISS] and list(masks.index) == [str(i) for i in range(10)]
    assert masks[WRONG].tolist()[:5] == [1, 0, 1, 1, 0] and masks[MISS].tolist()[:5] == [0, 0, 1, 1, 0]
    assert masks.iloc[5:].isna().all().all()  # not read
    assert mode_masks(scores, Notes()).shape == (10, 0)


def test_every_column_by_hand_without_a_design(scores, notes):
    table = mode_table(scores, notes)
    assert list(table.columns) == list(COLUMNS) and list(table["mode"]) == [WRONG, MISS]
    t = rows(table)
    for mode, x in ((WRONG, 3), (MISS, 2)):  # read: 0-4 (the note on "zz" names no sample here)
        row = t.loc[mode]
        assert (row["run"], row["group"], row["tagged"], row["read"], row["run_size"]) == ("", "", x, 5, 10)
        assert row["rate"] == x / 5 and (row["lo"], row["hi"]) == pytest.approx(cp(x, 5))
        assert row[["population", "population_rate", "population_lo", "population_hi",
                    "run_rate", "run_lo", "run_hi"]].isna().all()
        assert row["basis"] == NO_DESIGN
    carried = rw.evaluate(rw.datasets.synthetic_run(10, seed=4), notes=notes.history[:6])
    pd.testing.assert_frame_equal(mode_table(carried), table)  # notes=None: the Scores' own
    empty = mode_table(scores, Notes())
    assert list(empty.columns) == list(COLUMNS) and empty.empty


def test_a_random_design_by_hand(scores, notes):
    design = queue(scores, ["0", "1", "2", "5", "6", "7"])  # read in it: 0, 1, 2; read outside: 3, 4
    t = rows(mode_table(scores, notes, design=design))
    N, n = 6, 3
    for mode, x in ((WRONG, 2), (MISS, 1)):
        row, p = t.loc[mode], x / n
        # the exact interval, by a search over every count K of the population
        low = min(K for K in range(N + 1) if hypergeom.sf(x - 1, N, K, n) > 0.025)
        high = max(K for K in range(N + 1) if hypergeom.cdf(x, N, K, n) > 0.025)
        assert row["population"] == N and row["population_rate"] == pytest.approx(p)
        assert (row["population_lo"], row["population_hi"]) == pytest.approx((low / N, high / N))
        assert row["run_rate"] == pytest.approx(p * N / 10)
        assert (row["run_lo"], row["run_hi"]) == pytest.approx((low / 10, high / 10))
        assert row["rate"] == {WRONG: 3, MISS: 2}[mode] / 5  # outside the population: in rate and read only
        assert "3 of its 6 samples read, a simple random sample" in row["basis"]
        assert "2 read outside the population count in rate only" in row["basis"]


def test_a_stratified_design_by_hand(scores, notes):
    strata = {"0": "A", "1": "A", "5": "A", "6": "A", "2": "B", "7": "B"}
    t = rows(mode_table(scores, notes, design=queue(scores, list(strata), "stratified", strata)))
    N_h, n_h = np.array([4.0, 2.0]), np.array([2.0, 1.0])
    W, f = N_h / 6, n_h / N_h
    n_cap = n_h.sum()  # n* at most the number read
    for mode, x_h in ((WRONG, [1, 1]), (MISS, [0, 1])):
        p_h = np.array(x_h) / n_h
        p = (W * p_h).sum()
        var = (W ** 2 * (1 - f) * p_h * (1 - p_h) / np.maximum(n_h - 1, 1)).sum()
        n_star = min(p * (1 - p) / var, n_cap) if var > 0 else n_cap
        row = t.loc[mode]
        assert row["population_rate"] == pytest.approx(p) and row["population"] == 6
        assert (row["population_lo"], row["population_hi"]) == pytest.approx(cp(p * n_star, n_star))
        assert "stratified random sample weighted by stratum size" in row["basis"]
    assert t.loc[WRONG, "population_rate"] == pytest.approx(4 / 6 * 1 / 2 + 2 / 6 * 1)
    strata["8"] = "C"  # a stratum none of whose samples was read: no estimate, and why
    t = rows(mode_table(scores, notes, design=queue(scores, list(strata), "stratified", strata)))
    assert t[["population_rate", "population_lo", "run_rate"]].isna().all().all()
    assert "stratum 'C' has none of its samples read" in t.loc[WRONG, "basis"]


def test_all_read_is_exact_and_all_in_part_is_no_estimate(scores, notes):
    t = rows(mode_table(scores, notes, design=queue(scores, ["0", "1", "2"], "all")))
    row = t.loc[WRONG]
    assert row["population_rate"] == row["population_lo"] == row["population_hi"] == pytest.approx(2 / 3)
    assert row["run_lo"] == row["run_hi"] == pytest.approx(2 / 3 * 3 / 10) and "exact" in row["basis"]
    t = rows(mode_table(scores, notes, design=queue(scores, ["0", "5"], "all")))
    assert t[["population_rate", "population_lo", "population_hi"]].isna().all().all()
    assert "not at random" in t.loc[WRONG, "basis"] and t.loc[WRONG, "population"] == 2


def test_a_declared_design_is_the_reading_queues_population(scores, notes):
    design = declared_design(scores, where="faithfulness < 1")
    assert design.query_ids == [] and design.strategy == "random"
    assert design.population == reading_queue(scores, 100, where="faithfulness < 1").population
    t = rows(mode_table(scores, notes, design=design))
    assert t.loc[WRONG, "population"] == len(design.population)
    stratified = declared_design(scores, strategy="stratified", by="n_passages")
    assert set(stratified.strata) == set(scores.batch.query_ids)


def test_several_runs_and_groups(scores, notes):
    other = Notes([Note("5", "", (MISS,)), Note("6", "")])
    table = mode_table({"base": scores, "new": scores}, {"base": notes, "new": other})
    assert list(table["run"]) == ["base", "base", "new", "new"]
    assert list(table["mode"]) == [MISS, WRONG] * 2  # 3 tagged each over the runs: then by name
    new = rows(table[table["run"] == "new"])
    assert (new.loc[WRONG, "tagged"], new.loc[MISS, "tagged"], new.loc[MISS, "read"]) == (0, 1, 2)
    assert new.loc[WRONG, "rate"] == 0 and new.loc[WRONG, "hi"] == pytest.approx(cp(0, 2)[1])
    both = mode_table({"base": scores, "new": scores}, notes)  # one notes for every run
    assert rows(both[both["run"] == "new"])["tagged"].to_dict() == {WRONG: 3, MISS: 2}
    parity = {str(i): "even" if i % 2 == 0 else "odd" for i in range(10)}
    by = mode_table(scores, notes, by=parity)
    assert list(by["group"]) == ["even", "even", "odd", "odd"]
    even, odd = rows(by[by["group"] == "even"]), rows(by[by["group"] == "odd"])
    assert (even.loc[WRONG, "tagged"], even.loc[WRONG, "read"], even.loc[WRONG, "run_size"]) == (2, 3, 5)
    assert (odd.loc[WRONG, "tagged"], odd.loc[WRONG, "read"], odd.loc[MISS, "tagged"]) == (1, 2, 1)
    design = queue(scores, ["0", "1", "2", "5", "6", "7"])  # per group: even 0, 2, 6 (2 read); odd 1, 5, 7 (1)
    by = mode_table(scores, notes, design=design, by=parity)
    even, odd = rows(by[by["group"] == "even"]), rows(by[by["group"] == "odd"])
    assert even.loc[WRONG, "population"] == 3 and even.loc[WRONG, "population_rate"] == 1.0
    assert odd.loc[WRONG, "population_rate"] == 0 and odd.loc[WRONG, "run_rate"] == 0
    nobody = mode_table(scores, notes, by={str(i): "x" if i < 5 else "y" for i in range(10)})
    y = rows(nobody[nobody["group"] == "y"])
    assert (y["read"] == 0).all() and y[["rate", "lo", "hi"]].isna().all().all()  # Undefined, never 0
    column = mode_table(scores, notes, by="n_passages")
    assert set(column["group"]) == {str(v) for v in np.diff(scores.batch.psg_offset)}


def test_a_modes_check_by_hand(scores, notes):
    check = check_mode(scores, notes, WRONG, expression="`mode: retrieval miss` == 1")
    assert (check.tp, check.fp, check.fn, check.tn, check.flagged, check.run_size) == (2, 0, 1, 2, 2, 10)
    assert check.precision == 1 and (check.precision_lo, check.precision_hi) == pytest.approx(cp(2, 2))
    assert check.recall == pytest.approx(2 / 3) and (check.recall_lo, check.recall_hi) == pytest.approx(cp(2, 3))
    assert check.examples == {"caught": ["2", "3"], "false_alarm": [], "missed": ["0"]}
    lo, hi = cp(2, 3)
    assert check.words() == (f"catches 2 of 3 tagged (67%, {lo:.0%}–{hi:.0%}) · right on 2 of 2 flagged "
                             f"(100%, {cp(2, 2)[0]:.0%}–100%) · flags 2 of 10 samples in the run")
    none = check_mode(scores, notes, WRONG, expression="n_passages < 0")
    assert math.isnan(none.precision) and math.isnan(none.precision_lo) and none.recall == 0
    assert "right on 0 of 0 flagged (Undefined)" in none.words() and none.to_dict()["precision"] is None
    flags = signal_mask(scores, "unsupported_claim")
    by_signal = check_mode(scores, notes, MISS, signal="unsupported_claim")
    tagged, read = [2, 3], [0, 1, 2, 3, 4]
    assert by_signal.tp == sum(flags[i] for i in tagged) and by_signal.flagged == flags.sum()
    assert by_signal.fp == sum(flags[i] for i in read if i not in tagged)
    assert by_signal.rule == "signal unsupported_claim"


def test_bad_input_is_named(scores, notes):
    with pytest.raises(ValueError, match="mode 'nope'.*modes: wrong date, retrieval miss"):
        check_mode(scores, notes, "nope", expression="n_passages > 0")
    with pytest.raises(ExpressionError, match="nonsense"):
        check_mode(scores, notes, WRONG, expression="nonsense > 1")
    with pytest.raises(ValueError, match="unknown signal 'nope'"):
        check_mode(scores, notes, WRONG, signal="nope")
    with pytest.raises(ValueError, match="one rule"):
        check_mode(scores, notes, WRONG, expression="n_passages > 0", signal="unsupported_claim")
    with pytest.raises(ValueError, match="another run"):
        mode_table(scores, notes, design=queue(scores, ["0", "not-here"]))
    with pytest.raises(ValueError, match="design names no run 'new'"):
        mode_table({"base": scores, "new": scores}, notes, design={"base": queue(scores, ["0"])})
    with pytest.raises(ValueError, match="a queue is one run's"):
        mode_table({"base": scores, "new": scores}, notes, design=queue(scores, ["0"]))
    with pytest.raises(ValueError, match="by='nope' is not a column"):
        mode_table(scores, notes, by="nope")


# -- coverage by simulation -------------------------------------------------------------------------------

def coverage(lo, hi, truth):
    covered = (lo <= truth + 1e-12) & (truth <= hi + 1e-12)
    c = float(covered.mean())
    return c, math.sqrt(c * (1 - c) / len(covered))


@pytest.mark.parametrize("n", [30, 100])
@pytest.mark.parametrize("p", [0.02, 0.1, 0.5])
def test_the_rate_among_samples_read_keeps_its_level(n, p):
    reps = 4000
    x = np.random.default_rng(7).binomial(n, p, reps)
    c, se = coverage(*clopper_pearson(x, n), p)
    assert c >= 0.95 - 3 * se, f"coverage {c:.4f} ± {se:.4f} (Monte-Carlo s.e., {reps} runs) at p={p}, n={n}"


@pytest.mark.parametrize("n", [30, 100])
@pytest.mark.parametrize("p", [0.02, 0.1, 0.5])
def test_the_population_interval_of_a_random_sample_keeps_its_level(n, p):
    N, reps = 500, 4000
    K = round(p * N)
    x = np.random.default_rng(8).hypergeometric(K, N - K, n, reps)[:, None]
    _, lo, hi = population_share(x, [n], [N])
    c, se = coverage(lo, hi, K / N)
    assert c >= 0.95 - 3 * se, f"coverage {c:.4f} ± {se:.4f} (Monte-Carlo s.e., {reps} runs) at p={p}, n={n} of {N}"


@pytest.mark.parametrize("n_h, p_h", [((18, 12), (0.01, 0.035)), ((60, 40), (0.0, 0.05)), ((10, 20), (0.05, 0.2)),
                                      ((30, 30, 30), (0.01, 0.03, 0.1))])
def test_the_population_interval_of_a_stratified_sample_keeps_its_level(n_h, p_h):
    N_h = (300, 200) if len(n_h) == 2 else (1000, 300, 100)
    K_h = [round(p * N) for p, N in zip(p_h, N_h)]
    rng, reps = np.random.default_rng(9), 4000
    x = np.stack([rng.hypergeometric(K, N - K, n, reps) for K, N, n in zip(K_h, N_h, n_h)], axis=1)
    _, lo, hi = population_share(x, n_h, N_h)
    c, se = coverage(lo, hi, sum(K_h) / sum(N_h))
    assert c >= 0.95 - 3 * se, (f"coverage {c:.4f} ± {se:.4f} (Monte-Carlo s.e., {reps} runs) with n_h={n_h} "
                                f"of N_h={N_h}, p_h={p_h}")


def test_a_level_outside_0_1_is_refused(scores, notes):
    for level in (0, 1, 95, "0.95", True):
        with pytest.raises(ValueError, match="level must be a number between 0 and 1"):
            mode_table(scores, notes, level=level)
    with pytest.raises(ValueError, match="level must be"):
        check_mode(scores, notes, WRONG, expression="n_passages > 0", level=1.5)
    wide = rows(mode_table(scores, notes, level=0.99))
    assert (wide.loc[WRONG, "lo"], wide.loc[WRONG, "hi"]) == pytest.approx(cp(3, 5, 0.99))



@pytest.mark.slow  # about 15 s: 1,600 reading queues drawn, read and tabled
@pytest.mark.parametrize("strategy", ["random", "stratified"])
def test_the_whole_path_covers_a_rare_modes_share(strategy):
    """Queues drawn by reading_queue, their samples noted, and mode_table's population and run
    intervals checked against the true shares of a mode 6 failing samples carry (about 3%). A
    note outside the population carries the mode too, so that its row exists when no sample read
    in the population carries it (counted in rate only)."""
    scores = rw.evaluate(rw.datasets.synthetic_run(400, seed=2))
    by = "n_passages" if strategy == "stratified" else None
    population = reading_queue(scores, 0, where="faithfulness < 1").population
    outside = next(q for q in scores.batch.query_ids if q not in set(population))
    carriers = set(np.random.default_rng(0).choice(population, 6, replace=False))
    share, run_share = len(carriers) / len(population), len(carriers) / 400
    reps, hits = 800, np.zeros(2)
    for seed in range(reps):
        q = reading_queue(scores, 40, where="faithfulness < 1", strategy=strategy, by=by, seed=seed)
        notes = Notes([Note(x, "", ("m",) if x in carriers else ()) for x in q.query_ids] + [Note(outside, "", ("m",))])
        row = rows(mode_table(scores, notes, design=q)).loc["m"]
        hits += [row["population_lo"] <= share <= row["population_hi"], row["run_lo"] <= run_share <= row["run_hi"]]
    for what, c in zip(("population", "run"), hits / reps):
        se = math.sqrt(c * (1 - c) / reps)
        assert c >= 0.95 - 3 * se, (f"{what} coverage {c:.4f} ± {se:.4f} (Monte-Carlo s.e., {reps} queues of 40 "
                                    f"from {len(population)}, {strategy})")


def exact_coverage(N, n, level=0.95):
    """The worst exact coverage over every population count K of the one-stratum interval (every
    outcome x weighed by its hypergeometric probability: no Monte-Carlo error)."""
    from scipy.stats import hypergeom
    x = np.arange(n + 1)[:, None]
    _, lo, hi = population_share(x, [n], [N], level)
    worst = 1.0
    for K in range(N + 1):
        inside = (lo <= K / N + 1e-12) & (K / N <= hi + 1e-12)
        worst = min(worst, float((hypergeom.pmf(np.arange(n + 1), N, K, n) * inside).sum()))
    return worst


@pytest.mark.parametrize("N, n", [(60, 40), (50, 45), (100, 99), (40, 5), (500, 30)])
def test_the_population_interval_keeps_its_level_exactly_when_much_is_read(N, n):
    """The tutorial's case (40 read of 60 failing) and readings of most of a population: the
    worst coverage over every possible count, computed exactly."""
    worst = exact_coverage(N, n)
    assert worst >= 0.95, f"worst exact coverage {worst:.4f} with {n} read of {N}"


def test_the_stratified_interval_keeps_its_level_exactly_when_most_of_each_stratum_is_read():
    """Two strata of 30, 20 read in each: the worst coverage over every pair of counts, exactly
    (a cap of n* at the finite-population n instead of the number read gave 88.9%)."""
    from scipy.stats import hypergeom
    grid = np.stack([g.ravel() for g in np.meshgrid(np.arange(21), np.arange(21), indexing="ij")], axis=1)
    _, lo, hi = population_share(grid, [20, 20], [30, 30])
    worst = min(
        float((np.outer(hypergeom.pmf(np.arange(21), 30, K1, 20), hypergeom.pmf(np.arange(21), 30, K2, 20)).ravel()
               * ((lo <= (K1 + K2) / 60 + 1e-12) & ((K1 + K2) / 60 <= hi + 1e-12))).sum())
        for K1 in range(31) for K2 in range(31))
    assert worst >= 0.95, f"worst exact coverage {worst:.4f}"


def test_the_basis_counts_samples_of_the_population_read_but_not_drawn(scores):
    queue_ = reading_queue(scores, 3, where="faithfulness < 1")
    undrawn = [q for q in queue_.population if q not in queue_.query_ids][:2]
    notes_ = Notes([Note(q, "x", ("m",)) for q in [*queue_.query_ids, *undrawn]])
    basis = mode_table(scores, notes_, design=queue_)["basis"].iloc[0]
    assert "2 of them not drawn by this queue" in basis
    declared = mode_table(scores, notes_, design=declared_design(scores, where="faithfulness < 1"))
    assert "not drawn" not in declared["basis"].iloc[0]  # a declared design has no draw to check
