"""Reviews: a person's correction (or confirmation) of a judge's entailment label, as data.

One :class:`Review` is one label of one sample: ``kind`` names the label matrix
(:data:`KINDS`), ``claim`` the 0-based claim in that sample's list (response claims for
``answer2response`` / ``retrieved2response``, ground-truth claims for the other two) and, for
the passage kinds, ``doc_id`` the passage and ``passage_sha`` its text's fingerprint
(:func:`passage_sha`; absent in files written before it: then a changed passage goes unnoticed).
A reviews file is JSONL, one review per line, keys as
in :class:`Review` (``doc_id`` only for the passage kinds, ``time`` ISO 8601 UTC,
``adjudicated`` only when true); a later line for the same label wins, except that an
adjudication (``adjudicated``: one decision on a label the reviewers disagree on) wins over every
plain review of it. Each reviewer's own labels stay readable (:meth:`Reviews.of_reviewer`,
:meth:`Reviews.resolved`). :class:`ReviewLog` appends one line per review under a file lock, each
on a fresh line, with fsync: a review it acknowledged is never lost, and a crash or a full disk
loses at most the line being written. Reading skips a damaged line (not UTF-8 JSON, as one cut
short is) with an InputWarning naming the file and line, and reads every whole line around it.
Applying reviews is pure
(:func:`apply_reviews`: new Samples, the input untouched); a review that no longer matches its
sample (the sample is gone, the sample carries no such labels, the claim index is out of range,
the doc_id is not a retrieved passage, the claim's or the passage's text changed, the labels come
from fact IDs)
is a :class:`ReviewProblem` and is not applied.
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
import os
import sys
import warnings
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timezone
from numbers import Integral

import numpy as np

from .errors import InputError, InputWarning
from .jsonl_log import AppendLog, read_records
from .jsonl_log import read_noting as jsonl_read_noting
from .model import LABEL_CODES, LABEL_MATRICES, LABEL_SPELLINGS, Sample, label_code

KINDS = LABEL_MATRICES
PASSAGE_KINDS = ("retrieved2response", "retrieved2answer")
RESPONSE_KINDS = ("answer2response", "retrieved2response")  # rows over the response claims; the others: gt claims
SPELLING = {code: spelling for spelling, code in LABEL_CODES.items()}
FIELDS = ("query_id", "kind", "claim", "doc_id", "label", "judge_label", "claim_text", "passage_sha", "reviewer",
          "time", "note", "adjudicated")
PASSAGE_FIELDS = ("doc_id", "passage_sha")  # only in a review of a passage kind
SHA = re.compile(r"[0-9a-f]{16}")


def passage_sha(text: str) -> str:
    """A passage text's fingerprint, as a review records it: the first 16 hex digits of the SHA-256
    of its UTF-8 bytes (a reviews file does not copy whole passages)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def _spelling(value, field: str) -> str:
    code = label_code(value) if isinstance(value, str) else None
    if code is None:
        raise InputError(f"must be one of {', '.join(LABEL_SPELLINGS)}, not {value!r}", field=field)
    return SPELLING[code]


def now() -> str:
    """The current time, ISO 8601 UTC to the second (``2026-01-31T12:00:00Z``)."""
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass(frozen=True)
class Review:
    """One reviewed label (one JSONL line); see the module docstring. A label spelling in any case
    is kept in RAGChecker's (``Entailment``, ``Neutral``, ``Contradiction``); a bad field is an
    InputError naming it."""

    query_id: str
    kind: str
    claim: int
    label: str
    doc_id: str | None = None
    judge_label: str | None = None
    claim_text: str | None = None
    reviewer: str = ""
    time: str = ""
    note: str = ""
    passage_sha: str | None = None
    adjudicated: bool = False  # one decision by an adjudicator on a label the reviewers disagree on

    def __post_init__(self):
        fix = lambda name, value: object.__setattr__(self, name, value)  # noqa: E731 (frozen)
        if isinstance(self.query_id, Integral) and not isinstance(self.query_id, bool):
            fix("query_id", str(self.query_id))
        if not isinstance(self.query_id, str):
            raise InputError(f"must be a string, not {self.query_id!r}", field="query_id")
        if self.kind not in KINDS:
            raise InputError(f"must be one of {', '.join(KINDS)}, not {self.kind!r}", field="kind")
        if not isinstance(self.claim, Integral) or isinstance(self.claim, bool) or self.claim < 0:
            raise InputError(f"must be a whole number >= 0 (the claim's 0-based index), not {self.claim!r}",
                             field="claim")
        fix("claim", int(self.claim))
        if self.kind in PASSAGE_KINDS:
            if not isinstance(self.doc_id, str):
                raise InputError(f"a {self.kind} review names its passage's doc_id (a string), not {self.doc_id!r}",
                                 field="doc_id")
            if self.passage_sha is not None:
                if not (isinstance(self.passage_sha, str) and SHA.fullmatch(self.passage_sha.lower())):
                    raise InputError(f"must be 16 hex digits (ragwidgets.reviews.passage_sha of the passage's "
                                     f"text), not {self.passage_sha!r:.80}", field="passage_sha")
                fix("passage_sha", self.passage_sha.lower())
        else:
            for name in PASSAGE_FIELDS:
                if getattr(self, name) is not None:
                    raise InputError(f"a {self.kind} review has no passage: {name} must be absent, "
                                     f"not {getattr(self, name)!r:.80}", field=name)
        if not isinstance(self.adjudicated, (bool, np.bool_)):
            raise InputError(f"must be true or false, not {self.adjudicated!r:.80}", field="adjudicated")
        fix("adjudicated", bool(self.adjudicated))
        fix("label", _spelling(self.label, "label"))
        if self.judge_label is not None:
            fix("judge_label", _spelling(self.judge_label, "judge_label"))
        for name in ("claim_text", "reviewer", "time", "note"):
            value = getattr(self, name)
            if not (isinstance(value, str) or (value is None and name == "claim_text")):
                raise InputError(f"must be a string, not {value!r}", field=name)
        if self.time:
            try:
                datetime.fromisoformat(self.time.replace("Z", "+00:00"))
            except ValueError:
                raise InputError(f"must be an ISO 8601 time such as 2026-01-31T12:00:00Z, not {self.time!r}",
                                 field="time") from None

    @property
    def key(self) -> tuple[str, str, int, str | None]:
        """What a later review of the same label replaces: (query_id, kind, claim, doc_id)."""
        return (self.query_id, self.kind, self.claim, self.doc_id)

    @property
    def code(self) -> int:
        """The label's code (:data:`ragwidgets.model.LABEL_CODES`)."""
        return LABEL_CODES[self.label]

    def to_json(self) -> dict:
        """The review as one JSON object (``doc_id`` and ``passage_sha`` only for the passage kinds,
        ``adjudicated`` only when true)."""
        passage = self.kind in PASSAGE_KINDS
        out = {name: getattr(self, name) for name in FIELDS if passage or name not in PASSAGE_FIELDS}
        if not self.adjudicated:
            del out["adjudicated"]
        return out

    @classmethod
    def from_json(cls, d, where: str = "") -> "Review":
        """The review of one JSON object; an InputError naming ``where`` (e.g. ``reviews.jsonl line 3``)
        and the field when a key is missing, unknown or bad."""
        if not isinstance(d, Mapping):
            raise InputError(f"a review is a JSON object, not {type(d).__name__}", sample=where or None)
        unknown = sorted(set(d) - set(FIELDS))
        if unknown:
            raise InputError(f"unknown key; a review has {', '.join(FIELDS)}", sample=where or None,
                             field=str(unknown[0]))
        for name in ("query_id", "kind", "claim", "label"):
            if d.get(name) is None:
                raise InputError("missing", sample=where or None, field=name)
        given = {k: v for k, v in d.items()
                 if v is not None or k in ("doc_id", "judge_label", "claim_text", "passage_sha", "adjudicated")}
        try:
            return cls(**given)
        except InputError as err:
            raise InputError(err.detail, sample=where or None, field=err.field) from None


class Reviews:
    """Reviews, immutable; per label (:attr:`Review.key`) the latest adjudication is in force, else
    the latest review, whoever gave it.

    ``history`` holds every review given, in order (every reviewer's, none replaced); ``latest``
    the one in force per key; iterating gives the latest reviews in the order their keys were
    first seen.
    """

    def __init__(self, items: Iterable[Review] = ()):
        self.history: tuple[Review, ...] = tuple(items)
        self.latest: dict[tuple, Review] = {}
        self._by_sample: dict[str, dict[tuple, Review]] = {}
        for r in self.history:
            if not isinstance(r, Review):
                raise TypeError(f"Reviews holds Review objects, not {type(r).__name__} (see Reviews.from_records)")
            held = self.latest.get(r.key)
            if held is None or r.adjudicated or not held.adjudicated:
                self.latest[r.key] = r
        for r in self.latest.values():
            self._by_sample.setdefault(r.query_id, {})[r.key[1:]] = r

    @classmethod
    def read(cls, path) -> "Reviews":
        """The reviews of a JSONL file (blank lines skipped). A damaged line (not UTF-8 JSON, as one
        cut short by a crash is) is skipped with an InputWarning naming the file and line, and the
        lines around it are read; a JSON line that is not a review (a key missing, unknown or bad;
        nested too deep) is an InputError naming the file, line and field, as is a path that is
        missing or a folder."""
        return cls(read_records(path, Review.from_json, "review"))

    @classmethod
    def from_records(cls, records: Iterable) -> "Reviews":
        """Reviews from Review objects or dicts (JSON objects, DataFrame rows: NaN counts as absent)."""
        items = []
        for i, r in enumerate(records):
            if isinstance(r, Review):
                items.append(r)
            else:
                if isinstance(r, Mapping):
                    r = {k: (None if isinstance(v, float) and v != v else v) for k, v in r.items()
                         if not (k == "adjudicated" and isinstance(v, float) and v != v)}  # NaN: absent
                items.append(Review.from_json(r, f"review {i}"))
        return cls(items)

    def __len__(self) -> int:
        return len(self.latest)

    def __iter__(self):
        return iter(self.latest.values())

    def __add__(self, other: "Reviews") -> "Reviews":
        """These reviews, then ``other``'s: on the same key the latest adjudication wins, else the
        latest review (``other``'s)."""
        return Reviews(self.history + as_reviews(other).history)

    def __repr__(self) -> str:
        return f"Reviews({len(self)} labels of {len(self._by_sample)} samples)"

    def for_sample(self, query_id: str) -> dict[tuple, Review]:
        """One sample's latest reviews by (kind, claim, doc_id) (empty when it has none)."""
        return dict(self._by_sample.get(query_id, {}))

    @property
    def reviewers(self) -> list[str]:
        """The names of those who gave a plain review (not an adjudication), sorted; "" for unnamed."""
        return sorted({r.reviewer for r in self.history if not r.adjudicated})

    @property
    def adjudications(self) -> dict[tuple, Review]:
        """The latest adjudication per label key (none for a label never adjudicated)."""
        return {r.key: r for r in self.history if r.adjudicated}

    def of_reviewer(self, name: str) -> "Reviews":
        """``name``'s plain reviews (the latest per label is theirs; adjudications left out)."""
        return Reviews(r for r in self.history if r.reviewer == name and not r.adjudicated)

    def resolved(self, use: str = "adjudicated") -> "Reviews":
        """The reviews in force for ``use``: "adjudicated" (these reviews: per label the latest
        adjudication, else the latest review of anyone), or a reviewer's name (that reviewer's own
        labels, :meth:`of_reviewer`: no one else's, no adjudication). An unknown name is an
        InputError listing the reviewers."""
        if not isinstance(use, str):
            raise InputError(f"must be 'adjudicated' or a reviewer's name, not {use!r}", field="use")
        if use == "adjudicated":
            return self
        if use not in self.reviewers:
            names = ", ".join(map(repr, self.reviewers)) or "none"
            raise InputError(f"no reviewer {use!r}; the reviewers are {names} (or use='adjudicated')", field="use")
        return self.of_reviewer(use)

    @property
    def query_ids(self) -> list[str]:
        """The samples with any review, in the order first seen."""
        return list(self._by_sample)

    def to_frame(self):
        """One row per latest review, one column per field (None where absent)."""
        import pandas as pd
        return pd.DataFrame([{name: getattr(r, name) for name in FIELDS} for r in self], columns=list(FIELDS))


class ReviewLog(AppendLog):
    """An append-only reviews file (:class:`~ragwidgets.jsonl_log.AppendLog`): ``append`` writes one
    JSON line, then fsync; a review it returns (acknowledged) is on disk, and every later read
    gives it. Opening reads what is there (:meth:`Reviews.read`); ``reviews`` is everything read
    and appended since. An append that fails (a full disk) raises and is not acknowledged."""

    what = "review"

    def __init__(self, path):
        super().__init__(path, Review.from_json)
        self._reviews = Reviews.read(self.path) if os.path.exists(self.path) else Reviews()

    @property
    def reviews(self) -> Reviews:
        return self._reviews

    def append(self, review: Review | Mapping) -> Review:
        """Write one review (a Review or its JSON object) as a line, durably; returns the Review."""
        if not isinstance(review, Review):
            review = Review.from_json(review, "review")
        self.write_lines([review.to_json()])
        self._reviews = Reviews(self._reviews.history + (review,))
        return review


def read_noting(path) -> tuple[Reviews, list[str]]:
    """The reviews of a file and the warnings that reading it gave (a damaged line's each), for a
    command line to print."""
    return jsonl_read_noting(lambda: Reviews.read(path))


def as_reviews(obj) -> Reviews:
    """Reviews from a path of a JSONL file (str / PathLike), Reviews, a ReviewLog, a DataFrame, or an
    iterable of Review objects or dicts."""
    if isinstance(obj, Reviews):
        return obj
    if isinstance(obj, ReviewLog):
        return obj.reviews
    if isinstance(obj, (str, os.PathLike)):
        return Reviews.read(obj)
    if isinstance(obj, Review):
        return Reviews([obj])
    if hasattr(obj, "to_dict") and hasattr(obj, "columns"):  # a DataFrame
        return Reviews.from_records(obj.to_dict("records"))
    if isinstance(obj, Iterable) and not isinstance(obj, (bytes, Mapping)):
        return Reviews.from_records(obj)
    raise TypeError(f"reviews are a path, Reviews, a ReviewLog, a DataFrame or Review objects / dicts, "
                    f"not {type(obj).__name__}")


@dataclass(frozen=True)
class ReviewProblem:
    """A review that does not match its sample (and so was not applied), with why."""

    review: Review
    reason: str

    def __str__(self) -> str:
        r = self.review
        passage = f" doc_id {r.doc_id!r}" if r.doc_id is not None else ""
        return f"review of query_id {r.query_id!r} {r.kind} claim {r.claim}{passage}: {self.reason}"


@dataclass(frozen=True)
class Applied:
    """What :func:`apply_reviews` made: the samples (reviewed where a review applied), the reviews
    that did not apply, and how many did."""

    samples: list[Sample]
    problems: list[ReviewProblem]
    applied: int


def _claims(sample: Sample, kind: str):
    return sample.response_claims if kind in RESPONSE_KINDS else sample.gt_claims


def locate(sample: Sample, review: Review, ranks: Mapping[str, int] | None = None
           ) -> tuple[tuple[int, ...] | None, str | None]:
    """Where ``review`` goes in its label matrix of ``sample`` (a cell index), or why it does not
    match. ``ranks``: doc_id -> passage index of the sample (found here when not given)."""
    if review.query_id != sample.query_id:
        return None, f"it is not about this sample (query_id {sample.query_id!r})"
    if sample.uses_facts:
        return None, "the sample's labels come from fact IDs, not a judge: change the facts instead"
    matrix = getattr(sample, review.kind)
    if matrix is None:
        return None, f"the sample carries no {review.kind} labels"
    claims = _claims(sample, review.kind)
    side = "response" if review.kind in RESPONSE_KINDS else "ground-truth"
    if review.claim >= len(claims):
        return None, f"claim index out of range: the sample has {len(claims)} {side} claim(s)"
    if review.claim_text is not None and review.claim_text != claims[review.claim].text:
        return None, f"the claim's text changed: reviewed {review.claim_text!r}, now {claims[review.claim].text!r}"
    if review.kind in PASSAGE_KINDS:
        ranks = {p.doc_id: k for k, p in enumerate(sample.passages)} if ranks is None else ranks
        if review.doc_id not in ranks:
            return None, f"doc_id not among the sample's retrieved passages ({', '.join(map(repr, ranks)) or 'none'})"
        k = ranks[review.doc_id]
        if review.passage_sha is not None and review.passage_sha != (now := passage_sha(sample.passages[k].text)):
            return None, f"the passage's text changed: reviewed {review.passage_sha}, now {now} (passage_sha)"
        return (review.claim, k), None
    return (review.claim,), None


def match(sample: Sample, reviews: Mapping[tuple, Review]) -> tuple[list[tuple[Review, tuple]], list[ReviewProblem]]:
    """The reviews that match ``sample``, each with its cell, and the problems of the others."""
    ranks = {p.doc_id: k for k, p in enumerate(sample.passages)}
    found, problems = [], []
    for review in reviews.values():
        cell, reason = locate(sample, review, ranks)
        if reason is None:
            found.append((review, cell))
        else:
            problems.append(ReviewProblem(review, reason))
    return found, problems


def apply_to_sample(sample: Sample, reviews: Mapping[tuple, Review]) -> tuple[Sample, list[ReviewProblem]]:
    """``sample`` with its reviewed labels set (a new Sample; the input untouched) and the reviews
    that did not match it. ``reviews``: (kind, claim, doc_id) -> Review (:meth:`Reviews.for_sample`)."""
    found, problems = match(sample, reviews)
    return set_labels(sample, found), problems


def set_labels(sample: Sample, found: list[tuple[Review, tuple]]) -> Sample:
    """``sample`` with each (review, cell) of ``found`` set (a new Sample; itself when none)."""
    changed: dict[str, np.ndarray] = {}
    for review, cell in found:
        if review.kind not in changed:
            changed[review.kind] = getattr(sample, review.kind).copy()
        changed[review.kind][cell] = review.code
    return dataclasses.replace(sample, **changed) if changed else sample


def apply_reviews(samples, reviews) -> Applied:
    """Every sample with its reviews applied (pure), the reviews that did not apply (those of a
    query_id no sample has included) and how many did."""
    reviews = as_reviews(reviews)
    out, problems, applied, seen = [], [], 0, set()
    for sample in samples:
        mine = reviews.for_sample(sample.query_id)
        seen.add(sample.query_id)
        if mine:
            sample, wrong = apply_to_sample(sample, mine)
            problems += wrong
            applied += len(mine) - len(wrong)
        out.append(sample)
    problems += gone(reviews, seen)
    return Applied(out, problems, applied)


def gone(reviews: Reviews, present) -> list[ReviewProblem]:
    """A problem for each review whose query_id is not among ``present``."""
    return [ReviewProblem(r, "no sample with this query_id (the sample is gone)")
            for qid in reviews.query_ids if qid not in present for r in reviews.for_sample(qid).values()]


def reviewed_cells(sample: Sample, reviews_for_sample: Mapping[tuple, Review]) -> dict[str, np.ndarray]:
    """Per label matrix the sample carries: True where a review applies (confirming the judge's
    label counts), same shape as the matrix."""
    out = {kind: np.zeros(getattr(sample, kind).shape, dtype=bool) for kind in KINDS
           if getattr(sample, kind) is not None}
    for review, cell in match(sample, reviews_for_sample)[0]:
        out[review.kind][cell] = True
    return out


def warn_problems(problems: list[ReviewProblem]) -> None:
    """One InputWarning naming how many reviews did not apply and the first (nothing when none),
    pointed at the first caller outside ragwidgets."""
    if problems:
        level, frame = 1, sys._getframe(0)
        while frame is not None and frame.f_globals.get("__name__", "").startswith("ragwidgets"):
            frame, level = frame.f_back, level + 1
        warnings.warn(f"{len(problems)} review(s) not applied; the first: {problems[0]}", InputWarning,
                      stacklevel=level)
