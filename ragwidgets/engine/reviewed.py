"""Reviews applied to a Batch: the reviewed samples' labels patched in copies of the flat label
arrays, every other sample's left as they are (so a big run with a few reviews costs the
reviewed samples, plus one copy of each patched array).

Cells: a Batch stores ``retrieved2response`` / ``retrieved2answer`` as entries laid out claim by
claim, each claim's entries over its sample's passages in rank order, so the entry of (claim
row, passage k) is the claim row's first entry + k.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
import pyarrow as pa

from ..loaders import gc_paused
from ..model import Sample
from ..reviews import ReviewProblem, Reviews, gone, match, set_labels
from .batch import Batch

FLAT = {"answer2response": "answer2response", "response2answer": "response2answer",
        "retrieved2response": "r2r_label", "retrieved2answer": "r2a_label"}  # label matrix -> Batch array


class ReviewedBatch(NamedTuple):
    """The reviewed Batch, the reviews that did not apply, and per label matrix a mask over the
    Batch's flat array of that matrix: True where a review applied."""

    batch: Batch
    problems: list[ReviewProblem]
    cells: dict[str, np.ndarray]


class PatchedSamples(Sequence):
    """A batch's samples with some replaced by their reviewed Sample (the others built as before)."""

    def __init__(self, base: Sequence[Sample], replaced: dict[int, Sample]):
        self.base, self.replaced = base, replaced

    def __len__(self) -> int:
        return len(self.base)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        i = range(len(self))[i]
        return self.replaced[i] if i in self.replaced else self.base[i]

    def texts(self, field: str) -> list[str]:
        """Every sample's ``field`` (reviews change no text)."""
        of_records = getattr(self.base, "texts", None)
        return of_records(field) if of_records else [getattr(s, field) for s in self.base]

    def text_column(self, field: str) -> pa.Array | pa.ChunkedArray:
        """Every sample's ``field`` as an Arrow string column (the base's own, where it has one)."""
        of_records = getattr(self.base, "text_column", None)
        return of_records(field) if of_records else pa.array(self.texts(field), type=pa.large_string())


def flat_index(batch: Batch, kind: str, sample: np.ndarray, claim: np.ndarray, passage: np.ndarray) -> np.ndarray:
    """Positions in the Batch's flat array of ``kind`` of labels given by (sample, claim, passage
    index) arrays (the passage is ignored for the vector kinds)."""
    offset = batch.resp_offset if kind in ("answer2response", "retrieved2response") else batch.gt_offset
    row = offset[sample] + claim
    if kind in ("answer2response", "response2answer"):
        return row
    claims = batch.r2r_claim if kind == "retrieved2response" else batch.r2a_claim
    return np.searchsorted(claims, row, side="left") + passage


def review_batch(batch: Batch, reviews: Reviews) -> ReviewedBatch:
    """``batch`` with ``reviews`` applied (a new Batch; ``batch`` untouched)."""
    with gc_paused():  # the reviewed Samples are many small objects, none cyclic
        return _review_batch(batch, reviews)


def _review_batch(batch: Batch, reviews: Reviews) -> ReviewedBatch:
    position = {qid: i for i, qid in enumerate(batch.query_ids)}
    problems = gone(reviews, position)
    replaced: dict[int, Sample] = {}
    cells: dict[str, list[tuple[int, int, int, int]]] = {kind: [] for kind in FLAT}  # (sample, claim, passage, code)
    for qid in reviews.query_ids:
        if qid not in position:
            continue
        i = position[qid]
        sample = batch.samples[i]
        found, wrong = match(sample, reviews.for_sample(qid))
        problems += wrong
        if not found:
            continue
        replaced[i] = set_labels(sample, found)
        for review, cell in found:
            cells[review.kind].append((i, cell[0], cell[-1], review.code))
    changes, masks = {}, {}
    for kind, attr in FLAT.items():
        labels = getattr(batch, attr)
        mask = np.zeros(len(labels), dtype=bool)
        if cells[kind]:
            sample, claim, passage, codes = np.array(cells[kind], dtype=np.int64).T
            index = flat_index(batch, kind, sample, claim, passage)
            patched = labels.copy()
            patched[index] = codes.astype(labels.dtype)
            mask[index] = True
            changes[attr] = patched
        masks[kind] = mask
    if not replaced:
        return ReviewedBatch(batch, problems, masks)
    base = batch.samples
    samples = tuple(replaced.get(i, s) for i, s in enumerate(base)) if isinstance(base, (tuple, list)) \
        else PatchedSamples(base, replaced)
    return ReviewedBatch(dataclasses.replace(batch, samples=samples, **changes), problems, masks)
