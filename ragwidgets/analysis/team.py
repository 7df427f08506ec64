"""Reviewing as a team: how far reviewers agree with each other, and the labels they disagree on.

Per label kind over the labels two or more reviewers reviewed (each reviewer's latest plain
review of a label; adjudications left out): percent agreement, Cohen's kappa (exactly two
reviewers) and Krippendorff's alpha (nominal; any number of reviewers, each label reviewed by
any two or more of them), with a cluster-bootstrap interval over samples for alpha (labels of one
sample share their answer, so the sample is the resampled unit: :func:`alpha_interval`).

Krippendorff's alpha from the coincidence matrix o (classes × classes): a label reviewed by m ≥ 2
reviewers adds 1 / (m − 1) to o[c, k] for each ordered pair of its values (c, k) given by two
different reviewers; n_c = Σ_k o[c, k], n = Σ_c n_c; alpha = 1 − (n − 1) · Σ_{c≠k} o[c, k] /
Σ_{c≠k} n_c · n_k (Krippendorff 2011, "Computing Krippendorff's alpha-reliability"); Undefined when
every value is one and the same class (no variation to agree on).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.stats import norm
from scipy.stats import t as student_t

from ..errors import InputError
from ..model import LABEL_SPELLINGS
from ..reviews import KINDS, as_reviews
from .agreement import agreement_stats, undefined_as_none

LABELS = tuple(LABEL_SPELLINGS)  # RAGChecker's spellings: the classes, in this order
KEY = ("query_id", "kind", "claim", "doc_id")
TABLE_FIGURES = ("agreement", "kappa", "kappa_low", "kappa_high", "alpha", "alpha_low", "alpha_high")
PAIR_FIGURES = ("agreement", "kappa", "kappa_low", "kappa_high")
ONE_CLASS = "every reviewer used one and the same class: no variation to agree on"


def coincidences(values: np.ndarray, k: int | None = None) -> np.ndarray:
    """Per unit (row of ``values``: units × coders, class index or -1 for missing) its
    coincidence matrix, (units, k, k), k the number of classes (default: the largest index + 1);
    a unit with fewer than two values adds nothing."""
    values = np.asarray(values, dtype=np.int64)
    k = max(int(values.max(initial=-1)) + 1, 1) if k is None else k
    counts = np.zeros((len(values), k))
    for column in values.T:
        seen = column >= 0
        counts[np.flatnonzero(seen), column[seen]] += 1
    m = counts.sum(axis=1)
    w = np.where(m >= 2, 1.0 / np.maximum(m - 1, 1), 0.0)
    return (counts[:, :, None] * counts[:, None, :] - counts[:, :, None] * np.eye(k)) * w[:, None, None]


def alpha_of(o: np.ndarray) -> np.ndarray:
    """Krippendorff's nominal alpha of coincidence matrices o (..., K, K); NaN where there is no
    pairable value or every value is one class."""
    o = np.asarray(o, dtype=float)
    nc = o.sum(axis=-1)
    n = nc.sum(axis=-1)
    off = o.sum(axis=(-1, -2)) - np.trace(o, axis1=-2, axis2=-1)
    expected = n ** 2 - (nc ** 2).sum(axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(expected > 0, 1 - (n - 1) * off / expected, np.nan)


def krippendorff_alpha(values) -> float | None:
    """Krippendorff's nominal alpha of ``values`` (units × coders: class index, -1 or NaN missing);
    None where Undefined (no label reviewed twice, or one class throughout)."""
    v = np.asarray(values, dtype=float)
    v = np.where(np.isnan(v), -1, v).astype(np.int64)
    a = float(alpha_of(coincidences(v).sum(axis=0)))
    return None if np.isnan(a) else a


def _bca(per_cluster: np.ndarray, resampled: np.ndarray, extra: np.ndarray, q: float) -> tuple[float, float]:
    """The BCa interval of alpha over the ``resampled`` coincidences (resamples × K × K, sums of
    resampled clusters of ``per_cluster``) with ``extra`` coincidences added to each, at
    standard scores ∓``q`` (NaN when no resample or no jackknife value is defined)."""
    total = per_cluster.sum(axis=0) + extra
    a = alpha_of(total)
    boots = alpha_of(resampled + extra)
    boots = boots[~np.isnan(boots)]
    jack = alpha_of(total[None] - per_cluster)
    jack = jack[~np.isnan(jack)]
    if not len(boots) or np.isnan(a):
        return np.nan, np.nan
    z0 = norm.ppf(np.clip(np.mean(boots < a) + np.mean(boots == a) / 2, 1e-6, 1 - 1e-6))
    d = jack.mean() - jack
    spread = (d ** 2).sum()
    acc = (d ** 3).sum() / (6 * spread ** 1.5) if spread > 0 else 0.0
    z = np.array([-q, q])
    shares = norm.cdf(z0 + (z0 + z) / (1 - acc * (z0 + z)))
    low, high = np.percentile(boots, 100 * np.clip(shares, 0, 1))
    return float(low), float(high)


def alpha_interval(per_cluster: np.ndarray, *, n_boot: int = 1000, level: float = 0.95,
                   seed: int = 0) -> tuple[float | None, float | None]:
    """A ``level`` interval for Krippendorff's alpha from per-cluster coincidences (clusters ×
    K × K; a cluster is a sample): the BCa interval of a cluster bootstrap (``n_boot`` resamples,
    seeded) with Student's t quantile on clusters − 1 degrees of freedom in place of the normal's
    (few clusters), widened to hold the same interval with one pseudo-cluster of the clusters'
    mean size added that agrees wholly (its coincidences on the diagonal, in the classes'
    shares) and one that agrees only by chance (the coincidences the classes' shares expect):
    a team that saw few disagreements, or many, is not taken to have seen all there are (a
    plus-one floor either way, as Wilson's pseudo-counts). (None, None) from fewer than two
    clusters or when alpha is Undefined."""
    per_cluster = np.asarray(per_cluster, dtype=float)
    g = int((per_cluster.sum(axis=(1, 2)) > 0).sum())
    total = per_cluster.sum(axis=0)
    if g < 2 or np.isnan(alpha_of(total)):
        return None, None
    per_cluster = per_cluster[per_cluster.sum(axis=(1, 2)) > 0]
    rng = np.random.default_rng(seed)
    draws = rng.integers(0, g, size=(n_boot, g)) + (np.arange(n_boot) * g)[:, None]
    picks = np.bincount(draws.ravel(), minlength=n_boot * g).reshape(n_boot, g).astype(float)
    resampled = (picks @ per_cluster.reshape(g, -1)).reshape(n_boot, *total.shape)
    n, nc = total.sum(), total.sum(axis=1)
    size = n / g
    agreeing = np.diag(nc) * size / n
    chance = (np.outer(nc, nc) - np.diag(nc)) / (n - 1) * size / n
    q = float(student_t.ppf((1 + level) / 2, g - 1))
    ends = np.array([_bca(per_cluster, resampled, extra, q) for extra in (np.zeros_like(total), agreeing, chance)])
    low, high = np.nanmin(ends[:, 0]), np.nanmax(ends[:, 1])
    if np.isnan(low) or np.isnan(high):
        return None, None
    return float(low), float(min(high, 1.0))


@dataclass(eq=False)
class ReviewerAgreement:
    """What :func:`reviewer_agreement` reports: ``table`` one row per label kind (reviewers,
    n_reviewers, n_labels: labels with two or more reviewers, n_samples: their samples,
    agreement, kappa and its interval, alpha and its interval, reason; None: Undefined), ``pairs``
    one row per kind and pair of reviewers (reviewer_a, reviewer_b, n_labels, n_samples,
    agreement, Cohen's kappa and its interval, reason)."""

    table: pd.DataFrame
    pairs: pd.DataFrame
    reviewers: list[str]
    level: float = 0.95

    def to_frame(self) -> pd.DataFrame:
        return self.table

    def to_view(self) -> dict:
        """JSON-able: the reviewers, the table's and the pairs' rows (None where Undefined)."""
        def rows(frame):
            return [{k: _plain(v) for k, v in r.items()} for r in frame.to_dict("records")]
        return {"reviewers": list(self.reviewers), "level": self.level, "rows": rows(self.table),
                "pairs": rows(self.pairs)}


def _plain(v):
    """A table cell as plain JSON: Python numbers, None for NaN."""
    if isinstance(v, np.integer):
        return int(v)
    if isinstance(v, (float, np.floating)):
        return None if v != v else float(v)
    return v


def _kinds(kinds, reviews) -> tuple[str, ...]:
    """The kinds asked for (checked), or those of any plain review."""
    if kinds is None:
        seen = {r.kind for r in reviews.history if not r.adjudicated}
        return tuple(k for k in KINDS if k in seen)
    kinds = (kinds,) if isinstance(kinds, str) else tuple(kinds)
    bad = [k for k in kinds if k not in KINDS]
    if bad:
        raise InputError(f"must be label kinds among {', '.join(KINDS)}, not {bad[0]!r}", field="kinds")
    return kinds


def _labels(reviews, kinds) -> tuple[pd.DataFrame, list[str]]:
    """Per label (rows: query_id, kind, claim, doc_id, in the order first reviewed) each reviewer's
    latest plain label as a class index (-1: not reviewed by them), for the labels of ``kinds``;
    and the reviewers."""
    reviews = as_reviews(reviews)
    names = reviews.reviewers
    column = {name: i for i, name in enumerate(names)}
    codes = {lab: i for i, lab in enumerate(LABELS)}
    rows: dict[tuple, list[int]] = {}  # in the order the labels were first reviewed
    for r in reviews.history:
        if not r.adjudicated and r.kind in kinds:
            rows.setdefault(r.key, [-1] * len(names))[column[r.reviewer]] = codes[r.label]  # a later line wins
    frame = pd.DataFrame(list(rows), columns=list(KEY))
    values = np.array(list(rows.values()), dtype=np.int64).reshape(len(rows), len(names))
    return frame.assign(**{f"_{i}": values[:, i] for i in range(len(names))}), names


def reviewer_agreement(reviews, *, kinds=None, seed: int = 0, n_boot: int = 1000,
                       level: float = 0.95) -> ReviewerAgreement:
    """How far reviewers agree on the labels two or more of them reviewed, per label kind
    (``kinds``: the kinds to report, default those reviewed at all; a kind no two reviewers share
    is a row of Undefined figures with its reason).

    ``reviews``: a reviews file, Reviews, records (:func:`ragwidgets.reviews.as_reviews`); each
    reviewer's latest plain review of a label counts (adjudications are left out: they are no
    reviewer's judgement of the label). agreement: the share of agreeing pairs of values given
    to one label by two reviewers (Σ_c o[c, c] / n; for two reviewers, the share of labels they
    agree on). kappa: Cohen's, with the cluster-bootstrap interval of
    :func:`~ragwidgets.analysis.agreement.agreement_stats`, for exactly two reviewers (Undefined
    otherwise, with the reason). alpha: Krippendorff's nominal alpha (module docstring) with the
    ``level`` interval of :func:`alpha_interval` from ``n_boot`` cluster-bootstrap resamples of
    the samples (seeded by ``seed``).
    """
    reviews = as_reviews(reviews)
    kinds = _kinds(kinds, reviews)
    frame, names = _labels(reviews, kinds)
    rows, pair_rows = [], []
    for kind in kinds:
        mine = frame[frame["kind"] == kind]
        values = mine[[f"_{i}" for i in range(len(names))]].to_numpy(dtype=np.int64).reshape(len(mine), len(names))
        who = [names[i] for i in range(len(names)) if (values[:, i] >= 0).any()]
        paired = (values >= 0).sum(axis=1) >= 2
        qids = mine["query_id"].to_numpy(dtype=object)[paired]
        row = {"kind": kind, "reviewers": who, "n_reviewers": len(who), "n_labels": int(paired.sum()),
               "n_samples": len(set(qids)), **dict.fromkeys(TABLE_FIGURES), "reason": ""}
        reasons = []
        if not paired.any():
            reasons.append("no label reviewed by two reviewers" if len(who) >= 2 else
                           f"{len(who)} reviewer(s) of {kind} labels: agreement needs two")
        else:
            per_label = coincidences(values[paired], len(LABELS))
            o = per_label.sum(axis=0)
            row["agreement"] = float(np.trace(o) / o.sum())
            a = alpha_of(o)
            if np.isnan(a):
                reasons.append(f"alpha: {ONE_CLASS}")
            else:
                row["alpha"] = float(a)
                _, cluster = np.unique(qids, return_inverse=True)
                per_sample = np.zeros((cluster.max() + 1, len(LABELS), len(LABELS)))
                np.add.at(per_sample, cluster, per_label)
                row["alpha_low"], row["alpha_high"] = alpha_interval(per_sample, n_boot=n_boot, level=level,
                                                                     seed=seed)
                if row["alpha_low"] is None:
                    reasons.append("alpha's interval: one sample only, nothing to resample")
        mine_pairs = []
        for i, j in itertools.combinations(range(len(names)), 2):
            both = (values[:, i] >= 0) & (values[:, j] >= 0)
            if both.any():
                mine_pairs.append(_pair(kind, names[i], names[j], values[both, i], values[both, j],
                                        mine["query_id"].to_numpy(dtype=object)[both], seed, n_boot, level))
        pair_rows += mine_pairs
        if len(who) == 2 and mine_pairs:
            (pair,) = mine_pairs
            row.update(kappa=pair["kappa"], kappa_low=pair["kappa_low"], kappa_high=pair["kappa_high"])
            if pair["kappa"] is None:
                reasons.append(f"kappa: {pair['reason']}")
        elif len(who) > 2:
            reasons.append(f"kappa: Cohen's kappa is for exactly two reviewers, these labels have {len(who)} "
                           "(see alpha, and pairs for each pair's kappa)")
        row["reason"] = "; ".join(reasons)
        rows.append(row)
    table = undefined_as_none(rows, TABLE_FIGURES) if rows else pd.DataFrame(
        columns=["kind", "reviewers", "n_reviewers", "n_labels", "n_samples", *TABLE_FIGURES, "reason"])
    pairs = undefined_as_none(pair_rows, PAIR_FIGURES) if pair_rows else pd.DataFrame(
        columns=["kind", "reviewer_a", "reviewer_b", "n_labels", "n_samples", *PAIR_FIGURES, "reason"])
    return ReviewerAgreement(table, pairs, names, level)


def _pair(kind, a, b, va, vb, qids, seed, n_boot, level) -> dict:
    """One pair of reviewers on the labels both reviewed: agreement and Cohen's kappa (clustered by sample)."""
    s = agreement_stats(np.asarray(LABELS, dtype=object)[va], np.asarray(LABELS, dtype=object)[vb],
                        labels=LABELS, groups=qids, seed=seed, n_boot=n_boot, level=level)
    return {"kind": kind, "reviewer_a": a, "reviewer_b": b, "n_labels": s.n, "n_samples": s.n_groups,
            "agreement": s.agreement.value, "kappa": s.kappa.value, "kappa_low": s.kappa_interval[0],
            "kappa_high": s.kappa_interval[1], "reason": s.kappa.reason}


def disagreements(reviews) -> pd.DataFrame:
    """The labels the reviewers disagree on (two or more different latest plain labels): query_id,
    kind, claim, doc_id, ``labels`` (each reviewer of :attr:`Reviews.reviewers` → their label,
    None: not reviewed by them; a dict, so that no reviewer's name can clash with a column) and
    ``adjudicated`` (the latest adjudication's label, None: not decided yet); in the order the
    labels were first reviewed. ``frame.attrs["reviewers"]``: the names."""
    reviews = as_reviews(reviews)
    frame, names = _labels(reviews, KINDS)
    cols = [f"_{i}" for i in range(len(names))]
    values = frame[cols].to_numpy(dtype=np.int64).reshape(len(frame), len(names))
    differ = np.array([len({v for v in row if v >= 0}) >= 2 for row in values], dtype=bool)
    out = frame.loc[differ, list(KEY)].reset_index(drop=True)
    words = np.asarray((*LABELS, None), dtype=object)
    out["labels"] = pd.Series([dict(zip(names, words[row])) for row in values[differ]], dtype=object)
    decided = reviews.adjudications
    out["adjudicated"] = pd.Series([decided[k].label if k in decided else None
                                    for k in map(tuple, out[list(KEY)].itertuples(index=False))], dtype=object)
    out["claim"] = out["claim"].astype(np.int64)
    out["doc_id"] = out["doc_id"].astype(object).where(out["doc_id"].notna(), None)
    out.attrs["reviewers"] = list(names)
    return out
