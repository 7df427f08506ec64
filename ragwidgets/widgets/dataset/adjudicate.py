"""The adjudication panel (``js/src/dataset/adjudicate.js``): with two or more reviewers, the
labels they disagree on (:func:`ragwidgets.analysis.team.disagreements`: each reviewer's label,
the claim's text, the decision so far) and the decision on one (``adjudicate``): a review with
``adjudicated`` true, by the explorer's reviewer, appended to the reviews file and put in force."""

from __future__ import annotations

import dataclasses
import warnings

import pandas as pd

from ...analysis.runs import require
from ...analysis.team import KEY, disagreements
from ...errors import InputWarning
from ...model import LABEL_MATRICES, LABEL_SPELLINGS
from ...reviews import RESPONSE_KINDS, Reviews, now
from .common import REVIEWED, Context, Panel, text, whole

SHOWN = 500  # the disagreements the view lists (the first, in the order first reviewed)


class AdjudicatePanel(Panel):
    """The labels the reviewers disagree on (``adjudicate`` in the view; None with fewer than two
    reviewers in every run, or a run that cannot review) and the decisions on them."""

    key = "adjudicate"
    requests = {"adjudicate": REVIEWED}

    def __init__(self, model):
        super().__init__(model)
        self._view: dict | None = None  # found again after each review
        self._rows: dict | None = None  # (run, query_id) -> its row of the model's frame

    def reviewed(self, ctx: Context) -> None:
        self._view = None

    def part(self, ctx: Context, view: dict) -> dict:
        if "reviews" not in self.model.capabilities:
            return {"adjudicate": None}
        if self._view is None:
            self._view = self._disagreements()
        return {"adjudicate": self._view or None}

    def _per_run(self) -> dict:
        reviews = self.model.reviews
        return reviews if isinstance(reviews, dict) else {self.model.runs[0]: reviews}

    def _row_of(self, run: str, query_id: str) -> int:
        if self._rows is None:
            frame = self.model.frame
            self._rows = {(r, q): i for i, (r, q) in enumerate(zip(frame["run"], frame["query_id"]))}
        return self._rows.get((run, query_id), -1)

    def _claim_text(self, row: int, kind: str, claim: int) -> str:
        """The text of claim ``claim`` of the ``kind`` label's side in the sample at ``row`` ("" when gone)."""
        if row < 0:
            return ""
        sample = self.model.sample(row)
        claims = sample.response_claims if kind in RESPONSE_KINDS else sample.gt_claims
        return claims[claim].text if 0 <= claim < len(claims or ()) else ""

    def _disagreements(self) -> dict:
        """Per run with two or more reviewers, the first SHOWN labels they disagree on: the
        label's key, the claim's text, each reviewer's label, the decision, the sample's row;
        how many there are and are decided, and the query_ids of all."""
        rows, reviewers, total, decided, query_ids = [], [], 0, 0, {}
        several = len(self.model.runs) > 1
        for run, reviews in self._per_run().items():
            if len(reviews.reviewers) < 2:
                continue
            frame = disagreements(reviews)
            reviewers += [n for n in reviews.reviewers if n not in reviewers]
            total += len(frame)
            decided += int(frame["adjudicated"].notna().sum())
            query_ids.update(dict.fromkeys(frame["query_id"]))
            for d in frame.head(max(SHOWN - len(rows), 0)).to_dict("records"):
                row = self._row_of(run, d["query_id"])
                rows.append({"run": run if several else "", **{k: d[k] for k in KEY},
                             "claim_text": self._claim_text(row, d["kind"], d["claim"]), "row": row,
                             "labels": d["labels"], "adjudicated": d["adjudicated"]})
        if not reviewers:
            return {}
        return {"reviewers": reviewers, "rows": rows, "total": total, "decided": decided,
                "query_ids": list(query_ids)}

    def on_adjudicate(self, ctx: Context, message: dict) -> dict:
        """Record the decision ``label`` on one disagreement (``run``, ``query_id``, ``kind``,
        ``claim``, ``doc_id``): ``{"said"}``."""
        doc_id = message.get("doc_id")
        made = self.adjudicate(ctx, message.get("run") or "", text(message, "query_id"), text(message, "kind"),
                               message.get("claim"), doc_id if doc_id else None, text(message, "label"))
        return {"said": f"Decided {made.label} for {made.kind} claim {made.claim + 1} of sample {made.query_id}"}

    def adjudicate(self, ctx: Context, run: str, query_id: str, kind: str, claim, doc_id: str | None, label: str):
        """The adjudicated Review of one label the reviewers disagree on, appended to the run's
        reviews file and put in force (ValueError for a label that is not among the disagreements,
        or a label that is not Entailment / Neutral / Contradiction)."""
        require(self.model, "reviews")
        if kind not in LABEL_MATRICES:
            raise ValueError(f"kind must be one of {', '.join(LABEL_MATRICES)}, not {kind!r:.80}")
        claim = whole(claim, "claim", 0, None)
        if doc_id is not None and not isinstance(doc_id, str):
            raise ValueError(f"doc_id must be a passage's id or None, not {doc_id!r:.80}")
        if label not in LABEL_SPELLINGS:
            raise ValueError(f"label must be one of {', '.join(LABEL_SPELLINGS)}, not {label!r:.80}")
        per_run = self._per_run()
        name = run or self.model.runs[0]
        if name not in per_run:
            raise ValueError(f"run must be one of {', '.join(map(repr, per_run))}, not {run!r:.80}")
        reviews = per_run[name]
        key = (query_id, kind, claim, doc_id)
        frame = disagreements(reviews)
        if not ((frame["query_id"] == query_id) & (frame["kind"] == kind) & (frame["claim"] == claim)
                & pd.Series([d == doc_id for d in frame["doc_id"]], index=frame.index, dtype=bool)).any():
            raise ValueError(f"{kind} claim {claim!r:.20} of sample {query_id!r:.80}"
                             f"{f' × {doc_id!r:.80}' if doc_id else ''} is not a label the reviewers disagree on")
        given = [r for r in reviews.history if r.key == key and not r.adjudicated][-1]
        made = dataclasses.replace(given, label=label, adjudicated=True, reviewer=ctx.reviewer, time=now(), note="")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", InputWarning)  # the reviewers' own review of it matched
            self.model.review(Reviews([made]), run=name if len(self.model.runs) > 1 else None)
        return made
