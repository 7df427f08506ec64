"""A checker's support probabilities calibrated to the reviewer's labels.

A local checker gives each check a support probability s (its P(entailment), max-pooled over the
passage's chunks) and says Entailment when s ≥ a threshold. On the reviewed checks (the reviewer's
label y: entailed or not) :func:`calibrate` fits one of

- ``"threshold"``: the threshold t that agrees with the reviewer most often (ties: the middle of
  the best run of candidates); labels only, no probabilities;
- ``"platt"``: p = σ(a·logit(s) + b), by maximum likelihood (a ridge of 1e-3 keeps a separable
  sample finite); Entailment when p ≥ ½, that is s ≥ σ(−b / a) (a > 0);
- ``"isotonic"``: the non-decreasing step map s → p closest to y in squared error (pool adjacent
  violators); Entailment when p ≥ ½, that is s ≥ the lowest support of the first block at ½ or more;

so every method's labels are a threshold on s (:attr:`Calibration.threshold`), which a checker
takes as it is. Agreement *before* is the checker's own labels against the reviewer's; *after* is
the fitted rule's, cross-validated: each check labelled by a fit on the other folds (K = the
least of 5, the rarer label's count and the samples, at least 2; whole samples to a fold where
there are K of them, else stratified by label; seeded), so the figure is not the fit's own optimism.
Both are shares of the reviewed checks with :func:`~.intervals.ratio_interval` over the samples
(the checks of one answer share their errors), their difference by MOVER with the samples'
correlation. The reliability tables (before: s; after: the out-of-fold probabilities of platt /
isotonic) give per bin of predicted probability the checks, the mean prediction, the reviewer's
entailed share with its Clopper–Pearson interval; ECE = Σ n_b / n · |observed_b − predicted_b|,
Brier = mean (p − y)².

Undefined (``reason`` says why): fewer than :data:`MIN_CHECKS` reviewed checks, or every reviewed
check the same label (nothing to place a threshold between).

:func:`calibrate_checker` gathers a run's reviewed checks (:func:`reviewed_checks`: the claim and
the text it was checked against, the run's and the reviewer's label), asks the checker for each
one's support and label, and fits; ``checker.calibrated(fit)`` labels by the fitted threshold.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd

from ..engine.evaluate import Scores
from ..engine.metrics import format_value
from ..errors import InputError
from ..loaders import as_samples
from ..model import ENTAILMENT, LABEL_CODES
from ..reviews import PASSAGE_KINDS, RESPONSE_KINDS, as_reviews, match
from .intervals import clopper_pearson, mover_difference, ratio_interval

METHODS = ("threshold", "platt", "isotonic")
LABEL_SPELLINGS_BY_CODE = {code: spelling for spelling, code in LABEL_CODES.items()}
MIN_CHECKS = 10
BINS = 10
EPS = 1e-6


@dataclass(frozen=True)
class Share:
    """A share of reviewed checks and its 95% interval (None: Undefined)."""

    value: float | None
    low: float | None
    high: float | None

    def __str__(self) -> str:
        if self.value is None:
            return "Undefined"
        if self.low is None:
            return f"{format_value(self.value)} (no interval: fewer than two samples)"
        return f"{format_value(self.value)} ({format_value(self.low)} to {format_value(self.high)})"


@dataclass(frozen=True)
class Calibration:
    """What :func:`calibrate` found (see the module docstring); ``reason`` non-empty: Undefined."""

    method: str
    n: int
    n_entailed: int
    threshold: float | None
    before: Share
    after: Share
    change: Share
    reliability_before: pd.DataFrame
    reliability_after: pd.DataFrame | None
    folds: int = 0
    reason: str = ""
    _map: tuple = field(default=(), repr=False)  # platt: (a, b); isotonic: (block lows, block values)
    checks: pd.DataFrame | None = field(default=None, repr=False)  # the reviewed checks, where known

    def probability(self, support) -> np.ndarray:
        """The calibrated probability of each support (platt / isotonic, fitted on every reviewed check)."""
        if self.method == "threshold" or not self._map:
            raise ValueError(f"a {self.method} calibration gives labels, not probabilities"
                             if not self.reason else f"the calibration is Undefined: {self.reason}")
        return _predict(self.method, self._map, np.asarray(support, dtype=float))

    def entailed(self, support) -> np.ndarray:
        """Whether each support is Entailment under the fitted rule (s ≥ threshold)."""
        if self.threshold is None:
            raise ValueError(f"the calibration is Undefined: {self.reason}")
        return np.asarray(support, dtype=float) >= self.threshold

    def summary(self) -> str:
        if self.reason:
            return f"calibration ({self.method}) Undefined: {self.reason}"
        return (f"{self.method} on {self.n} reviewed checks ({self.n_entailed} entailed): threshold "
                f"{format_value(self.threshold)}; agreement with the reviewer {self.before} before, {self.after} after "
                f"({self.folds}-fold cross-validated); change {self.change}")

    def __repr__(self) -> str:
        return f"Calibration({self.summary()})"

    def to_frame(self) -> pd.DataFrame:
        """Agreement before / after / change as rows: value, low, high."""
        return pd.DataFrame({name: [s.value, s.low, s.high] for name, s in
                             (("before", self.before), ("after", self.after), ("change", self.change))},
                            index=["value", "low", "high"]).T


def _logit(s: np.ndarray) -> np.ndarray:
    s = np.clip(s, EPS, 1 - EPS)
    return np.log(s) - np.log1p(-s)


def _sigmoid(z):
    return 1 / (1 + np.exp(-z))


def _fit_threshold(s: np.ndarray, y: np.ndarray) -> tuple[float | None, tuple]:
    """The threshold agreeing most with y (labels: s ≥ t; ties: the middle of the best cuts):
    candidates midway between sorted distinct supports, and below the least (every check
    entailed) or above the greatest (none) where that is a probability strictly inside (0, 1)."""
    distinct = np.unique(s)
    cuts = (distinct[:-1] + distinct[1:]) / 2
    cuts = np.concatenate([[distinct[0] / 2] if distinct[0] > 0 else [], cuts,
                           [(distinct[-1] + 1) / 2] if distinct[-1] < 1 else []])
    if not len(cuts):
        return None, ()
    order = np.argsort(s, kind="stable")
    below = np.searchsorted(s[order], cuts, side="left")  # checks labelled not entailed at each cut
    y_sorted = y[order]
    negatives_below = np.concatenate([[0], np.cumsum(~y_sorted)])[below]
    positives_above = y.sum() - np.concatenate([[0], np.cumsum(y_sorted)])[below]
    agree = negatives_below + positives_above
    best = np.flatnonzero(agree == agree.max())
    return float(cuts[best[len(best) // 2]]), ()


def _fit_platt(s: np.ndarray, y: np.ndarray) -> tuple[float | None, tuple]:
    """σ(a·logit(s) + b) by Newton's method with a ridge of 1e-3 on a and b."""
    z, t = _logit(s), y.astype(float)
    x = np.column_stack([z, np.ones_like(z)])
    w = np.zeros(2)
    for _ in range(100):
        p = _sigmoid(x @ w)
        grad = x.T @ (p - t) + 1e-3 * w
        hess = (x * (p * (1 - p))[:, None]).T @ x + 1e-3 * np.eye(2)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-10:
            break
    a, b = w
    return (float(_sigmoid(-b / a)) if a > 0 else None), (float(a), float(b))


def _fit_isotonic(s: np.ndarray, y: np.ndarray) -> tuple[float | None, tuple]:
    """Pool adjacent violators over the distinct supports (each one point weighted by its checks,
    so ties never split); the blocks' lowest supports and values."""
    xs, inverse = np.unique(s, return_inverse=True)
    sums = np.bincount(inverse, weights=y.astype(float)).tolist()
    counts = np.bincount(inverse).astype(float).tolist()
    lows, block_sums, block_counts = [], [], []
    for x, v, c in zip(xs, sums, counts):
        lows.append(x)
        block_sums.append(v)
        block_counts.append(c)
        while len(block_sums) > 1 and block_sums[-2] / block_counts[-2] >= block_sums[-1] / block_counts[-1]:
            merged_sum, merged_count = block_sums.pop(), block_counts.pop()
            block_sums[-1] += merged_sum
            block_counts[-1] += merged_count
            lows.pop()
    values = np.array(block_sums) / np.array(block_counts)
    lows = np.array(lows)
    at_half = np.flatnonzero(values >= 0.5)
    return (float(lows[at_half[0]]) if len(at_half) else None), (lows, values)


FITS = {"threshold": _fit_threshold, "platt": _fit_platt, "isotonic": _fit_isotonic}


def _predict(method: str, fitted: tuple, s: np.ndarray) -> np.ndarray:
    if method == "platt":
        a, b = fitted
        return _sigmoid(a * _logit(s) + b)
    lows, values = fitted
    return values[np.clip(np.searchsorted(lows, s, side="right") - 1, 0, len(values) - 1)]


def reliability(predicted, entailed, bins: int = BINS) -> pd.DataFrame:
    """Per bin of predicted probability ([k / bins, (k + 1) / bins), the last closed) holding a
    check: bin_low, bin_high, n, predicted (mean), observed (the reviewer's entailed share) and
    its Clopper–Pearson interval; ``attrs`` ece and brier (NaN for no check)."""
    p, y = np.asarray(predicted, dtype=float), np.asarray(entailed, dtype=bool)
    k = np.clip((p * bins).astype(int), 0, bins - 1)
    n = np.bincount(k, minlength=bins)
    hits = np.bincount(k, weights=y, minlength=bins)
    mean = np.bincount(k, weights=p, minlength=bins)
    used = n > 0
    lo, hi = clopper_pearson(hits[used], n[used])
    frame = pd.DataFrame({"bin_low": np.arange(bins)[used] / bins, "bin_high": (np.arange(bins)[used] + 1) / bins,
                          "n": n[used], "predicted": mean[used] / n[used], "observed": hits[used] / n[used],
                          "observed_low": lo, "observed_high": hi})
    frame.attrs["ece"] = float(np.abs(hits[used] - mean[used]).sum() / len(p)) if len(p) else float("nan")
    frame.attrs["brier"] = float(np.mean((p - y) ** 2)) if len(p) else float("nan")
    return frame


def _folds(y: np.ndarray, groups: np.ndarray | None, k: int, seed: int) -> np.ndarray:
    """Each check's fold, shuffled with ``seed``: whole groups (samples) to the fold holding the
    fewest checks so far when groups are given and there are at least ``k`` (a sample's checks
    share its errors, so none is in both a fit and its test), else stratified by label check by check."""
    rng = np.random.default_rng(seed)
    fold = np.empty(len(y), dtype=int)
    names, inverse = np.unique(groups if groups is not None else [], return_inverse=True)
    if groups is not None and len(names) >= k:
        sizes = np.bincount(inverse)
        load = np.zeros(k)
        for g in rng.permutation(len(names)):
            f = int(np.argmin(load))
            fold[inverse == g] = f
            load[f] += sizes[g]
        return fold
    for label in (False, True):
        where = np.flatnonzero(y == label)
        fold[rng.permutation(where)] = np.arange(len(where)) % k
    return fold


def _share(correct: np.ndarray, groups: np.ndarray) -> tuple[Share, np.ndarray, np.ndarray]:
    """The share of correct checks with its interval over the groups, and the per-group sums."""
    _, inverse = np.unique(groups, return_inverse=True)
    num, den = np.bincount(inverse, weights=correct), np.bincount(inverse).astype(float)
    p, lo, hi = ratio_interval(num, den)
    ok = not np.isnan(lo)
    return Share(float(p), float(lo) if ok else None, float(hi) if ok else None), num, den


def _flags(values, name: str) -> np.ndarray:
    """``values`` as booleans: True / False or 1 / 0 only (an InputError naming ``name`` otherwise)."""
    a = np.asarray(values)
    if a.dtype.kind == "b":
        return a
    if a.dtype.kind in "iuf" and np.isin(a, (0, 1)).all():
        return a.astype(bool)
    raise InputError("must be True / False (or 1 / 0) per check: the reviewer said Entailment or not, "
                     f"not {a.dtype} values such as {a.ravel()[:1].tolist()!r:.80}", field=name)


def calibrate(support, entailed, *, before=None, groups=None, method: str = "isotonic", folds: int = 5,
              seed: int = 0, bins: int = BINS) -> Calibration:
    """Fit ``method`` to the reviewed checks (see the module docstring).

    ``support``: the checker's support probability of each reviewed check; ``entailed``: the
    reviewer said Entailment; ``before``: the checker's own labels as entailed or not (default:
    support ≥ 0.5); ``groups``: each check's sample (default: each check its own), so that checks
    of one answer are not counted as independent. InputError for arrays that do not pair up."""
    if method not in METHODS:
        raise InputError(f"must be one of {', '.join(METHODS)}, not {method!r}", field="method")
    s = np.asarray(support, dtype=float)
    y = _flags(entailed, "entailed")
    b = s >= 0.5 if before is None else _flags(before, "before")
    g = np.arange(len(s)) if groups is None else np.asarray(groups)
    if not (s.shape == y.shape == b.shape == g.shape) or s.ndim != 1:
        raise InputError(f"support, entailed, before and groups must be one value per check: shapes {s.shape}, "
                         f"{y.shape}, {b.shape}, {g.shape}", field="support")
    if np.isnan(s).any() or (s < 0).any() or (s > 1).any():
        raise InputError("every support must be a probability in [0, 1]", field="support")
    n, positives = len(s), int(y.sum())
    empty = Share(None, None, None)
    reliability_before = reliability(s, y, bins)
    reason = ("" if n >= MIN_CHECKS else f"{n} reviewed check(s), fewer than {MIN_CHECKS}") or (
        "" if 0 < positives < n else f"every reviewed check is {'entailed' if positives else 'not entailed'}: "
                                     "nothing to place a threshold between")
    before_share, before_num, den = _share(b == y, g) if n else (empty, None, None)
    if reason:
        return Calibration(method, n, positives, None, before_share, empty, empty, reliability_before, None,
                           reason=reason)
    k = max(2, min(folds, positives, n - positives, max(2, len(np.unique(g)))))
    fold = _folds(y, None if groups is None else g, k, seed)
    out_of_fold = np.zeros(n, dtype=bool)
    probabilities = np.zeros(n)
    for f in range(k):
        train, test = fold != f, fold == f
        t, fitted = FITS[method](s[train], y[train])
        out_of_fold[test] = s[test] >= t if t is not None else False
        if method != "threshold":
            probabilities[test] = _predict(method, fitted, s[test])
    threshold, fitted = FITS[method](s, y)
    after_share, after_num, _ = _share(out_of_fold == y, g)
    change = _change(before_share, after_share, before_num, after_num, den)
    if threshold is None:
        why = ("the checker's support runs against the reviewer (the fitted slope is not positive)"
               if method == "platt" else "no support reaches a calibrated probability of ½: the checker would "
                                         "never say Entailment")
        return Calibration(method, n, positives, None, before_share, after_share, change, reliability_before,
                           reliability(probabilities, y, bins), k, why, fitted)
    return Calibration(method, n, positives, threshold, before_share, after_share, change, reliability_before,
                       None if method == "threshold" else reliability(probabilities, y, bins), k, "", fitted)


def _change(before: Share, after: Share, before_num, after_num, den) -> Share:
    """after − before with MOVER, the groups' shares correlated."""
    if before.low is None or after.low is None:
        return Share(after.value - before.value, None, None)
    with np.errstate(invalid="ignore", divide="ignore"):
        r = np.corrcoef(before_num / den, after_num / den)[0, 1]
    r = 0.0 if np.isnan(r) else float(r)
    lo, hi = mover_difference(after.value, after.low, after.high, before.value, before.low, before.high, r)
    return Share(after.value - before.value, float(lo), float(hi))


def reviewed_checks(data, reviews) -> pd.DataFrame:
    """The reviewed labels of a run (its records, samples or judge's Scores) as checks: query_id, kind, claim, doc_id, the claim's text, the
    reference it was checked against (the ground-truth answer, the response or the passage), the
    run's label and the reviewer's (reviews in force: adjudicated, else the latest). Reviews that
    do not match their sample are left out (``attrs["problems"]`` counts them)."""
    rows, problems = [], 0
    resolved = as_reviews(reviews)
    resolved = resolved.resolved() if len(resolved) else resolved
    for sample in (data.samples if isinstance(data, Scores) else as_samples(data)):
        mine = resolved.for_sample(sample.query_id)
        if not mine:
            continue
        found, wrong = match(sample, mine)
        problems += len(wrong)
        for review, cell in found:
            claims = sample.response_claims if review.kind in RESPONSE_KINDS else sample.gt_claims
            reference = (sample.passages[cell[1]].text if review.kind in PASSAGE_KINDS else
                         sample.gt_answer if review.kind == "answer2response" else sample.response)
            rows.append({"query_id": sample.query_id, "kind": review.kind, "claim": review.claim,
                         "doc_id": review.doc_id, "claim_text": claims[review.claim].text, "reference": reference,
                         "judge": LABEL_SPELLINGS_BY_CODE.get(int(getattr(sample, review.kind)[cell])),
                         "reviewer": review.label})
    frame = pd.DataFrame(rows, columns=["query_id", "kind", "claim", "doc_id", "claim_text", "reference", "judge",
                                        "reviewer"])
    frame.attrs["problems"] = problems
    return frame


def calibrate_checker(checker, data, reviews, *, method: str = "isotonic", folds: int = 5, seed: int = 0,
                      bins: int = BINS) -> Calibration:
    """:func:`calibrate` a checker (a :class:`~ragwidgets.judges.LocalChecker`: ``support`` and
    ``check``) to the reviews of a run (``data``: its records or samples): its support and its own
    label on each reviewed check (:func:`reviewed_checks`), the checks of one sample grouped.
    ``checks`` holds them with ``support`` and ``checker`` (its label). Apply the fit with
    ``checker.calibrated(calibration)``."""
    checks = reviewed_checks(data, reviews)
    support = np.full(len(checks), np.nan)
    labels = np.full(len(checks), None, dtype=object)
    for reference, rows in checks.groupby("reference", sort=False).groups.items():
        claims = checks.loc[rows, "claim_text"].tolist()
        support[checks.index.get_indexer(rows)] = checker.support(claims, reference)
        labels[checks.index.get_indexer(rows)] = list(checker.check(claims, reference))
    judged = ~np.isnan(support)
    checks = checks.assign(support=support, checker=labels)
    used = checks[judged]
    fit = calibrate(used["support"].to_numpy(), (used["reviewer"] == ENTAILMENT).to_numpy(),
                    before=(used["checker"] == ENTAILMENT).to_numpy(), groups=used["query_id"].to_numpy(),
                    method=method, folds=folds, seed=seed, bins=bins)
    return replace(fit, checks=checks)
