"""A metric's mean three ways from a judge's labels on all N samples and reviewed (true) labels
on a random n of them: judge only, reviewed only and prediction-powered (PPI: Angelopoulos,
Bates, Fannjiang, Jordan, Zrnic, *Science* 2023; power-tuned as in PPI++: Angelopoulos, Duchi,
Zrnic 2023), each with an interval.

:func:`prediction_powered` works on per-sample value arrays (the notebook calls it at answer
level); :func:`corrected` reads a run's scores and reviews, per metric.
"""

from __future__ import annotations

from dataclasses import dataclass
from statistics import NormalDist

import numpy as np
import pandas as pd

from ..engine.evaluate import Scores, evaluate
from ..errors import InputError
from .agreement import undefined_as_none
from .reviewed_labels import ReviewedRun, label_kinds, reviewed_run
from .table import DEFINED_CODE, defined_metrics

ESTIMATES = ("judge", "reviewed", "corrected")
COLUMNS = ("judge_mean", "judge_low", "judge_high", "reviewed_mean", "reviewed_low", "reviewed_high",
           "corrected_mean", "corrected_low", "corrected_high", "n_reviewed", "n_samples")


@dataclass(frozen=True)
class Estimate:
    """A mean and its interval (None: Undefined, ``reason`` says why) from ``n`` samples."""

    mean: float | None
    low: float | None
    high: float | None
    n: int
    reason: str = ""


@dataclass(frozen=True)
class Estimates:
    """The three estimates of :func:`prediction_powered`."""

    judge: Estimate
    reviewed: Estimate
    corrected: Estimate
    n_reviewed: int
    n_samples: int
    level: float

    def row(self) -> dict:
        """One flat row: ``<estimate>_mean / _low / _high``, n_reviewed, n_samples, reason."""
        out = {}
        for name in ESTIMATES:
            e = getattr(self, name)
            out.update({f"{name}_mean": e.mean, f"{name}_low": e.low, f"{name}_high": e.high})
        reasons = [f"{name}: {getattr(self, name).reason}" for name in ESTIMATES if getattr(self, name).reason]
        return {**out, "n_reviewed": self.n_reviewed, "n_samples": self.n_samples, "reason": "; ".join(reasons)}

    def to_frame(self) -> pd.DataFrame:
        """One row per estimate: mean, low, high, n, reason."""
        return undefined_as_none([{"estimate": name, **vars(getattr(self, name))} for name in ESTIMATES],
                                 ("mean", "low", "high")).set_index("estimate")

    def to_view(self) -> dict:
        return {**self.row(), "level": self.level}


def _flags(values: np.ndarray, defined, name: str) -> np.ndarray:
    if defined is None:
        return ~np.isnan(values)
    d = np.asarray(defined, dtype=bool)
    if d.shape != values.shape:
        raise InputError(f"{name} must have one flag per value ({len(values)}), got {len(d)}", field=name)
    if np.isnan(values[d]).any():
        raise InputError(f"{name} marks a NaN value as defined", field=name)
    return d


def _quantile(level: float, df: int) -> float:
    """Student's t quantile at 0.5 + level / 2 with ``df`` degrees of freedom (Cornish–Fisher
    expansion about the normal one: within 0.001 of the exact value for df ≥ 10)."""
    z = NormalDist().inv_cdf(0.5 + level / 2)
    return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2)


def _interval(mean: float, se: float | None, z: float, n: int, why: str = "") -> Estimate:
    if se is None:
        return Estimate(mean, None, None, n, why)
    return Estimate(mean, mean - z * se, mean + z * se, n)


def prediction_powered(judge_all, judge_reviewed, truth_reviewed, *, defined_all=None,
                       defined_judge_reviewed=None, defined_truth_reviewed=None, level: float = 0.95,
                       n_total: int | None = None, known_all=None) -> Estimates:
    """Judge-only, reviewed-only and prediction-powered estimates of a metric's mean under the
    true (reviewed) labels, with ``level`` intervals.

    ``judge_all``: the judge's per-sample values on all N samples; ``judge_reviewed`` /
    ``truth_reviewed``: the judge's and the reviewed values on the n reviewed samples, a simple
    random sample (without replacement) of the M = ``n_total`` samples the review was drawn from.
    ``known_all``: a flag per sample whose value no label review can change (nothing to review:
    the same under both labellings), left out of the draw; M defaults to the others' number (N
    when none). NaN, or a False ``defined_*`` flag, is Undefined.

    The target is θ = Σ dᵀyᵀ / Σ dᵀ over the N samples (dᵀ: defined under the true labels): a
    ratio of two totals, since a sample can be defined under one labelling and not the other.
    With a = d·y, b = d, Aᴶ, Bᴶ the judge's totals over all N and the rectifiers aᵀ − aᴶ, bᵀ − bᴶ
    on the reviewed set, the corrected (PPI) estimate is
    θ̂ = (Aᴶ + M·mean(aᵀ − aᴶ)) / (Bᴶ + M·mean(bᵀ − bᴶ)),  M = ``n_total``.
    Its standard error, by the delta method (the covariance of the two rectifiers included
    through z = a − θ̂b), is se = M·√((1 − n/M)·S²(zᵀ − zᴶ) / n) / B̂ (B̂ the denominator above),
    with the finite-population correction 1 − n/M for sampling without replacement; the
    interval is θ̂ ± t·se (Student's t, n − 1 degrees of freedom). Reviewed only: the same ratio
    with the known samples' exact totals in place of the judge's, θ̂ = (Aᴷ + M·mean(aᵀ)) /
    (Bᴷ + M·mean(bᵀ)), se = M·√((1 − n/M)·S²(zᵀ)/n) / its denominator. Judge only: the
    judge's mean over its defined samples, se = S/√(defined), from sampling over questions
    only — it ignores the judge's bias, so it misses θ when the judge errs. (PPI++'s power
    tuning, λ·judge terms with λ fitted on the reviewed set, under-covered at n = 100 for rare
    outcomes in the coverage simulation of tests/analysis/test_corrected.py, so λ = 1 here.)

    Empty cases: no reviewed sample defined under the true labels → reviewed and corrected
    Undefined (θ has no estimate from the review); no judge value defined → judge Undefined;
    fewer than 2 reviewed samples → intervals Undefined (no variance estimate).
    """
    ja = np.asarray(judge_all, dtype=float)
    jr = np.asarray(judge_reviewed, dtype=float)
    tr = np.asarray(truth_reviewed, dtype=float)
    if jr.shape != tr.shape:
        raise InputError(f"judge_reviewed and truth_reviewed must pair up: {len(jr)} and {len(tr)} values",
                         field="truth_reviewed")
    if not 0 < level < 1:
        raise ValueError(f"level must be between 0 and 1, not {level!r}")
    da = _flags(ja, defined_all, "defined_all")
    djr = _flags(jr, defined_judge_reviewed, "defined_judge_reviewed")
    dtr = _flags(tr, defined_truth_reviewed, "defined_truth_reviewed")
    big_n, n = len(ja), len(jr)
    known = np.zeros(big_n, dtype=bool) if known_all is None else np.asarray(known_all, dtype=bool)
    if known.shape != ja.shape:
        raise InputError(f"known_all must have one flag per sample ({big_n}), got {len(known)}", field="known_all")
    m = big_n - int(known.sum()) if n_total is None else int(n_total)
    if not n <= m <= big_n:
        raise InputError(f"n_total must be from the {n} reviewed to the {big_n} samples, not {m}", field="n_total")
    fpc = 1 - n / m if m else 0.0

    a_all = np.where(da, ja, 0.0)
    judge_defined = int(da.sum())
    if judge_defined:
        jmean = float(a_all.sum() / judge_defined)
        jse = float(np.std(ja[da], ddof=1) / np.sqrt(judge_defined)) if judge_defined > 1 else None
        judge = _interval(jmean, jse, _quantile(level, max(judge_defined - 1, 1)), judge_defined,
                          "one defined sample: no variance estimate")
    else:
        judge = Estimate(None, None, None, 0, "no sample is defined under the judge's labels")

    aj, bj = np.where(djr, jr, 0.0), djr.astype(float)
    at, bt = np.where(dtr, tr, 0.0), dtr.astype(float)
    few = "fewer than 2 reviewed samples: no variance estimate"
    if not dtr.any():
        why = "no reviewed sample is defined under the reviewed labels" if n else "no reviewed sample"
        undefined = Estimate(None, None, None, n, why)
        return Estimates(judge, undefined, undefined, n, big_n, level)

    z = _quantile(level, max(n - 1, 1))
    a_known, b_known = a_all[known].sum(), da[known].sum()
    rden = b_known + m * bt.mean()
    rmean = float((a_known + m * at.mean()) / rden)
    rse = float(m * np.sqrt(fpc * np.var(at - rmean * bt, ddof=1) / n) / rden) if n > 1 else None
    reviewed = _interval(rmean, rse, z, n, few)

    num = a_all.sum() + m * np.mean(at - aj)
    den = da.sum() + m * np.mean(bt - bj)
    if den <= 0:
        return Estimates(judge, reviewed, Estimate(None, None, None, n, "the estimated number of defined samples "
                                                   "is not positive"), n, big_n, level)
    theta = float(num / den)
    cse = None
    if n > 1:
        resid = (at - theta * bt) - (aj - theta * bj)
        cse = float(m * np.sqrt(fpc * np.var(resid, ddof=1) / n) / den)
    return Estimates(judge, reviewed, _interval(theta, cse, z, n, few), n, big_n, level)


def _values(scores: Scores, shown: str) -> tuple[np.ndarray, np.ndarray]:
    """Per-sample values of one reported metric and whether each is defined."""
    for part in scores.parts:
        for name_shown, value, _, name in part.columns():
            if name_shown == shown:
                return value, part.code[name] == DEFINED_CODE
    raise KeyError(shown)


def _reviewed_subset(run: ReviewedRun, rows: np.ndarray) -> Scores:
    """The reviewed labelling scored on ``rows`` only (the reviewed samples), as the judge was scored."""
    judge = run.judge
    part = judge.parts[0]
    b = judge.batch
    psg = np.concatenate([part.derived.psg_active[b.psg_offset[i]:b.psg_offset[i + 1]] for i in rows]) \
        if len(rows) else np.zeros(0, dtype=bool)
    return evaluate([run.reviewed_samples[int(i)] for i in rows], part.names, mode=judge.mode,
                    undefined=judge.undefined, passage_active=psg)


def corrected(scores: Scores, reviews=None, *, metrics=None, level: float = 0.95) -> pd.DataFrame:
    """Each metric's mean three ways (see :func:`prediction_powered`): judge only, reviewed only
    and corrected, over the samples reviewed for that metric (every cell of every label matrix it
    reads reviewed or confirmed: :mod:`ragwidgets.analysis.reviewed_labels`), drawn from the
    samples that have such cells.

    ``scores``: the judge's scores with ``reviews`` (a reviews file's path, Reviews, records), or
    scores evaluated with reviews (``rw.evaluate(..., reviews=)``; ``reviews`` None). Only the
    reviewed samples are scored again. ``metrics``: reported names (default: those of ``scores``
    that read a label matrix). The reviewed samples must be a simple random sample of the run's
    (``review_queue(..., strategy="random")``): a consequential queue's are not, and the
    corrected interval is then not valid.

    A DataFrame indexed by metric: judge_mean, judge_low, judge_high, reviewed_mean,
    reviewed_low, reviewed_high, corrected_mean, corrected_low, corrected_high (None where
    Undefined), n_reviewed, n_samples, and ``reason`` (why a figure is Undefined; "" otherwise).
    """
    run = reviewed_run(scores, reviews)
    judge = run.judge
    names = [n for n in defined_metrics(judge) if label_kinds(n)] if metrics is None else list(metrics)
    unknown = [n for n in names if n not in judge.names]
    if unknown:
        raise ValueError(f"unknown metric(s) {', '.join(map(repr, unknown))}; "
                         f"these scores have {', '.join(judge.names)}")
    touched = np.flatnonzero(run.any_reviewed())
    subset = run.reviewed_scores
    position = None
    if subset is None:
        subset, position = _reviewed_subset(run, touched), {int(i): k for k, i in enumerate(touched)}
    rows = []
    for name in names:
        kinds = label_kinds(name)
        ja, da = _values(judge, name)
        ja = np.where(da, ja, np.nan)
        if not kinds:
            rows.append({"metric": name, **dict.fromkeys(COLUMNS[:9]), "n_reviewed": 0, "n_samples": len(ja),
                         "reason": "it reads no judge label: reviews cannot change it"})
            continue
        chosen = np.flatnonzero(run.fully_reviewed(kinds))
        tv, td = _values(subset, name)
        at = chosen if position is None else np.array([position[int(i)] for i in chosen], dtype=np.int64)
        est = prediction_powered(ja, ja[chosen], tv[at], defined_truth_reviewed=td[at], level=level,
                                 known_all=~run.reviewable(kinds))
        rows.append({"metric": name, **est.row()})
    frame = undefined_as_none(rows, COLUMNS[:9]).set_index("metric")
    return frame[list(COLUMNS) + ["reason"]]


def corrected_view(table: pd.DataFrame) -> dict:
    """:func:`corrected`'s table as JSON-able data: ``{"columns", "rows"}``, one row per metric
    (``metric`` first; None where Undefined, numbers as Python floats and ints)."""
    def plain(v):
        if v is None or isinstance(v, str):
            return v
        return int(v) if isinstance(v, (int, np.integer)) else float(v)

    columns = ["metric", *table.columns]
    return {"columns": columns, "rows": [dict(zip(columns, (metric, *map(plain, row))))
                                         for metric, row in zip(table.index, table.itertuples(index=False))]}
