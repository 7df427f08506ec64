"""One sample's reviews, as the sample view holds them: :class:`SampleReview`.

It keeps the judge's sample, the reviews in force for it (``(kind, claim, doc_id) -> Review``,
those that match it; the others are :class:`~ragwidgets.reviews.ReviewProblem`) and the sample
with them applied, which the view explains. A review action names a label matrix (``kind``), a
claim (0-based, in that matrix's claim list), a label spelling (None: confirm the judge's label
as it is) and, for a passage kind, a ``doc_id`` (None: every passage of the row, e.g. "not
supported by any passage" is a passage kind's row set to Neutral).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ..errors import InputError
from ..model import LABEL_CODES, Sample
from ..reviews import (KINDS, PASSAGE_KINDS, RESPONSE_KINDS, SPELLING, Review, ReviewProblem, apply_to_sample, now,
                       passage_sha)

ROW_PREFIX = {"answer2response": "R", "retrieved2response": "R", "response2answer": "G", "retrieved2answer": "G"}
# The order a keyboard review walks a sample's labels: the claim tables' rows, then the matrix's cells.
REVIEW_ORDER = ("answer2response", "response2answer", "retrieved2response", "retrieved2answer")


class SampleReview:
    """The judge's sample, the reviews in force for it and the reviewed sample (see the module docstring)."""

    def __init__(self, judged: Sample, reviews: Mapping[tuple, Review] | None = None):
        self.judged = judged
        self.doc_ids = [p.doc_id for p in judged.passages]
        self.reviews: dict[tuple, Review] = {}
        self.problems: list[ReviewProblem] = []
        self.sample = judged
        self.version = 0  # counts the changes to the reviewed labels
        if reviews:
            self.add(list(reviews.values()))

    @property
    def kinds(self) -> list[str]:
        """The label matrices this sample carries (the ones that can be reviewed)."""
        return [k for k in KINDS if getattr(self.judged, k) is not None]

    def _error(self, field: str, message: str) -> InputError:
        return InputError(message, sample=f"sample {self.judged.query_id!r}", field=field)

    def make(self, kind: str, claim: int, label: str | None, doc_id: str | None = None, *,
             reviewer: str = "", note: str = "") -> list[Review]:
        """The reviews one action gives (InputError naming the sample and field when it does not
        fit this sample): one label, or every passage of the row when ``doc_id`` is None for a
        passage kind; ``label`` None confirms the judge's label of each cell. A label with an
        adjudication in force is refused (a plain review would never take effect over it)."""
        if kind not in self.kinds:
            raise self._error("kind", f"must be one of {', '.join(self.kinds) or 'none (no labels)'}, "
                             f"not {kind!r:.80}")
        claims = self.judged.response_claims if kind in RESPONSE_KINDS else self.judged.gt_claims
        if isinstance(claim, bool) or not isinstance(claim, (int, np.integer)) or not 0 <= claim < len(claims):
            raise self._error("claim", f"must be a claim index from 0 to {len(claims) - 1}, "
                             f"not {claim!r:.80}")
        claim = int(claim)
        if label is not None and (not isinstance(label, str) or label.strip().capitalize() not in LABEL_CODES):
            raise self._error("label", f"must be one of {', '.join(LABEL_CODES)} (or None: confirm "
                             f"the judge's label), not {label!r:.80}")
        if kind in PASSAGE_KINDS:
            if doc_id is not None and doc_id not in self.doc_ids:
                raise self._error("doc_id", f"not a passage of this sample: {doc_id!r:.80}")
            columns = range(len(self.doc_ids)) if doc_id is None else [self.doc_ids.index(doc_id)]
            cells = [((claim, k), self.doc_ids[k]) for k in columns]
        elif doc_id is not None:
            raise self._error("doc_id", f"{kind} labels are not per passage; doc_id must be None")
        else:
            cells = [((claim,), None)]
        decided = next((r for cell, d in cells if (r := self.reviews.get((kind, claim, d))) is not None
                        and r.adjudicated), None)
        if decided is not None:
            where = f"{ROW_PREFIX[kind]}{claim + 1}{' × ' + decided.doc_id if decided.doc_id else ''}"
            raise self._error("label", f"{where} is decided by {decided.reviewer or 'an adjudicator'} (adjudicated): "
                              f"change it in the Adjudicate tab")
        judged = getattr(self.judged, kind)
        time, text = now(), claims[claim].text
        out = []
        for cell, d in cells:
            judge = SPELLING.get(int(judged[cell]))  # None: unjudged
            given = judge if label is None else label.strip().capitalize()
            if given is None:
                raise self._error("label", f"{ROW_PREFIX[kind]}{claim + 1}"
                                 f"{' × ' + d if d else ''} is unjudged: there is no judge's label to confirm")
            out.append(Review(self.judged.query_id, kind, claim, given, doc_id=d, judge_label=judge,
                              claim_text=text, reviewer=reviewer, time=time, note=note,
                              passage_sha=None if d is None else passage_sha(self.judged.passages[cell[1]].text)))
        return out

    def add(self, reviews: list[Review]) -> list[ReviewProblem]:
        """Put ``reviews`` in force (a later one for the same label wins, except over an
        adjudication, as in :class:`~ragwidgets.reviews.Reviews`) and re-apply; returns the ones
        that do not match this sample (kept in ``problems``, not applied)."""
        candidate = dict(self.reviews)
        for r in reviews:
            held = candidate.get(r.key[1:])
            if held is None or r.adjudicated or not held.adjudicated:
                candidate[r.key[1:]] = r
        sample, problems = apply_to_sample(self.judged, candidate)
        wrong = {p.review.key[1:] for p in problems}
        self.reviews = {k: r for k, r in candidate.items() if k not in wrong}
        self.problems += problems
        self.sample = sample
        self.version += 1
        return problems

    def row_labels(self, kind: str, claim: int) -> dict | None:
        """A per-claim label as the view shows it: {"judge": code, "label": code, "reviewed": bool}
        (codes as model.LABEL_CODES, -1 unjudged); None when the sample has no such labels."""
        judged = getattr(self.judged, kind)
        if judged is None:
            return None
        r = self.reviews.get((kind, claim, None))
        return {"judge": int(judged[claim]), "label": int(LABEL_CODES[r.label]) if r else int(judged[claim]),
                "reviewed": r is not None}

    def unreviewed(self, kinds=KINDS) -> dict:
        """Per label matrix of ``kinds`` this sample carries, in REVIEW_ORDER: its first label no
        review in force covers, as a review target ``{"kind", "claim", "doc_id"}`` (claims first,
        then passages by rank), or None when every one is reviewed: the label a keyboard review
        goes to next."""
        out = {}
        for kind in REVIEW_ORDER:
            labels = getattr(self.judged, kind) if kind in kinds else None
            if labels is None:
                continue
            out[kind] = None
            docs = self.doc_ids if kind in PASSAGE_KINDS else [None]
            for claim in range(labels.shape[0]):
                d = next((d for d in docs if (kind, claim, d) not in self.reviews), False)
                if d is not False:
                    out[kind] = {"kind": kind, "claim": claim, "doc_id": d}
                    break
        return out

    def reviewed_cells(self) -> list[list[int]]:
        """The matrix cells under review as [row, column, judge's code] (rows: response claims then
        ground-truth claims, as the view's matrix; the cells buffer holds the reviewer's code)."""
        offset = {"retrieved2response": 0,
                  "retrieved2answer": 0 if self.judged.retrieved2response is None else len(self.judged.response_claims)}
        out = []
        for (kind, claim, doc_id), _ in self.reviews.items():
            if kind in PASSAGE_KINDS:
                k = self.doc_ids.index(doc_id)
                out.append([offset[kind] + claim, k, int(getattr(self.judged, kind)[claim, k])])
        return sorted(out)
