"""The fast path for RAGChecker's plain results format: JSON bytes straight into label arrays.

``msgspec`` decodes and type-checks a file in one pass in C, labels as shared strings;
one Python pass then checks the shapes and concatenates the labels, and numpy turns them into
codes. Samples (:class:`~ragwidgets.model.Sample`) are built only when one is asked for, from
the decoded record and the label arrays. This path takes a file only when the precise validator
in :mod:`ragwidgets.loaders` would accept it, giving identical Samples; anything else (another
label spelling, claim objects, citation extensions, other keys, a wrong shape, a duplicate id,
bad JSON, a JSONL line that is not one JSON value) makes :func:`read_flat` return None, and the
validator reads the file instead, with its messages.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import chain
from typing import Literal, Optional, Union

import msgspec
import numpy as np

from .model import LABEL_CODES, LABEL_SPELLINGS, UNJUDGED, Claim, Passage, Sample

LABEL_VECTORS = ("answer2response", "response2answer")  # over response claims, over gt claims
LABEL_GRIDS = ("retrieved2response", "retrieved2answer")

LabelText = Optional[Literal[LABEL_SPELLINGS]]  # the exact spellings only, decoded as shared strings
Labels = Optional[list[LabelText]]
Grid = Optional[list[list[LabelText]]]
class PlainClaim(msgspec.Struct, array_like=True, forbid_unknown_fields=True, gc=False):
    """A claim triple, exactly ``[subject, predicate, object]`` (a struct the garbage collector does
    not track, unlike a tuple: a run holds millions of them)."""

    subject: str
    predicate: str
    object: str


Triples = Optional[list[PlainClaim]]
_CODE_PLUS_ONE = {**{spelling: code + 1 for spelling, code in LABEL_CODES.items()}, None: UNJUDGED + 1}


class PlainPassage(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    doc_id: str
    text: str


class PlainRecord(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    """One sample in RAGChecker's own format, nothing else (any other key: not this path)."""

    query_id: Union[str, int, msgspec.UnsetType] = msgspec.UNSET  # null: not this path
    query: Optional[str] = None
    gt_answer: Optional[str] = None
    response: Optional[str] = None
    retrieved_context: Optional[list[PlainPassage]] = None
    response_claims: Triples = None
    gt_answer_claims: Triples = None
    answer2response: Labels = None
    response2answer: Labels = None
    retrieved2response: Grid = None
    retrieved2answer: Grid = None
    metrics: Optional[dict[str, Optional[float]]] = None  # ragchecker's own per-sample scores: not read


class PlainFile(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    """``{"results": [...]}``, with ragchecker's aggregate ``metrics`` (decoded, so checked as
    JSON and UTF-8 as the validator checks them, and dropped); any other key: not this path."""

    results: list[PlainRecord]
    metrics: Optional[dict[str, dict[str, Optional[float]]]] = None


_DECODERS = {"object": msgspec.json.Decoder(PlainFile), "list": msgspec.json.Decoder(list[PlainRecord]),
             "lines": msgspec.json.Decoder(PlainRecord)}


def _codes(labels: list) -> np.ndarray:
    """int8 label codes of a list of label strings and None (one dict lookup each, at C speed)."""
    return np.frombuffer(bytes(map(_CODE_PLUS_ONE.__getitem__, labels)), dtype=np.int8) - np.int8(1)


@dataclass(eq=False)
class FlatRecords:
    """Plain records decoded, with their labels as flat int8 codes.

    ``n_resp``/``n_gt``/``n_psg``: items per sample. ``answer2response``/``response2answer``:
    one code per claim (0 where the sample has no vector). ``retrieved2response``/
    ``retrieved2answer``: the matrices of the samples that have one, concatenated row by row.
    ``has``: per label matrix, which samples have it (given, or complete by shape alone).
    """

    records: list[PlainRecord]
    query_ids: list[str]
    n_resp: np.ndarray
    n_gt: np.ndarray
    n_psg: np.ndarray
    labels: dict[str, np.ndarray]
    has: dict[str, np.ndarray]
    n_unnamed: int
    first_unnamed: int | None

    @property
    def samples(self) -> "LazySamples":
        """The Samples, each built when asked for (a new view each time: caching it here would make
        a reference cycle that keeps the whole decoded file alive until the collector runs)."""
        return LazySamples(self)

    @cached_property
    def grid_start(self) -> dict[str, np.ndarray]:
        """Per label matrix: offset of each sample's entries in ``labels[name]``."""
        rows = {"retrieved2response": self.n_resp, "retrieved2answer": self.n_gt}
        return {name: np.r_[0, np.cumsum(self.has[name] * rows[name] * self.n_psg)] for name in LABEL_GRIDS}

    @cached_property
    def claim_start(self) -> dict[str, np.ndarray]:
        return {"answer2response": np.r_[0, np.cumsum(self.n_resp)], "response2answer": np.r_[0, np.cumsum(self.n_gt)]}


class LazySamples(Sequence):
    """The Samples of a FlatRecords, each built when asked for (equal to the precise parser's)."""

    def __init__(self, flat: FlatRecords):
        self.flat = flat

    def __len__(self) -> int:
        return len(self.flat.records)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        return self._sample(range(len(self))[i])

    def texts(self, field: str) -> list[str]:
        """Every record's ``field`` ("query", "gt_answer" or "response"; missing: "")."""
        return [getattr(r, field) or "" for r in self.flat.records]

    def _sample(self, i: int) -> Sample:
        f = self.flat
        r = f.records[i]
        labels = {}
        for name in LABEL_VECTORS:
            start = f.claim_start[name]
            labels[name] = f.labels[name][start[i]:start[i + 1]].copy() if f.has[name][i] else None
        for name, rows in (("retrieved2response", f.n_resp[i]), ("retrieved2answer", f.n_gt[i])):
            start = f.grid_start[name]
            labels[name] = (f.labels[name][start[i]:start[i + 1]].reshape(rows, f.n_psg[i]).copy()
                            if f.has[name][i] else None)
        return Sample(
            query_id=f.query_ids[i], query=r.query or "", gt_answer=r.gt_answer or "", response=r.response or "",
            passages=tuple(Passage(p.doc_id, p.text) for p in r.retrieved_context or ()),
            response_claims=_claims(r.response_claims), gt_claims=_claims(r.gt_answer_claims),
            has_gt_claims=r.gt_answer_claims is not None, **labels,
        )


def _claims(triples) -> tuple[Claim, ...]:
    return tuple(Claim(f"{t.subject} {t.predicate} {t.object}", (t.subject, t.predicate, t.object))
                 for t in triples or ())


def decode_plain(data: bytes, jsonl: bool) -> list[PlainRecord] | None:
    """The records of a file's bytes if all are plain, else None. JSONL is read as the validator
    reads it: one JSON value on each ``\\n``-separated line, blank lines skipped."""
    data = data.removeprefix(b"\xef\xbb\xbf")
    try:
        if jsonl:
            return _decode_lines(data)
        if data.lstrip()[:1] == b"[":
            return _DECODERS["list"].decode(data)
        return _DECODERS["object"].decode(data).results
    except (msgspec.DecodeError, RecursionError):
        return None


def _decode_lines(data: bytes) -> list[PlainRecord]:
    """One record per line, each line decoded on its own (``decode_lines`` would also take a
    value over two lines, or two values on one)."""
    decode, view, records, start, size = _DECODERS["lines"].decode, memoryview(data), [], 0, len(data)
    while start <= size:
        end = data.find(b"\n", start)
        end = size if end < 0 else end
        try:
            records.append(decode(view[start:end]))
        except msgspec.DecodeError:
            if data[start:end].strip():
                raise
        start = end + 1
    return records


def read_flat(data: bytes, jsonl: bool) -> FlatRecords | None:
    """The plain records of a file's bytes as label arrays, or None when they are not all plain."""
    records = decode_plain(data, jsonl)
    return None if records is None else flatten(records)


def flatten(records: list[PlainRecord]) -> FlatRecords | None:
    """Check every record's shapes and concatenate its labels; None at the first record that
    the precise validator refuses (a wrong shape, a duplicate doc_id or query_id, nothing to
    score). Absent label arrays that are complete by shape alone count as given (see
    :func:`ragwidgets.loaders.vacuous_labels`). On success the label lists are dropped from the records."""
    query_ids, unnamed, n_resp, n_gt, n_psg = [], [], [], [], []
    has = {name: [] for name in (*LABEL_VECTORS, *LABEL_GRIDS)}
    has_a2r, has_r2a, has_r2r, has_ret2a = (has[name].append for name in has)
    flat = {name: [] for name in has}
    a2r, r2a, r2r, ret2a = (flat[name].extend for name in flat)
    joined = chain.from_iterable
    for i, r in enumerate(records):  # the two sides written out: this loop runs once per sample
        psg, resp, gt = r.retrieved_context, r.response_claims, r.gt_answer_claims
        if psg is None:
            if resp is None and gt is None:
                return None  # nothing to score, or labels without their claims
            k = 0
        else:
            k = len(psg)
            if k > 1 and len({p.doc_id for p in psg}) != k:
                return None
        nr = -1 if resp is None else len(resp)  # -1: not given, so no label array's length matches
        ng = -1 if gt is None else len(gt)
        no_psg = k == 0 and psg is not None
        labels = r.answer2response
        if labels is None:
            has_a2r(nr == 0)
        elif len(labels) != nr:
            return None
        else:
            has_a2r(True)
            a2r(labels)
        labels = r.response2answer
        if labels is None:
            has_r2a(ng == 0)
        elif len(labels) != ng:
            return None
        else:
            has_r2a(True)
            r2a(labels)
        rows = r.retrieved2response
        if rows is None:
            has_r2r(nr == 0 or (nr > 0 and no_psg))
        elif len(rows) != nr or (nr and set(map(len, rows)) != {k}):
            return None
        else:
            has_r2r(True)
            r2r(joined(rows))
        rows = r.retrieved2answer
        if rows is None:
            has_ret2a(ng == 0 or (ng > 0 and no_psg))
        elif len(rows) != ng or (ng and set(map(len, rows)) != {k}):
            return None
        else:
            has_ret2a(True)
            ret2a(joined(rows))
        qid = r.query_id
        if qid is msgspec.UNSET:
            unnamed.append(i)
            qid = i
        query_ids.append(str(qid))
        n_resp.append(nr)
        n_gt.append(ng)
        n_psg.append(k)
    if len(set(query_ids)) != len(records):
        return None
    for r in records:  # the labels live on as codes
        r.answer2response = r.response2answer = r.retrieved2response = r.retrieved2answer = r.metrics = None
    counts = {"answer2response": np.maximum(np.array(n_resp, dtype=np.int64), 0),
              "response2answer": np.maximum(np.array(n_gt, dtype=np.int64), 0)}
    present = {name: np.array(values, dtype=bool) for name, values in has.items()}
    labels = {name: _codes(values) for name, values in flat.items()}
    for name, n in counts.items():  # one code per claim: 0 where the sample has no vector, as Batch stores them
        per_claim = np.zeros(int(n.sum()), dtype=np.int8)
        per_claim[np.repeat(present[name], n)] = labels[name]
        labels[name] = per_claim
    return FlatRecords(records=records, query_ids=query_ids, n_resp=counts["answer2response"],
                       n_gt=counts["response2answer"], n_psg=np.array(n_psg, dtype=np.int64), labels=labels,
                       has=present, n_unnamed=len(unnamed), first_unnamed=unnamed[0] if unnamed else None)
