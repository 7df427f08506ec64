"""Which samples to review next, as a pure function of a run, the reviews so far and a seed.

Three strategies: ``random`` (a simple random sample of samples, what a valid correction of
the scores needs: :func:`ragwidgets.analysis.corrected`), ``stratified`` (a simple random sample
within each group of ``by``, allocated in proportion to the groups' sizes: every sample keeps
the same chance, so the corrected estimates stay valid) and ``consequential`` (the samples where
one label's flip moves the run's metric most: not a random sample, so it cannot feed
``corrected``).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..engine.evaluate import Scores
from ..engine.metrics import REQUIRED_PREFIX
from ..model import LABEL_MATRICES
from ..reviews import Reviews
from .reviewed_labels import ReviewedRun, groups_of, label_kinds, reviewed_run
from .table import DEFINED_CODE, defined_metrics, run_table

STRATEGIES = ("random", "stratified", "consequential")


@dataclass(eq=False)
class ReviewQueue:
    """The samples to review, in order (``query_ids``), with why (``frame``: query_id, position,
    and per strategy stratum or score, and ``why``); ``kinds``: the label matrices a sample must
    have reviewed to count as done; ``eligible``: the samples it was drawn from."""

    query_ids: list[str]
    frame: pd.DataFrame
    strategy: str
    kinds: tuple[str, ...]
    eligible: int
    note: str = ""
    scores: Scores | None = field(default=None, repr=False)

    def __len__(self) -> int:
        return len(self.query_ids)

    def __iter__(self):
        return iter(self.query_ids)

    def to_frame(self) -> pd.DataFrame:
        return self.frame

    def to_view(self) -> dict:
        """JSON-able: the strategy, the query_ids in order, how many were eligible, the note."""
        return {"strategy": self.strategy, "query_ids": list(self.query_ids), "kinds": list(self.kinds),
                "eligible": self.eligible, "note": self.note}


def _run(scores: Scores, reviews) -> ReviewedRun:
    if reviews is None and scores.judge_scores is None:
        reviews = Reviews()
    return reviewed_run(scores, reviews)


def _strata(scores: Scores, by) -> np.ndarray:
    if isinstance(by, str):
        frame = run_table(scores).frame
        if by not in frame:
            raise ValueError(f"by={by!r} is not a column of the run's table; columns: {', '.join(frame.columns)}")
        return frame[by].to_numpy(dtype=object)
    return groups_of(by, scores, "")


def _proportional(sizes: np.ndarray, n: int) -> np.ndarray:
    """n split over groups of ``sizes`` in proportion (largest remainders), none above its size."""
    exact = sizes * n / sizes.sum()
    out = np.floor(exact).astype(int)
    for k in np.argsort(-(exact - out), kind="stable")[:n - out.sum()]:
        out[k] += 1
    return np.minimum(out, sizes)


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


def review_queue(scores: Scores, n: int, *, strategy: str = "random", by=None, seed: int = 0, reviews=None,
                 metric: str | None = None) -> ReviewQueue:
    """The next ``n`` samples to review (fewer when fewer are left), skipping samples with no
    label to review and those already fully reviewed (every label cell of the matrices in
    ``kinds``; ``reviews``: a reviews file, Reviews, records; None: those ``scores`` carry).

    ``random``: a simple random sample (seeded) in random order — what valid correction needs.
    ``stratified``: proportional allocation over the groups of ``by`` (a column of the run's
    table, a group per sample, or a mapping from query_id), a simple random sample in each, in
    random order. ``consequential``: the samples whose single label flip moves the run's mean
    of ``metric`` (default: the first defined metric that reads labels) most, largest first;
    score = 1 / (items in the sample's denominator × defined samples), the change in the mean
    when one of its items changes side (0 where the metric is Undefined); ties in random order.
    Not a random sample: reviewing it finds errors fast, but it cannot feed ``corrected`` (a
    UserWarning says so). Random and stratified queues count a sample done when all its labels
    are reviewed, consequential when those ``metric`` reads are.
    """
    if strategy not in STRATEGIES:
        raise ValueError(f"strategy must be one of {', '.join(STRATEGIES)}, not {strategy!r}")
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
        raise ValueError(f"n must be a whole number ≥ 0, not {n!r}")
    if (strategy == "stratified") != (by is not None):
        raise ValueError("by= goes with strategy='stratified' (and it needs one)")
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
    eligible = np.flatnonzero(run.reviewable(kinds) & ~run.fully_reviewed(kinds))
    rng = np.random.default_rng(seed)
    ids = base.batch.query_ids
    columns: dict[str, object] = {}
    note = ""
    if strategy == "random":
        chosen = rng.permutation(eligible)[:n]
        why = [f"simple random sample of the {len(eligible)} samples left to review"] * len(chosen)
    elif strategy == "stratified":
        strata = _strata(base, by)
        names, inverse = np.unique(strata[eligible].astype(str), return_inverse=True)
        take = _proportional(np.bincount(inverse, minlength=len(names)), min(n, len(eligible)))
        picked = [rng.permutation(eligible[inverse == k])[:take[k]] for k in range(len(names))]
        chosen = rng.permutation(np.concatenate(picked) if picked else eligible[:0])
        size = dict(zip(names, np.bincount(inverse, minlength=len(names))))
        count = dict(zip(names, take))
        label = strata[chosen]
        columns["stratum"] = label
        why = [f"stratum {s!s}: {count[str(s)]} of its {size[str(s)]} samples (proportional allocation)"
               for s in label]
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
    frame = pd.DataFrame({"query_id": qids, "position": chosen, **columns, "why": why})
    return ReviewQueue(qids, frame, strategy, tuple(kinds), len(eligible), note, run.judge)


def progress(queue: ReviewQueue, reviews) -> tuple[int, int]:
    """(reviewed, total): how many of the queue's samples have all their ``queue.kinds`` labels
    reviewed in ``reviews`` (a reviews file, Reviews, records, or scores evaluated with reviews)."""
    run = reviewed_run(reviews) if isinstance(reviews, Scores) else reviewed_run(queue.scores, reviews)
    done = run.fully_reviewed(queue.kinds)
    position = {q: i for i, q in enumerate(run.judge.batch.query_ids)}
    return int(sum(bool(done[position[q]]) for q in queue.query_ids)), len(queue)
