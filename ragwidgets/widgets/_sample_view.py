"""One sample's views as a piece any widget can hold: :class:`SampleView`.

It keeps one sample's view state (passages in play, selection, predict-then-reveal, the
empty-case mode), explains it with the engine once per state and builds the view dict that the
front end's sample view draws (``js/src/sample_view.js``: ``mountSampleView(el, {view, send})``).
SampleExplorer wraps one per sample; DatasetExplorer embeds one for its drill-down.

The contract (kept stable):

- ``SampleView(sample, undefined="null")``; ``.sample``; ``.explanation``; ``.metrics``.
- ``.view(**labels) -> dict``: everything the front end draws, JSON-ready except
  ``view["matrix"]["cells"]``, the claims x passages labels as ``bytes`` (int8, row-major: response
  rows then ground-truth rows; 1 entails, 0 does not mention, 2 contradicts, -1 unjudged). ``.payload()`` gives
  it as a :class:`~ragwidgets.widgets.base.View` (the JSON without the cells, and the cells), the
  value of a view trait.
- The front end reports each user action as ``send(patch)``: a dict of state fields with their
  new values, applied together by ``.apply(patch)``. Fields: ``retrieved`` (doc_ids in play),
  ``selected`` (``claim:R1``, ``gt:G1``, ``source:D1`` or ""), ``predict`` (bool),
  ``predictions`` ({metric: text}), ``undefined`` ("null" | "zero"). A bad patch raises
  ValueError naming the sample and the field.
- Reviews (``SampleView(sample, reviews={(kind, claim, doc_id): Review}, reviewable=True)``):
  ``.review(kind, claim, label, doc_id=None, ...)`` puts a reviewer's label in force
  (:class:`~ragwidgets.widgets._sample_review.SampleReview`); the view then explains the reviewed
  sample and carries ``view["review"]`` (what changed against the judge's labels: ``line``, e.g.
  "Faithfulness 0.6 → 0.8 after 2 reviews"), each claim's and ground-truth claim's ``review``
  label (judge's and in force) and ``matrix["reviewed"]`` (the cells under review, with the
  judge's code). ``.judged`` is the judge's sample, ``.sample`` the reviewed one.
"""

from __future__ import annotations


import numpy as np

from ..engine import evaluate
from ..engine.batch import Batch
from collections.abc import Mapping

from ..engine.explain import SampleExplanation
from ..engine.metrics import format_value, metric_label
from ..model import Sample
from ..reviews import Review
from .base import View, encode_view
from ._sample_review import SampleReview
from ._view import build_view, selectable, show_id

FIELDS = ("retrieved", "selected", "predict", "predictions", "undefined")
UNDEFINED_MODES = {"null": "Undefined (honest)", "zero": "0 (ragchecker 0.1.9)"}


class SampleView:
    """One sample's view state and the view dict it makes; see the module docstring."""

    def __init__(self, sample: Sample, undefined: str = "null", reviews: Mapping[tuple, Review] | None = None,
                 reviewable: bool = False):
        self.reviewed = SampleReview(sample, reviews)
        self.reviewable = reviewable or bool(reviews)
        self.doc_ids = [p.doc_id for p in sample.passages]
        self._batch, self._batch_version = Batch.from_samples([self.sample]), self.reviewed.version
        self._judge_batch = self._batch if self.sample is sample else Batch.from_samples([sample])
        self.retrieved: list[str] = list(self.doc_ids)
        self.selected = ""
        self.predict = False
        self.predictions: dict[str, str] = {}
        self.undefined = self._check("undefined", undefined)
        self._explained = None  # the (state key, review version) self._explanation belongs to
        self._explanation: SampleExplanation | None = None
        self._judge_explained = None  # the state key self._judge_explanation belongs to
        self._judge_explanation: SampleExplanation | None = None
        self._presets = [("All passages", "Every retrieved passage in play.", list(self.doc_ids)),
                         ("No passages", "Nothing retrieved: retriever metrics become Undefined.", [])]
        if sample.retrieved2answer is not None:
            useful = [d for k, d in enumerate(self.doc_ids) if (sample.retrieved2answer[:, k] == 1).any()]
            self._presets.append(("Only useful", "Only passages that entail a ground-truth claim.", useful))

    # -- state --------------------------------------------------------------------------------
    def _where(self, field: str) -> str:
        return f"sample {self.sample.query_id!r}, field {field!r}"

    def _check(self, field: str, value):
        """``value`` for ``field`` as the state holds it, or ValueError naming sample and field."""
        if field == "retrieved":
            if isinstance(value, str) or not hasattr(value, "__iter__"):
                raise ValueError(f"{self._where(field)}: expected a list of doc_ids, got {value!r:.80}")
            given = list(value)
            unknown = [d for d in given if d not in self.doc_ids]
            if unknown:
                raise ValueError(f"{self._where(field)}: not a passage of this sample: "
                                 f"{', '.join(map(str, unknown))[:200]}")
            given = set(given)
            return [d for d in self.doc_ids if d in given]  # rank order
        if field == "selected":
            if not isinstance(value, str):
                raise ValueError(f"{self._where(field)}: expected a string, got {value!r:.80}")
            return value
        if field == "predict":
            if not isinstance(value, bool):
                raise ValueError(f"{self._where(field)}: expected true or false, got {value!r:.80}")
            return value
        if field == "predictions":
            if not isinstance(value, dict):
                raise ValueError(f"{self._where(field)}: expected {{metric: text}}, got {value!r:.80}")
            return {str(k): str(v) for k, v in value.items()}
        if field == "undefined":
            if value not in UNDEFINED_MODES:
                raise ValueError(f"{self._where(field)}: must be 'null' or 'zero', not {value!r:.80}")
            return value
        raise ValueError(f"{self._where(field)}: unknown field; known: {', '.join(FIELDS)}")

    def apply(self, patch: dict) -> None:
        """Apply a front-end action (a dict of state fields) in one step, all or nothing."""
        checked = {field: self._check(field, value) for field, value in dict(patch).items()}
        for field, value in checked.items():
            setattr(self, field, value)

    def state_key(self) -> tuple:
        return (self.undefined, tuple(self.retrieved))

    @property
    def sample(self) -> Sample:
        """The sample as the view explains it: the judge's labels with the reviews in force."""
        return self.reviewed.sample

    @property
    def judged(self) -> Sample:
        """The sample with the judge's labels only."""
        return self.reviewed.judged

    def _explain(self, batch: Batch) -> SampleExplanation:
        in_play = set(self.retrieved)
        active = np.array([d in in_play for d in self.doc_ids], dtype=bool)
        return evaluate(batch, undefined=self.undefined, passage_active=active).explain(0)

    @property
    def explanation(self) -> SampleExplanation:
        """The engine's explanation of the current passages, mode and reviews (computed once per
        state; new passages or mode clear stale predictions, and a selection that no longer exists)."""
        key = (self.state_key(), self.reviewed.version)
        if key != self._explained:
            if self._explained is not None and self._explained[0] != key[0]:
                self.predictions = {}
            if self._batch_version != self.reviewed.version:
                self._batch, self._batch_version = Batch.from_samples([self.sample]), self.reviewed.version
            self._explanation = self._explain(self._batch)
            self._explained = key
        if self.selected and self.selected not in selectable(self._explanation):
            self.selected = ""
        return self._explanation

    @property
    def judge_explanation(self) -> SampleExplanation:
        """The explanation under the judge's labels only (the same passages and mode)."""
        if not self.reviewed.reviews:
            return self.explanation
        key = self.state_key()
        if key != self._judge_explained:
            self._judge_explanation = self._explain(self._judge_batch)
            self._judge_explained = key
        return self._judge_explanation

    def review(self, kind: str, claim: int, label: str | None, doc_id: str | None = None, *,
               reviewer: str = "", note: str = "") -> list[Review]:
        """Put a reviewer's label in force (see :meth:`SampleReview.make`: ``label`` None confirms
        the judge's, ``doc_id`` None on a passage kind is the whole row); returns the reviews
        made. ValueError naming the sample and field when the action does not fit the sample."""
        made = self.reviewed.make(kind, claim, label, doc_id, reviewer=reviewer, note=note)
        self.reviewed.add(made)
        return made

    def changes(self) -> list[dict]:
        """The computable metrics whose value under the reviews differs from the judge's labels'."""
        ex, judge = self.explanation, self.judge_explanation
        out = []
        for name, m in ex.metrics.items():
            before = judge.metrics[name].value
            if m.status != "not computable" and before != m.value:
                out.append({"name": name, "label": metric_label(name), "before": format_value(before), "after": format_value(m.value)})
        return out

    def _review_view(self) -> dict:
        changes = self.changes()
        n = len(self.reviewed.reviews)
        line = ""
        if n:
            what = ", ".join(f"{c['label']} {c['before']} → {c['after']}" for c in changes) or "no metric changed"
            line = f"{what} after {n} review{'s' if n != 1 else ''}"
        return {"count": n, "changes": changes, "line": line, "kinds": self.reviewed.kinds,
                "problems": [str(p) for p in self.reviewed.problems[:20]], "traces": False, "queue": None}

    @property
    def metrics(self) -> dict[str, float | None]:
        """Every computable metric: a float, or None for Undefined."""
        return {n: m.value for n, m in self.explanation.metrics.items() if m.status != "not computable"}

    def controls(self) -> dict:
        """The sample's controls: the empty-case mode; the top-k control (``value`` None when the
        passages in play are not the first k); presets; Reset. A holder may add ``picker``
        (SampleExplorer's: the current sample of several, searched through a message)."""
        n = len(self.retrieved)
        top = n if self.retrieved == self.doc_ids[:n] else None
        mode = {"trait": "undefined", "label": "Empty cases", "options": list(UNDEFINED_MODES),
                "option_labels": list(UNDEFINED_MODES.values()), "value": self.undefined}
        return {"kind": "sample", "selects": [mode], "edited": "",
                "top_k": {"value": top, "max": len(self.doc_ids)},
                "presets": [{"name": name, "note": note, "set": {"retrieved": r},
                             "active": self.retrieved == r} for name, note, r in self._presets],
                "reset": {"retrieved": list(self.doc_ids), "selected": ""}}

    def view(self, *, title: str | None = None) -> dict:
        """The view dict for the current state (see the module docstring)."""
        ex = self.explanation
        s = self.sample
        off = len(self.doc_ids) - len(self.retrieved)
        view = build_view(
            ex, s, kind="sample", title=title or f"Sample {show_id(s.query_id)}", question=s.query,
            answer_text=s.response, gt_answer=s.gt_answer, fact_texts={}, controls=self.controls(),
            state_label=f"sample {show_id(s.query_id)}" + (f" · {off} passage(s) switched off" if off else "")
            + (" · empty cases as 0" if self.undefined == "zero" else ""),
            selected=self.selected, predict=self.predict, predictions=self.predictions,
            citation_first=s.is_citation_sample)
        if self.reviewable:
            self._add_review(view)
        return view

    def _add_review(self, view: dict) -> None:
        """The review parts of the view (see the module docstring)."""
        r = self.reviewed
        view["review"] = self._review_view()
        before = {c["name"]: c["before"] for c in view["review"]["changes"]}
        for group in view["card_groups"]:
            for c in group["cards"]:
                c["judge_shown"] = before.get(c["name"])
        for j, c in enumerate(view["claims"]):
            c["review"] = r.row_labels("answer2response", j)
        for j, g in enumerate(view["gt_claims"]):
            g["review"] = r.row_labels("response2answer", j)
        if view["matrix"] is not None:
            view["matrix"]["reviewed"] = r.reviewed_cells()

    def payload(self, **labels) -> View:
        """``view(**labels)`` as a view trait's value."""
        return encode_view(self.view(**labels))
