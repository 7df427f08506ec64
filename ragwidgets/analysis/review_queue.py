"""Which samples to review next, as a pure function of a run, the reviews so far and a seed.

Three strategies: ``random`` (a simple random sample of samples, what a valid correction of
the scores needs: :func:`ragwidgets.analysis.corrected`), ``stratified`` (a simple random sample
within each group of ``by``, allocated in proportion to the groups' sizes or by Neyman
allocation, each quota rounded at random; the queue records each sample's stratum, so
``corrected(..., design=queue)`` weights every stratum by its size) and ``consequential`` (the
samples where one label's flip moves the run's metric most: not a random sample, so
``corrected(..., design=queue)`` refuses it). Any queue can mark a share of its samples for a
second review by another reviewer (``double``): a random subset of the queue, so the queue stays
the same design; a second reviewer's queue (``reviewer=``) draws those second reviews back (see
:func:`review_queue`). One rule says when a queued sample is done: :func:`sample_done`.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..engine.evaluate import Scores
from ..engine.metrics import REQUIRED_PREFIX
from ..errors import InputError
from ..model import LABEL_MATRICES, Sample
from ..reviews import Review, Reviews, as_reviews, reviewed_cells
from .reviewed_labels import ReviewedRun, groups_of, label_kinds, reviewed_run
from .table import DEFINED_CODE, defined_metrics, run_table

STRATEGIES = ("random", "stratified", "consequential")
ALLOCATIONS = ("proportional", "neyman")
# What the widgets' queues say: none started, none left, a step along an empty one.
NO_QUEUE = "no review queue: start one with start_review(n, strategy=...)"
EMPTY = "nothing left to review"
EMPTY_STEP = f"the review queue is empty: {EMPTY}"


@dataclass(eq=False)
class ReviewQueue:
    """The samples to review, in order (``query_ids``), with why (``frame``: query_id, position,
    and per strategy stratum or score, and ``why``); ``kinds``: the label matrices a sample must
    have reviewed to count as done; ``eligible``: the samples it was drawn from. The design, for
    :func:`ragwidgets.analysis.corrected` (``design=queue``): ``strata`` (stratified only) each
    sample's stratum over the whole run, and ``quotas`` each stratum's expected number of
    reviews before its random rounding. ``double``: the query_ids to be reviewed by two reviewers
    (``frame["double"]`` True)."""

    query_ids: list[str]
    frame: pd.DataFrame
    strategy: str
    kinds: tuple[str, ...]
    eligible: int
    note: str = ""
    scores: Scores | None = field(default=None, repr=False)
    strata: np.ndarray | None = field(default=None, repr=False)
    quotas: dict[str, float] | None = None
    double: list[str] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.query_ids)

    def __iter__(self):
        return iter(self.query_ids)

    def to_frame(self) -> pd.DataFrame:
        return self.frame

    def __repr__(self) -> str:
        first = ", ".join(self.query_ids[:5]) + (", …" if len(self) > 5 else "")
        return (f"ReviewQueue({self.strategy}: {len(self)} of {self.eligible} samples left to review"
                f"{f', {len(self.double)} to review twice' if len(self.double) else ''}; [{first}])")

    def to_view(self) -> dict:
        """JSON-able: the strategy, the query_ids in order, how many were eligible, the note, the
        quotas, the query_ids marked for a second review."""
        quotas = None if self.quotas is None else {k: float(v) for k, v in self.quotas.items()}
        return {"strategy": self.strategy, "query_ids": list(self.query_ids), "kinds": list(self.kinds),
                "eligible": self.eligible, "note": self.note, "quotas": quotas, "double": list(self.double)}


def _run(scores: Scores, reviews) -> ReviewedRun:
    if reviews is None and scores.judge_scores is None:
        reviews = Reviews()
    return reviewed_run(scores, reviews)


def check_draw(n, strategy: str, strategies: tuple[str, ...], by) -> None:
    """A ValueError naming the argument unless ``strategy`` is one of ``strategies``, ``n`` a whole
    number ≥ 0 and ``by`` given exactly when the strategy is "stratified" (a queue's draw)."""
    if strategy not in strategies:
        raise ValueError(f"strategy must be one of {', '.join(strategies)}, not {strategy!r}")
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
        raise ValueError(f"n must be a whole number ≥ 0, not {n!r}")
    if (strategy == "stratified") != (by is not None):
        raise ValueError("by= goes with strategy='stratified' (and it needs one)")


def _strata(scores: Scores, by) -> np.ndarray:
    if isinstance(by, str):
        frame = run_table(scores).frame
        if by not in frame:
            raise ValueError(f"by={by!r} is not a column of the run's table; columns: {', '.join(frame.columns)}")
        return frame[by].to_numpy(dtype=object)
    return groups_of(by, scores, "")


def _quotas(sizes: np.ndarray, n: int, weights: np.ndarray) -> np.ndarray:
    """n split over strata of ``sizes`` in proportion to ``weights`` (fractional quotas), none
    above its size and, when n allows it, none below min(2, size) (a stratum's variance needs two
    reviews): strata held at a bound, the rest is shared again among the others."""
    sizes = sizes.astype(float)
    n = min(float(n), sizes.sum())
    floor = np.minimum(sizes, 2.0)
    floor = floor if floor.sum() <= n else np.zeros_like(sizes)
    out, held = np.zeros_like(sizes), np.zeros(len(sizes), dtype=bool)
    while not held.all():
        w = np.where(held, 0.0, weights)
        w = w if w.sum() > 0 else np.where(held, 0.0, sizes)
        out = np.where(held, out, (n - out[held].sum()) * w / w.sum())
        low, high = ~held & (out < floor), ~held & (out > sizes)
        if not (low | high).any():
            break
        out = np.where(low, floor, np.where(high, sizes, out))
        held |= low | high
    return out


def _round(quotas: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Whole numbers summing to ``quotas``' (whole) total, each ⌊q⌋ or ⌈q⌉ and ⌈q⌉ with probability
    q − ⌊q⌋ (systematic rounding over the strata in random order): no stratum is favoured."""
    low = np.floor(quotas + 1e-9)
    frac = np.clip(quotas - low, 0.0, 1.0)
    extra = int(round(frac.sum()))
    out = low.astype(int)
    if extra:
        order = rng.permutation(len(quotas))
        cum = np.concatenate([[0.0], np.cumsum(frac[order])])
        cum *= extra / cum[-1]
        u = rng.random()
        out[order] += (np.floor(cum[1:] + u) - np.floor(cum[:-1] + u)).astype(int)
    return out


def _rates(run: ReviewedRun, strata: np.ndarray, names: np.ndarray, disagreement) -> np.ndarray:
    """p(1 − p) per stratum of ``names``, p from ``disagreement`` (group → rate) or the reviews."""
    if disagreement is None:
        p = _disagreement(run, strata, names)
    else:
        given = {str(k): v for k, v in dict(disagreement).items()}
        missing = [str(s) for s in names if s not in given]
        if missing:
            raise InputError(f"disagreement gives no rate for stratum {missing[0]!r}", field="disagreement")
        p = np.array([given[s] for s in names], dtype=float)
        if not ((p >= 0) & (p <= 1)).all():
            raise InputError("disagreement rates must be between 0 and 1", field="disagreement")
    return p * (1 - p)


def _disagreement(run: ReviewedRun, strata: np.ndarray, names: np.ndarray) -> np.ndarray:
    """Per stratum of ``names``: the share of its fully reviewed samples where a review changed a
    judge's label, smoothed as (changed + 1) / (reviewed + 2) (no review yet: ½)."""
    changed = np.zeros(run.n_samples, dtype=bool)
    for kind in LABEL_MATRICES:
        cells = run.cells[kind] & run.in_play[kind] & (run.reviewed_labels[kind] != run.judge_labels(kind))
        changed[run.owner[kind][cells]] = True
    done = run.fully_reviewed()
    key = strata.astype(str)
    return np.array([((changed & done & (key == s)).sum() + 1) / ((done & (key == s)).sum() + 2) for s in names])


def _moves(scores: Scores, metric: str) -> np.ndarray:
    """Per sample: how far one item changing side moves the run's mean of ``metric``:
    1 / (items in the sample's denominator × defined samples); 0 where Undefined."""
    name = metric.removeprefix(REQUIRED_PREFIX)
    part = next(p for p in scores.parts if p.prefix == metric[:len(metric) - len(name)])
    defined = part.code[name] == DEFINED_CODE
    if name == "f1":  # one label moves precision's or recall's count: the smaller denominator
        den = np.minimum(part.denominator["precision"], part.denominator["recall"])
    else:
        den = part.denominator[name]
    out = np.zeros(len(den))
    ok = defined & (den > 0)
    out[ok] = 1 / (den[ok].astype(float) * max(int(defined.sum()), 1))  # the counts are int32: no product in them
    return out


def _doubles(count: int, share: float, rng: np.random.Generator) -> np.ndarray:
    """Which of ``count`` queued samples get a second review: ``share`` · count of them rounded at
    random (⌈x⌉ with probability x − ⌊x⌋, so the expected share is exact), a simple random subset."""
    x = share * count
    k = int(np.floor(x)) + int(rng.random() < x - np.floor(x))
    mask = np.zeros(count, dtype=bool)
    mask[rng.permutation(count)[:k]] = True
    return mask


def review_queue(scores: Scores, n: int, *, strategy: str = "random", by=None, seed: int = 0, reviews=None,
                 metric: str | None = None, allocation: str = "proportional", disagreement=None,
                 double: float = 0.0, reviewer: str | None = None) -> ReviewQueue:
    """The next ``n`` samples to review (fewer when fewer are left), skipping samples with no
    label to review and those already fully reviewed (every label cell of the matrices in
    ``kinds``; ``reviews``: a reviews file, Reviews, records; None: those ``scores`` carry).

    ``random``: a simple random sample (seeded) in random order — what valid correction needs.
    ``stratified``: over the groups of ``by`` (a column of the run's table, a group per sample, or
    a mapping from query_id), each group's quota by ``allocation`` — "proportional" (to its
    samples left) or "neyman" (to samples left × √(p(1 − p)), p the judge's disagreement there:
    ``disagreement`` a mapping group → rate, or None: from the reviews so far, the share of
    fully reviewed samples where a review changed a label, (changed + 1) / (reviewed + 2)) —
    at least 2 per group when n allows, none above its size, rounded at random (⌈q⌉ with
    probability q − ⌊q⌋, the total kept: no group is always favoured by rounding); a simple
    random sample in each, in random order. The queue records each sample's group (``strata``)
    and the quotas: pass it to ``corrected(..., design=queue)`` to weight each group by its
    size (without it the reviews are taken for a simple random sample).
    ``consequential``: the samples whose single label flip moves the run's mean of ``metric``
    (default: the first defined metric that reads labels) most, largest first; score = 1 /
    (items in the sample's denominator × defined samples), the change in the mean when one of
    its items changes side (0 where the metric is Undefined); ties in random order.
    Not a random sample: reviewing it finds errors fast, but it cannot feed ``corrected`` (a
    UserWarning says so; ``corrected(..., design=queue)`` refuses it). Random and stratified
    queues count a sample done when all its labels are reviewed, consequential when those
    ``metric`` reads are.

    ``double``: the share of the queue's samples (0 to 1) to be reviewed twice, by two different
    reviewers, for inter-reviewer agreement (:func:`~ragwidgets.analysis.team.reviewer_agreement`):
    share × len(queue) rounded at random, a simple random subset of the queue drawn after it
    (the queue itself is the same for any ``double``); ``frame["double"]`` and ``queue.double``
    mark them, and :func:`progress` counts one done when two reviewers have reviewed it all.

    ``reviewer``: who reviews this queue (None: anyone; then ``double`` only marks samples). A
    sample fully reviewed by exactly one other reviewer (and not by ``reviewer``) stays eligible
    with probability ``double``, a seeded coin per sample on its own stream: drawn, it is a
    second review (marked in ``double``; ``why`` says so). The design stays a simple random one:
    the first reviews were a simple random sample of the run, and this queue draws at random from
    the samples not reviewed and a random subset of the reviewed ones, independently of their
    labels, so the samples reviewed in all are a simple random sample of the run (of a random
    size), and the second reviews a simple random subset of them.
    """
    check_draw(n, strategy, STRATEGIES, by)
    if allocation not in ALLOCATIONS:
        raise ValueError(f"allocation must be one of {', '.join(ALLOCATIONS)}, not {allocation!r}")
    if strategy != "stratified" and (allocation != "proportional" or disagreement is not None):
        raise ValueError("allocation= and disagreement= go with strategy='stratified'")
    if isinstance(double, bool) or not isinstance(double, (int, float, np.integer, np.floating)) \
            or not 0 <= double <= 1:
        raise ValueError(f"double must be a share between 0 and 1 (0.1: a tenth reviewed twice), not {double!r}")
    run = _run(scores, reviews)
    base = run.reviewed_scores or run.judge
    kinds = LABEL_MATRICES
    if strategy == "consequential":
        if metric is None:
            metric = next((m for m in defined_metrics(base) if label_kinds(m)), None)
            if metric is None:
                raise ValueError("no defined metric reads a judge label: nothing is consequential")
        elif metric not in base.names:
            raise ValueError(f"unknown metric {metric!r}; these scores have {', '.join(base.names)}")
        kinds = label_kinds(metric)
    full = run.fully_reviewed(kinds)
    second = np.zeros(len(full), dtype=bool)
    if reviewer is not None and float(double) > 0:
        done_by = _reviewers_done(run, _given(scores, reviews), kinds)
        mine = done_by.pop(str(reviewer), np.zeros(len(full), dtype=bool))
        once = full & ~mine & (sum(done_by.values(), np.zeros(len(full), dtype=int)) == 1)
        second = once & (np.random.default_rng([seed, 1]).random(len(full)) < float(double))
    eligible = np.flatnonzero(run.reviewable(kinds) & (~full | second))
    rng = np.random.default_rng(seed)
    ids = base.batch.query_ids
    columns: dict[str, object] = {}
    note, strata, quotas = "", None, None
    if strategy == "random":
        chosen = rng.permutation(eligible)[:n]
        why = [f"simple random sample of the {len(eligible)} samples left to review"] * len(chosen)
    elif strategy == "stratified":
        strata = _strata(base, by)
        names, inverse = np.unique(strata[eligible].astype(str), return_inverse=True)
        sizes = np.bincount(inverse, minlength=len(names))
        weights = sizes * np.sqrt(_rates(run, strata, names, disagreement) if allocation == "neyman" else 1.0)
        quota = _quotas(sizes, min(n, len(eligible)), weights)
        take = _round(quota, rng)
        picked = [rng.permutation(eligible[inverse == k])[:take[k]] for k in range(len(names))]
        chosen = rng.permutation(np.concatenate(picked) if picked else eligible[:0])
        size, count = dict(zip(names, sizes)), dict(zip(names, take))
        quotas = {str(k): float(q) for k, q in zip(names, quota)}
        label = strata[chosen]
        columns["stratum"] = label
        why = [f"stratum {s!s}: {count[str(s)]} of its {size[str(s)]} samples ({allocation} allocation, "
               f"quota {quotas[str(s)]:.3g} rounded at random)" for s in label]
        strata = strata.astype(str)
    else:
        moves = _moves(base, metric)[eligible]
        order = rng.permutation(len(eligible))
        ranked = order[np.argsort(-moves[order], kind="stable")]
        chosen = eligible[ranked][:n]
        columns["score"] = moves[ranked][:n]
        why = [f"one label moves the mean {metric} by up to {s:.2g}" if s > 0 else
               f"{metric} is Undefined here" for s in columns["score"]]
        note = ("most consequential first: not a random sample, so these reviews cannot feed corrected(); "
                "review a random queue for corrected scores")
        warnings.warn(note, UserWarning, stacklevel=2)
    chosen = np.asarray(chosen, dtype=np.int64)
    qids = [ids[i] for i in chosen]
    twice = _doubles(len(qids), float(double), rng) | second[chosen]
    why = [f"second review: {w}" if s else w for w, s in zip(why, second[chosen])]
    frame = pd.DataFrame({"query_id": qids, "position": chosen, **columns, "why": why, "double": twice})
    return ReviewQueue(qids, frame, strategy, tuple(kinds), len(eligible), note, run.judge, strata, quotas,
                       [q for q, d in zip(qids, twice) if d])


def _given(scores: Scores, reviews) -> Reviews:
    """The reviews ``review_queue`` reads: ``reviews`` given, else those ``scores`` carry."""
    if reviews is not None:
        return as_reviews(reviews)
    return scores.reviews if scores.judge_scores is not None else Reviews()


def _reviewers_done(run: ReviewedRun, given: Reviews, kinds) -> dict[str, np.ndarray]:
    """Per reviewer of ``given`` (plain reviews only): per sample of ``run``, every label of
    ``kinds`` reviewed by them."""
    return {name: reviewed_run(run.judge, given.of_reviewer(name)).fully_reviewed(kinds) for name in given.reviewers}


def _all_reviewed(sample: Sample, in_force, kinds) -> bool:
    masks = reviewed_cells(sample, in_force)
    cells = [masks[k] for k in kinds if k in masks]
    return any(m.size for m in cells) and all(m.all() for m in cells)


def _done(queue: ReviewQueue, sample: Sample, in_force, history: list[Review]) -> bool:
    """:func:`sample_done` given the sample's reviews in force and its whole history."""
    if not _all_reviewed(sample, in_force, queue.kinds):
        return False
    if sample.query_id not in queue.double:
        return True
    own: dict[str, dict[tuple, Review]] = {}
    for r in history:
        if not r.adjudicated:
            own.setdefault(r.reviewer, {})[r.key[1:]] = r
    return sum(_all_reviewed(sample, mine, queue.kinds) for mine in own.values()) >= 2


def sample_done(queue: ReviewQueue, sample: Sample, reviews: Reviews) -> bool:
    """Whether queued ``sample`` (the judge's) counts as reviewed in ``reviews``: every label of
    ``queue.kinds`` it carries reviewed; for one marked for a second review (``queue.double``),
    by two different reviewers each (adjudications are no reviewer's). The rule of
    :func:`progress` and of the widgets' queues."""
    qid = sample.query_id
    history = [r for r in reviews.history if r.query_id == qid] if qid in queue.double else []
    return _done(queue, sample, reviews.for_sample(qid), history)


def progress(queue: ReviewQueue, reviews) -> tuple[int, int]:
    """(reviewed, total): how many of the queue's samples are done by :func:`sample_done` in
    ``reviews`` (a reviews file, Reviews, records, or scores evaluated with reviews)."""
    given = reviews.reviews if isinstance(reviews, Scores) else as_reviews(reviews)
    samples = queue.scores.samples
    history: dict[str, list[Review]] = {q: [] for q in queue.double}
    for r in given.history:
        if r.query_id in history:
            history[r.query_id].append(r)
    done = sum(_done(queue, samples[int(p)], given.for_sample(q), history.get(q, []))
               for q, p in zip(queue.query_ids, queue.frame["position"]))
    return int(done), len(queue)
