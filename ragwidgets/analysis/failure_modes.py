"""Failure modes as numbers: each mode's rate among the samples read, its share of the population
the samples were read from and of the whole run, with intervals; each mode as a mask; and how well
a rule (a filter expression or a built-in signal) catches a mode.

A sample is *read* when it has a note in force (:mod:`ragwidgets.notes`); its modes are the tags of
its own note and its claims'. Among the samples read, a mode's rate is tagged / read. Intervals
are Clopper–Pearson (:func:`~ragwidgets.analysis.intervals.clopper_pearson`), not Wilson: rare
modes are the point, and Wilson's coverage dips under its level for small counts (93.6% at
p = 0.1, n = 100; 84% at p = 0.006, n = 30), where Clopper–Pearson never falls below it.

Over the population (``design``: a :class:`~ragwidgets.analysis.reading_queue.ReadingQueue`, or
:func:`declared_design`), the samples read that are in the population are a simple random sample
of it (``random``), a stratified one (``stratified``: each stratum's share p_h weighted by
W_h = N_h / N), or all of it (``all``: exact; no estimate while some are unread, since they are
read in the run's order, not at random). One stratum: the exact hypergeometric interval of the
count (:func:`hypergeometric_interval`, at least the level for every count, however much of the
population was read). Several: the estimate p = Σ W_h p_h has the variance
Σ W_h² (1 − n_h / N_h) p_h (1 − p_h) / (n_h − 1) (finite population correction), and its interval
is Clopper–Pearson on the effective n* = p (1 − p) / var (Korn & Graubard 1998), n* at most the
number read (their truncation; also when no spread is seen, as when the mode was never seen: a
cap above it, as the correction would allow, covered 88.9% at worst, computed exactly, with 20 of
30 read in each of two strata; this cap, 99.9%). All
read is exact, a zero-width interval. A stratum none of whose samples was read leaves
the population rate Undefined. Samples read outside the population count in rate and read, not
in the estimate; samples of the population read but not drawn by the queue (noted from the table,
or drawn by an earlier queue) are taken as drawn at random too, and ``basis`` counts them. The run's rate is population_rate × population / run_size, its interval scaled
the same way.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy.stats import hypergeom

from ..engine.evaluate import Scores
from ..notes import Notes, as_notes
from .filtering import expression_mask
from .intervals import clopper_pearson
from .mode_checks import SIGNALS, Signal, signal_mask
from .reading_queue import ReadingQueue, reading_queue
from .review_queue import _strata
from .table import run_table

COLUMNS = ("run", "group", "mode", "tagged", "read", "rate", "lo", "hi", "population", "population_rate",
           "population_lo", "population_hi", "run_size", "run_rate", "run_lo", "run_hi", "basis")
NO_DESIGN = "no design: rates among the samples read only"
MODE_PREFIX = "mode: "  # a mode's column in a table an expression reads: "mode: <tag>"
EXAMPLES = 5

__all__ = ["COLUMNS", "MODE_PREFIX", "SIGNALS", "Signal", "signal_mask", "mode_masks", "mode_table",
           "declared_design", "population_share", "percent", "check_mode", "ModeCheck"]


def _notes_of(scores: Scores, notes) -> Notes:
    return as_notes(notes if notes is not None else (scores.notes or ()))


def _read_and_tags(scores: Scores, notes: Notes) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """Per sample of the run: read or not; per mode, tagged or not (notes on other samples ignored)."""
    position = {q: i for i, q in enumerate(scores.batch.query_ids)}
    read = np.zeros(len(position), dtype=bool)
    tags: dict[str, np.ndarray] = {}
    for qid, sample_tags in notes.sample_tags().items():
        i = position.get(qid)
        if i is None:
            continue
        read[i] = True
        for tag in sample_tags:
            tags.setdefault(tag, np.zeros(len(position), dtype=bool))[i] = True
    return read, tags


def mode_masks(scores: Scores, notes=None) -> pd.DataFrame:
    """Index query_id (the run's), one float column per mode (tag; most tagged first): 1 tagged,
    0 read and not tagged, NaN not read. ``notes``: Notes-like; None: those ``scores`` carries."""
    read, tags = _read_and_tags(scores, _notes_of(scores, notes))
    order = sorted(tags, key=lambda t: (-int(tags[t].sum()), t))
    base = np.where(read, 0.0, np.nan)
    return pd.DataFrame({t: np.where(tags[t], 1.0, base) for t in order},
                        index=pd.Index(list(scores.batch.query_ids), name="query_id"), columns=order)


def declared_design(scores: Scores, where: str = "", strategy: str = "random", by=None) -> ReadingQueue:
    """The design the samples read were drawn by, declared (nothing to read: ``query_ids`` empty):
    the population is the samples where ``where`` holds, drawn ``random``, ``stratified`` by
    ``by`` or ``all``, as :func:`~ragwidgets.analysis.reading_queue.reading_queue` draws them."""
    return reading_queue(scores, 0, where=where, strategy=strategy, by=by, notes=())


def population_share(x, n, N, level: float = 0.95) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The share of a population with an outcome from a stratified sample without replacement
    (the module docstring): ``x`` (..., H) outcomes among ``n`` (H,) read of ``N`` (H,) per
    stratum; (share, lo, hi) over the leading axes, NaN when a stratum is not read. One stratum:
    the exact hypergeometric interval (:func:`hypergeometric_interval`)."""
    x, n, N = np.asarray(x, dtype=float), np.asarray(n, dtype=float), np.asarray(N, dtype=float)
    shape = x.shape[:-1]
    if not (N > 0).any() or ((N > 0) & (n == 0)).any():
        return tuple(np.full(shape, np.nan) for _ in range(3))
    keep = N > 0
    x, n, N = x[..., keep], n[keep], N[keep]
    if len(N) == 1:
        lo, hi = hypergeometric_interval(x[..., 0], int(n[0]), int(N[0]), level)
        return x[..., 0] / n[0], lo / N[0], hi / N[0]
    w, unread = N / N.sum(), 1 - n / N
    p_h = x / n
    p = (w * p_h).sum(axis=-1)
    var = (w ** 2 * unread * p_h * (1 - p_h) / np.maximum(n - 1, 1)).sum(axis=-1)
    if not unread.any():
        return p, p.copy(), p.copy()
    n_cap = n.sum()
    with np.errstate(invalid="ignore", divide="ignore"):
        n_star = np.where((var > 1e-20) & (p > 0) & (p < 1), np.minimum(p * (1 - p) / var, n_cap), n_cap)
    lo, hi = clopper_pearson(p * n_star, n_star, level)
    return p, lo, hi


def hypergeometric_interval(x, n: int, N: int, level: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """The exact interval of the count K of a population of ``N`` with an outcome, from ``x``
    outcomes among ``n`` drawn without replacement: [the least K with P(X ≥ x | K) > α/2, the
    greatest K with P(X ≤ x | K) > α/2] (the hypergeometric analogue of Clopper–Pearson: coverage
    at least ``level`` for every K); n = N gives [x, x]. Found by bisection over K, vectorised."""
    x = np.asarray(x, dtype=float)
    tail = (1 - level) / 2

    def least(ok):  # the least K in [0, N] where ok(K) holds (ok monotone, holds at N)
        lo, hi = np.zeros(x.shape), np.full(x.shape, float(N))
        while (hi - lo > 0).any():
            mid = np.floor((lo + hi) / 2)
            good = ok(mid)
            hi, lo = np.where(good, mid, hi), np.where(good, lo, mid + 1)
        return hi

    low = np.where(x > 0, least(lambda K: hypergeom.sf(x - 1, N, K, n) > tail), 0.0)
    high = np.where(x < n, least(lambda K: hypergeom.cdf(x, N, K, n) <= tail) - 1, float(N))
    return low, high


def percent(x) -> str:
    """A share as a whole percent, as every view of failure modes writes it (the panel's twin:
    js/src/dataset/modes.js ``pct``): "<1%" / ">99%" near the ends, never a rounded 0% or 100%;
    "—" when not estimable (None, NaN)."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "—"
    if 0 < x < 0.005:
        return "<1%"
    if 0.995 <= x < 1:
        return ">99%"
    return f"{round(x * 100)}%"


def _check_level(level) -> None:
    if isinstance(level, bool) or not isinstance(level, (int, float)) or not 0 < level < 1:
        raise ValueError(f"level must be a number between 0 and 1 (0.95 for 95%), not {level!r:.80}")


def _runs(obj, what: str, names: list[str]) -> dict:
    """One value per run: ``obj`` given {run: value}, or one value for every run."""
    if isinstance(obj, Mapping) and not isinstance(obj, pd.Series):
        missing = [r for r in names if r not in obj]
        if missing:
            raise ValueError(f"{what} names no run {missing[0]!r}; runs: {', '.join(names)}")
        return {r: obj[r] for r in names}
    return dict.fromkeys(names, obj)


def _cells(scores: Scores, design: ReadingQueue | None) -> tuple[np.ndarray, np.ndarray, np.ndarray, str]:
    """Per sample: in the population or not, its stratum ('' unstratified), drawn by the queue
    (all True for a declared design: no draw to check), and words on the design."""
    ids = list(scores.batch.query_ids)
    if design is None:
        none = np.zeros(len(ids), dtype=bool)
        return none, np.full(len(ids), "", dtype=object), none, NO_DESIGN
    if not isinstance(design, ReadingQueue):
        raise ValueError(f"design must be a ReadingQueue (reading_queue, declared_design) or None, "
                         f"not {type(design).__name__}")
    population = set(design.population)
    if design.run_size != len(ids) or not population.issubset(ids):
        raise ValueError(f"the design is of another run: {design.run_size} samples and its population "
                         f"not all in this run of {len(ids)}")
    inside = np.fromiter((q in population for q in ids), dtype=bool, count=len(ids))
    strata = design.strata or {}
    stratum = np.array([str(strata.get(q, "")) for q in ids], dtype=object)
    where = f"where {design.where}" if design.where.strip() else "every sample"
    drawn = np.ones(len(ids), dtype=bool)
    if design.query_ids:
        queued = set(design.query_ids)
        drawn = np.fromiter((q in queued for q in ids), dtype=bool, count=len(ids))
    return inside, stratum, drawn, f"{design.strategy} design over the population ({where})"


def _basis(design_words: str, strategy: str | None, N: np.ndarray, n: np.ndarray, names, outside: int,
           undrawn: int) -> str:
    """What one group's run-level numbers rest on, in words."""
    if strategy is None:
        return NO_DESIGN
    total, got = int(N.sum()), int(n.sum())
    if total == 0:
        return f"{design_words}: no sample of the population here: no estimate"
    lacking = [name for name, size, k in zip(names, N, n) if size > 0 and k == 0]
    if strategy == "all" and got < total:
        words = (f"{got} of its {total} samples read, in the run's order, not at random: "
                 "no estimate until all are read")
    elif lacking and strategy == "stratified":
        words = f"stratum {str(lacking[0])!r} has none of its samples read: no estimate"
    elif got == 0:
        words = f"none of its {total} samples read: no estimate"
    elif got == total:
        words = f"all {total} samples read: exact"
    elif strategy == "stratified":
        words = f"{got} of its {total} samples read, a stratified random sample weighted by stratum size"
    else:
        words = f"{got} of its {total} samples read, a simple random sample"
    if outside:
        words += f"; {outside} read outside the population count in rate only"
    if undrawn and strategy != "all":
        words += (f"; {undrawn} of them not drawn by this queue (read from the table, or an earlier queue) "
                  "are taken as drawn at random too")
    return f"{design_words}: {words}"


def mode_table(scores, notes=None, *, design=None, by=None, level: float = 0.95) -> pd.DataFrame:
    """One row per (run, group, mode), the columns :data:`COLUMNS` (see the module docstring;
    NaN where not estimable, never 0 for "unknown"). ``scores``: a Scores (run "") or
    {run: Scores}; ``notes``: Notes-like for every run, {run: Notes-like}, or None (each run's
    own); ``design``: None, a ReadingQueue, or {run: ReadingQueue}; ``by``: a column of the run
    table or {query_id: group} (group "" when None). Modes: every tag of any run, most tagged first."""
    _check_level(level)
    runs = scores if isinstance(scores, Mapping) else {"": scores}
    names = list(runs)
    if isinstance(scores, Mapping) and isinstance(design, ReadingQueue):
        raise ValueError("with several runs, design is {run: ReadingQueue}: a queue is one run's")
    notes_of, designs = _runs(notes, "notes", names), _runs(design, "design", names)
    seen: dict[str, tuple] = {}
    for run, s in runs.items():
        read, tags = _read_and_tags(s, _notes_of(s, notes_of[run]))
        seen[run] = (read, tags)
    totals: dict[str, int] = {}
    for _, tags in seen.values():
        for t, m in tags.items():
            totals[t] = totals.get(t, 0) + int(m.sum())
    modes = sorted(totals, key=lambda t: (-totals[t], t))
    rows = []
    for run, s in runs.items():
        read, tags = seen[run]
        tagged = np.zeros((len(modes), len(read)), dtype=bool)
        for k, t in enumerate(modes):
            tagged[k] = tags.get(t, False)
        groups = np.full(len(read), "") if by is None else np.asarray(_strata(s, by)).astype(str)
        inside, stratum, drawn, words = _cells(s, designs[run])
        strategy = None if designs[run] is None else designs[run].strategy
        names, inverse = np.unique(groups, return_inverse=True)
        members = np.split(np.argsort(inverse, kind="stable"), np.cumsum(np.bincount(inverse))[:-1])
        for group, idx in zip(names, members):
            rows.extend(_group_rows(run, str(group), modes, tagged, read, idx, inside, stratum, drawn, words,
                                    strategy, level))
    return pd.DataFrame(rows, columns=list(COLUMNS))


def _group_rows(run, group, modes, tagged, read, idx, inside, stratum, drawn, words, strategy, level) -> list[dict]:
    """The rows of one run's group (``idx``: its samples' positions), one per mode."""
    seen = idx[read[idx]]
    n_read, run_size = len(seen), len(idx)
    x = tagged[:, seen].sum(axis=1)
    rate = x / n_read if n_read else np.full(len(modes), np.nan)
    lo, hi = clopper_pearson(x, n_read, level) if n_read else (rate, rate)
    population = idx[inside[idx]]
    names, cell = np.unique(stratum[population].astype(str), return_inverse=True)
    got = read[population]
    N, n = np.bincount(cell, minlength=len(names)), np.bincount(cell[got], minlength=len(names))
    basis = _basis(words, strategy, N, n, names, n_read - int(got.sum()), int((~drawn[population[got]]).sum()))
    size = float(len(population)) if strategy is not None else np.nan
    if strategy is None or (strategy == "all" and n.sum() < N.sum()):
        share = np.full((3, len(modes)), np.nan)
    else:
        x_h = np.zeros((len(names), len(modes)))
        np.add.at(x_h, cell[got], tagged[:, population[got]].T)
        share = np.array(population_share(x_h.T, n, N, level)).reshape(3, len(modes))
    run_share = share * (size / run_size if run_size else np.nan)
    return [{"run": run, "group": group, "mode": m, "tagged": int(x[k]), "read": n_read, "rate": float(rate[k]),
             "lo": float(lo[k]), "hi": float(hi[k]), "population": size, "population_rate": float(share[0, k]),
             "population_lo": float(share[1, k]), "population_hi": float(share[2, k]), "run_size": run_size,
             "run_rate": float(run_share[0, k]), "run_lo": float(run_share[1, k]), "run_hi": float(run_share[2, k]),
             "basis": basis} for k, m in enumerate(modes)]


@dataclass(eq=False)
class ModeCheck:
    """How a rule catches a mode among the samples read: tp (flagged and tagged), fp (flagged,
    read, not tagged), fn (tagged, not flagged), tn; precision tp / (tp + fp) and recall
    tp / (tp + fn) with Clopper–Pearson intervals (NaN when the denominator is 0); ``flagged``
    the samples of the whole run the rule flags, of ``run_size``; ``examples`` up to 5 query_ids
    each of "caught", "false_alarm", "missed", in run order."""

    mode: str
    rule: str
    tp: int
    fp: int
    fn: int
    tn: int
    precision: float
    precision_lo: float
    precision_hi: float
    recall: float
    recall_lo: float
    recall_hi: float
    flagged: int
    run_size: int
    examples: dict[str, list[str]] = field(default_factory=dict)
    level: float = 0.95

    def words(self) -> str:
        """One line: what the rule catches, how often it is right, how much of the run it flags."""
        def part(k, total):
            share, lo, hi = _share(k, total, self.level)
            return "Undefined" if total == 0 else f"{percent(share)}, {percent(lo)}–{percent(hi)}"
        tagged, flagged_read = self.tp + self.fn, self.tp + self.fp
        return (f"catches {self.tp} of {tagged} tagged ({part(self.tp, tagged)}) · right on {self.tp} of "
                f"{flagged_read} flagged ({part(self.tp, flagged_read)}) · flags {self.flagged} of "
                f"{self.run_size} samples in the run")

    def to_dict(self) -> dict:
        """The check as JSON-ready values (NaN as None)."""
        out = {k: getattr(self, k) for k in self.__dataclass_fields__}
        return {k: (None if isinstance(v, float) and v != v else v) for k, v in out.items()}

    def __str__(self) -> str:
        return f"{self.mode} ← {self.rule}: {self.words()}"


def _share(k: int, total: int, level: float) -> tuple[float, float, float]:
    """k / total and its Clopper–Pearson interval; NaN for a total of 0."""
    if total == 0:
        return (np.nan, np.nan, np.nan)
    lo, hi = clopper_pearson(k, total, level)
    return (k / total, float(lo), float(hi))


def check_mode(scores: Scores, notes, mode: str, *, expression: str | None = None, signal: str | None = None,
               level: float = 0.95) -> ModeCheck:
    """How the rule (``expression`` over the run table joined with the modes' columns
    ``mode: <tag>``, or a built-in ``signal`` of :data:`SIGNALS`) catches ``mode`` among the
    samples read (see :class:`ModeCheck`). An unknown mode or signal, a bad expression, or not
    exactly one rule is a ValueError naming it."""
    _check_level(level)
    masks = mode_masks(scores, notes)
    if mode not in masks.columns:
        raise ValueError(f"no sample read carries the mode {mode!r:.80}; modes: {', '.join(masks.columns) or 'none'}")
    if (expression is None) == (signal is None):
        raise ValueError("check_mode takes one rule: expression= or signal=")
    if signal is not None:
        flags, rule = signal_mask(scores, signal), f"signal {signal}"
    else:
        if not isinstance(expression, str) or not expression.strip():
            raise ValueError(f"expression must be a filter expression (a non-empty string), not {expression!r:.80}")
        frame = run_table(scores, share=True).frame
        modes = masks.rename(columns=lambda t: MODE_PREFIX + t)
        joined = pd.concat([frame, modes.set_axis(frame.index)], axis=1)
        flags, rule = expression_mask(joined, expression), expression
    value = masks[mode].to_numpy()
    tagged, negative = value == 1, value == 0
    tp, fp = int((flags & tagged).sum()), int((flags & negative).sum())
    fn, tn = int((~flags & tagged).sum()), int((~flags & negative).sum())
    precision, recall = _share(tp, tp + fp, level), _share(tp, tp + fn, level)
    ids = np.asarray(masks.index, dtype=object)
    examples = {name: [str(q) for q in ids[m][:EXAMPLES]] for name, m in
                (("caught", flags & tagged), ("false_alarm", flags & negative), ("missed", ~flags & tagged))}
    return ModeCheck(mode, rule, tp, fp, fn, tn, *precision, *recall, int(flags.sum()), len(ids), examples, level)

