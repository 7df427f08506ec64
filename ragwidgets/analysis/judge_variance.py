"""How much of a metric is the judge's noise: one run scored once per repeat of the judge.

Records filled with repeats (each holds ``label_repeats``: :mod:`ragwidgets.judges.repeats`) give
``repeat_scores``: one Scores per repeat ``r`` (every record with repeat ``r``'s labels) and the
policy's Scores (the labels the metrics use). Over those:

- ``label_flips``: per label kind, flipped / labels: the labels whose judged repeats disagree,
  over the labels with at least two judged repeats (unjudged answers not counted; a kind with
  no such label is left out), and beside it the share per pair of repeats (comparable across k:
  the any-flip share grows with k);
- ``flakiness``: the label flips and, per sample and metric, whether the metric's value differs
  across repeats (defined in one repeat and Undefined in another counts as differing), also per
  pair of repeats;
- ``judge_variance``: per metric, the mean per repeat, their spread, today's interval over
  questions and, about the mean of the repeat means, an interval over questions and the judge's
  randomness (:func:`combined_interval`);
- ``label_distributions``: one sample's labels whose repeats disagree, each with its distribution.

The metrics looked at are those computable on some sample in some repeat.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import combinations
from typing import Any, Optional

import numpy as np
import pandas as pd
from scipy.stats import norm
from scipy.stats import t as student_t

from ..engine import Batch, Scores, evaluate
from ..engine.sums import mean_over_defined
from ..judges.repeats import REPEATS_FIELD, Policy, pick, repeats_of
from ..reviews import SPELLING
from .bootstrap import CONFIDENCE, N_BOOT, interval
from .intervals import bounded_interval, range_of
from .table import DEFINED_CODE, NOT_COMPUTABLE_CODE

UNJUDGED = -1  # an unjudged entailment label, or a claim without a REQUIRED/OPTIONAL label, in a Batch
_LABEL_ARRAYS = {  # label kind -> (the Batch's labels of that kind, which of them the samples hold)
    "answer2response": lambda b: (b.answer2response, b.has["answer2response"][b.resp_sample]),
    "response2answer": lambda b: (b.response2answer, b.has["response2answer"][b.gt_sample]),
    "retrieved2response": lambda b: (b.r2r_label, None),
    "retrieved2answer": lambda b: (b.r2a_label, None),
    "response_claim_labels": lambda b: (b.resp_required, None),
    "gt_answer_claim_labels": lambda b: (b.gt_required, None),
}
_SHAPE = ("resp_offset", "gt_offset", "psg_offset", "r2r_claim", "r2r_psg", "r2a_claim", "r2a_psg")


@dataclass(frozen=True, eq=False)
class Repeats:
    """One Scores per repeat of the judge (the same samples, claims and passages) and the Scores
    of the labels ``policy_name`` picks ("majority" or a repeat's index)."""

    runs: tuple[Scores, ...]
    policy: Scores
    policy_name: Policy = "majority"

    def __post_init__(self) -> None:
        object.__setattr__(self, "runs", tuple(self.runs))
        if not self.runs:
            raise ValueError("Repeats needs the Scores of at least one repeat")
        first = self.runs[0]
        for r, other in enumerate((*self.runs, self.policy)):
            where = "the policy's scores" if r == len(self.runs) else f"repeat {r}"
            if list(other.batch.query_ids) != list(first.batch.query_ids):
                raise ValueError(f"{where} scores other samples (query_ids) than repeat 0")
            if other.names != first.names:
                raise ValueError(f"{where} has other metrics ({', '.join(other.names)}) than repeat 0 "
                                 f"({', '.join(first.names)})")
            for name in _SHAPE:
                if not np.array_equal(getattr(other.batch, name), getattr(first.batch, name)):
                    raise ValueError(f"{where} labels other claims or passages than repeat 0 ({name} differs): "
                                     "repeats label the same claims")

    @property
    def n_repeats(self) -> int:
        return len(self.runs)

    @cached_property
    def metrics(self) -> list[str]:
        """The metrics computable on some sample in some repeat, in the engine's order."""
        codes = [_columns(s) for s in (*self.runs, self.policy)]
        return [m for m in codes[0] if any((c[m][1] != NOT_COMPUTABLE_CODE).any() for c in codes)]

    def stacked(self, metric: str) -> tuple[np.ndarray, np.ndarray]:
        """(values, defined) of ``metric``: arrays of repeats x samples."""
        columns = [_columns(s)[metric] for s in self.runs]
        return (np.stack([v for v, _ in columns]), np.stack([c == DEFINED_CODE for _, c in columns]))


def _columns(scores: Scores) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Reported metric name -> (per-sample values, status codes)."""
    return {shown: (value, part.code[name]) for part in scores.parts for shown, value, _, name in part.columns()}


def repeat_scores(records: Sequence[Mapping[str, Any]], scores=None, *, mode: str = "all_claims",
                  undefined: str = "null", policy: Policy = "majority") -> Repeats:
    """The Scores of each repeat of filled ``records`` and of ``policy``'s labels
    (``evaluate``'s ``scores``, ``mode`` and ``undefined``)."""
    records = list(records)
    if not any(record.get(REPEATS_FIELD) for record in records):
        raise ValueError(f"no record holds {REPEATS_FIELD}: fill the labels with repeats "
                         "(RagChecker.score(..., repeats=k) or ragwidgets.judges.repeats.fill_repeats)")
    k = repeats_of(records)

    def scored(chosen: Policy) -> Scores:
        return evaluate(pick(records, chosen), scores, mode=mode, undefined=undefined)

    return Repeats(tuple(scored(r) for r in range(k)), scored(policy), policy)


def _flipped(labels: np.ndarray, judged: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Of labels given as repeats x items (``judged``: which answers count): the items judged at
    least twice, and of those the ones whose judged answers disagree."""
    twice = judged.sum(axis=0) >= 2
    low = np.where(judged, labels, np.int8(127)).min(axis=0)
    high = np.where(judged, labels, np.int8(-128)).max(axis=0)
    return twice, twice & (low != high)


def _pair_counts(labels: np.ndarray, judged: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Of labels given as repeats x items: per item, the pairs of repeats that both judged it and
    of those the pairs whose answers differ (all pairs less those giving the same answer)."""
    counts = judged.sum(axis=0)
    same = sum(c * (c - 1) // 2 for c in ((judged & (labels == v)).sum(axis=0) for v in np.unique(labels[judged])))
    pairs = counts * (counts - 1) // 2
    return pairs, pairs - same


def label_flips(batches: Sequence[Batch]) -> pd.DataFrame:
    """Per label kind (rows): ``flipped`` (labels whose judged repeats disagree), ``labels`` (labels
    with at least two judged repeats) and ``share`` = flipped / labels, which grows with the number
    of repeats k; ``pair_share``: of the (label, pair of repeats) both judged, the share whose
    answers differ: the expected disagreement of two judge runs, the same for any k. The batches
    are the repeats' (the same claims and passages); a kind with no label judged twice is left out."""
    rows = {}
    for kind, arrays in _LABEL_ARRAYS.items() if batches else ():
        got = [arrays(b) for b in batches]
        if len({len(labels) for labels, _ in got}) > 1:
            raise ValueError(f"the repeats hold different numbers of {kind} labels: repeats label the same claims")
        labels = np.stack([np.asarray(v, dtype=np.int8) for v, _ in got])
        judged = labels != UNJUDGED
        present = got[0][1]
        if present is not None:
            judged &= np.stack([p for _, p in got])
        twice, flips = _flipped(labels, judged)
        n = int(np.count_nonzero(twice))
        if n:
            flipped = int(np.count_nonzero(flips))
            pairs, differ = _pair_counts(labels, judged)
            rows[kind] = (flipped, n, flipped / n, differ.sum() / pairs.sum())
    return pd.DataFrame(list(rows.values()), index=pd.Index(list(rows), name="label"),
                        columns=["flipped", "labels", "share", "pair_share"]).astype({"flipped": int, "labels": int})


@dataclass(frozen=True, eq=False)
class Flakiness:
    """``labels``: :func:`label_flips` of the repeats. ``by_metric``: samples (query_id) x metrics,
    True where the metric's value differs across repeats. ``flaky``: per sample, True where some
    metric's does. ``pair_share``: per metric, of the (sample, pair of repeats), the share where
    the metric differs (NaN with one repeat). ``summary``: per metric, how many samples are flaky,
    of how many, their share (grows with k) and the ``pair_share`` (comparable across k)."""

    labels: pd.DataFrame
    by_metric: pd.DataFrame
    flaky: pd.Series
    pair_share: pd.Series

    @property
    def summary(self) -> pd.DataFrame:
        n = len(self.by_metric)
        flaky = self.by_metric.sum().astype(int)
        return pd.DataFrame({"flaky_samples": flaky, "samples": n, "share": flaky / n if n else np.nan,
                             "pair_share": self.pair_share})


def flakiness(repeats: Repeats) -> Flakiness:
    """The label flips and the flaky samples of ``repeats`` (see :class:`Flakiness`); a sample's
    metric differs across repeats when its status (defined, Undefined, not computable) or, defined
    in every repeat, its value does."""
    index = pd.Index(list(repeats.runs[0].batch.query_ids), name="query_id")
    by_metric, pair_share = {}, {}
    for metric in repeats.metrics:
        columns = [_columns(s)[metric] for s in repeats.runs]
        values, codes = np.stack([v for v, _ in columns]), np.stack([c for _, c in columns])
        all_defined = (codes == DEFINED_CODE).all(axis=0)
        by_metric[metric] = (codes != codes[0]).any(axis=0) | (all_defined & (values != values[0]).any(axis=0))
        differ = [(codes[r] != codes[s]) | ((codes[r] == DEFINED_CODE) & (values[r] != values[s]))
                  for r, s in combinations(range(len(codes)), 2)]
        pair_share[metric] = float(np.mean(differ)) if differ and values.shape[1] else np.nan
    frame = pd.DataFrame(by_metric, index=index, columns=repeats.metrics, dtype=bool)
    return Flakiness(label_flips([s.batch for s in repeats.runs]), frame, frame.any(axis=1).rename("flaky"),
                     pd.Series(pair_share, index=repeats.metrics, dtype=float, name="pair_share"))


@dataclass(frozen=True)
class MetricVariance:
    """One metric over the judge's repeats (None: Undefined; ``reason`` says why).

    ``mean``, ``ci_low`` / ``ci_high``: the policy's mean over defined samples and today's
    bootstrap interval over questions (both about the policy's labels). ``repeat_means``: each
    repeat's mean over defined samples; ``repeat_min`` / ``repeat_max`` / ``repeat_sd`` (sample
    sd, ddof=1) over the defined ones (sd: at least two). ``judge_mean``: the mean of the defined
    repeat means, the estimate of one judge run's expected metric, and ``judge_ci_low`` /
    ``judge_ci_high`` its interval over questions and the judge's randomness
    (:func:`combined_interval`): the policy's ``mean`` (a majority errs less often than one run)
    may fall outside it.
    """

    metric: str
    mean: Optional[float]
    ci_low: Optional[float]
    ci_high: Optional[float]
    repeat_means: tuple[Optional[float], ...]
    repeat_min: Optional[float]
    repeat_max: Optional[float]
    repeat_sd: Optional[float]
    judge_mean: Optional[float]
    judge_ci_low: Optional[float]
    judge_ci_high: Optional[float]
    reason: Optional[str] = None

    @property
    def widening(self) -> Optional[float]:
        """Judge-inclusive interval width / today's width (None when either is Undefined or today's is 0)."""
        if None in (self.ci_low, self.ci_high, self.judge_ci_low, self.judge_ci_high) or self.ci_high == self.ci_low:
            return None
        return (self.judge_ci_high - self.judge_ci_low) / (self.ci_high - self.ci_low)


@dataclass(frozen=True)
class JudgeVariance:
    """Per metric a :class:`MetricVariance`; ``frame``: one row per metric, NaN for Undefined."""

    metrics: dict[str, MetricVariance]
    n_repeats: int
    policy: Policy
    confidence: float

    @property
    def frame(self) -> pd.DataFrame:
        rows = []
        for m in self.metrics.values():
            row = {"mean": m.mean, "ci_low": m.ci_low, "ci_high": m.ci_high, "judge_mean": m.judge_mean,
                   "judge_ci_low": m.judge_ci_low, "judge_ci_high": m.judge_ci_high, "widening": m.widening,
                   "repeat_min": m.repeat_min, "repeat_max": m.repeat_max, "repeat_sd": m.repeat_sd}
            row.update({f"repeat_{r}": v for r, v in enumerate(m.repeat_means)})
            rows.append({k: np.nan if v is None else v for k, v in row.items()} | {"reason": m.reason})
        return pd.DataFrame(rows, index=pd.Index(list(self.metrics), name="metric"))


def _repeat_means(values: np.ndarray, defined: np.ndarray) -> np.ndarray:
    """Each repeat's mean over its defined samples (NaN where it has none); repeats x samples in."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(defined, values, 0.0).sum(axis=1) / defined.sum(axis=1)


def judge_spread(values: np.ndarray, defined: np.ndarray, confidence: float = CONFIDENCE) -> Optional[float]:
    """The judge's part of :func:`combined_interval`, in the values' units: t²_{k−1} s_b² / k, s_b²
    the variance of the k defined repeat means (``values`` / ``defined``: repeats x samples), so
    that z² times the variance it adds to the mean of the repeat means is this; None with fewer
    than two repeat means."""
    means = _repeat_means(np.asarray(values, dtype=float), np.asarray(defined, dtype=bool))
    means = means[~np.isnan(means)]
    k = len(means)
    return None if k < 2 else float(np.var(means, ddof=1) / k * student_t.ppf((1 + confidence) / 2, k - 1) ** 2)


def combined_interval(values: np.ndarray, defined: np.ndarray,
                      confidence: float = CONFIDENCE) -> tuple[Optional[float], Optional[float], Optional[str]]:
    """The interval of one judge run's expected mean over defined samples, about the mean of the
    repeat means: (low, high, None), or (None, None, why) when Undefined (fewer than two repeats
    or two samples defined). ``values`` / ``defined``: repeats x samples.

    Two-stage variance: s_b² / k, s_b² the variance of the k defined repeat means (k − 1 df; it
    holds a shift shared by a whole repeat and the labels' independent noise as it averages over
    these questions), plus s_q² / n, s_q² the variance over the n samples of each sample's mean
    over its defined repeats (n − 1 df; the questions' sampling). The first alone is the judge's
    part for these N questions; with the second the interval is also about the question
    distribution, so for the N questions' mean it is conservative. Each part is scaled by its own
    Student t quantile before they are added, V = (t²_{k−1} s_b² / k + t²_{n−1} s_q² / n) / z²: with
    k = 2 or 3 repeats the shared shift is poorly known and its part is wide (t at 1 or 2 df: 12.7,
    4.3) — a Welch–Satterthwaite df covered 0.92 with k = 3 and a shift (docs/intervals.md). The
    interval is Clopper–Pearson on n* = m(1 − m) / V trials (:func:`.intervals.bounded_interval`)
    in the values' range: it stays inside the range and keeps a width when nothing varies (n* = n).
    """
    values, defined = np.asarray(values, dtype=float), np.asarray(defined, dtype=bool)
    if not defined.any():
        return None, None, "no sample is defined in any repeat"
    means = _repeat_means(values, defined)
    means = means[~np.isnan(means)]
    per_sample = _repeat_means(values.T, defined.T)
    per_sample = per_sample[~np.isnan(per_sample)]
    k, n = len(means), len(per_sample)
    if k < 2:
        return None, None, "fewer than two repeats define it: the judge's variance is unknown"
    if n < 2:
        return None, None, "fewer than two samples define it: the questions' variance is unknown"
    a, b = range_of(values[defined])
    questions = np.var(per_sample, ddof=1) / n * student_t.ppf((1 + confidence) / 2, n - 1) ** 2
    var = (judge_spread(values, defined, confidence) + questions) / (b - a) ** 2 / norm.ppf((1 + confidence) / 2) ** 2
    lo, hi = bounded_interval((means.mean() - a) / (b - a), var, n if var <= 1e-20 else 1.0, level=confidence)
    return float(a + (b - a) * lo), float(a + (b - a) * hi), None


def judge_variance(repeats: Repeats, *, n_boot: int = N_BOOT, seed: int = 0,
                   confidence: float = CONFIDENCE) -> JudgeVariance:
    """Per metric: the mean per repeat and their spread, today's interval over questions (of the
    policy's labels, ``n_boot`` draws from ``seed``), and the mean of the repeat means with its
    interval over questions and the judge's randomness (:func:`combined_interval`: a shift shared
    by a whole repeat is in it).
    """
    policy = _columns(repeats.policy)
    out = {}
    for metric in repeats.metrics:
        values, defined = repeats.stacked(metric)
        p_value, p_code = policy[metric]
        p_defined = p_code == DEFINED_CODE
        mean = mean_over_defined(p_value, p_defined)[0]
        lo, hi = interval(p_value[p_defined], n_boot, seed, confidence)
        means = tuple(mean_over_defined(v, d)[0] for v, d in zip(values, defined))
        known = [m for m in means if m is not None]
        judge_lo, judge_hi, reason = combined_interval(values, defined, confidence)
        if mean is None:
            reason = "no sample is defined under the policy's labels" + (f"; {reason}" if reason else "")
        out[metric] = MetricVariance(
            metric, mean, lo, hi, means, min(known) if known else None, max(known) if known else None,
            float(np.std(known, ddof=1)) if len(known) >= 2 else None, float(np.mean(known)) if known else None,
            judge_lo, judge_hi, reason)
    return JudgeVariance(out, repeats.n_repeats, repeats.policy_name, confidence)


_SAMPLE_LABELS = {  # label kind -> (the Sample's array, over response or gt claims, by passage too)
    "answer2response": ("answer2response", "response", False),
    "response2answer": ("response2answer", "ground_truth", False),
    "retrieved2response": ("retrieved2response", "response", True),
    "retrieved2answer": ("retrieved2answer", "ground_truth", True),
}


def label_distributions(repeats: Repeats, query_id) -> list[dict]:
    """The labels of one sample whose judged repeats disagree, each with its distribution: ``kind``,
    ``side`` ("response" / "ground_truth"), ``claim`` (index), ``doc_id`` (None for a label
    against the other answer), ``counts`` (label word -> repeats, most first; unjudged answers
    as "unjudged") and ``said``: "2 of 3 Entailment, 1 Neutral"."""
    i = repeats.runs[0].sample_index(query_id)
    samples = [s.samples[i] for s in repeats.runs]
    out = []
    for kind, (field, side, by_passage) in _SAMPLE_LABELS.items():
        arrays = [getattr(s, field) for s in samples]
        if any(a is None for a in arrays) or not arrays[0].size:
            continue
        stacked = np.stack([np.asarray(a, dtype=np.int8) for a in arrays])  # repeats x claims (x passages)
        for at in zip(*np.nonzero(_flipped(stacked, stacked != UNJUDGED)[1])):
            words = [SPELLING[int(c)] if c != UNJUDGED else "unjudged" for c in stacked[(slice(None), *at)]]
            counts = dict(sorted(Counter(words).items(), key=lambda kv: -kv[1]))
            first, *rest = counts.items()
            said = ", ".join([f"{first[1]} of {len(words)} {first[0]}"] + [f"{n} {w}" for w, n in rest])
            out.append({"kind": kind, "side": side, "claim": int(at[0]),
                        "doc_id": samples[0].passages[int(at[1])].doc_id if by_passage else None,
                        "counts": counts, "said": said})
    return out
