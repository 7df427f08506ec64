"""A regression gate: per metric, is the new run worse than the base, better, or neither, as far
as the data can tell.

Per metric gated (default: the metrics the two runs share), the paired difference new − base on
the shared queries defined in both, and its interval at ``level``: :func:`.compare.compare_runs`'
numbers (its :class:`~.intervals.DifferenceMoments`: valid for rare outcomes; its judge_note and
query_mismatches), without its other metrics' p-values, which the gate does not need. ``difference``,
``lo`` and ``hi`` are new − base as they are; ``direction`` (from the metric's definition,
``lower_is_better`` in :mod:`ragwidgets.engine.metrics`; a name that is no metric's: "higher")
says which way is worse, and the verdicts read the difference oriented, g = ±(new − base) with
g < 0 worse.

**Judge variance.** When both sides carry the judge's repeats (k ≥ 2 each), each sample's value
on a side is its mean over that side's repeats defining it (the expected value of one judge run,
as :func:`.judge_variance.combined_interval`'s), the question part is the paired interval of
those, and each side adds its judge part J = t²_{k−1} s_b² / k (:func:`.judge_variance.judge_spread`:
s_b² the variance of the side's k repeat means over the paired samples, Student-t scaled as
there) to each half-width h of the interval: h' = √(h² + J_base + J_new). The two judge runs
are independent, so their parts add; the labels' independent noise is in both the question part
and s_b², so the widened interval is conservative.

**Tests.** "worse" is the one-sided test of H0: g ≥ −margin (a fall of at most the margin, in the
metric's units), "better" that of H0: g ≤ 0, each at (1 − level) / 2 and read off the two-sided
interval at ``level`` (the usual convention for non-inferiority: a regulator's one-sided 2.5% is
the end of the 95% interval), so that "worse" and "better" together err at most 1 − level on
a metric that did not change. Each metric's p (the interval inverted at the point on the
estimate's side: −margin when g < −margin, 0 when g > 0, else 1; twice the one-sided p) is
adjusted over the metrics tested (Holm by default, as compare.py); a verdict needs p_adjusted <
1 − level, so the chance of any false "worse" or "better" over the metrics is at most 1 − level.

**No detectable change** needs more than "not worse": the data must rule out a fall of the
tolerance, tol = the margin (or, with margin 0, ``max_mde``): the interval's worse end lies above
−tol. Each metric is then shown non-inferior at (1 − level) / 2, and the gate passes only when
all are (an intersection–union test, Berger 1982: no adjustment needed for "all hold"). With
neither a margin nor ``max_mde`` there is no tolerance, and a fall that is not significant is
"cannot tell" whatever n is: the data's own MDE cannot be the tolerance, since thin data would
then pass by ruling out only the huge fall they could detect. With ``max_mde`` and margin 0, an
MDE above it also leaves the metric "cannot tell". Otherwise the verdict is **cannot tell**, with
why: fewer than ``min_shared`` shared queries defined in both, the metric Undefined (or absent)
on a side, the runs judged differently (:func:`.compare.judge_note`), no tolerance given, or an
interval that still holds a fall of the tolerance.

**MDE** (minimum detectable effect): the smallest true fall the gate calls "worse" with 80% power
at this n: margin + (z_{1−α/(2m)} + z_{0.8})·SE, normal approximation, α = 1 − level, m the
metrics tested (Holm's first step: a lone fall among m metrics must pass α/m), SE the interval's
worse half-width / z_{(1+level)/2}: the paired SD / √n for large n, wider where the pairs rarely
differ (the exact interval's floor) or the judge's part widens it.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial

import numpy as np
import pandas as pd
from scipy.stats import norm

from ..engine import evaluate
from ..engine.evaluate import Scores
from ..engine.metrics import format_p, format_percent, format_value, metric_of
from ..errors import InputError
from .compare import judge_info, judge_note, query_mismatches
from .intervals import ADJUSTMENT_NAMES, DifferenceMoments, p_values, range_of
from .intervals import adjust as adjust_p
from .judge_variance import judge_spread, repeat_scores
from .table import DEFINED_CODE, NOT_COMPUTABLE_CODE, UNDEFINED_CODE, RunTable, run_table

VERDICTS = ("worse", "better", "no detectable change", "cannot tell")
WORSE, BETTER, NO_CHANGE, CANNOT_TELL = VERDICTS
COLUMNS = ("metric", "direction", "shared", "base_mean", "new_mean", "difference", "lo", "hi", "p",
           "p_adjusted", "margin", "mde", "verdict", "why")
POWER = 0.8
EXIT_OK, EXIT_REGRESSION, EXIT_CANNOT_TELL = 0, 1, 4  # 2 is the CLI's for bad input


def direction(metric: str) -> str:
    """"lower" where lower is better for ``metric`` (its definition's ``lower_is_better``), else "higher"."""
    try:
        return "lower" if metric_of(metric).lower_is_better else "higher"
    except KeyError:
        return "higher"


@dataclass(eq=False)
class Gate:
    """The verdicts: ``frame`` has one row per metric gated (:data:`COLUMNS`); the options they
    were reached with; ``shared`` queries in both runs, ``left_out`` per side, ``judge_note``
    ('' when the runs were not known to be judged differently), ``query_mismatch`` (shared ids
    asking another question in the new run)."""

    frame: pd.DataFrame
    level: float
    adjust: str | None
    min_shared: int
    shared: int
    left_out: dict[str, int] = field(default_factory=dict)
    judge_note: str = ""
    query_mismatch: int = 0

    @property
    def regressed(self) -> list[str]:
        return self.frame.loc[self.frame["verdict"] == WORSE, "metric"].tolist()

    @property
    def cannot_tell(self) -> list[str]:
        return self.frame.loc[self.frame["verdict"] == CANNOT_TELL, "metric"].tolist()

    def exit_code(self, strict: bool = False) -> int:
        """1 when a metric is worse, else 4 when ``strict`` and a metric cannot tell, else 0."""
        if self.regressed:
            return EXIT_REGRESSION
        return EXIT_CANNOT_TELL if strict and self.cannot_tell else EXIT_OK

    def said(self) -> str:
        """One line: how many metrics got each verdict (the worse ones named), and how."""
        counts = self.frame["verdict"].value_counts()
        parts = [f"{counts.get(v, 0)} {v}" + (f" ({', '.join(self.regressed)})" if v == WORSE and self.regressed
                                              else "") for v in VERDICTS if counts.get(v, 0)]
        level = format_percent(self.level)
        how = f"{ADJUSTMENT_NAMES[self.adjust]} at {level}" if self.adjust else f"{level} each"
        return f"{', '.join(parts) or 'no metric'} of {len(self.frame)} metrics ({how}, {self.shared} shared queries)"

    def to_dict(self) -> dict:
        """The gate as JSON-able values (NaN as None)."""
        rows = [{k: _plain(v) for k, v in row.items()} for row in self.frame.to_dict("records")]
        return {"verdicts": rows, "regressed": self.regressed, "cannot_tell": self.cannot_tell,
                "exit_code": self.exit_code(), "exit_code_strict": self.exit_code(strict=True),
                "said": self.said(), "level": self.level, "adjust": self.adjust, "min_shared": self.min_shared,
                "shared": self.shared, "left_out": dict(self.left_out), "judge_note": self.judge_note,
                "query_mismatch": self.query_mismatch}


def _plain(v):
    if isinstance(v, (np.floating, float)):
        return None if math.isnan(v) else float(v)
    return int(v) if isinstance(v, np.integer) else v


def as_table(run, name: str) -> RunTable:
    """A RunTable of a Scores, a RunTable, or a DataFrame of per-sample values (query_id index,
    one column per metric, NaN Undefined)."""
    if isinstance(run, RunTable):
        return run
    if isinstance(run, Scores):
        return run_table(run)
    if isinstance(run, pd.DataFrame):
        metrics = [c for c in run.columns if c != "query" and pd.api.types.is_numeric_dtype(run[c])]
        frame = run.assign(query=run["query"] if "query" in run else "")
        status = pd.DataFrame({m: np.where(run[m].notna(), DEFINED_CODE, UNDEFINED_CODE).astype(np.int8)
                               for m in metrics}, index=run.index)
        return RunTable(scores=None, frame=frame, status=status)
    raise InputError(f"the {name} run is a {type(run).__name__}: give Scores (rw.evaluate), a RunTable or a "
                     "DataFrame of per-sample values")


def repeat_tables(repeats, name: str) -> list[RunTable] | None:
    """One RunTable per judge repeat: of a Repeats, records holding ``label_repeats``, or a list of
    Scores / RunTables / DataFrames; None for None."""
    if repeats is None:
        return None
    runs = getattr(repeats, "runs", None)
    if runs is None:
        repeats = list(repeats)
        if repeats and all(isinstance(r, Mapping) for r in repeats):
            try:
                runs = repeat_scores(repeats).runs
            except ValueError as error:
                raise InputError(f"the {name} repeats: {error}") from None
        else:
            runs = repeats
    return [as_table(r, f"{name} repeat {i}") for i, r in enumerate(runs)]


def _stack(tables: Sequence[RunTable], metric: str, ids: pd.Index) -> tuple[np.ndarray, np.ndarray]:
    """(values, defined) of ``metric`` over ``ids``: repeats x ids (absent: not defined)."""
    values, defined = [], []
    for t in tables:
        if metric in t.status:
            values.append(t.frame[metric].reindex(ids).to_numpy(dtype=float))
            defined.append(t.status[metric].reindex(ids, fill_value=NOT_COMPUTABLE_CODE).to_numpy() == DEFINED_CODE)
        else:
            values.append(np.full(len(ids), np.nan))
            defined.append(np.zeros(len(ids), dtype=bool))
    return np.stack(values), np.stack(defined)


def _mean_over_repeats(values: np.ndarray, defined: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each sample's mean over the repeats defining it, and whether any does."""
    count = defined.sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(defined, values, 0.0).sum(axis=0) / count, count > 0


class _Paired:
    """Metrics' paired differences and their intervals at any level, the judge's parts included:
    ``pairs`` holds per metric (base values, new values, judge parts) with the judge parts each
    side's (values, defined) of repeats x pairs, or none. Each metric is scaled into [0, 1] by its
    own :func:`.intervals.range_of` (as :func:`.compare.compare_runs` does per metric), so that one
    :class:`.intervals.DifferenceMoments` holds them all, a row each."""

    def __init__(self, pairs: Sequence[tuple]):
        shape = (len(pairs), max(len(a) for a, _, _ in pairs))
        self.width = np.empty(len(pairs))
        a_all, b_all, mask = np.zeros(shape), np.zeros(shape), np.zeros(shape, dtype=bool)
        for i, (a, b, _) in enumerate(pairs):
            low, high = range_of(np.r_[a, b])
            self.width[i] = high - low
            a_all[i, :len(a)], b_all[i, :len(b)] = (a - low) / self.width[i], (b - low) / self.width[i]
            mask[i, :len(a)] = True
        self.moments = DifferenceMoments(a_all, mask, b_all, mask)
        self.judges = [judges for _, _, judges in pairs]

    def at(self, level: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        d, lo, hi = (v * self.width for v in self.moments.at(level))
        levels = np.broadcast_to(np.asarray(level, dtype=float), self.width.shape)  # p_values: one per row
        extra = np.sqrt([sum(judge_spread(v, m, lv) or 0.0 for v, m in judges)
                         for judges, lv in zip(self.judges, levels)])
        return d, d - np.hypot(d - lo, extra), d + np.hypot(hi - d, extra)


def _margin_of(margin, metric: str) -> float:
    value = margin.get(metric, 0.0) if isinstance(margin, Mapping) else margin
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not value >= 0:
        raise InputError(f"the margin of {metric} is a fall of 0 or more in the metric's units, got {value!r}")
    return float(value)


def gate(base, new, *, metrics: Sequence[str] | None = None, margin: float | Mapping[str, float] = 0.0,
         level: float = 0.95, adjust: str | None = "holm", min_shared: int = 30, base_repeats=None,
         new_repeats=None, max_mde: float | None = None, base_judge=None, new_judge=None) -> Gate:
    """Gate ``new`` against ``base`` (Scores, RunTables or DataFrames of per-sample values): one
    verdict per metric (see the module docstring). ``margin``: a fall that is no regression (one
    number, or per metric); ``base_repeats`` / ``new_repeats``: each side's judge repeats (a
    Repeats, records with ``label_repeats`` or a list of per-repeat Scores), the judge's variance
    included when both sides carry at least two; ``base_judge`` / ``new_judge``: who judged each
    side (what :func:`.compare.judge_info` reads); ``max_mde``: with margin 0, the tolerance of
    "no detectable change" (the interval must rule out a fall of it, and the MDE be at most it);
    with neither, a metric that did not change significantly is "cannot tell"."""
    if not 0 < level < 1:
        raise InputError(f"level is a confidence between 0 and 1, got {level!r}", field="level")
    if max_mde is not None and (isinstance(max_mde, bool) or not isinstance(max_mde, (int, float))
                                or not max_mde > 0):
        raise InputError(f"max_mde is a fall of more than 0 in the metrics' units, got {max_mde!r}", field="max_mde")
    if adjust not in ADJUSTMENT_NAMES:
        raise InputError(f"adjust is 'holm', 'bh' or None, got {adjust!r}", field="adjust")
    tables = {"base": as_table(base, "base"), "new": as_table(new, "new")}
    reps = {"base": repeat_tables(base_repeats, "base"), "new": repeat_tables(new_repeats, "new")}
    judged = all(r is not None and len(r) >= 2 for r in reps.values())
    shared = tables["base"].frame.index.intersection(tables["new"].frame.index, sort=False)
    wanted = list(metrics) if metrics is not None else \
        [m for m in tables["base"].metrics if m in tables["new"].metrics]
    unknown = [m for m in wanted if m not in tables["base"].metrics and m not in tables["new"].metrics]
    if unknown:
        raise InputError(f"no run has metric(s) {', '.join(map(repr, unknown))}; the base run's: "
                         f"{', '.join(tables['base'].metrics)}", field="metrics")
    if len(set(wanted)) < len(wanted):
        raise InputError(f"metrics named twice: {', '.join(wanted)}", field="metrics")
    info = {"base": judge_info(base_judge), "new": judge_info(new_judge)}
    note = judge_note(info["new"], info["base"], "the base run") if len(shared) else ""
    mismatched = query_mismatches(tables, shared)["new"] if len(shared) else []
    if mismatched:
        warnings.warn(f"gating runs: {len(mismatched)} shared query_ids ask a different question than in the "
                      f"base run (e.g. {mismatched[0]!r}); they are still paired by query_id", stacklevel=2)
    alpha, z = 1 - level, norm.ppf((1 + level) / 2)
    rows, measured = [], {}
    for m in wanted:
        rows.append({"metric": m, "direction": direction(m), "shared": 0, "margin": _margin_of(margin, m)})
        got = _measure(rows[-1], tables, reps if judged else None, shared)
        if got is not None:
            measured[m] = got
            n = rows[-1]["shared"]
            if n < min_shared:
                rows[-1]["why"] = f"{n} shared queries define {m} in both runs, fewer than min_shared = {min_shared}"
            elif note:
                rows[-1]["why"] = note
    measured_rows = [row for row in rows if row["metric"] in measured]
    if measured:
        pairs = _Paired(list(measured.values()))
        for row, d, lo, hi in zip(measured_rows, *pairs.at(level)):
            row["difference"], row["lo"], row["hi"] = float(d), float(lo), float(hi)
        _test(measured_rows, pairs)
    tested = [row for row in measured_rows if "why" not in row]
    for row, p in zip(tested, adjust_p([row["p"] for row in tested], adjust)):
        row["p_adjusted"] = float(p)
    tested_names = {row["metric"] for row in tested}
    for row in rows:
        if "lo" in row:
            sign = 1.0 if row["direction"] == "higher" else -1.0
            se = (sign * row["difference"] - min(sign * row["lo"], sign * row["hi"])) / z
            row["mde"] = row["margin"] + (norm.ppf(1 - alpha / (2 * max(len(tested), 1))) + norm.ppf(POWER)) * se
        if row["metric"] in tested_names:
            _verdict(row, alpha, max_mde, adjust, judged)
        else:
            row["verdict"] = CANNOT_TELL
    frame = pd.DataFrame(rows, columns=list(COLUMNS)).astype({"shared": int})
    left_out = {s: int(len(t.frame.index.difference(shared))) for s, t in tables.items()}
    return Gate(frame, level, adjust, min_shared, len(shared), left_out, note, len(mismatched))


def _measure(row: dict, tables: Mapping[str, RunTable], reps, shared: pd.Index) -> tuple | None:
    """The row's metric on the shared queries defined in both runs: (base values, new values,
    judge parts) for :class:`_Paired`, ``row``'s shared count and means set; None, with the
    row's why, where there is nothing to compare. With ``reps`` (both sides' repeat tables) each
    sample's value is its mean over the repeats defining it."""
    m = row["metric"]
    missing = [side for side in ("base", "new") if m not in tables[side].metrics]
    if missing or not len(shared):
        row["why"] = f"{m} is not in the {' or '.join(missing)} run" if missing else "the runs share no query_id"
        return None
    if reps is not None:
        stacked = [_stack(reps[side], m, shared) for side in ("base", "new")]
        (a, a_ok), (b, b_ok) = (_mean_over_repeats(*vd) for vd in stacked)
    else:
        a, b = (tables[side].frame.loc[shared, m].to_numpy(dtype=float) for side in ("base", "new"))
        a_ok, b_ok = (tables[side].status.loc[shared, m].to_numpy() == DEFINED_CODE for side in ("base", "new"))
    both = a_ok & b_ok
    row["shared"] = int(both.sum())
    undefined = [side for side, ok in (("base", a_ok), ("new", b_ok)) if not ok.any()]
    if undefined or not both.any():
        row["why"] = (f"{m} is Undefined on every shared query in the {' and '.join(undefined)} run" if undefined
                      else f"no shared query has {m} defined in both runs")
        return None
    row["base_mean"], row["new_mean"] = float(a[both].mean()), float(b[both].mean())
    return a[both], b[both], tuple((v[:, both], d[:, both]) for v, d in stacked) if reps is not None else ()


def _test(rows: list[dict], pairs: _Paired) -> None:
    """Each row's p (rows in ``pairs``' order): twice the one-sided p on the estimate's side
    (−margin when worse than it, 0 when better, else 1), the interval inverted
    (:func:`.intervals.p_values`)."""
    sign = np.array([1.0 if row["direction"] == "higher" else -1.0 for row in rows])
    g, margin = sign * np.array([row["difference"] for row in rows]), np.array([row["margin"] for row in rows])
    point = np.where(g < -margin, -margin, 0.0)

    def shifted(level):
        _, lo, hi = pairs.at(level)
        return np.minimum(sign * lo, sign * hi) - point, np.maximum(sign * lo, sign * hi) - point

    p = np.where((g < -margin) | (g > 0), p_values(shifted), 1.0)
    for row, value in zip(rows, p):
        row["p"] = float(value)


def _verdict(row: dict, alpha: float, max_mde, adjust, judged: bool) -> None:
    """The row's verdict and why, from its interval, p_adjusted and MDE (the module docstring)."""
    sign = 1.0 if row["direction"] == "higher" else -1.0
    d, lo, hi, margin = row["difference"], row["lo"], row["hi"], row["margin"]
    g, worse_end = sign * d, min(sign * lo, sign * hi)
    f, signed = format_value, partial(format_value, signed=True)
    said = f"{signed(d)} [{signed(lo)}, {signed(hi)}]" + (" (judge's variance included)" if judged else "")
    after = f"p = {format_p(row['p_adjusted'])} after {ADJUSTMENT_NAMES[adjust]}" if adjust else \
        f"p = {format_p(row['p'])}"
    power = format_percent(POWER)
    tol = margin if margin > 0 else max_mde
    name = "the margin" if margin > 0 else "max_mde"
    if row["p_adjusted"] < alpha and g < -margin:
        row["verdict"], row["why"] = WORSE, f"worse by {f(-g)}: {said}, {after}" + (
            f", a fall beyond the margin {f(margin)}" if margin > 0 else "")
    elif row["p_adjusted"] < alpha and g > 0:
        row["verdict"], row["why"] = BETTER, f"better by {f(g)}: {said}, {after}"
    elif margin == 0 and max_mde is not None and row["mde"] > max_mde:
        row["verdict"], row["why"] = CANNOT_TELL, (
            f"too few data: the smallest fall seen with {power} power is {f(row['mde'])}, "
            f"more than max_mde = {f(max_mde)}; {said}")
    elif tol is None:
        row["verdict"], row["why"] = CANNOT_TELL, (
            f"no significant change, but no tolerance was given (a margin or max_mde) for how small a fall "
            f"the data must rule out; they would detect a fall of {f(row['mde'])} with {power} power: {said}")
    elif worse_end > -tol and max(sign * lo, sign * hi) < 0:  # a fall shown, but smaller than the margin
        row["verdict"], row["why"] = NO_CHANGE, (
            f"fell by {f(-g)}, within {name} {f(tol)}: a fall of {f(tol)} or more is ruled out, so no "
            f"regression; {said}")
    elif worse_end > -tol:
        row["verdict"], row["why"] = NO_CHANGE, f"a fall of {f(tol)} ({name}) or more is ruled out: {said}"
    else:
        row["verdict"], row["why"] = CANNOT_TELL, (
            f"the interval still holds a fall of {f(tol)} ({name}): {said}")


def aa_false_alarms(run, *, repeats=None, draws: int = 200, seed: int = 0, **gate_options) -> dict:
    """The gate's false-alarm rate, as configured by ``gate_options``, on A/A pairs of one run
    (Scores, a RunTable, a DataFrame of per-sample values, or records: those holding
    ``label_repeats`` give the repeats too), ``draws`` pairs drawn from ``seed``.

    With the judge's ``repeats`` (k ≥ 2): each draw shuffles the repeats into two halves of k // 2
    (one left out when k is odd), one per side: the same answers judged twice, true difference 0,
    the judge's variance in the gate when the halves hold two or more (k ≥ 4). Without: each draw
    shuffles the queries into two halves of n // 2 and gives the second half the first's
    query_ids, so the gate pairs two different queries of the same run: true difference 0, the
    question part of the interval checked on this run's own values at n / 2 (the judge's part
    needs repeats; re-scoring one run's labels twice would differ by nothing).

    Returns ``rate``: the share of draws with some metric "worse" (exit code 1: a CI failing for
    nothing; nominal (1 − level) / 2), ``any_rate``: "worse" or "better" (nominal 1 − level), each
    with its Monte-Carlo standard error √(r(1 − r) / draws), ``cannot_tell_rate``, ``draws``,
    ``splits`` (distinct ordered splits of the repeats; None for queries), ``pairs`` (queries
    per side), ``mode`` ("repeats" / "queries") and ``how`` (one line)."""
    if not isinstance(draws, int) or draws < 1:
        raise InputError(f"draws is a whole number of at least 1, got {draws!r}")
    if isinstance(run, list) and run and all(isinstance(r, Mapping) for r in run):
        if repeats is None and any(r.get("label_repeats") for r in run):
            repeats = run
        run = evaluate(run)
    rng = np.random.default_rng(seed)
    level = gate_options.get("level", 0.95)
    tables = repeat_tables(repeats, "A/A")
    if tables is not None:
        k = len(tables)
        if k < 2:
            raise InputError(f"an A/A check on the judge's repeats needs at least 2, got {k}")
        half = k // 2

        def pair():
            order = rng.permutation(k)
            a, b = [tables[i] for i in order[:half]], [tables[i] for i in order[half:2 * half]]
            return gate(a[0], b[0], base_repeats=a if half >= 2 else None, new_repeats=b if half >= 2 else None,
                        **gate_options)
        splits, n = math.comb(k, half) * math.comb(k - half, half), tables[0].n
        how = (f"{draws} draws of the {k} judge repeats split {half} against {half}"
               + (" (judge's variance in the gate)" if half >= 2 else " (two single judge runs)"))
    else:
        table = as_table(run, "A/A")
        n, splits = table.n // 2, None
        if n < 1:
            raise InputError("an A/A check on the queries needs a run of at least 2 queries")

        def pair():
            order = rng.permutation(table.n)
            a, b = order[:n], order[n:2 * n]
            ids = table.frame.index[a]
            other = table.frame.iloc[b].set_axis(ids).assign(query=table.frame["query"].iloc[a].to_numpy())
            return gate(RunTable(None, table.frame.iloc[a], table.status.iloc[a]),
                        RunTable(None, other, table.status.iloc[b].set_axis(ids)), **gate_options)
        how = f"{draws} draws of the run's {table.n} queries split in two halves of {n}, paired at random"
    verdicts = [pair().frame["verdict"] for _ in range(draws)]
    worse = np.array([(v == WORSE).any() for v in verdicts])
    changed = np.array([v.isin((WORSE, BETTER)).any() for v in verdicts])
    unsure = np.array([(v == CANNOT_TELL).any() for v in verdicts])
    se = lambda r: math.sqrt(r * (1 - r) / draws)  # noqa: E731
    return {"rate": float(worse.mean()), "se": se(worse.mean()), "any_rate": float(changed.mean()),
            "any_se": se(changed.mean()), "cannot_tell_rate": float(unsure.mean()),
            "nominal": (1 - level) / 2, "any_nominal": 1 - level, "draws": draws, "splits": splits,
            "pairs": n, "mode": "queries" if splits is None else "repeats", "how": how}
