"""A run's judge labels beside its reviewed ones, over the engine's flat label arrays: which
cells are reviewed, the judge's and the reviewer's code at each, the sample owning each cell,
and per sample how many of a metric's cells are reviewed (what agreement, corrected scores and
the review queue read).

A metric reads the label matrices ``METRICS[name].needs`` ∩ LABEL_MATRICES (the citation
metrics also read ``retrieved2response``: a citation is valid when its passage entails the
claim). A sample is *reviewed for a metric* when it has at least one such cell and every one is
reviewed (a review confirming the judge's label counts).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import pandas as pd

from ..engine.evaluate import Scores
from ..engine.metrics import metric_of
from ..engine.reviewed import FLAT, review_batch
from ..errors import InputError
from ..model import LABEL_MATRICES
from ..reviews import ReviewProblem, as_reviews

READS_LABELS = {"citations": ("retrieved2response",)}  # needs that read a label matrix besides the matrices


def label_kinds(metric: str) -> tuple[str, ...]:
    """The label matrices a metric (its reported name, ``required_`` prefix allowed) reads."""
    m = metric_of(metric)
    kinds = [need for need in m.needs if need in LABEL_MATRICES]
    kinds += [k for need in m.needs for k in READS_LABELS.get(need, ())]
    return tuple(dict.fromkeys(kinds))


@dataclass(eq=False)
class ReviewedRun:
    """One run: the judge's scores, the reviewed Batch's flat labels, and per label matrix the
    mask of reviewed cells (over the Batch's flat array of that matrix)."""

    judge: Scores
    reviewed_labels: dict[str, np.ndarray]  # label matrix -> the flat labels with the reviews applied
    cells: dict[str, np.ndarray]
    problems: list[ReviewProblem]
    reviewed_scores: Scores | None = None  # the reviewed scoring of all samples, when the scores carry it
    reviewed_samples: object = None  # the Batch's samples with the reviews applied

    @property
    def n_samples(self) -> int:
        return self.judge.batch.n_samples

    def judge_labels(self, kind: str) -> np.ndarray:
        return getattr(self.judge.batch, FLAT[kind])

    @cached_property
    def owner(self) -> dict[str, np.ndarray]:
        """Per label matrix: the sample of each flat cell."""
        b = self.judge.batch
        return {"answer2response": b.resp_sample, "response2answer": b.gt_sample,
                "retrieved2response": b.resp_sample[b.r2r_claim], "retrieved2answer": b.gt_sample[b.r2a_claim]}

    @cached_property
    def in_play(self) -> dict[str, np.ndarray]:
        """Per label matrix: the flat cells of samples that carry the matrix (others hold a 0 placeholder)."""
        return {kind: self.judge.batch.has[kind][self.owner[kind]] for kind in LABEL_MATRICES}

    @cached_property
    def counts(self) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        """Per label matrix: (cells, reviewed cells) per sample."""
        n = self.n_samples
        return {kind: (np.bincount(self.owner[kind][self.in_play[kind]], minlength=n),
                       np.bincount(self.owner[kind][self.in_play[kind] & self.cells[kind]], minlength=n))
                for kind in LABEL_MATRICES}

    def reviewable(self, kinds) -> np.ndarray:
        """Per sample: has at least one cell of these label matrices."""
        out = np.zeros(self.n_samples, dtype=bool)
        for kind in kinds:
            out |= self.counts[kind][0] > 0
        return out

    def fully_reviewed(self, kinds=LABEL_MATRICES) -> np.ndarray:
        """Per sample: at least one cell of these matrices, and every one reviewed."""
        out = self.reviewable(kinds)
        for kind in kinds:
            total, done = self.counts[kind]
            out &= done == total
        return out

    def any_reviewed(self) -> np.ndarray:
        out = np.zeros(self.n_samples, dtype=bool)
        for kind in LABEL_MATRICES:
            out |= self.counts[kind][1] > 0
        return out


def reviewed_run(scores: Scores, reviews=None, use: str = "adjudicated") -> ReviewedRun:
    """The judge's and reviewed labels of ``scores`` with ``reviews`` (a path, Reviews, records…:
    :func:`ragwidgets.reviews.as_reviews`); ``reviews`` None: the reviews ``scores`` were evaluated
    with (``rw.evaluate(..., reviews=)``), against their ``judge_scores``. The label in force is
    :meth:`Reviews.resolved(use) <ragwidgets.reviews.Reviews.resolved>`'s: "adjudicated" (per
    label the latest adjudication, else the latest review) or one reviewer's name."""
    if not isinstance(scores, Scores):
        raise TypeError(f"scores must be the Scores of rw.evaluate, not {type(scores).__name__}")
    if reviews is None:
        if scores.judge_scores is None:
            raise InputError("no reviews: pass reviews= (a reviews file, Reviews or records), or scores "
                             "evaluated with reviews (rw.evaluate(..., reviews=))", field="reviews")
        if use == "adjudicated":
            b = scores.batch
            return ReviewedRun(scores.judge_scores, {kind: getattr(b, attr) for kind, attr in FLAT.items()},
                               scores.review_cells, list(scores.review_problems), scores, b.samples)
        reviews = scores.reviews
    judge = scores.judge_scores or scores
    patched = review_batch(judge.batch, as_reviews(reviews).resolved(use))
    return ReviewedRun(judge, {kind: getattr(patched.batch, attr) for kind, attr in FLAT.items()},
                       patched.cells, patched.problems, None, patched.batch.samples)


def is_run(by) -> bool:
    return isinstance(by, str) and by == "run"


def groups_of(by, scores, run_name):
    """Per sample of one run: its group (``by`` a sequence per sample, a mapping or Series from
    query_id, or "run")."""
    ids = scores.batch.query_ids
    if is_run(by):
        return np.full(len(ids), run_name, dtype=object)
    if isinstance(by, Mapping) and run_name in by and not isinstance(by, pd.Series):
        by = by[run_name]
    if isinstance(by, pd.Series) or isinstance(by, Mapping):
        get = by.get
        missing = [q for q in ids if get(q) is None]
        if missing:
            raise InputError(f"'by' gives no group for query_id {missing[0]!r}", field="by")
        return np.array([get(q) for q in ids], dtype=object)
    arr = np.asarray(by, dtype=object)
    if arr.shape != (len(ids),):
        raise InputError(f"'by' must give one group per sample ({len(ids)}), got {arr.shape}", field="by")
    return arr
