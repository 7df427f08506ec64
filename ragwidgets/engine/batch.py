"""Many samples as flat numpy arrays: the engine's input.

Items of each kind (response claims, gt claims, passages, citations, reference facts) are
concatenated over samples, with ``<kind>_sample`` giving each item's sample. Entailment matrices
are stored as entry lists (claim, passage, label) so that one ``np.bincount`` reduces all
samples at once. Nothing here is recomputed when a passage or claim is switched off: those are
masks handed to :func:`ragwidgets.engine.evaluate`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from .._pages import small_pages
from ..model import LABEL_MATRICES, Sample

NEEDS = {
    "answer2response": "answer2response labels",
    "response2answer": "response2answer labels",
    "retrieved2response": "retrieved2response labels (or fact IDs)",
    "retrieved2answer": "retrieved2answer labels (or fact IDs)",
    "relevance": "a 'relevant' flag on every retrieved passage",
    "citations": "'cites' on the response claims, with retrieved2response labels or fact IDs",
    "reference": "'reference_facts', and fact IDs on the response claims",
}  # what each metric may need of a sample, in words


def _offsets(counts: list[int]) -> np.ndarray:
    out = np.zeros(len(counts) + 1, dtype=np.int64)
    np.cumsum(counts, out=out[1:])
    return out


def _index_type(size: int):
    """The integer type of indexes below ``size``: int32 while it fits (half the memory at 1M samples)."""
    return np.int32 if size < 2**31 else np.int64


def _owner(offsets: np.ndarray) -> np.ndarray:
    """Sample index of every item, from per-sample offsets."""
    return np.repeat(np.arange(len(offsets) - 1, dtype=_index_type(len(offsets))), np.diff(offsets))


def _concat(parts: list[np.ndarray], dtype) -> np.ndarray:
    return np.concatenate(parts).astype(dtype, copy=False) if parts else np.zeros(0, dtype=dtype)


def _entries(labels: np.ndarray, present: np.ndarray, row_offset: np.ndarray, psg_offset: np.ndarray):
    """(row, passage, label) entry arrays of per-sample (rows x passages) matrices, given as the
    matrices of the samples where ``present`` holds, concatenated row by row.

    Entries are laid out row by row, so every index comes from ``np.repeat`` (no division): an
    entry's passage is its position less its row's start plus its sample's first passage, one
    shift per row repeated over the row.
    """
    rows_each = np.diff(row_offset)
    row_width = np.repeat(np.where(present, np.diff(psg_offset), 0), rows_each)  # entries in each row
    index = _index_type(max(len(row_width), int(psg_offset[-1]), len(labels)))
    row = np.repeat(np.arange(len(row_width), dtype=index), row_width)
    shift = np.repeat(psg_offset[:-1], rows_each) - _offsets(row_width)[:-1]
    psg = np.repeat(shift.astype(index), row_width)
    psg += np.arange(len(labels), dtype=index)
    return row, psg, labels


def _matrix_entries(matrices: list[np.ndarray | None], row_offset: np.ndarray, psg_offset: np.ndarray):
    labels = _concat([m.ravel() for m in matrices if m is not None and m.size], np.int8)
    present = np.array([m is not None for m in matrices], dtype=bool)
    return _entries(labels, present, row_offset, psg_offset)


@dataclass(frozen=True, eq=False)
class Batch:
    """The label arrays of many samples, built once and scored many times."""

    samples: Sequence[Sample]  # a tuple, or built on demand (ragwidgets._fastload.LazySamples)
    query_ids: Sequence[str]
    resp_offset: np.ndarray
    gt_offset: np.ndarray
    psg_offset: np.ndarray
    resp_sample: np.ndarray
    gt_sample: np.ndarray
    psg_sample: np.ndarray
    resp_required: np.ndarray  # int8: 1 required, 0 optional, -1 unlabelled
    gt_required: np.ndarray
    answer2response: np.ndarray  # int8 per response claim (0 where the sample has no matrix)
    response2answer: np.ndarray  # int8 per gt claim
    psg_relevant: np.ndarray  # int8 per passage: 1, 0, -1 no flag
    r2r_claim: np.ndarray
    r2r_psg: np.ndarray
    r2r_label: np.ndarray
    r2a_claim: np.ndarray
    r2a_psg: np.ndarray
    r2a_label: np.ndarray
    cit_claim: np.ndarray  # one entry per (response claim, cited doc) pair
    cit_psg: np.ndarray  # global passage index, -1 when the cited doc was not retrieved
    cit_entry: np.ndarray  # index into r2r_* of (claim, cited passage), -1 when not retrieved
    ref_sample: np.ndarray  # one entry per (sample, reference fact)
    inc_ref: np.ndarray  # incidence: reference fact ``inc_ref`` is stated by response claim ``inc_claim``
    inc_claim: np.ndarray
    has: dict  # need -> bool per sample

    @property
    def n_samples(self) -> int:
        return len(self.query_ids)

    def texts(self, field: str) -> list[str]:
        """Every sample's ``field`` ("query", "gt_answer" or "response"), without building lazy Samples."""
        of_records = getattr(self.samples, "texts", None)
        return of_records(field) if of_records else [getattr(s, field) for s in self.samples]

    def text_column(self, field: str) -> pa.Array | pa.ChunkedArray:
        """Every sample's ``field`` as an Arrow string column (the fast path's own, not rebuilt)."""
        of_records = getattr(self.samples, "text_column", None)
        return of_records(field) if of_records else pa.array(self.texts(field), type=pa.large_string())

    @property
    def cit_sample(self) -> np.ndarray:
        return self.resp_sample[self.cit_claim]

    @classmethod
    def from_samples(cls, samples) -> "Batch":
        samples = tuple(samples)
        resp_offset = _offsets([len(s.response_claims) for s in samples])
        gt_offset = _offsets([len(s.gt_claims) for s in samples])
        psg_offset = _offsets([len(s.passages) for s in samples])
        n_resp, n_gt = int(resp_offset[-1]), int(gt_offset[-1])

        def per_claim(name: str, offsets: np.ndarray, total: int) -> np.ndarray:
            out = np.zeros(total, dtype=np.int8)
            for i, s in enumerate(samples):
                m = getattr(s, name)
                if m is not None and m.size:
                    out[offsets[i]:offsets[i + 1]] = m
            return out

        def required(claims_of) -> np.ndarray:
            return np.array([-1 if c.required is None else int(c.required)
                             for s in samples for c in claims_of(s)], dtype=np.int8)

        r2r_claim, r2r_psg, r2r_label = _matrix_entries([s.retrieved2response for s in samples], resp_offset, psg_offset)
        r2a_claim, r2a_psg, r2a_label = _matrix_entries([s.retrieved2answer for s in samples], gt_offset, psg_offset)
        r2r_start = _offsets([0 if s.retrieved2response is None else s.retrieved2response.size for s in samples])

        cites = [s.has_citations for s in samples]
        cit_claim, cit_psg, cit_entry = [], [], []
        ref_sample, inc_ref, inc_claim = [], [], []
        for i, s in enumerate(samples):
            n_psg = len(s.passages)
            if cites[i]:
                rank = {p.doc_id: k for k, p in enumerate(s.passages)}
                for j, claim in enumerate(s.response_claims):
                    for doc_id in claim.cites or ():
                        k = rank.get(doc_id, -1)
                        cit_claim.append(resp_offset[i] + j)
                        cit_psg.append(-1 if k < 0 else psg_offset[i] + k)
                        cit_entry.append(-1 if k < 0 or s.retrieved2response is None
                                         else r2r_start[i] + j * n_psg + k)
            if s.reference_facts is not None:
                for fact in s.reference_facts:
                    for j, claim in enumerate(s.response_claims):
                        if fact in (claim.facts or ()):
                            inc_ref.append(len(ref_sample))
                            inc_claim.append(resp_offset[i] + j)
                    ref_sample.append(i)

        n_psg_each = np.diff(psg_offset)
        has = {
            name: np.array([getattr(s, name) is not None for s in samples], dtype=bool)
            for name in LABEL_MATRICES
        }
        has["relevance"] = np.array([
            all(p.relevant is not None for p in s.passages) and (n > 0 or s.is_citation_sample)
            for s, n in zip(samples, n_psg_each)], dtype=bool)
        has["citations"] = np.array([c or s.uses_facts or (s.is_citation_sample and not s.response_claims)
                                     for c, s in zip(cites, samples)], dtype=bool) & has["retrieved2response"]
        has["reference"] = np.array([s.reference_facts is not None and (s.uses_facts or not s.response_claims)
                                     for s in samples], dtype=bool)
        as_int = lambda xs: np.array(xs, dtype=np.int64)  # noqa: E731
        return cls(
            samples=samples, query_ids=[s.query_id for s in samples], resp_offset=resp_offset, gt_offset=gt_offset, psg_offset=psg_offset,
            resp_sample=_owner(resp_offset), gt_sample=_owner(gt_offset), psg_sample=_owner(psg_offset),
            resp_required=required(lambda s: s.response_claims), gt_required=required(lambda s: s.gt_claims),
            answer2response=per_claim("answer2response", resp_offset, n_resp),
            response2answer=per_claim("response2answer", gt_offset, n_gt),
            psg_relevant=np.array([-1 if p.relevant is None else int(p.relevant)
                                   for s in samples for p in s.passages], dtype=np.int8),
            r2r_claim=r2r_claim, r2r_psg=r2r_psg, r2r_label=r2r_label,
            r2a_claim=r2a_claim, r2a_psg=r2a_psg, r2a_label=r2a_label,
            cit_claim=as_int(cit_claim), cit_psg=as_int(cit_psg), cit_entry=as_int(cit_entry),
            ref_sample=as_int(ref_sample), inc_ref=as_int(inc_ref), inc_claim=as_int(inc_claim),
            has=has,
        )

    @classmethod
    def from_flat(cls, flat) -> "Batch":
        """The Batch of plain RAGChecker records decoded by :func:`ragwidgets._fastload.read_flat`
        (no citations, relevance flags, claim labels or reference facts), its Samples built on demand."""
        resp_offset, gt_offset, psg_offset = _offsets(flat.n_resp), _offsets(flat.n_gt), _offsets(flat.n_psg)
        with small_pages():  # hundreds of MB of fresh index arrays at 1M samples
            r2r = _entries(flat.labels["retrieved2response"], flat.has["retrieved2response"], resp_offset, psg_offset)
            r2a = _entries(flat.labels["retrieved2answer"], flat.has["retrieved2answer"], gt_offset, psg_offset)
        n = len(flat.query_ids)
        none = np.zeros(0, dtype=np.int64)
        unflagged = lambda total: np.full(total, -1, dtype=np.int8)  # noqa: E731
        return cls(
            samples=flat.samples, query_ids=flat.query_ids, resp_offset=resp_offset, gt_offset=gt_offset,
            psg_offset=psg_offset, resp_sample=_owner(resp_offset), gt_sample=_owner(gt_offset),
            psg_sample=_owner(psg_offset), resp_required=unflagged(int(resp_offset[-1])),
            gt_required=unflagged(int(gt_offset[-1])), answer2response=flat.labels["answer2response"],
            response2answer=flat.labels["response2answer"], psg_relevant=unflagged(int(psg_offset[-1])),
            r2r_claim=r2r[0], r2r_psg=r2r[1], r2r_label=r2r[2], r2a_claim=r2a[0], r2a_psg=r2a[1], r2a_label=r2a[2],
            cit_claim=none, cit_psg=none, cit_entry=none, ref_sample=none, inc_ref=none, inc_claim=none,
            has=dict(flat.has, relevance=np.zeros(n, dtype=bool), citations=np.zeros(n, dtype=bool),
                     reference=np.zeros(n, dtype=bool)),
        )
