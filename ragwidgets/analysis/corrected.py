"""A metric's mean three ways from a judge's labels on all N samples and reviewed (true) labels
on a random n of them: judge only, reviewed only and prediction-powered (PPI: Angelopoulos,
Bates, Fannjiang, Jordan, Zrnic, *Science* 2023; power-tuned as in PPI++: Angelopoulos, Duchi,
Zrnic 2023), each with an interval.

:func:`prediction_powered` works on per-sample value arrays (the notebook calls it at answer
level); :func:`corrected` reads a run's scores and reviews, per metric.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np
import pandas as pd
from scipy.stats import t as student_t

from ..engine.evaluate import Scores, evaluate
from ..errors import InputError, InputWarning
from .agreement import undefined_as_none
from .reviewed_labels import ReviewedRun, label_kinds, reviewed_run
from .table import DEFINED_CODE, defined_metrics

ESTIMATES = ("judge", "reviewed", "corrected")
ESTIMANDS = ("finite", "superpopulation")
COLUMNS = ("judge_mean", "judge_low", "judge_high", "reviewed_mean", "reviewed_low", "reviewed_high",
           "corrected_mean", "corrected_low", "corrected_high", "n_reviewed", "n_discordant", "n_samples")


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
    n_discordant: int = 0
    estimand: str = "finite"

    def row(self) -> dict:
        """One flat row: ``<estimate>_mean / _low / _high``, n_reviewed, n_samples, reason."""
        out = {}
        for name in ESTIMATES:
            e = getattr(self, name)
            out.update({f"{name}_mean": e.mean, f"{name}_low": e.low, f"{name}_high": e.high})
        reasons = [f"{name}: {getattr(self, name).reason}" for name in ESTIMATES if getattr(self, name).reason]
        return {**out, "n_reviewed": self.n_reviewed, "n_discordant": self.n_discordant,
                "n_samples": self.n_samples, "reason": "; ".join(reasons)}

    def to_frame(self) -> pd.DataFrame:
        """One row per estimate: mean, low, high, n, reason."""
        return undefined_as_none([{"estimate": name, **vars(getattr(self, name))} for name in ESTIMATES],
                                 ("mean", "low", "high")).set_index("estimate")

    def to_view(self) -> dict:
        return {**self.row(), "level": self.level, "estimand": self.estimand}


def _flags(values: np.ndarray, defined, name: str) -> np.ndarray:
    if defined is None:
        return ~np.isnan(values)
    d = np.asarray(defined, dtype=bool)
    if d.shape != values.shape:
        raise InputError(f"{name} must have one flag per value ({len(values)}), got {len(d)}", field=name)
    if np.isnan(values[d]).any():
        raise InputError(f"{name} marks a NaN value as defined", field=name)
    return d


def _quantile(level: float, df) -> np.ndarray | float:
    """Student's t quantile at 0.5 + level / 2 with ``df`` degrees of freedom (exact: scipy)."""
    return student_t.ppf(0.5 + level / 2, np.maximum(df, 1))


def _wilson_upper(k, n, z) -> np.ndarray:
    """The upper end of the Wilson score interval of a rate seen ``k`` times in ``n``."""
    p = k / n
    return (p + z * z / (2 * n) + z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n))) / (1 + z * z / n)


def _events(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per row of ``x`` (runs × samples): how many values differ from the row's most common one
    (its *events*: for a rectifier, the discordant samples), and their mean squared distance
    from it (NaN when there is none)."""
    r, n = x.shape
    xs = np.sort(np.round(x, 12), axis=1)
    start = np.ones((r, n), dtype=bool)
    start[:, 1:] = xs[:, 1:] != xs[:, :-1]
    run = np.cumsum(start, axis=1) - 1
    counts = np.bincount((run + np.arange(r)[:, None] * n).ravel(), minlength=r * n).reshape(r, n)
    top = counts.argmax(axis=1)
    mode = xs[np.arange(r), (run == top[:, None]).argmax(axis=1)]
    dev = np.round(x, 12) - mode[:, None]
    hit = dev != 0
    k = hit.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        c2 = np.where(hit, dev * dev, 0.0).sum(axis=1) / k
    return k, c2


def _floor_sd(x: np.ndarray, z: float, span: float) -> tuple[np.ndarray, np.ndarray]:
    """A floor under the per-sample standard deviation of ``x`` (runs × samples), and its event
    count: the sd of a two-point law whose event rate is the Wilson upper bound of the rate seen
    (capped at 1/2) and whose event size is the root mean square of the events seen plus one
    pseudo-event of size ``span`` (the widest a value can move: few small events seen do not
    rule out a large one). The plug-in variance is 0 when no event was seen and badly low when
    few were; this floor is what the events seen cannot rule out."""
    k, c2 = _events(x)
    q = np.minimum(_wilson_upper(k, x.shape[1], z), 0.5)
    c2 = (np.where(k > 0, c2 * k, 0.0) + span * span) / (k + 1)
    return np.sqrt(c2 * q * (1 - q)), k


LAMBDAS = np.linspace(0.0, 1.0, 5)


def _fold_lambda(ut: np.ndarray, r: np.ndarray, other: np.ndarray, z: float, span: float) -> np.ndarray:
    """Per row: the power-tuning λ ∈ {0, ¼, ½, ¾, 1} whose residual uᵀ − λ(uᵀ − r) has the
    smallest variance on the samples of ``other`` only (cross-fitting: λ never sees the samples
    it is applied to), the variance floored as in :func:`_rectify`, so a fold that saw no
    discordance does not pick plain PPI on no evidence."""
    ut_o, r_o = ut[:, other], r[:, other]
    floor_t, _ = _floor_sd(ut_o, z, span)
    floor_r, _ = _floor_sd(r_o, z, span)
    best = np.full(len(ut), np.inf)
    out = np.ones(len(ut))
    for lam in LAMBDAS:
        v = np.maximum(np.var(ut_o - lam * (ut_o - r_o), axis=1, ddof=1), ((1 - lam) * floor_t + lam * floor_r) ** 2)
        better = v < best - 1e-15
        best, out = np.where(better, v, best), np.where(better, lam, out)
    return out


def _rectify(at, bt, aj, bj, *, judge_a, judge_b, sizes, strata=None, known_a=0.0, known_b=0.0, known_u2=None,
             lam="tuned", level: float = 0.95, estimand: str = "finite", span: float = 1.0) -> dict:
    """The estimator of :func:`prediction_powered`, vectorised over runs: ``at, bt, aj, bj``
    (runs × n reviewed) are a = d·y and b = d under the true and the judge's labels; ``judge_a``,
    ``judge_b`` the judge's totals per stratum over the reviewable samples, ``sizes`` the strata's
    sizes M_h (one stratum: a simple random sample), ``strata`` each reviewed sample's stratum;
    ``known_*`` the exact totals of the samples no review can change (``known_u2``: a function
    θ → Σ (a − θb)² over them, for the superpopulation variance); ``lam``: 0 (reviewed only),
    1 (PPI) or "tuned" (cross-fitted). Returns per run: mean (clipped), raw, low, high, se,
    discordant (reviewed samples whose value differs) and lam (the mean λ)."""
    r, n = at.shape
    sizes = np.asarray(sizes, dtype=float)
    h = len(sizes)
    s = np.zeros((r, n), dtype=np.int64) if strata is None else np.asarray(strata, dtype=np.int64)
    flat = (s + np.arange(r)[:, None] * h).ravel()

    def per_stratum(x):
        return np.bincount(flat, weights=np.broadcast_to(x, (r, n)).ravel(), minlength=r * h).reshape(r, h)

    nh = per_stratum(1.0)
    wi = np.take_along_axis(sizes / np.maximum(nh, 1), s, axis=1)  # each reviewed sample's weight M_h / n_h
    ca = aj - np.take_along_axis(np.broadcast_to(np.asarray(judge_a, float) / sizes, (r, h)), s, axis=1)
    cb = bj - np.take_along_axis(np.broadcast_to(np.asarray(judge_b, float) / sizes, (r, h)), s, axis=1)

    def solve(lam_i):
        num = known_a + (wi * (at - lam_i * ca)).sum(axis=1)
        den = known_b + (wi * (bt - lam_i * cb)).sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(den > 0, num / den, np.nan), den

    z = NormalDist().inv_cdf(0.5 + level / 2)
    if lam == "tuned":
        theta0 = solve(np.ones((r, n)))[0][:, None]
        ut, rect = at - theta0 * bt, (at - theta0 * bt) - (aj - theta0 * bj)
        fold = np.arange(n) % 2 == 1
        if n >= 4:
            lam_i = np.where(fold, _fold_lambda(ut, rect, ~fold, z, span)[:, None],
                             _fold_lambda(ut, rect, fold, z, span)[:, None])
        else:
            lam_i = np.ones((r, n))
    else:
        lam_i = np.full((r, n), float(lam))
    theta, den = solve(lam_i)
    th = theta[:, None]
    e = (at - th * bt) - lam_i * (ca - th * cb)
    floor_t, _ = _floor_sd(at - th * bt, z, span)
    floor_r, _ = _floor_sd((at - th * bt) - (aj - th * bj), z, span)
    lam_bar = lam_i.mean(axis=1)
    floor = (1 - lam_bar) * floor_t + lam_bar * floor_r
    s1, s2 = per_stratum(e), per_stratum(e * e)
    with np.errstate(invalid="ignore", divide="ignore"):
        var_h = np.where(nh > 1, (s2 - s1 * s1 / np.maximum(nh, 1)) / (nh - 1), 0.0)
        var_h = np.maximum(var_h, (floor * floor)[:, None])
        fpc = np.clip(1 - nh / sizes, 0.0, 1.0)
        total_var = np.where(nh > 0, sizes ** 2 * fpc * var_h / np.maximum(nh, 1), 0.0).sum(axis=1)
    if estimand == "superpopulation":
        ut = at - th * bt
        var_t = np.maximum(np.var(ut, axis=1, ddof=1) if n > 1 else 0.0, floor_t * floor_t)
        total_var = total_var + sizes.sum() * var_t + (0.0 if known_u2 is None else known_u2(theta))
    with np.errstate(invalid="ignore", divide="ignore"):
        se = np.where((den > 0) & (n > 1), np.sqrt(total_var) / den, np.nan)
    defined = (bt > 0).sum(axis=1)
    half = _quantile(level, defined - h) * se
    discordant = ((at != aj) | (bt != bj)).sum(axis=1)
    return {"mean": np.clip(theta, 0.0, 1.0), "raw": theta, "low": np.clip(theta - half, 0.0, 1.0),
            "high": np.clip(theta + half, 0.0, 1.0), "se": se, "discordant": discordant, "lam": lam_bar}


def _interval(mean: float, se: float | None, z: float, n: int, why: str = "") -> Estimate:
    if se is None:
        return Estimate(mean, None, None, n, why)
    return Estimate(mean, mean - z * se, mean + z * se, n)


def _one(out: dict, n: int, few: str) -> Estimate:
    """Run 0 of :func:`_rectify`'s arrays as an Estimate (interval Undefined below 2 reviewed)."""
    mean, low, high = (float(out[k][0]) for k in ("mean", "low", "high"))
    if not np.isfinite(mean):
        return Estimate(None, None, None, n, "the estimated number of defined samples is not positive")
    if not np.isfinite(low):
        return Estimate(mean, None, None, n, few)
    raw = float(out["raw"][0])
    why = "" if raw == mean else f"the raw estimate {raw:.4g} leaves the metric's range [0, 1]: clipped"
    return Estimate(mean, low, high, n, why)


def prediction_powered(judge_all, judge_reviewed, truth_reviewed, *, defined_all=None,
                       defined_judge_reviewed=None, defined_truth_reviewed=None, level: float = 0.95,
                       n_total: int | None = None, known_all=None, estimand: str = "finite",
                       strata_all=None, strata_reviewed=None) -> Estimates:
    """Judge-only, reviewed-only and prediction-powered estimates of a metric's mean under the
    true (reviewed) labels, with ``level`` intervals.

    ``judge_all``: the judge's per-sample values on all N samples; ``judge_reviewed`` /
    ``truth_reviewed``: the judge's and the reviewed values on the n reviewed samples, a simple
    random sample (without replacement) of the M = ``n_total`` samples the review was drawn from
    — or, with ``strata_all`` / ``strata_reviewed`` (each sample's stratum), a simple random
    sample within each stratum (stratified: each stratum weighted by its size, M_h / n_h per
    reviewed sample). ``known_all``: a flag per sample whose value no label review can change
    (nothing to review), left out of the draw; M defaults to the others' number. NaN, or a
    False ``defined_*`` flag, is Undefined.

    What is estimated (``estimand``): ``"finite"`` — θ = Σ dᵀyᵀ / Σ dᵀ over these N samples
    (dᵀ: defined under the true labels), the mean of the questions asked; ``"superpopulation"``
    — the system's mean over the distribution the N questions were drawn from: the same
    estimate, its variance plus that of the N questions' mean around it (N·S²(uᵀ) / B̂²).

    With a = d·y, b = d, the corrected estimate is θ̂ = (Aᴷ + Σᵢ wᵢ[aᵀᵢ − λᵢ(aᴶᵢ − āᴶ_h)]) /
    (Bᴷ + Σᵢ wᵢ[bᵀᵢ − λᵢ(bᴶᵢ − b̄ᴶ_h)]) (Aᴷ, Bᴷ: the known samples' totals; āᴶ_h: the judge's mean
    of a over the reviewable samples of i's stratum; wᵢ = M_h / n_h). λ = 1 is PPI (Angelopoulos
    et al. 2023), λ = 0 is reviewed only; the corrected row uses PPI++'s power tuning
    (Angelopoulos, Duchi, Zrnic 2023) cross-fitted: the reviewed samples are split in two
    folds and each fold's λ ∈ {0, ¼, ½, ¾, 1} is the one of least (floored) variance on the other
    fold, so λ never sees the samples it weights (the estimate stays unbiased) and a judge that
    adds noise is down-weighted: corrected is never much wider than reviewed only.
    Standard error by the delta method on z = a − θ̂b, with the finite-population correction
    1 − n_h/M_h: se² = Σ_h M_h²(1 − n_h/M_h)·S²_h(e)/n_h / B̂², e the residual above.

    Few discordant samples: when few reviewed samples disagree with the judge, S² is 0 or far
    too low (a good judge, a rare outcome) and the plug-in interval collapses. The variance is
    floored by what the events seen cannot rule out (:func:`_floor_sd`): a two-point law whose
    event rate is the Wilson upper bound of the share of reviewed samples off the usual value
    (for the corrected residual: the discordant ones) and whose event size is their root mean
    square with one pseudo-event of the metric's full range added (a plus-one rule: unseen
    events may be larger than the few seen). The interval is θ̂ ± t·se with Student's t exact
    quantile on (reviewed samples defined under the true labels − strata) degrees of freedom,
    clipped to [0, 1] (the reason says when the raw estimate left it). Coverage over a grid of
    judges, rarities, shared errors, sparse and undefined-heavy metrics and n = 30–500:
    ``docs/intervals.md``. Judge only: the judge's mean over its defined samples, se = S/√defined,
    from sampling over questions only — it ignores the judge's bias.

    ``n_discordant``: the reviewed samples whose value (or definedness) differs between the
    judge and the review. Empty cases: no reviewed sample defined under the true labels →
    reviewed and corrected Undefined; no judge value defined → judge Undefined; fewer than 2
    reviewed samples → intervals Undefined (no variance estimate).
    """
    ja = np.asarray(judge_all, dtype=float)
    jr = np.asarray(judge_reviewed, dtype=float)
    tr = np.asarray(truth_reviewed, dtype=float)
    if jr.shape != tr.shape:
        raise InputError(f"judge_reviewed and truth_reviewed must pair up: {len(jr)} and {len(tr)} values",
                         field="truth_reviewed")
    if not 0 < level < 1:
        raise ValueError(f"level must be between 0 and 1, not {level!r}")
    if estimand not in ESTIMANDS:
        raise ValueError(f"estimand must be one of {', '.join(ESTIMANDS)}, not {estimand!r}")
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

    a_all = np.where(da, ja, 0.0)
    judge_defined = int(da.sum())
    if judge_defined:
        jmean = float(a_all.sum() / judge_defined)
        jse = float(np.std(ja[da], ddof=1) / np.sqrt(judge_defined)) if judge_defined > 1 else None
        judge = _interval(jmean, jse, float(_quantile(level, judge_defined - 1)), judge_defined,
                          "one defined sample: no variance estimate")
    else:
        judge = Estimate(None, None, None, 0, "no sample is defined under the judge's labels")

    aj, bj = np.where(djr, jr, 0.0), djr.astype(float)
    at, bt = np.where(dtr, tr, 0.0), dtr.astype(float)
    discordant = int(((at != aj) | (bt != bj)).sum())
    if not dtr.any():
        why = "no reviewed sample is defined under the reviewed labels" if n else "no reviewed sample"
        undefined = Estimate(None, None, None, n, why)
        return Estimates(judge, undefined, undefined, n, big_n, level, discordant, estimand)
    design = _design(strata_all, strata_reviewed, known, a_all, da.astype(float), m, n)
    a_known, b_known = a_all[known].sum(), da[known].sum()
    common = dict(known_a=a_known, known_b=b_known, level=level, estimand=estimand,
                  known_u2=lambda th: a_all[known] @ a_all[known] - 2 * th * a_known + th * th * b_known, **design)
    few = "fewer than 2 reviewed samples: no variance estimate"
    rows = [x[None, :] for x in (at, bt, aj, bj)]
    reviewed = _one(_rectify(*rows, lam=0.0, **common), n, few)
    corrected_ = _one(_rectify(*rows, lam="tuned", **common), n, few)
    for e in (reviewed, corrected_):
        if e.reason.startswith("the raw estimate"):
            warnings.warn(f"{e.reason} (the judge's labels and the reviews disagree more than sampling explains)",
                          InputWarning, stacklevel=2)
    return Estimates(judge, reviewed, corrected_, n, big_n, level, discordant, estimand)


def _design(strata_all, strata_reviewed, known, a_all, b_all, m: int, n: int) -> dict:
    """The strata of :func:`_rectify`: their sizes, the judge's totals in each over the
    reviewable samples, each reviewed sample's stratum (one stratum of M: a simple random sample)."""
    if (strata_all is None) != (strata_reviewed is None):
        raise InputError("strata_all and strata_reviewed go together", field="strata_reviewed")
    if strata_all is None:
        return {"judge_a": [a_all[~known].sum()], "judge_b": [b_all[~known].sum()], "sizes": [m], "strata": None}
    sa, sr = np.asarray(strata_all, dtype=object), np.asarray(strata_reviewed, dtype=object)
    if sa.shape != a_all.shape or sr.shape != (n,):
        raise InputError(f"strata_all needs one stratum per sample ({len(a_all)}) and strata_reviewed one per "
                         f"reviewed sample ({n})", field="strata_all")
    names, inverse = np.unique(sa[~known].astype(str), return_inverse=True)
    lookup = {s: k for k, s in enumerate(names)}
    missing = sorted(set(sr.astype(str)) - set(lookup))
    if missing:
        raise InputError(f"reviewed stratum {missing[0]!r} is not among the samples' strata", field="strata_reviewed")
    seen = np.bincount([lookup[s] for s in sr.astype(str)], minlength=len(names))
    if (seen == 0).any():
        raise InputError(f"stratum {str(names[np.argmax(seen == 0)])!r} has no reviewed sample: its mean cannot be "
                         "estimated", field="strata_reviewed")
    return {"judge_a": np.bincount(inverse, weights=a_all[~known], minlength=len(names)),
            "judge_b": np.bincount(inverse, weights=b_all[~known], minlength=len(names)),
            "sizes": np.bincount(inverse, minlength=len(names)),
            "strata": np.array([[lookup[s] for s in sr.astype(str)]], dtype=np.int64)}


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


def corrected(scores: Scores, reviews=None, *, metrics=None, level: float = 0.95,
              estimand: str = "finite", design=None, use: str = "adjudicated") -> pd.DataFrame:
    """Each metric's mean three ways (see :func:`prediction_powered`): judge only, reviewed only
    and corrected, over the samples reviewed for that metric (every cell of every label matrix it
    reads reviewed or confirmed: :mod:`ragwidgets.analysis.reviewed_labels`), drawn from the
    samples that have such cells.

    ``scores``: the judge's scores with ``reviews`` (a reviews file's path, Reviews, records), or
    scores evaluated with reviews (``rw.evaluate(..., reviews=)``; ``reviews`` None). Only the
    reviewed samples are scored again. ``metrics``: reported names (default: those of ``scores``
    that read a label matrix). ``use``: which reviewed label is in force
    (:meth:`Reviews.resolved <ragwidgets.reviews.Reviews.resolved>`): "adjudicated" (per label the
    latest adjudication, else the latest review) or a reviewer's name (that reviewer's labels).

    ``design``: the :class:`~ragwidgets.analysis.review_queue.ReviewQueue` the reviews were made
    from. None or a random queue: the reviewed samples are taken for a simple random sample of
    the run's. A stratified queue: each sample's stratum is read from it and each stratum is
    weighted by its size (stratified PPI; the reviews in each stratum must be a simple random
    sample of it, as the queue's are; a stratum with samples to review but none reviewed makes
    the row Undefined). A consequential queue is refused (InputError): its samples were picked
    for how far they move the metric, so no average of them estimates the run's mean. Reviews do
    not record their queue: without ``design`` a consequential or stratified queue's reviews are
    silently taken for a simple random sample, and the corrected interval is then not valid.

    ``estimand``: "finite" (the mean of these N questions) or "superpopulation" (the system's
    mean over the distribution they were drawn from: wider).

    A DataFrame indexed by metric: judge_mean, judge_low, judge_high, reviewed_mean,
    reviewed_low, reviewed_high, corrected_mean, corrected_low, corrected_high (None where
    Undefined), n_reviewed, n_discordant (reviewed samples where the judge's value differs: few
    of them and the interval rests on its floor), n_samples, and ``reason`` (why a figure is
    Undefined or clipped; "" otherwise). ``table.attrs["estimand"]`` says what is estimated.
    """
    run = reviewed_run(scores, reviews, use)
    judge = run.judge
    strata = _design_strata(design, judge)
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
            rows.append({"metric": name, **dict.fromkeys(COLUMNS[:9]), "n_reviewed": 0, "n_discordant": 0,
                         "n_samples": len(ja),
                         "reason": "it reads no judge label: reviews cannot change it"})
            continue
        chosen = np.flatnonzero(run.fully_reviewed(kinds))
        tv, td = _values(subset, name)
        at = chosen if position is None else np.array([position[int(i)] for i in chosen], dtype=np.int64)
        stratified = {} if strata is None else {"strata_all": strata, "strata_reviewed": strata[chosen]}
        try:
            est = prediction_powered(ja, ja[chosen], tv[at], defined_truth_reviewed=td[at], level=level,
                                     known_all=~run.reviewable(kinds), estimand=estimand, **stratified)
        except InputError as e:
            if strata is None or e.field != "strata_reviewed":
                raise
            rows.append({"metric": name, **dict.fromkeys(COLUMNS[:9]), "n_reviewed": len(chosen),
                         "n_discordant": 0, "n_samples": len(ja), "reason": str(e)})
            continue
        rows.append({"metric": name, **est.row()})
    frame = undefined_as_none(rows, COLUMNS[:9]).set_index("metric")[list(COLUMNS) + ["reason"]]
    frame.attrs["estimand"] = estimand
    return frame


def _design_strata(design, judge: Scores) -> np.ndarray | None:
    """Each sample's stratum from a stratified ``design`` (None for none or a random queue);
    a consequential queue, a queue of another run or anything else is an InputError."""
    if design is None:
        return None
    strategy, strata = getattr(design, "strategy", None), getattr(design, "strata", None)
    if strategy == "consequential":
        raise InputError("the reviews came from a consequential queue: its samples were chosen for how far one "
                         "label moves the metric, not at random, so no corrected estimate is valid from them; "
                         "review a random or stratified queue (review_queue(..., strategy='random'))",
                         field="design")
    if strategy not in ("random", "stratified"):
        raise InputError(f"design must be the review queue the reviews came from, not {type(design).__name__}",
                         field="design")
    ids = design.scores.batch.query_ids if design.scores is not None else None
    if ids is not None and list(ids) != list(judge.batch.query_ids):
        raise InputError("design is a review queue of another run (its samples differ from these scores')",
                         field="design")
    return None if strategy == "random" else np.asarray(strata, dtype=object)


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
